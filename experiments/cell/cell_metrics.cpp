#include "experiments/cell/cell_metrics.hpp"

#include <algorithm>

#include "algorithms/registry.hpp"
#include "experiments/cell/norma_metrics.hpp"

namespace plab {

namespace {

std::vector<CellMetric>& table() {
  static std::vector<CellMetric> t = {
      {"norma", "norma",  // N1-N4 (docs/conventions.md#norma-figures)
       {"margin_error_fraction", "threshold_final", "nu", "nu_gap_abs", "nu_identity_residual", "trunc_removed",
        "max_trunc_norm", "max_trunc_ratio", "trunc_term_bound", "trunc_tail_bound", "trunc_pointwise_bound",
        "untruncated_mistakes", "untruncated_support_size", "untruncated_tail_norm", "untruncated_tail_sup",
        "test_flagged_pos", "test_flagged_neg"},
       add_norma_metrics},
      {"drift", "", {"post_shift_error", "settled_error", "shift_jump"}, add_drift_metrics},  // any learner (N3)
  };
  return t;
}

}  // namespace

const std::vector<CellMetric>& cell_metrics() { return table(); }

void register_cell_metric(CellMetric m) {
  if (m.name.empty() || !m.add || m.keys.empty())
    throw std::invalid_argument("register_cell_metric: a metric needs a name, its keys and a function");
  const auto& t = table();
  if (std::any_of(t.begin(), t.end(), [&](const CellMetric& x) { return x.name == m.name; }))
    throw std::invalid_argument("register_cell_metric: metric '" + m.name + "' is already registered");
  if (!m.learner.empty() && !find_learner(m.learner))
    throw std::invalid_argument("register_cell_metric: metric '" + m.name + "' names unknown learner '" + m.learner + "'");
  table().push_back(std::move(m));
}

void add_cell_metrics(const CellRun& r, nlohmann::json& results) {
  for (const auto& m : table()) {
    if (!m.learner.empty() && m.learner != r.cell.algo) continue;
    const nlohmann::json before = results;
    m.add(r, results);
    for (const auto& [k, v] : results.items())
      if (!before.contains(k) && std::find(m.keys.begin(), m.keys.end(), k) == m.keys.end())
        throw std::logic_error("cell metric " + m.name + " adds result key '" + k + "' it does not declare");
  }
}

}  // namespace plab
