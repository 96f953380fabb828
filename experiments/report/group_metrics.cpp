#include "experiments/report/group_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "datasets/text_parse.hpp"

namespace plab {

using nlohmann::json;

namespace {

// bound:<id>, bound_ratio:<id>, hard_bound_violations, bounds_checked; false for any other name.
bool derived_metric(const Group& g, const std::string& m, Stat* out) {
  auto rows_of = [&](const std::string& name) -> const std::vector<json>* {
    for (const auto& [n, rows] : g.bounds) if (n == name) return &rows;
    return nullptr;
  };
  for (const char* prefix : {"bound:", "bound_ratio:"}) {
    const std::string p = prefix;
    if (m.rfind(p, 0) != 0) continue;
    std::vector<double> v;
    if (const auto* rows = rows_of(m.substr(p.size())))
      for (const auto& r : *rows) {
        if (!r["value"].is_number()) continue;
        const double x = r["value"].get<double>();
        if (p == "bound:") v.push_back(x);
        else if (r["empirical"].is_number() && r["empirical"].get<double>() > 0) v.push_back(x / r["empirical"].get<double>());
      }
    *out = v.empty() ? Stat{std::nan(""), std::nan(""), 0} : mean_std(v);
    return true;
  }
  if (m == "hard_bound_violations" || m == "bounds_checked") {
    double bad = 0, checked = 0;
    std::size_t perms = 0;
    for (const auto& [n, rows] : g.bounds) {
      perms = std::max(perms, rows.size());
      for (const auto& r : rows) {
        if (!r.value("applicable", false) || !r.value("hard", true)) continue;
        ++checked;
        bad += !r.value("holds", true);
      }
    }
    // No bound rows at all: nothing to violate (the count is 0, not missing).
    *out = Stat{m == "bounds_checked" ? checked : bad, 0.0, std::max<std::size_t>(perms, 1)};
    return true;
  }
  return false;
}

// x of a final-plot point: a grid label (point:K), a data-spec parameter (dataset:K) or a metric.
Stat x_of(const Spec& s, const Group& g, const std::string& xm) {
  if (xm.rfind("point:", 0) == 0) {
    const std::string k = xm.substr(6);
    return Stat{g.point.contains(k) ? g.point[k].get<double>() : std::nan(""), 0.0, 1};
  }
  if (xm.rfind("dataset:", 0) == 0) return Stat{dataset_param(s.dataset(g.dataset).data, xm.substr(8)), 0.0, 1};
  return metric_of(g, xm);
}

}  // namespace

Stat metric_of(const Group& g, const std::string& m) {
  if (m == "seconds") return g.seconds;
  if (Stat d; derived_metric(g, m, &d)) return d;
  auto it = g.stats.find(m);
  return it == g.stats.end() ? Stat{std::nan(""), std::nan(""), 0} : it->second;
}

double dataset_param(const std::string& data, const std::string& key) {
  const std::size_t c = data.rfind(':');
  if (c == std::string::npos) return std::nan("");
  std::stringstream ss(data.substr(c + 1));
  for (std::string item; std::getline(ss, item, ',');) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || item.substr(0, eq) != key) continue;
    double v;  // whole token or nothing ("3abc" is not 3)
    return detail::parse_double_token(item.substr(eq + 1), v) ? v : std::nan("");
  }
  return std::nan("");
}

std::vector<FinalPoint> final_points(const Spec& s, const Selector& sel, const std::string& xm, const std::string& ym,
                                     const std::vector<Group>& groups, const std::string& ds) {
  std::vector<FinalPoint> pts;
  for (const Group* g : select(groups, sel, ds)) {
    const Stat x = x_of(s, *g, xm), y = metric_of(*g, ym);
    if (y.n > 0) pts.push_back({x.mean, y.mean, y.std, x.std, y.n});
  }
  std::sort(pts.begin(), pts.end(), [](const FinalPoint& a, const FinalPoint& b) {
    return std::tie(a.x, a.y, a.y_std, a.x_std) < std::tie(b.x, b.y, b.y_std, b.x_std);
  });
  return pts;
}

}  // namespace plab
