#include "experiments/spec.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

#include "core/random.hpp"

namespace plab {

using nlohmann::json;

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) { h ^= c; h *= 1099511628211ull; }
  return h;
}

namespace {

std::string str(const json& j, const char* key, const std::string& def, const std::string& where) {
  if (!j.contains(key)) return def;
  if (!j[key].is_string()) throw std::invalid_argument(where + ": \"" + key + "\" must be a string");
  return j[key].get<std::string>();
}

bool is_derived(const json& v) { return v.is_object() && v.contains("from"); }

// The derived parameter of an algorithm: (option name, {"from","field","use"}) or null name.
std::pair<std::string, json> derived_param(const AlgoSpec& a) {
  for (const auto& [k, v] : a.params.items())
    if (is_derived(v)) return {k, v};
  return {"", json()};
}

// Cartesian product of the array-valued params (keys in sorted order): labels per point.
std::vector<json> own_grid(const AlgoSpec& a) {
  std::vector<json> pts{json::object()};
  for (const auto& [k, v] : a.params.items()) {
    if (!v.is_array()) continue;
    if (v.empty()) throw std::invalid_argument("algorithm " + a.id + ": grid \"" + k + "\" is empty");
    std::vector<json> next;
    for (const auto& p : pts)
      for (const auto& x : v) { json q = p; q[k] = x; next.push_back(q); }
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
  for (const auto& [k, v] : params.items())
    if (is_derived(v)) d.push_back(v.at("from").get<std::string>());
  return d;
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

Spec parse_spec(const json& j0, bool quick) {
  json j = j0;
  if (!j.is_object()) throw std::invalid_argument("spec: not a JSON object");
  const std::string fig = str(j, "figure", "", "spec");
  if (fig.empty()) throw std::invalid_argument("spec: \"figure\" is required");
  json algo_patch = json::object();
  if (quick && j.contains("quick")) {
    for (const auto& [k, v] : j["quick"].items()) {
      if (k == "algorithm_params") algo_patch = v;
      else j[k] = v;
    }
  }
  Spec s;
  s.figure = fig;
  s.title = str(j, "title", fig, fig);
  s.description = str(j, "description", "", fig);
  s.seed_name = str(j, "seed_name", fig, fig);
  s.permutations = j.value("permutations", 5);
  if (s.permutations < 1) throw std::invalid_argument(fig + ": \"permutations\" must be >= 1");
  s.limit = j.value("limit", std::size_t{0});
  s.curve_points = j.value("curve_points", std::size_t{300});
  if (s.curve_points < 2) throw std::invalid_argument(fig + ": \"curve_points\" must be >= 2");
  const bool is_table = j.value("kind", "") == "table";  // T7: cells come from its "sources"
  if (is_table && !j.contains("datasets")) j["datasets"] = json::array();
  if (is_table && !j.contains("algorithms")) j["algorithms"] = json::array();
  if (!j.contains("datasets") || !j["datasets"].is_array() || (j["datasets"].empty() && !is_table))
    throw std::invalid_argument(fig + ": \"datasets\" must be a non-empty array");
  for (const auto& d : j["datasets"]) {
    DatasetSpec ds;
    ds.id = str(d, "id", "", fig + " dataset");
    ds.data = str(d, "data", ds.id, fig + " dataset " + ds.id);
    ds.labels = str(d, "labels", "", fig + " dataset " + ds.id);
    ds.test = str(d, "test", "", fig + " dataset " + ds.id);
    ds.order = str(d, "order", "shuffle", fig + " dataset " + ds.id);
    if (ds.id.empty()) throw std::invalid_argument(fig + ": every dataset needs an \"id\"");
    if (ds.order != "shuffle" && ds.order != "given")
      throw std::invalid_argument(fig + " dataset " + ds.id + ": \"order\" must be shuffle or given");
    ds.kernel = d.value("kernel", json{{"type", "linear"}});
    s.datasets.push_back(ds);
  }
  const json defaults = j.value("defaults", json::object());
  if (!j.contains("algorithms") || !j["algorithms"].is_array())
    throw std::invalid_argument(fig + ": \"algorithms\" must be an array");
  std::set<std::string> ids;
  for (const auto& a : j["algorithms"]) {
    AlgoSpec as;
    as.algo = str(a, "algo", "", fig + " algorithm");
    as.id = str(a, "id", as.algo, fig + " algorithm");
    as.label = str(a, "label", as.id, fig + " algorithm " + as.id);
    if (as.algo.empty()) throw std::invalid_argument(fig + ": every algorithm needs \"algo\"");
    if (!ids.insert(as.id).second) throw std::invalid_argument(fig + ": duplicate algorithm id '" + as.id + "'");
    as.params = defaults;
    const json own = a.contains("params") ? a["params"] : json::object();
    for (const auto& [k, v] : own.items()) as.params[k] = v;
    if (algo_patch.contains(as.id))
      for (const auto& [k, v] : algo_patch[as.id].items()) as.params[k] = v;
    as.datasets = a.value("datasets", std::vector<std::string>{});
    int derived = 0;
    for (const auto& [k, v] : as.params.items()) derived += is_derived(v);
    if (derived > 1) throw std::invalid_argument(fig + " algorithm " + as.id + ": at most one derived parameter");
    s.algorithms.push_back(as);
  }
  for (const auto& a : s.algorithms) {
    for (const auto& d : a.datasets) s.dataset(d);
    for (const auto& d : a.depends()) s.algorithm(d);
  }
  s.plots = j.value("plots", json::array());
  s.published = j.value("published", json::array());
  s.claims = j.value("claims", json::array());
  s.bounds = j.value("bounds", json());
  if (!s.bounds.is_null() && !s.bounds.is_object())
    throw std::invalid_argument(fig + ": \"bounds\" must be an object {\"comparator\": ...}");
  s.analysis = j.value("analysis", json());
  if (!s.analysis.is_null() && !s.analysis.is_object())
    throw std::invalid_argument(fig + ": \"analysis\" must be an object");
  if (is_table) s.table = j.value("table", json::object());
  s.sources = j.value("sources", std::vector<std::string>{});
  if (is_table && s.sources.empty()) throw std::invalid_argument(fig + ": a \"table\" figure needs \"sources\"");
  s.stages();  // validates the dependency graph
  return s;
}

Spec load_spec(const std::string& path, bool quick) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read spec " + path);
  json j;
  try { j = json::parse(in); } catch (const json::parse_error& e) {
    throw std::invalid_argument("spec " + path + ": " + e.what());
  }
  return parse_spec(j, quick);
}

json Cell::canonical() const {
  json j = {{"format", 2},           {"data", data},       {"test", test},
            {"labels", labels},      {"order", order},     {"kernel", kernel},
            {"limit", limit},        {"perm_seed", perm_seed}, {"algo", algo},
            {"options", options},    {"curve_points", curve_points}};
  if (!bounds.is_null()) j["bounds"] = bounds;  // absent when off: keys of bound-less cells unchanged
  if (!analysis.is_null()) j["analysis"] = analysis;  // likewise
  return j;
}

uint64_t permutation_seed(const Spec& s, const std::string& dataset, int perm) {
  return derive_seed(fnv1a(s.seed_name), fnv1a(dataset + "#" + std::to_string(perm)));
}

std::vector<json> grid_points(const Spec& s, const std::string& algo_id) {
  const AlgoSpec& a = s.algorithm(algo_id);
  const auto own = own_grid(a);
  const auto [name, d] = derived_param(a);
  if (name.empty()) return own;
  std::vector<json> pts;
  for (const auto& sp : grid_points(s, d.at("from").get<std::string>()))
    for (const auto& op : own) { json q = sp; q.update(op); pts.push_back(q); }
  return pts;
}

std::vector<Cell> expand_algorithm(const Spec& s, const std::string& algo_id, const ResultLookup& lookup) {
  const AlgoSpec& a = s.algorithm(algo_id);
  const auto own = own_grid(a);
  const auto [dname, dspec] = derived_param(a);
  const std::size_t nsrc = dname.empty() ? 1 : grid_points(s, dspec.at("from").get<std::string>()).size();
  const auto labels = grid_points(s, algo_id);
  std::vector<Cell> cells;
  for (const auto& ds : s.datasets) {
    if (!a.datasets.empty() && std::find(a.datasets.begin(), a.datasets.end(), ds.id) == a.datasets.end())
      continue;
    for (std::size_t si = 0; si < nsrc; ++si)
      for (std::size_t oi = 0; oi < own.size(); ++oi)
        for (int p = 0; p < s.permutations; ++p) {
          Cell c;
          c.figure = s.figure; c.dataset = ds.id; c.algo_id = a.id; c.algo = a.algo; c.perm = p;
          c.point_index = si * own.size() + oi;
          c.point = labels[c.point_index];
          c.perm_seed = permutation_seed(s, ds.id, p);
          c.learner_seed = derive_seed(c.perm_seed, fnv1a(a.id + c.point.dump()));
          c.data = substitute(ds.data, p, c.perm_seed);
          c.test = ds.test == "halves" ? ds.test : substitute(ds.test, p, c.perm_seed);
          c.labels = ds.labels; c.order = ds.order; c.kernel = ds.kernel;
          c.limit = s.limit; c.curve_points = s.curve_points; c.bounds = s.bounds; c.analysis = s.analysis;
          json opt = json::object();
          for (const auto& [k, v] : a.params.items()) {
            if (v.is_array()) opt[k] = own[oi][k];
            else if (!is_derived(v)) opt[k] = v;
          }
          if (!dname.empty()) {
            const std::string src = dspec.at("from"), field = dspec.value("field", "support_size");
            const std::string use = dspec.value("use", "same_permutation");
            if (use != "same_permutation" && use != "mean")
              throw std::invalid_argument(s.figure + " algorithm " + a.id + ": \"use\" must be same_permutation or mean");
            double value = 0.0;
            int n = 0;
            for (int q = 0; q < s.permutations; ++q) {
              if (use == "same_permutation" && q != p) continue;
              const json r = lookup ? lookup(ds.id, src, si, q) : json();
              if (r.is_null() || !r.contains(field)) { n = -1; break; }
              value += r[field].get<double>();
              ++n;
            }
            if (n <= 0) c.error = "derived parameter " + dname + ": no result of " + src + " (" + field + ")";
            else opt[dname] = std::max<int64_t>(1, std::llround(value / n));
          }
          if (!a.params.contains("seed")) opt["seed"] = c.learner_seed;
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

}  // namespace plab
