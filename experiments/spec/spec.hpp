// Declarative experiment specs (experiments/specs/<FIG>.json) and their expansion into cells.
// A spec names data sets (with kernel), algorithms with fixed / grid / derived parameters, the
// number of permutations, a rounds limit, plots, published numbers and claims; a `quick` block
// overrides fields for the CI regression check. The format is declared once in spec_format.hpp
// (its keys, types, ranges and help) and documented in docs/specs.md.
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
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bounds/comparator.hpp"
#include "numerics/kernel.hpp"

namespace plab {

uint64_t fnv1a(const std::string& s);

// Kernel of a data set (LIBSVM / DOGMA parameterisation). `raw` is the object as written: it goes
// unchanged into the cell's canonical JSON, so cell keys do not depend on how a number was spelt.
// The defaults are the kernel's own (numerics/kernel.hpp, the one place that holds them).
struct KernelSpec {
  std::string type = Kernel{}.type_name();  // linear | poly | rbf (aliases: polynomial, gaussian)
  double gamma = Kernel{}.gamma, coef0 = Kernel{}.coef0;
  int degree = Kernel{}.degree;
  nlohmann::json raw = {{"type", Kernel{}.type_name()}};
};

struct DatasetSpec {
  std::string id;                 // short name used in keys, files and the report
  std::string data;               // load_dataset spec; "{perm}" -> p+1, "{seed}" -> perm seed % 1e9
  std::string labels;             // LabelMap spec ("" = binary)
  std::string test;               // "" | "halves" (train first half, test second half) | data spec
  std::string order = "shuffle";  // shuffle (seeded permutation) | given (file order)
  std::string preprocess = "none";  // Preprocess::name() (datasets/preprocess.hpp)
  KernelSpec kernel;
  // The paper's data we may not have (news20, vehicle, TIMIT): when its registry set is not on
  // the data search path the figure reports "data not available" instead of failing
  // (drop_unavailable_data); never run in quick mode (the regression check runs what CI has).
  bool optional = false;
};

// {"from": ALGO, "field": F, "use": "same_permutation" | "mean"}
struct DerivedParam {
  std::string from, field = "support_size", use = "same_permutation";
};

// One learner option of an algorithm: a fixed value, a grid (array) or a derived value.
struct ParamSpec {
  enum class Kind { fixed, grid, derived };
  Kind kind = Kind::fixed;
  nlohmann::json value;              // fixed: the value; derived: the object as written
  std::vector<nlohmann::json> grid;  // grid: the values, in order
  DerivedParam derived;
};

struct AlgoSpec {
  std::string id;                 // series id, unique in the spec
  std::string algo;               // make_learner name
  std::string label;              // legend text
  std::map<std::string, ParamSpec> params;  // option -> value (defaults merged in)
  std::vector<std::string> datasets;  // restrict to these data set ids (empty = all)
  std::vector<std::string> depends() const;  // ids named by "from"
  nlohmann::json params_json() const;        // the params as written (for the report)
};

// Selects groups: {"algorithm" ("*" = every one), "dataset"?, "point"?, "metric"?, "scale"?}.
struct Selector {
  std::string algorithm, metric;
  std::optional<std::string> dataset;
  nlohmann::json point = nlohmann::json::object();  // grid labels every selected group must have
  double scale = 1.0;
};

// A series of a "final" or "profile" plot.
struct PlotSeriesSpec {
  Selector sel;                           // algorithm / dataset / point
  std::optional<std::string> x, y;        // final: metrics (default: the plot's)
  std::optional<std::string> title, color, style;
  std::string profile;                    // profile: profile name
  std::optional<std::string> metric;      // profile: a metric drawn as a horizontal line
};

// The paper's digitized data of a plot (experiments/report/paper_curves.hpp): drawn beside ours and
// judged point by point (docs/report.md#paper-curves).
struct PaperPlotSpec {
  std::string file;                           // panel CSV as written, relative to the spec's folder
  std::string path;                           // resolved against the spec's folder
  std::map<std::string, std::string> series;  // paper series -> our algorithm id
  std::map<std::string, std::string> notes;   // paper series -> note beside its verdict in the report
  std::string annotation;                     // algorithm id the support-size annotation is judged against
  std::string annotation_note;                // how that attribution was inferred
};

struct FigurePlot {
  enum class Type { curve, final, profile };
  Type type = Type::curve;
  std::string id;
  std::optional<std::string> dataset, title;
  std::string xlabel = "Number of samples", ylabel, key = "top right";
  bool logx = false, logy = false;
  std::optional<std::pair<double, double>> xrange, yrange;
  double x_scale = 1.0, y_scale = 1.0;
  // curve
  std::string metric = "online_error";
  double xmin = 0.0, window = 0.0;
  std::vector<std::string> algorithms;           // only these algorithm ids (empty = all)
  std::map<std::string, std::string> colors;     // algorithm id -> "#rrggbb"
  std::vector<double> vlines;
  // final
  std::string x = "support_size", y = "online_error";
  // final and profile
  std::vector<PlotSeriesSpec> series;
  std::optional<PaperPlotSpec> paper;
};

// A published number read from a plot's digitized data instead of typed: the support-size
// annotation, a reference line's y or right end (refline_end: where the paper stopped drawing
// it), or a line's last vertex.
struct PaperRef {
  std::string plot, series, element;  // element: annotation | refline | refline_end | line
};

struct PublishedSpec {
  Selector sel;  // algorithm, dataset?, point?, metric
  double value = 0.0;
  std::optional<PaperRef> paper;  // the value (and std of an annotation) come from the paper's data
  std::optional<double> std, tol, tol_abs;
  // "one run": the number is one draw, judged as one run against ours (docs/report.md#one-run);
  // precision: half the unit of its last printed digit (0 when exact).
  bool one_run = false;
  double precision = 0.0;
  std::string source, note;
};

struct ClaimCheck {
  Selector a;
  std::string op = "<";  // < <= > >= within
  std::optional<Selector> b;  // null: compare with `number`
  double number = 0.0;
  std::string number_text;    // the number as written (claim texts quote it)
  double tol = 0.0;
};

struct ClaimSpec {
  std::string claim, source, quantifier = "all";  // all | any
  std::optional<std::string> dataset;
  std::vector<ClaimCheck> checks;
};

// Bounds evaluated per cell. `raw` (as written) is what the runner reads and the cell key hashes.
struct BoundsSpec {
  std::string comparator = "svm";  // svm | multipass | truth | zero
  double svm_C = kDefaultSvmC;
  std::vector<std::string> ids;    // bound ids to keep (bounds/bound_ids.hpp); empty = all
  std::size_t permutations = 0;    // evaluated on the first K permutations only (0 = all)
  nlohmann::json raw;              // without "permutations": a cell's bounds are the same either way
};

struct O2BSpec { double delta = 0.05; };
struct RhoProfileSpec {
  std::string comparator = "truth";
  double svm_C = kDefaultSvmC;
  std::vector<double> rho;
  std::optional<double> at;
};
struct AnalysisSpec {
  std::optional<O2BSpec> o2b;
  std::optional<RhoProfileSpec> rho_profile;
  nlohmann::json raw;  // null when there is no analysis block
};

struct TableSpec {
  std::vector<std::string> bounds;      // bound ids (empty = every applicable one)
  std::vector<std::string> algorithms;  // learner names (empty = all)
};

struct Spec {
  std::string figure, title, seed_name, description;
  std::string source;             // the file (or label) it was parsed from
  int permutations = 5;
  std::size_t limit = 0;          // rounds per cell (0 = all)
  std::size_t curve_points = 300;
  std::vector<DatasetSpec> datasets;
  std::vector<AlgoSpec> algorithms;
  std::vector<FigurePlot> plots;
  std::vector<PublishedSpec> published;
  std::vector<ClaimSpec> claims;
  std::optional<BoundsSpec> bounds;
  AnalysisSpec analysis;
  // Figure kind "table" (T7): no cells of its own; a table over the source figures' groups.
  std::optional<TableSpec> table;
  std::vector<std::string> sources;  // figures a table aggregates (run with it)
  std::map<std::string, std::string> unavailable;  // optional data set id -> why it did not run
  const AlgoSpec& algorithm(const std::string& id) const;
  const DatasetSpec& dataset(const std::string& id) const;
  // Algorithm ids grouped into dependency stages (stage 0 depends on nothing).
  std::vector<std::vector<std::string>> stages() const;
};

// Parses a spec; with `quick`, the "quick" block is applied first: its fields replace the
// top-level ones, except "algorithm_params": {id: {option: value}} which patches one
// algorithm's params. Both the full and the quick reading are validated either way. Throws
// std::invalid_argument "<source>: <JSON pointer>: <problem>" on unknown keys, wrong types and
// unknown values (with the nearest valid name where one is close).
Spec parse_spec(const nlohmann::json& j, bool quick, const std::string& source = "spec");
Spec load_spec(const std::string& path, bool quick);
// A cell's analysis block (Cell::analysis, null = none) as typed; errors name `where`.
AnalysisSpec parse_analysis(const nlohmann::json& j, const std::string& where);

// Metric names usable in plots, claims and published numbers (the fixed part; see is_known_metric).
const std::vector<std::string>& known_metrics();
// A fixed metric, or bound:<id>, bound_ratio:<id>, test_error_<hypothesis>, o2b_*.
bool is_known_metric(const std::string& m);
// Profiles of the "rho_profile" analysis (experiments/cell/analyses.hpp), in output order.
const std::vector<std::string>& rho_profile_names();

// One unit of work: one algorithm at one grid point on one permutation of one data set.
struct Cell {
  std::string figure, dataset, algo_id, algo;
  int perm = 0;
  std::size_t point_index = 0;     // grid point of this algorithm (0 when no grid)
  nlohmann::json point;            // grid labels, e.g. {"eta": 0.1} ({} when no grid)
  nlohmann::json options;          // resolved learner options
  std::string data, test, labels, order;
  std::string preprocess = "none"; // the data set's preprocessing (Preprocess::name())
  nlohmann::json kernel;           // the data set's KernelSpec::raw
  std::size_t limit = 0, curve_points = 300;
  uint64_t perm_seed = 0, learner_seed = 0;
  nlohmann::json bounds;           // the spec's bounds block as written (null = none); "names" are bound ids
  nlohmann::json analysis;         // the spec's analysis block (null = none)
  // The canonical description hashed into the cell key (no figure name: identical cells of two
  // figures sharing a seed_name are computed once).
  nlohmann::json canonical() const;
  std::string error;               // non-empty: the cell cannot run (e.g. its budget source failed)
};

uint64_t permutation_seed(const Spec& s, const std::string& dataset, int perm);

// Moves every optional data set that cannot run here out of `s.datasets` into `s.unavailable`
// with the reason: in quick mode always, otherwise when its registry entry is not on the data
// search path (the reason names the download address). Its cells are then never expanded.
void drop_unavailable_data(Spec& s, bool quick);

// Looks up a finished cell's result: (dataset, algo id, point index, perm) -> results JSON or
// null. Used to resolve derived parameters.
using ResultLookup =
    std::function<nlohmann::json(const std::string&, const std::string&, std::size_t, int)>;

// Grid point labels of one algorithm: the cartesian product of its array-valued params, crossed
// with its source's points when it has a derived parameter ([{}] when it has no grid).
std::vector<nlohmann::json> grid_points(const Spec& s, const std::string& algo_id);
// The cells a spec expands to (data sets x grid points x permutations over its algorithms), counted
// without expanding; a spec above kMaxSpecCells is refused when it is read (docs/specs.md).
double spec_cell_count(const Spec& s);
inline constexpr double kMaxSpecCells = 100000;

// Every cell of one algorithm (data sets x grid points x permutations). Derived values are
// looked up in `lookup`; a missing source result leaves the cell with `error` set.
std::vector<Cell> expand_algorithm(const Spec& s, const std::string& algo_id,
                                   const ResultLookup& lookup);

// Every cell of stage-0 algorithms (those with no derived parameters).
std::vector<Cell> expand_independent(const Spec& s);

}  // namespace plab
