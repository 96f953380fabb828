#include "external.hpp"

#include <pybind11/stl.h>

#include <numeric>
#include <stdexcept>

#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "experiments/run/pipeline.hpp"
#include "run.hpp"

namespace plab::py {

std::string external_bounds(const Dataset& d, const ExternalArgs& a) {
  const std::size_t n = d.size();
  if (a.mistakes.size() != n || a.updates.size() != n)
    throw std::invalid_argument("mistakes and updates need one entry per row of X (" + std::to_string(n) +
                                "), got " + std::to_string(a.mistakes.size()) + " and " +
                                std::to_string(a.updates.size()));
  const auto [k, req] = kernel_and_comparator(a.spec, d);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  const Comparator c = run_comparator(req, d, order, k);  // the comparator perceptron_lab.run attaches
  std::vector<RoundRecord> rounds(n);
  for (std::size_t t = 0; t < n; ++t) {
    RoundRecord& r = rounds[t];
    r.t = static_cast<int64_t>(t + 1);
    r.index = static_cast<int64_t>(t);
    r.y = d[t].y;
    r.score = kNone;  // not read for an external learner (docs/bounds.md#external)
    r.kxx = k.self(d[t].sqnorm);
    r.mistake = a.mistakes[t];
    r.update = a.updates[t] ? UpdateKind::update : UpdateKind::none;
    r.g = c.scores[t];
  }
  RunFacts facts;
  facts.algo = kExternalAlgo;
  facts.options.kernel = k;
  facts.comparator = c.name;
  facts.g_norm = c.norm;
  if (a.f_norm2) facts.f_norm2_exact = *a.f_norm2;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : evaluate_bounds(rounds, facts)) out.push_back(to_json(b));
  return out.dump();
}

void bind_external(pybind11::module_& m) {
  pybind11::class_<ExternalArgs>(m, "ExternalArgs")
      .def(pybind11::init<>())
      .def_readwrite("spec", &ExternalArgs::spec)
      .def_readwrite("mistakes", &ExternalArgs::mistakes)
      .def_readwrite("updates", &ExternalArgs::updates)
      .def_readwrite("f_norm2", &ExternalArgs::f_norm2);
  m.def("external_bounds", [](const Dataset& d, const ExternalArgs& a) {
    return without_gil([&] { return external_bounds(d, a); });
  });
}

}  // namespace plab::py
