#include "experiments/report/aggregate.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>


namespace plab {

using nlohmann::json;

Stat mean_std(const std::vector<double>& v) {
  Stat s;
  s.n = v.size();
  if (v.empty()) return {std::nan(""), std::nan(""), 0};
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  if (v.size() > 1) {
    double ss = 0.0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.std = std::sqrt(ss / static_cast<double>(v.size() - 1));
  }
  return s;
}

std::string Group::name() const {
  std::string p;
  for (const auto& [k, v] : point.items()) p += (p.empty() ? "" : ",") + k + "=" + v.dump();
  return p.empty() ? label : label + " [" + p + "]";
}

namespace {

using GroupKey = std::tuple<std::string, std::string, std::size_t>;  // dataset, algo id, point

GroupKey key_of(const Cell& c) { return {c.dataset, c.algo_id, c.point_index}; }

// One empty group per (dataset, algorithm, point) that has cells, in spec order.
std::vector<Group> make_groups(const Spec& s, const std::vector<CellOutcome>& cells) {
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, Group> ordered;
  for (std::size_t di = 0; di < s.datasets.size(); ++di)
    for (std::size_t ai = 0; ai < s.algorithms.size(); ++ai) {
      const AlgoSpec& a = s.algorithms[ai];
      for (const auto& c : cells) {
        if (c.cell.dataset != s.datasets[di].id || c.cell.algo_id != a.id) continue;
        auto [it, fresh] = ordered.try_emplace({di, ai, c.cell.point_index});
        if (!fresh) continue;
        Group& g = it->second;
        g.dataset = c.cell.dataset; g.algo_id = a.id; g.algo = a.algo; g.label = a.label;
        g.point_index = c.cell.point_index; g.point = c.cell.point;
      }
    }
  std::vector<Group> out;
  for (auto& [k, g] : ordered) out.push_back(std::move(g));
  return out;
}

// Applicable bound rows of a cell document, keyed by bound id.
void add_bounds(Group& g, const json& doc) {
  if (!doc.contains("bounds") || !doc["bounds"].is_array()) return;
  for (const auto& b : doc["bounds"]) {
    if (!b.value("applicable", false)) continue;
    const std::string id = b.value("id", "");
    auto it = std::find_if(g.bounds.begin(), g.bounds.end(), [&](const auto& e) { return e.first == id; });
    if (it == g.bounds.end()) { g.bounds.push_back({id, {}}); it = g.bounds.end() - 1; }
    it->second.push_back(b);
  }
}

// Means and std over permutations of the metrics, the time and the curves.
void finish_group(Group& g, const std::vector<double>& secs, const std::vector<const json*>& cv) {
  for (const auto& [m, v] : g.values) g.stats[m] = mean_std(v);
  g.seconds = mean_std(secs);
  if (cv.empty()) return;
  g.t = (*cv[0])["t"].get<std::vector<double>>();
  for (const char* m : {"online_error", "support_size"}) {
    std::vector<Stat> st(g.t.size());
    for (std::size_t k = 0; k < g.t.size(); ++k) {
      std::vector<double> v;
      for (const json* c : cv)
        if ((*c)["t"].size() == g.t.size()) v.push_back((*c)[m][k].get<double>());
      st[k] = mean_std(v);
    }
    g.curves[m] = st;
  }
}

// A cell analysis's profiles (experiments/cell/analyses.hpp), one entry per permutation.
void add_profiles(Group& g, const json& doc) {
  if (!doc.contains("profiles") || !doc["profiles"].is_object()) return;
  for (const auto& [name, p] : doc["profiles"].items()) g.profiles[name].push_back(p);
}

}  // namespace

std::vector<Group> aggregate(const Spec& s, const std::vector<CellOutcome>& cells) {
  std::vector<Group> groups = make_groups(s, cells);
  std::map<GroupKey, std::size_t> index;
  for (std::size_t i = 0; i < groups.size(); ++i)
    index[{groups[i].dataset, groups[i].algo_id, groups[i].point_index}] = i;
  // Values in permutation order.
  std::vector<const CellOutcome*> sorted;
  for (const auto& c : cells) sorted.push_back(&c);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const CellOutcome* a, const CellOutcome* b) { return a->cell.perm < b->cell.perm; });
  std::vector<std::vector<double>> secs(groups.size());
  std::vector<std::vector<const json*>> curves(groups.size());
  for (const CellOutcome* c : sorted) {
    const std::size_t gi = index.at(key_of(c->cell));
    Group& g = groups[gi];
    if (!c->error.empty()) {
      g.errors.push_back("perm " + std::to_string(c->cell.perm) + ": " + c->error);
      continue;
    }
    for (const auto& [m, v] : c->results().items())
      if (v.is_number()) g.values[m].push_back(v.get<double>());
    if (std::isfinite(c->seconds)) secs[gi].push_back(c->seconds);
    add_bounds(g, c->doc);
    curves[gi].push_back(&c->doc.at("curve"));
    add_profiles(g, c->doc);
  }
  for (std::size_t gi = 0; gi < groups.size(); ++gi) finish_group(groups[gi], secs[gi], curves[gi]);
  return groups;
}

std::vector<const Group*> select(const std::vector<Group>& groups, const Selector& sel,
                                 const std::string& default_ds) {
  const std::string ds = sel.dataset.value_or(default_ds);
  std::vector<const Group*> out;
  for (const auto& g : groups) {
    if ((sel.algorithm != "*" && g.algo_id != sel.algorithm) || (!ds.empty() && g.dataset != ds)) continue;
    bool ok = true;
    for (const auto& [k, v] : sel.point.items()) ok = ok && g.point.contains(k) && g.point[k] == v;
    if (ok) out.push_back(&g);
  }
  return out;
}

}  // namespace plab
