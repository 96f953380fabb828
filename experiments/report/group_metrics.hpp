// The numbers a report reads off a group (experiments/report/aggregate.hpp): its metrics, the
// metrics derived from its bound rows, and the points of a final plot.
//
// Metrics usable in plots, claims and published rows, besides the cells' own results and
// "seconds":
//   "bound:<id>"          value of the bound with that id (bounds/bound_ids.hpp) in each permutation
//   "bound_ratio:<id>"    that value divided by the empirical count
//   "hard_bound_violations"  applicable hard bounds that do not hold (summed over the group's
//                         permutations; a violation is a bug in a learner, a bound or the record)
//   "bounds_checked"      applicable hard bound evaluations of the group
//   "dataset:<key>"       (plot x/y only) the key=value parameter in the data set's data spec,
//                         e.g. "dataset:flip" of synthetic:dekel:flip=0.1
#pragma once
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// A metric of a group (n = 0 when the group has no value).
Stat metric_of(const Group& g, const std::string& m);

// Numeric parameter `key` of a data spec "synthetic:NAME:k=v,..." (NaN when absent).
double dataset_param(const std::string& data, const std::string& key);

// One point of a final plot's series: means and standard deviations over permutations, unscaled.
struct FinalPoint {
  double x = 0.0, y = 0.0, y_std = 0.0, x_std = 0.0;
  std::size_t n = 0;  // permutations behind y
};
// The points of the groups `sel` selects in data set `ds`, x metric `xm` and y metric `ym`
// (point:K, dataset:K or a metric), sorted by x; groups without a y value are left out.
std::vector<FinalPoint> final_points(const Spec& s, const Selector& sel, const std::string& xm, const std::string& ym,
                                     const std::vector<Group>& groups, const std::string& ds);

}  // namespace plab
