// Aggregation of finished cells over permutations: one Group per (data set, algorithm, grid
// point) with mean and sample standard deviation of every metric, and group selection by the
// spec's selectors. std is the sample standard deviation (n - 1 in the denominator, MATLAB's
// std), 0 when n = 1.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "experiments/cell/cell.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

struct Stat {
  double mean = 0.0, std = 0.0;
  std::size_t n = 0;
};
Stat mean_std(const std::vector<double>& v);

// One (dataset, algorithm, grid point) over its permutations.
struct Group {
  std::string dataset, algo_id, algo, label;
  std::size_t point_index = 0;
  nlohmann::json point;
  std::map<std::string, std::vector<double>> values;  // metric -> one value per finished perm
  std::map<std::string, Stat> stats;                  // metric -> mean/std
  Stat seconds;
  std::vector<double> t;                              // curve rounds
  std::map<std::string, std::vector<Stat>> curves;    // online_error / support_size per t
  std::vector<std::string> errors;                    // failed permutations
  // Applicable bounds keyed by bound id (bounds/bound_ids.hpp): to_json rows, one per finished
  // perm, in evaluation order.
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> bounds;
  // Profiles of a cell analysis (experiments/cell/analyses.hpp): name -> one {"x","y"} per perm.
  std::map<std::string, std::vector<nlohmann::json>> profiles;
  std::string name() const;                           // "projectron++ [eta=0.1]"
};

// Groups in spec order (data set, algorithm, point).
std::vector<Group> aggregate(const Spec& s, const std::vector<CellOutcome>& cells);

// Groups matching a selector (algorithm "*" = every one; dataset defaulting to `default_ds`,
// "" = every data set; every label of its point), in point order.
std::vector<const Group*> select(const std::vector<Group>& groups, const Selector& sel,
                                 const std::string& default_ds);


}  // namespace plab
