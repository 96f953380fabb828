#include "experiments/spec/spec.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"

namespace plab {

using nlohmann::json;

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) { h ^= c; h *= 1099511628211ull; }
  return h;
}

namespace {

const DerivedParam* derived_param(const AlgoSpec& a, std::string* name) {
  for (const auto& [k, p] : a.params)
    if (p.kind == ParamSpec::Kind::derived) { *name = k; return &p.derived; }
  return nullptr;
}

// Cartesian product of the grid params (keys in sorted order): labels per point.
std::vector<json> own_grid(const AlgoSpec& a) {
  std::vector<json> pts{json::object()};
  for (const auto& [k, p] : a.params) {
    if (p.kind != ParamSpec::Kind::grid) continue;
    std::vector<json> next;
    for (const auto& q : pts)
      for (const auto& x : p.grid) { json r = q; r[k] = x; next.push_back(r); }
    pts = std::move(next);
  }
  return pts;
}

std::string substitute(std::string s, int perm, uint64_t seed) {
  auto rep = [&](const std::string& from, const std::string& to) {
    for (std::size_t p; (p = s.find(from)) != std::string::npos;) s.replace(p, from.size(), to);
  };
  rep("{perm}", std::to_string(perm + 1));
  rep("{seed}", std::to_string(seed % 1000000000ull));
  return s;
}

}  // namespace

std::vector<std::string> AlgoSpec::depends() const {
  std::vector<std::string> d;
  for (const auto& [k, p] : params)
    if (p.kind == ParamSpec::Kind::derived) d.push_back(p.derived.from);
  return d;
}

json AlgoSpec::params_json() const {
  json j = json::object();
  for (const auto& [k, p] : params) {
    if (p.kind == ParamSpec::Kind::fixed) j[k] = p.value;
    else if (p.kind == ParamSpec::Kind::grid) j[k] = p.grid;
    else j[k] = p.value;  // the derived object as written
  }
  return j;
}

const std::vector<std::string>& rho_profile_names() {
  static const std::vector<std::string> names = {"MR (4) all-T", "MR (8) all-T", "MR (4) I", "MR (8) I"};
  return names;
}

const std::vector<std::string>& known_metrics() {
  static const std::vector<std::string> names = {
      // run_cell (experiments/cell/cell.cpp)
      "rounds", "mistakes", "updates", "margin_errors", "support_size", "online_error", "f_norm2",
      "support_reached_at", "support_growth", "test_error_last", "test_error_averaged", "test_error_voted",
      // report level (experiments/report/theory_figures.hpp)
      "seconds", "hard_bound_violations", "bounds_checked",
      // analyses (experiments/cell/analyses.hpp)
      "o2b_index", "o2b_supports", "o2b_criterion", "o2b_empirical", "o2b_risk_bound", "test_error_ccg",
      "profile_violations", "mr4_all_at", "mr8_all_at", "mr4_I_at", "mr8_I_at",
      // NORMA and drift (experiments/cell/norma_metrics.hpp)
      "margin_error_fraction", "threshold_final", "nu", "nu_gap_abs", "nu_identity_residual",
      "max_trunc_norm", "max_trunc_ratio", "trunc_removed", "trunc_term_bound", "trunc_tail_bound",
      "trunc_pointwise_bound", "untruncated_tail_norm", "untruncated_tail_sup", "untruncated_mistakes",
      "untruncated_support_size", "test_flagged_pos", "test_flagged_neg", "post_shift_error",
      "settled_error", "shift_jump"};
  return names;
}

bool is_known_metric(const std::string& m) {
  const auto& k = known_metrics();
  if (std::find(k.begin(), k.end(), m) != k.end()) return true;
  for (const std::string p : {"bound:", "bound_ratio:"})
    if (m.rfind(p, 0) == 0) return find_bound(m.substr(p.size())) != nullptr;
  return false;
}

const AlgoSpec& Spec::algorithm(const std::string& id) const {
  for (const auto& a : algorithms) if (a.id == id) return a;
  throw std::invalid_argument("spec " + figure + ": unknown algorithm id '" + id + "'");
}
const DatasetSpec& Spec::dataset(const std::string& id) const {
  for (const auto& d : datasets) if (d.id == id) return d;
  throw std::invalid_argument("spec " + figure + ": unknown dataset id '" + id + "'");
}

std::vector<std::vector<std::string>> Spec::stages() const {
  std::map<std::string, int> stage;
  for (std::size_t round = 0; stage.size() < algorithms.size(); ++round) {
    if (round > algorithms.size())
      throw std::invalid_argument("spec " + figure + ": circular \"from\" dependencies");
    for (const auto& a : algorithms) {
      if (stage.count(a.id)) continue;
      int s = 0;
      bool ready = true;
      for (const auto& d : a.depends()) {
        algorithm(d);  // throws on unknown ids
        if (!stage.count(d)) { ready = false; break; }
        s = std::max(s, stage[d] + 1);
      }
      if (ready) stage[a.id] = s;
    }
  }
  std::vector<std::vector<std::string>> out;
  for (const auto& a : algorithms) {
    const auto s = static_cast<std::size_t>(stage[a.id]);
    if (out.size() <= s) out.resize(s + 1);
    out[s].push_back(a.id);
  }
  return out;
}

json Cell::canonical() const {
  json j = {{"format", 2},           {"data", data},       {"test", test},
            {"labels", labels},      {"order", order},     {"kernel", kernel},
            {"limit", limit},        {"perm_seed", perm_seed}, {"algo", algo},
            {"options", options},    {"curve_points", curve_points}};
  if (!bounds.is_null()) j["bounds"] = bounds;  // absent when off: keys of bound-less cells unchanged
  if (!analysis.is_null()) j["analysis"] = analysis;  // likewise
  if (preprocess != "none") j["preprocess"] = preprocess;  // likewise
  return j;
}

uint64_t permutation_seed(const Spec& s, const std::string& dataset, int perm) {
  return derive_seed(fnv1a(s.seed_name), fnv1a(dataset + "#" + std::to_string(perm)));
}

std::vector<json> grid_points(const Spec& s, const std::string& algo_id) {
  const AlgoSpec& a = s.algorithm(algo_id);
  const auto own = own_grid(a);
  std::string name;
  const DerivedParam* d = derived_param(a, &name);
  if (!d) return own;
  std::vector<json> pts;
  for (const auto& sp : grid_points(s, d->from))
    for (const auto& op : own) { json q = sp; q.update(op); pts.push_back(q); }
  return pts;
}

namespace {

// The derived value of cell `c` (source grid point `si`): the source's result `d.field` of the
// same permutation or the rounded mean over permutations; sets c.error when a result is missing.
void resolve_derived(const Spec& s, const std::string& name, const DerivedParam& d, std::size_t si,
                     const ResultLookup& lookup, Cell& c, json& opt) {
  double value = 0.0;
  int n = 0;
  for (int q = 0; q < s.permutations; ++q) {
    if (d.use == "same_permutation" && q != c.perm) continue;
    const json r = lookup ? lookup(c.dataset, d.from, si, q) : json();
    if (r.is_null() || !r.contains(d.field)) { n = -1; break; }
    value += r[d.field].get<double>();
    ++n;
  }
  if (n <= 0) c.error = "derived parameter " + name + ": no result of " + d.from + " (" + d.field + ")";
  else opt[name] = std::max<int64_t>(1, std::llround(value / n));
}

Cell make_cell(const Spec& s, const AlgoSpec& a, const DatasetSpec& ds, int p, std::size_t point_index,
               const json& label) {
  Cell c;
  c.figure = s.figure; c.dataset = ds.id; c.algo_id = a.id; c.algo = a.algo; c.perm = p;
  c.point_index = point_index;
  c.point = label;
  c.perm_seed = permutation_seed(s, ds.id, p);
  c.learner_seed = derive_seed(c.perm_seed, fnv1a(a.id + c.point.dump()));
  c.data = substitute(ds.data, p, c.perm_seed);
  c.test = ds.test == "halves" ? ds.test : substitute(ds.test, p, c.perm_seed);
  c.labels = ds.labels; c.order = ds.order; c.kernel = ds.kernel.raw; c.preprocess = ds.preprocess;
  c.limit = s.limit; c.curve_points = s.curve_points;
  c.bounds = s.bounds && (s.bounds->permutations == 0 || static_cast<std::size_t>(p) < s.bounds->permutations)
                 ? s.bounds->raw : json();
  c.analysis = s.analysis.raw;
  return c;
}

// Fixed and grid options of one own-grid point (derived ones are resolved separately).
json point_options(const AlgoSpec& a, const json& own_point) {
  json opt = json::object();
  for (const auto& [k, p] : a.params) {
    if (p.kind == ParamSpec::Kind::grid) opt[k] = own_point[k];
    else if (p.kind == ParamSpec::Kind::fixed) opt[k] = p.value;
  }
  return opt;
}

bool uses_dataset(const AlgoSpec& a, const std::string& id) {
  return a.datasets.empty() || std::find(a.datasets.begin(), a.datasets.end(), id) != a.datasets.end();
}

}  // namespace

double spec_cell_count(const Spec& s) {
  // grid points of an algorithm: its own grid's product times its "from" source's points
  std::map<std::string, double> points;
  const std::function<double(const std::string&, int)> count = [&](const std::string& id, int depth) -> double {
    if (auto it = points.find(id); it != points.end()) return it->second;
    const AlgoSpec& a = s.algorithm(id);
    double n = 1.0;
    for (const auto& [k, p] : a.params)
      if (p.kind == ParamSpec::Kind::grid) n *= static_cast<double>(p.grid.size());
    std::string name;
    if (const DerivedParam* d = derived_param(a, &name); d && depth < 64) n *= count(d->from, depth + 1);
    return points[id] = n;
  };
  double cells = 0.0;
  for (const auto& a : s.algorithms) {
    double sets = 0.0;
    for (const auto& ds : s.datasets) sets += uses_dataset(a, ds.id) ? 1.0 : 0.0;
    cells += sets * count(a.id, 0) * static_cast<double>(std::max(s.permutations, 1));
  }
  return cells;
}

std::vector<Cell> expand_algorithm(const Spec& s, const std::string& algo_id, const ResultLookup& lookup) {
  const AlgoSpec& a = s.algorithm(algo_id);
  const auto own = own_grid(a);
  std::string dname;
  const DerivedParam* d = derived_param(a, &dname);
  const std::size_t nsrc = d ? grid_points(s, d->from).size() : 1;
  const auto labels = grid_points(s, algo_id);
  std::vector<Cell> cells;
  for (const auto& ds : s.datasets) {
    if (!uses_dataset(a, ds.id)) continue;
    for (std::size_t si = 0; si < nsrc; ++si)
      for (std::size_t oi = 0; oi < own.size(); ++oi)
        for (int p = 0; p < s.permutations; ++p) {
          const std::size_t pi = si * own.size() + oi;
          Cell c = make_cell(s, a, ds, p, pi, labels[pi]);
          json opt = point_options(a, own[oi]);
          if (d) resolve_derived(s, dname, *d, si, lookup, c, opt);
          if (!a.params.count("seed") && learner_info(a.algo).uses("seed")) opt["seed"] = c.learner_seed;
          c.options = opt;
          cells.push_back(std::move(c));
        }
  }
  return cells;
}

std::vector<Cell> expand_independent(const Spec& s) {
  std::vector<Cell> out;
  const auto st = s.stages();
  for (const auto& id : st.at(0)) {
    auto c = expand_algorithm(s, id, {});
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

void drop_unavailable_data(Spec& s, bool quick) {
  std::vector<DatasetSpec> kept;
  for (auto& d : s.datasets) {
    std::string why;
    if (d.optional && quick) {
      why = "quick mode runs only the data every machine has";
    } else if (d.optional) {
      const DatasetInfo* info = find_dataset_info(d.data);
      if (!info) why = "'" + d.data + "' is not a registry data set";
      else if (dataset_status(*info, false).root.empty())
        why = "'" + d.data + "' is not on the data search path (download: " + info->url + ")";
    }
    if (why.empty()) kept.push_back(std::move(d));
    else s.unavailable[d.id] = why;
  }
  s.datasets = std::move(kept);
}

}  // namespace plab
