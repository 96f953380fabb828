// Generic mechanisms behind the theory figures T1-T7 (docs/conventions.md#theory-figures), kept out of
// runner.cpp / report.cpp which only call in here.
//
// Cell level — a spec's "analysis" block (every key optional):
//   "o2b": {"delta": 0.05}   CCG online-to-batch selection on a conservative Perceptron run
//       (docs/bounds.md#online-to-batch; experiments/online_to_batch_eval.hpp). Results: o2b_index, o2b_supports,
//       o2b_criterion, o2b_empirical, o2b_risk_bound (M/T + deviation), test_error_ccg (with a test set).
//   "rho_profile": {"comparator": "truth", "svm_C": 1, "rho": [..], "at": rho0}   MR (4) and (8)
//       (all-T and update-round forms, docs/bounds.md#mr4_all_t, docs/bounds.md#mr8_i) at each rho of the grid for the unit
//       comparator; profiles "MR (4) all-T", "MR (8) all-T", "MR (4) I", "MR (8) I" (x = rho) and the
//       results mr4_all_at, mr8_all_at, mr4_I_at, mr8_I_at (at rho0) and profile_violations (number
//       of (rho, bound) pairs below the mistakes: each is a theorem at every rho, so it must be 0).
//
// Report level — metrics usable in plots, claims and published rows:
//   "bound:<id>"          value of the bound with that id (bounds/bound_ids.hpp) in each permutation
//   "bound_ratio:<id>"    that value divided by the empirical count
//   "hard_bound_violations"  applicable hard bounds that do not hold (summed over the group's
//                         permutations; a violation is a bug in a learner, a bound or the record)
//   "bounds_checked"      applicable hard bound evaluations of the group
//   "dataset:<key>"       (plot x/y only) the key=value parameter in the data set's data spec,
//                         e.g. "dataset:flip" of synthetic:dekel:flip=0.1
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"
#include "experiments/plot.hpp"
#include "experiments/aggregate.hpp"
#include "experiments/run.hpp"
#include "experiments/runner.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// {"results": {name: number}, "profiles": {name: {"x": [...], "y": [...]}}} for a finished run.
nlohmann::json run_analyses(const Cell& c, const RunResult& res, const CellData& d,
                            const std::vector<std::size_t>& order, const LearnerOptions& o);

// The derived metrics above; false when `m` is not one of them.
bool derived_metric(const Group& g, const std::string& m, Stat* out);

// Numeric parameter `key` of a data spec "synthetic:NAME:k=v,..." (NaN when absent).
double dataset_param(const std::string& data, const std::string& key);

// Adds a cell document's profiles to its group (one entry per permutation).
void add_profiles(Group& g, const nlohmann::json& doc);

// Series of a plot of type "profile": per series the mean over permutations of the named profile
// against its x, or (series with "metric") that metric as a horizontal line.
std::vector<PlotSeries> profile_series(const FigurePlot& plot, const std::vector<Group>& groups,
                                       const std::string& dataset);

// "dataset id / group name / bound" lines of every violated applicable hard bound.
std::vector<std::string> hard_bound_violations(const std::vector<Group>& groups);

// Figure of kind "table" (T7): for every group of the source figures and every applicable bound,
// the bound divided by the empirical mistakes. Writes <dir>/<FIG>/tightness.csv; returns
// {"rows": [...], "markdown": "..."} (rows name the bound by id, with its display name). The
// spec's TableSpec restricts bounds (ids) and algorithms (learner names).
nlohmann::json tightness_table(const Spec& table_spec, const std::vector<Spec>& specs,
                               const std::vector<std::vector<Group>>& groups, const std::string& dir);

}  // namespace plab
