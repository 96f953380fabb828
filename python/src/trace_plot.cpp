#include "trace_plot.hpp"

#include <pybind11/stl.h>

#include <memory>

#include "bounds/prefix_bounds.hpp"
#include "core/json_text.hpp"
#include "experiments/run/trace.hpp"
#include "experiments/run/trace_names.hpp"
#include "record.hpp"

namespace plab::py {

std::string bound_points_json(const std::vector<RoundRecord>& rounds, const RunFacts& facts) {
  nlohmann::json j = nlohmann::json::array();
  for (const BoundPoint& p : prefix_bound_points(rounds, facts)) j.push_back(to_json(p));
  return j.dump();
}

namespace {

// A trace written by `plab run --trace` (or Result.trace_csv), read with every check of `plab bounds --trace`.
struct TraceFile {
  Trace tr;
};

}  // namespace

void bind_trace_plot(pyb::module_& m) {
  pyb::class_<TraceFile, std::shared_ptr<TraceFile>>(m, "TraceFile")
      .def("meta_json", [](const TraceFile& f) { return f.tr.meta.dump(); })
      .def("trace_arrays", [](const TraceFile& f) { return record_arrays(f.tr.rounds); })
      .def("bound_points_json", [](const TraceFile& f) { return bound_points_json(f.tr.rounds, trace_facts(f.tr)); })
      .def("no_bound_reason",
           [](const TraceFile& f) { return no_drawn_bound_reason(evaluate_bounds(f.tr.rounds, trace_facts(f.tr))); });
  // bounds: read for its bounds (a run that kept no norms is refused, as by plab bounds --trace).
  m.def("read_trace", [](const std::string& path, bool bounds) {
    auto f = std::make_shared<TraceFile>();
    {
      pyb::gil_scoped_release nogil;
      f->tr = read_trace(path, bounds ? TraceUse::bounds : TraceUse::curves);
    }
    return f;
  }, pyb::arg("path"), pyb::arg("bounds"));
  m.def("trace_label", [](const std::string& meta_json) { return trace_label(parse_json(meta_json)); });
  m.def("no_support_reason", [](const std::string& meta_json) { return no_support_reason(parse_json(meta_json)); });
}

}  // namespace plab::py
