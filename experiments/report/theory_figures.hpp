// Report-level mechanisms behind the theory figures T1-T7 (docs/conventions.md#theory-figures), kept
// out of report.cpp which only calls in here; the cell level (a spec's "analysis" block) is
// experiments/cell/analyses.hpp.
// The metrics the figures plot are experiments/report/group_metrics.hpp.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/report/plot.hpp"
#include "experiments/report/aggregate.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

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
