// Declarative experiment specs (experiments/specs/<FIG>.json) and their expansion into cells.
// A spec names data sets (with kernel), algorithms with fixed / grid / derived parameters, the
// number of permutations, a rounds limit, plots, published numbers and claims; a `quick` block
// overrides fields for the CI regression check. The format is documented in
// experiments/specs/README.md.
//
// Seeds: the permutation seed of (dataset, p) is derive_seed(fnv1a(seed_name), fnv1a(dataset
// id + "#" + p)), seed_name defaulting to the figure name, so every algorithm of a figure sees the
// same p-th permutation (paired comparisons); the learner's own seed (RBP eviction) is
// derive_seed(permutation seed, fnv1a(algorithm id + grid point)). Neither depends on run order
// or thread count.
//
// Derived parameters ({"from": ALGO, "field": F}) are resolved in dependency stages from ALGO's
// finished cells: by default the SAME permutation's value (use: "same_permutation"), or the
// rounded mean over permutations (use: "mean"). A dependent algorithm gets one grid point per
// grid point of its source (R3: one budget per Projectron++ eta).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace plab {

uint64_t fnv1a(const std::string& s);

struct DatasetSpec {
  std::string id;                 // short name used in keys, files and the report
  std::string data;               // load_dataset spec; "{perm}" -> p+1, "{seed}" -> perm seed % 1e9
  std::string labels;             // LabelMap spec ("" = binary)
  std::string test;               // "" | "halves" (train first half, test second half) | data spec
  std::string order = "shuffle";  // shuffle (seeded permutation) | given (file order)
  nlohmann::json kernel;          // {"type": "rbf", "gamma": 1} (LIBSVM / DOGMA parameterisation)
};

struct AlgoSpec {
  std::string id;                 // series id, unique in the spec
  std::string algo;               // make_learner name
  std::string label;              // legend text
  nlohmann::json params;          // option -> value | [grid values] | {"from","field","use"}
  std::vector<std::string> datasets;  // restrict to these data set ids (empty = all)
  std::vector<std::string> depends() const;  // ids named by "from"
};

struct Spec {
  std::string figure, title, seed_name, description;
  int permutations = 5;
  std::size_t limit = 0;          // rounds per cell (0 = all)
  std::size_t curve_points = 300;
  std::vector<DatasetSpec> datasets;
  std::vector<AlgoSpec> algorithms;
  nlohmann::json plots = nlohmann::json::array();
  nlohmann::json published = nlohmann::json::array();
  nlohmann::json claims = nlohmann::json::array();
  // Bounds to evaluate per cell (null = none): {"comparator": "svm"|"multipass"|"truth"|"zero",
  // "svm_C": 1, "names": [bound names to keep; empty = all]}.
  nlohmann::json bounds;
  // Per-cell analyses (experiments/theory_figures.hpp), null = none: {"o2b": {...}, "rho_profile": {...}}.
  nlohmann::json analysis;
  // Figure kind "table" (T7): no cells of its own; a table over the source figures' groups.
  nlohmann::json table;
  std::vector<std::string> sources;  // figures a table aggregates (run with it)
  const AlgoSpec& algorithm(const std::string& id) const;
  const DatasetSpec& dataset(const std::string& id) const;
  // Algorithm ids grouped into dependency stages (stage 0 depends on nothing).
  std::vector<std::vector<std::string>> stages() const;
};

// Parses a spec; with `quick`, the "quick" block is applied first: its fields replace the
// top-level ones, except "algorithm_params": {id: {option: value}} which patches one
// algorithm's params. Throws std::invalid_argument naming the field on malformed specs.
Spec parse_spec(const nlohmann::json& j, bool quick);
Spec load_spec(const std::string& path, bool quick);

// One unit of work: one algorithm at one grid point on one permutation of one data set.
struct Cell {
  std::string figure, dataset, algo_id, algo;
  int perm = 0;
  std::size_t point_index = 0;     // grid point of this algorithm (0 when no grid)
  nlohmann::json point;            // grid labels, e.g. {"eta": 0.1} ({} when no grid)
  nlohmann::json options;          // resolved learner options
  std::string data, test, labels, order;
  nlohmann::json kernel;
  std::size_t limit = 0, curve_points = 300;
  uint64_t perm_seed = 0, learner_seed = 0;
  nlohmann::json bounds;           // the spec's bounds block (null = none)
  nlohmann::json analysis;         // the spec's analysis block (null = none)
  // The canonical description hashed into the cell key (no figure name: identical cells of two
  // figures sharing a seed_name are computed once).
  nlohmann::json canonical() const;
  std::string error;               // non-empty: the cell cannot run (e.g. its budget source failed)
};

uint64_t permutation_seed(const Spec& s, const std::string& dataset, int perm);

// Looks up a finished cell's result: (dataset, algo id, point index, perm) -> results JSON or
// null. Used to resolve derived parameters.
using ResultLookup =
    std::function<nlohmann::json(const std::string&, const std::string&, std::size_t, int)>;

// Grid point labels of one algorithm: the cartesian product of its array-valued params, crossed
// with its source's points when it has a derived parameter ([{}] when it has no grid).
std::vector<nlohmann::json> grid_points(const Spec& s, const std::string& algo_id);

// Every cell of one algorithm (data sets x grid points x permutations). Derived values are
// looked up in `lookup`; a missing source result leaves the cell with `error` set.
std::vector<Cell> expand_algorithm(const Spec& s, const std::string& algo_id,
                                   const ResultLookup& lookup);

// Every cell of stage-0 algorithms (those with no derived parameters).
std::vector<Cell> expand_independent(const Spec& s);

}  // namespace plab
