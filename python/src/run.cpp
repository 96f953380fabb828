#include "run.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "core/json_text.hpp"
#include "core/thread_pool.hpp"
#include "experiments/run/run_job.hpp"
#include "bounds/prefix_bounds.hpp"
#include "experiments/run/trace.hpp"
#include "record.hpp"
#include "trace_plot.hpp"

namespace plab::py {

void check_interrupt() {
  pyb::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw Interrupted{};
}

std::shared_ptr<RunOutcome> run_on(std::shared_ptr<const Dataset> data, const RunArgs& a) {
  auto out = std::make_shared<RunOutcome>();
  out->data = std::move(data);
  const RunConfig config = run_config(a.spec, *out->data, a.bounds, a.shuffle, a.threads);
  const RunJob job{.train = out->data.get(),
                   .observe = [](const RoundRecord& r, const RunResult&) {
                     if (r.t % 4096 == 0) check_interrupt();
                   }};
  const ReadOnlyWhile frozen(*out->data);
  auto [req, rep] = without_gil([&] { return run_configured(config, job); });
  out->req = std::move(req);
  out->rep = std::move(rep);
  return out;
}

void bind_run(pyb::module_& m) {
  pyb::class_<RunArgs>(m, "RunArgs")
      .def(pyb::init<>())
      .def_readwrite("spec", &RunArgs::spec)
      .def_readwrite("shuffle", &RunArgs::shuffle)
      .def_readwrite("bounds", &RunArgs::bounds)
      .def_readwrite("threads", &RunArgs::threads);
  pyb::class_<RunOutcome, std::shared_ptr<RunOutcome>>(m, "RunOutcome")
      .def_property_readonly("mistakes", [](const RunOutcome& o) { return o.rep.run.mistakes; })
      .def_property_readonly("updates", [](const RunOutcome& o) { return o.rep.run.updates; })
      .def_property_readonly("margin_errors", [](const RunOutcome& o) { return o.rep.run.margin_errors; })
      .def_property_readonly("support_size", [](const RunOutcome& o) { return o.rep.run.support_size; })
      .def_property_readonly("seconds", [](const RunOutcome& o) { return o.rep.run.seconds; })
      .def_property_readonly("f_norm2", [](const RunOutcome& o) { return o.rep.learner->norm2(); })
      .def_property_readonly("f_norm2_exact", [](const RunOutcome& o) { return o.rep.f_norm2_exact; })
      .def("meta_json", [](const RunOutcome& o) { return run_meta(o.req, o.rep).dump(); })
      .def("bounds_json", [](const RunOutcome& o) {
        nlohmann::json b = nlohmann::json::array();
        for (const auto& r : o.rep.bounds) b.push_back(to_json(r));
        return b.dump();
      })
      .def("trace_arrays", [](const RunOutcome& o) { return record_arrays(o.rep.run.rounds); })
      .def("bound_points_json", [](const RunOutcome& o) { return bound_points_json(o.rep.run.rounds, o.rep.facts); })
      .def("no_bound_reason", [](const RunOutcome& o) {
        return o.req.bounds ? no_drawn_bound_reason(o.rep.bounds)
                            : std::string("the run was made with bounds=False (no comparator, no bound rows)");
      })
      .def("trace_csv", [](const RunOutcome& o, const std::string& meta_json) {
        return trace_csv(o.rep.run.rounds, meta_json.empty() ? nlohmann::json() : parse_json(meta_json));
      }, pyb::arg("meta_json") = "");
  m.def("run", &run_on, pyb::arg("data"), pyb::arg("args"));
}

}  // namespace plab::py
