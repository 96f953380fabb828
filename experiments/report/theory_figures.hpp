// Report-level mechanisms behind the theory figures T1-T7 (docs/conventions.md#theory-figures), kept
// out of report.cpp which only calls in here; the cell level (a spec's "analysis" block) is
// experiments/cell/analyses.hpp.
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

#include "experiments/report/plot.hpp"
#include "experiments/report/aggregate.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

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
