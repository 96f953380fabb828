#include "experiments/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "experiments/plot.hpp"
#include "experiments/theory_figures.hpp"
#include "experiments/trace.hpp"

namespace plab {

using nlohmann::json;
namespace fs = std::filesystem;

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

// Metrics whose per-permutation values are integers (compared exactly by --check).
const std::set<std::string> kIntegerMetrics = {"rounds", "mistakes", "updates", "margin_errors",
                                               "support_size", "support_reached_at"};
const std::vector<std::string> kMetricOrder = {
    "rounds", "mistakes", "online_error", "support_size", "updates", "margin_errors",
    "support_growth", "support_reached_at", "test_error_last", "test_error_averaged", "test_error_voted", "f_norm2"};

std::vector<std::string> metric_names(const std::vector<Group>& groups) {
  std::set<std::string> have;
  for (const auto& g : groups) for (const auto& [m, v] : g.values) have.insert(m);
  std::vector<std::string> out;
  for (const auto& m : kMetricOrder) if (have.erase(m)) out.push_back(m);
  out.insert(out.end(), have.begin(), have.end());
  return out;
}

std::string fmt(const std::string& metric, double v) {
  char b[64];
  if (!std::isfinite(v)) return "–";
  if (metric.find("error") != std::string::npos) std::snprintf(b, sizeof b, "%.2f%%", 100.0 * v);
  else if (metric == "seconds") std::snprintf(b, sizeof b, "%.2f s", v);
  else if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15) std::snprintf(b, sizeof b, "%.0f", v);
  else if (std::fabs(v) >= 100) std::snprintf(b, sizeof b, "%.1f", v);
  else std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}
std::string fmt_stat(const std::string& metric, const Stat& s) {
  if (s.n == 0) return "–";
  if (s.n == 1) return fmt(metric, s.mean);
  std::string sd = fmt(metric, s.std);
  if (metric.find("error") == std::string::npos && metric != "seconds") {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", s.std);
    sd = b;
  }
  return fmt(metric, s.mean) + " ± " + sd;
}
std::string csv_num(double v) {
  if (!std::isfinite(v)) return "";
  char b[40];
  std::snprintf(b, sizeof b, "%.12g", v);
  return b;
}
std::string csv_cell(std::string s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) { if (c == '"') o += '"'; o += c; }
  return o + "\"";
}
std::string point_str(const json& p) {
  std::string s;
  for (const auto& [k, v] : p.items()) s += (s.empty() ? "" : ";") + k + "=" + v.dump();
  return s;
}

// Groups matching a selector {"algorithm", "dataset"?, "point"?}, in point order.
std::vector<const Group*> select(const std::vector<Group>& groups, const json& sel,
                                 const std::string& default_ds) {
  const std::string ds = sel.value("dataset", default_ds);
  const std::string algo = sel.value("algorithm", "");
  std::vector<const Group*> out;
  for (const auto& g : groups) {
    if ((algo != "*" && g.algo_id != algo) || (!ds.empty() && g.dataset != ds)) continue;  // "*": every algorithm
    bool ok = true;
    if (sel.contains("point"))
      for (const auto& [k, v] : sel["point"].items()) ok = ok && g.point.contains(k) && g.point[k] == v;
    if (ok) out.push_back(&g);
  }
  return out;
}

Stat metric_of(const Group& g, const std::string& m) {
  if (m == "seconds") return g.seconds;
  if (Stat d; derived_metric(g, m, &d)) return d;  // bound:<name>, bound_ratio:<name>, ... (theory_figures.hpp)
  auto it = g.stats.find(m);
  return it == g.stats.end() ? Stat{std::nan(""), std::nan(""), 0} : it->second;
}

json published_rows(const Spec& s, const std::vector<Group>& groups) {
  json rows = json::array();
  for (const auto& p : s.published) {
    const std::string metric = p.value("metric", "");
    const double paper = p.value("value", std::nan(""));
    for (const Group* g : select(groups, p, "")) {
      const Stat o = metric_of(*g, metric);
      json r = {{"dataset", g->dataset}, {"algorithm", g->algo_id}, {"label", g->name()},
                {"metric", metric}, {"paper", paper}, {"n", o.n}, {"source", p.value("source", "")},
                {"note", p.value("note", "")}};
      if (p.contains("std")) r["paper_std"] = p["std"];
      r["ours_mean"] = std::isfinite(o.mean) ? json(o.mean) : json();
      r["ours_std"] = std::isfinite(o.std) ? json(o.std) : json();
      std::string verdict;
      if (o.n == 0) verdict = "no result";
      else {
        const double dev = o.mean - paper;
        r["deviation"] = dev;
        r["relative_deviation"] = paper != 0 ? json(dev / paper) : json();
        if (metric == "seconds") verdict = "n/a (paper: MATLAB; ours: C++ learning time)";
        else if (p.contains("tol")) {
          const double tol = p["tol"].get<double>();
          verdict = std::fabs(dev) <= tol * std::fabs(paper) ? "confirmed" : "not confirmed";
          verdict += " (tolerance " + fmt("", tol * 100) + "% relative)";
        } else if (p.contains("tol_abs")) {
          const double tol = p["tol_abs"].get<double>();
          verdict = std::fabs(dev) <= tol ? "confirmed" : "not confirmed";
          verdict += " (tolerance ±" + fmt(metric, tol) + ")";
        } else verdict = "reported";
      }
      r["verdict"] = verdict;
      rows.push_back(r);
    }
  }
  return rows;
}

// One claim: every check compares selections point by point (a selection of one group is
// broadcast); quantifier "all" needs every point to pass every check, "any" one point.
json evaluate_claim(const json& c, const std::vector<Group>& groups) {
  const std::string ds = c.value("dataset", "");
  const std::string quant = c.value("quantifier", "all");
  struct Side { std::vector<double> v; std::vector<std::string> names; std::string metric; };
  std::vector<std::tuple<Side, std::string, Side, double>> checks;
  std::size_t n = 1;
  bool missing = false;
  auto side = [&](const json& sel) {
    Side s;
    if (sel.is_number()) { s.v = {sel.get<double>()}; s.names = {sel.dump()}; return s; }
    s.metric = sel.value("metric", "");
    for (const Group* g : select(groups, sel, ds)) {
      const Stat st = metric_of(*g, s.metric);
      if (st.n == 0) missing = true;
      const double scale = sel.value("scale", 1.0);
      s.v.push_back(st.mean * scale);
      s.names.push_back((scale != 1.0 ? fmt("", scale) + " × " : std::string()) + g->name() + " " + s.metric + " " +
                        fmt(s.metric, st.mean));
    }
    if (s.v.empty()) missing = true;
    return s;
  };
  for (const auto& ch : c.value("checks", json::array())) {
    Side a = side(ch.at("a")), b = side(ch.at("b"));
    n = std::max({n, a.v.size(), b.v.size()});
    checks.emplace_back(a, ch.value("op", "<"), b, ch.value("tol", 0.0));
  }
  json out = {{"claim", c.value("claim", "")}, {"source", c.value("source", "")}};
  std::ostringstream nums;
  std::size_t passed = 0;
  for (const auto& [a, op, b, tol] : checks)
    if ((a.v.size() != 1 && a.v.size() != n) || (b.v.size() != 1 && b.v.size() != n)) missing = true;
  if (missing || checks.empty()) {
    out["verdict"] = "not evaluated (missing results)";
    out["numbers"] = "";
    return out;
  }
  for (std::size_t i = 0; i < n; ++i) {
    bool ok = true;
    for (const auto& [a, op, b, tol] : checks) {
      const double x = a.v[a.v.size() == 1 ? 0 : i], y = b.v[b.v.size() == 1 ? 0 : i];
      bool r;
      if (op == "<") r = x < y;
      else if (op == "<=") r = x <= y;
      else if (op == ">") r = x > y;
      else if (op == ">=") r = x >= y;
      else if (op == "within") r = std::fabs(x - y) <= tol * std::fabs(y);
      else throw std::invalid_argument("claim '" + c.value("claim", "") + "': unknown op '" + op + "'");
      ok = ok && r;
      if (i < 12) {
        nums << (nums.tellp() ? "; " : "") << a.names[a.v.size() == 1 ? 0 : i] << " " << op
             << (op == "within" ? " " + fmt("", tol * 100) + "% of " : " ")
             << b.names[b.v.size() == 1 ? 0 : i] << (r ? " ✓" : " ✗");
      }
    }
    passed += ok;
  }
  if (n > 12) nums << "; … (" << n << " points)";
  const bool confirmed = quant == "any" ? passed > 0 : passed == n;
  out["verdict"] = confirmed ? "confirmed" : "not confirmed";
  out["points_passing"] = std::to_string(passed) + "/" + std::to_string(n);
  out["numbers"] = nums.str();
  return out;
}

}  // namespace

std::vector<Group> aggregate(const Spec& s, const std::vector<CellOutcome>& cells) {
  std::vector<Group> groups;
  std::map<std::tuple<std::string, std::string, std::size_t>, std::size_t> index;
  // Spec order: datasets, then algorithms, then points (cells come in stage order).
  for (const auto& ds : s.datasets)
    for (const auto& a : s.algorithms)
      for (const auto& c : cells) {
        if (c.cell.dataset != ds.id || c.cell.algo_id != a.id) continue;
        const auto k = std::make_tuple(ds.id, a.id, c.cell.point_index);
        if (!index.count(k)) {
          index[k] = groups.size();
          Group g;
          g.dataset = ds.id; g.algo_id = a.id; g.algo = a.algo; g.label = a.label;
          g.point_index = c.cell.point_index; g.point = c.cell.point;
          groups.push_back(g);
        }
      }
  std::sort(groups.begin(), groups.end(), [&](const Group& x, const Group& y) {
    auto rank = [&](const Group& g) {
      std::size_t di = 0, ai = 0;
      for (std::size_t i = 0; i < s.datasets.size(); ++i) if (s.datasets[i].id == g.dataset) di = i;
      for (std::size_t i = 0; i < s.algorithms.size(); ++i) if (s.algorithms[i].id == g.algo_id) ai = i;
      return std::make_tuple(di, ai, g.point_index);
    };
    return rank(x) < rank(y);
  });
  index.clear();
  for (std::size_t i = 0; i < groups.size(); ++i)
    index[{groups[i].dataset, groups[i].algo_id, groups[i].point_index}] = i;
  // Values in permutation order.
  std::vector<const CellOutcome*> sorted;
  for (const auto& c : cells) sorted.push_back(&c);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const CellOutcome* a, const CellOutcome* b) { return a->cell.perm < b->cell.perm; });
  std::map<std::size_t, std::vector<double>> secs;
  std::map<std::size_t, std::vector<const json*>> curves;
  for (const CellOutcome* c : sorted) {
    const std::size_t gi = index.at({c->cell.dataset, c->cell.algo_id, c->cell.point_index});
    Group& g = groups[gi];
    if (!c->error.empty()) {
      g.errors.push_back("perm " + std::to_string(c->cell.perm) + ": " + c->error);
      continue;
    }
    for (const auto& [m, v] : c->results().items())
      if (v.is_number()) g.values[m].push_back(v.get<double>());
    if (std::isfinite(c->seconds)) secs[gi].push_back(c->seconds);
    if (c->doc.contains("bounds") && c->doc["bounds"].is_array())
      for (const auto& b : c->doc["bounds"]) {
        if (!b.value("applicable", false)) continue;
        const std::string name = b.value("name", "");
        auto it = std::find_if(g.bounds.begin(), g.bounds.end(), [&](const auto& e) { return e.first == name; });
        if (it == g.bounds.end()) { g.bounds.push_back({name, {}}); it = g.bounds.end() - 1; }
        it->second.push_back(b);
      }
    curves[gi].push_back(&c->doc.at("curve"));
    add_profiles(g, c->doc);
  }
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    Group& g = groups[gi];
    for (const auto& [m, v] : g.values) g.stats[m] = mean_std(v);
    g.seconds = mean_std(secs[gi]);
    const auto& cv = curves[gi];
    if (cv.empty()) continue;
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
  return groups;
}

FigureOutputs write_figure(const Spec& s, const std::vector<Group>& groups, const std::string& dir,
                           bool draw) {
  FigureOutputs out;
  const std::string fdir = dir + "/" + s.figure;
  fs::create_directories(fdir);
  const auto metrics = metric_names(groups);

  // finals.csv and summary.json
  std::ostringstream fin;
  fin << "figure,dataset,algorithm,label,point,n";
  for (const auto& m : metrics) fin << "," << m << "_mean," << m << "_std";
  fin << ",failed\n";
  json sgroups = json::array();
  for (const auto& g : groups) {
    fin << s.figure << "," << g.dataset << "," << g.algo_id << "," << csv_cell(g.label) << ","
        << csv_cell(point_str(g.point)) << "," << (g.values.empty() ? 0 : g.values.begin()->second.size());
    json sm = json::object(), sv = json::object();
    for (const auto& m : metrics) {
      const auto it = g.stats.find(m);
      if (it == g.stats.end()) { fin << ",,"; continue; }
      fin << "," << csv_num(it->second.mean) << "," << csv_num(it->second.std);
      sm[m] = {{"mean", it->second.mean}, {"std", it->second.std}};
      json vals = json::array();
      for (double v : g.values.at(m))
        vals.push_back(kIntegerMetrics.count(m) ? json(static_cast<int64_t>(std::llround(v))) : json(v));
      sv[m] = vals;
    }
    fin << "," << g.errors.size() << "\n";
    json sb = json::object();
    for (const auto& [name, rows] : g.bounds) {
      json vals = json::array(), holds = json::array();
      for (const auto& r : rows) { vals.push_back(r["value"]); holds.push_back(r.value("holds", true)); }
      sb[name] = {{"value", vals}, {"holds", holds}};
    }
    sgroups.push_back({{"dataset", g.dataset}, {"algorithm", g.algo_id}, {"point", g.point},
                       {"failed", g.errors.size()}, {"mean_std", sm}, {"per_permutation", sv}});
    if (!sb.empty()) sgroups.back()["bounds"] = sb;
  }
  write_file_atomic(fdir + "/finals.csv", fin.str());

  // timings.csv (non-deterministic)
  std::ostringstream tim;
  tim << "figure,dataset,algorithm,point,n,seconds_mean,seconds_std,paper_seconds_matlab\n";
  for (const auto& g : groups) {
    std::string paper;
    for (const auto& p : s.published)
      if (p.value("metric", "") == "seconds" && p.value("algorithm", "") == g.algo_id &&
          p.value("dataset", g.dataset) == g.dataset)
        paper = csv_num(p.value("value", std::nan("")));
    tim << s.figure << "," << g.dataset << "," << g.algo_id << "," << csv_cell(point_str(g.point)) << ","
        << g.seconds.n << "," << csv_num(g.seconds.mean) << "," << csv_num(g.seconds.std) << "," << paper << "\n";
  }
  write_file_atomic(fdir + "/timings.csv", tim.str());

  // curves_<dataset>.csv
  for (const auto& ds : s.datasets) {
    std::vector<const Group*> gs;
    for (const auto& g : groups) if (g.dataset == ds.id && !g.t.empty()) gs.push_back(&g);
    if (gs.empty()) continue;
    std::ostringstream cv;
    cv << "t";
    for (const Group* g : gs)
      for (const char* m : {"online_error", "support_size"})
        cv << "," << csv_cell(g->name() + " " + m + " mean") << "," << csv_cell(g->name() + " " + m + " std");
    cv << "\n";
    const std::vector<double>& t = gs[0]->t;
    for (std::size_t k = 0; k < t.size(); ++k) {
      cv << csv_num(t[k]);
      for (const Group* g : gs)
        for (const char* m : {"online_error", "support_size"}) {
          const bool ok = g->t.size() == t.size();
          cv << "," << (ok ? csv_num(g->curves.at(m)[k].mean) : "") << ","
             << (ok ? csv_num(g->curves.at(m)[k].std) : "");
        }
      cv << "\n";
    }
    write_file_atomic(fdir + "/curves_" + ds.id + ".csv", cv.str());
  }

  // Published numbers and claims.
  out.published = published_rows(s, groups);
  std::ostringstream pub;
  pub << "figure,dataset,algorithm,metric,paper,paper_std,ours_mean,ours_std,n,deviation,relative_deviation,verdict,source\n";
  for (const auto& r : out.published) {
    auto num = [&](const char* k) { return r.contains(k) && r[k].is_number() ? csv_num(r[k].get<double>()) : ""; };
    pub << s.figure << "," << r["dataset"].get<std::string>() << "," << csv_cell(r["label"]) << ","
        << r["metric"].get<std::string>() << "," << num("paper") << "," << num("paper_std") << ","
        << num("ours_mean") << "," << num("ours_std") << "," << r["n"] << "," << num("deviation") << ","
        << num("relative_deviation") << "," << csv_cell(r["verdict"]) << "," << csv_cell(r["source"]) << "\n";
  }
  write_file_atomic(fdir + "/published.csv", pub.str());
  out.claims = json::array();
  for (const auto& c : s.claims) out.claims.push_back(evaluate_claim(c, groups));

  json claims_sum = json::array();
  for (const auto& c : out.claims) claims_sum.push_back({{"claim", c["claim"]}, {"verdict", c["verdict"]}});
  out.summary = {{"figure", s.figure}, {"permutations", s.permutations}, {"limit", s.limit},
                 {"groups", sgroups}, {"claims", claims_sum}};
  write_json_atomic(fdir + "/summary.json", out.summary);

  // Plots.
  for (const auto& p : s.plots) {
    const std::string id = p.value("id", "");
    const std::string ds = p.value("dataset", s.datasets[0].id);
    PlotSpec ps;
    ps.title = p.value("title", s.figure + " " + ds);
    ps.xlabel = p.value("xlabel", "Number of samples");
    ps.ylabel = p.value("ylabel", "");
    ps.logx = p.value("logx", false);
    ps.logy = p.value("logy", false);
    ps.key = p.value("key", "top right");
    if (p.contains("xrange")) ps.xrange = std::make_pair(p["xrange"][0].get<double>(), p["xrange"][1].get<double>());
    if (p.contains("yrange")) ps.yrange = std::make_pair(p["yrange"][0].get<double>(), p["yrange"][1].get<double>());
    const double xs = p.value("x_scale", 1.0), ys = p.value("y_scale", 1.0);
    std::vector<PlotSeries> series;
    if (p.value("type", "curve") == "profile") {  // analysis profiles against their x (theory_figures.hpp)
      series = profile_series(p, groups, p.value("dataset", ""));
    } else if (p.value("type", "curve") == "curve") {
      const std::string m = p.value("metric", "online_error");
      const double xmin = p.value("xmin", 0.0);
      const auto only = p.value("algorithms", std::vector<std::string>{});
      for (const auto& g : groups) {
        if (g.dataset != ds || g.t.empty()) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), g.algo_id) == only.end()) continue;
        PlotSeries se;
        se.title = g.name(); se.style = "lines";
        se.color_key = p.value("colors", json::object()).value(g.algo_id, g.algo);  // {"algo id": "#rrggbb"}
        // "window": W > 0 plots the error rate over the last W rounds, from the cumulative curve:
        // (M(t_k) - M(t_j)) / (t_k - t_j) with M(t) = online_error(t) t and t_j <= t_k - W the latest.
        const double win = p.value("window", 0.0);
        for (std::size_t k = 0; k < g.t.size(); ++k) {
          if (g.t[k] < xmin) continue;
          double y = g.curves.at(m)[k].mean;
          if (win > 0 && m == "online_error") {
            double t0 = 0.0, m0 = 0.0;
            for (std::size_t j = 0; j < k && g.t[j] <= g.t[k] - win; ++j) { t0 = g.t[j]; m0 = g.curves.at(m)[j].mean * g.t[j]; }
            y = (y * g.t[k] - m0) / (g.t[k] - t0);
          }
          se.x.push_back(g.t[k] * xs); se.y.push_back(y * ys);
        }
        series.push_back(se);
      }
      if (ps.yrange)  // "vlines": [x, ...] grey vertical markers (e.g. the shifts of a drifting target)
        for (double v : p.value("vlines", std::vector<double>{})) {
          PlotSeries vl;
          vl.color_key = "#aaaaaa"; vl.style = "lines";
          vl.x = {v * xs, v * xs}; vl.y = {ps.yrange->first, ps.yrange->second};
          series.push_back(vl);
        }
    } else {  // "final": one point per grid point (mean, with std error bars)
      std::vector<std::pair<json, PlotSeries>> hl;
      double lo = INFINITY, hi = -INFINITY;
      for (const auto& sr : p.value("series", json::array())) {
        const std::string xm = sr.value("x", p.value("x", "support_size"));
        const std::string ym = sr.value("y", p.value("y", "online_error"));
        PlotSeries se;
        se.style = sr.value("style", "xyerrorbars");
        std::vector<std::tuple<double, double, double, double>> pts;
        for (const Group* g : select(groups, sr, ds)) {
          se.title = sr.value("title", g->label);
          se.color_key = sr.value("color", g->algo);
          Stat x;
          if (xm.rfind("point:", 0) == 0) {
            const std::string k = xm.substr(6);
            x.mean = g->point.contains(k) ? g->point[k].get<double>() : std::nan(""); x.std = 0; x.n = 1;
          } else if (xm.rfind("dataset:", 0) == 0) {  // a parameter of the data spec, e.g. dataset:flip
            x = Stat{dataset_param(s.dataset(g->dataset).data, xm.substr(8)), 0.0, 1};
          } else x = metric_of(*g, xm);
          const Stat y = metric_of(*g, ym);
          if (y.n == 0) continue;
          pts.emplace_back(x.mean * xs, y.mean * ys, y.std * ys, x.std * xs);
        }
        std::sort(pts.begin(), pts.end());
        for (const auto& [a, b, c, d] : pts) {
          se.x.push_back(a); se.y.push_back(b); se.yerr.push_back(c); se.xerr.push_back(d);
        }
        if (se.style == "hline") hl.emplace_back(sr, se);
        else {
          for (double v : se.x) if (std::isfinite(v)) { lo = std::min(lo, v); hi = std::max(hi, v); }
          series.push_back(se);
        }
      }
      if (ps.xrange) { lo = ps.xrange->first; hi = ps.xrange->second; }
      for (auto& [sr, se] : hl) {
        if (se.y.empty() || !std::isfinite(lo)) continue;
        const double y = se.y[0];
        se.x = {lo, hi}; se.y = {y, y}; se.yerr.clear(); se.xerr.clear();
        series.push_back(se);
      }
    }
    const std::string base = fdir + "/" + id;
    if (draw) plot(ps, series, base);
    out.images.push_back(s.figure + "/" + id);
  }
  return out;
}

void write_report(const std::string& path, const std::vector<Spec>& specs,
                  const std::vector<std::vector<Group>>& groups, const std::vector<FigureOutputs>& outs,
                  const std::string& header) {
  std::ostringstream md;
  md << "# Reproduction report\n\n" << header << "\n";
  md << "Contents: ";
  for (const auto& s : specs) md << "[" << s.figure << "](#" << s.figure << ") ";
  md << "\n\nValues are mean ± sample standard deviation over the permutations (n − 1 denominator). "
        "Errors are online error rates (mistakes / rounds) unless named test errors. Times are the "
        "C++ learning time of one run (one core), beside the paper's MATLAB times.\n\n";
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const Spec& s = specs[i];
    const auto& gs = groups[i];
    const auto& o = outs[i];
    md << "## <a name=\"" << s.figure << "\"></a>" << s.figure << " — " << s.title << "\n\n";
    if (!s.description.empty()) md << s.description << "\n\n";
    if (!s.datasets.empty()) {  // a table of other figures' runs (T7) has no runs of its own
      md << "Settings: " << s.permutations << " permutation(s)"
         << (s.limit ? ", first " + std::to_string(s.limit) + " rounds" : ", all rounds") << ". Data: ";
      for (const auto& d : s.datasets)
        md << "`" << d.id << "` = `" << d.data << "`" << (d.labels.empty() ? "" : " labels `" + d.labels + "`")
           << (d.test.empty() ? "" : " test `" + d.test + "`") << " kernel `" << d.kernel.dump()
           << "` order " << d.order << "; ";
      md << "\n\nAlgorithms: ";
      for (const auto& a : s.algorithms) md << "`" << a.id << "` = " << a.algo << " " << a.params.dump() << "; ";
      md << "\n\n";
    }
    if (const auto bad = hard_bound_violations(gs); !bad.empty()) {  // loud: a violation is a bug
      md << "**HARD BOUND VIOLATED (" << bad.size() << "): a bug in a learner, a bound or the record.**\n\n";
      for (std::size_t k = 0; k < bad.size() && k < 20; ++k) md << "- " << bad[k] << "\n";
      md << "\n";
      std::cerr << "plab reproduce: " << s.figure << ": " << bad.size() << " HARD BOUND VIOLATION(S), e.g. " << bad[0] << "\n";
    }
    for (const auto& img : o.images) md << "![" << img << "](" << img << ".png)\n";
    md << o.extra_markdown;
    md << "\n### Final numbers\n\n| data | algorithm | n | mistakes | online error | support | ";
    const bool has_test = std::any_of(gs.begin(), gs.end(), [](const Group& g) { return g.stats.count("test_error_last"); });
    if (has_test) md << "test error (last) | test error (averaged) | ";
    md << "time |\n|---|---|---|---|---|---|" << (has_test ? "---|---|" : "") << "---|\n";
    for (const auto& g : gs) {
      const std::size_t n = g.values.empty() ? 0 : g.values.begin()->second.size();
      md << "| " << g.dataset << " | " << g.name() << " | " << n << " | " << fmt_stat("mistakes", metric_of(g, "mistakes"))
         << " | " << fmt_stat("online_error", metric_of(g, "online_error")) << " | "
         << fmt_stat("support_size", metric_of(g, "support_size")) << " | ";
      if (has_test)
        md << fmt_stat("test_error_last", metric_of(g, "test_error_last")) << " | "
           << fmt_stat("test_error_averaged", metric_of(g, "test_error_averaged")) << " | ";
      md << fmt_stat("seconds", g.seconds) << " |\n";
    }
    if (!o.published.empty()) {
      md << "\n### Published numbers beside ours\n\n| data | algorithm | quantity | paper | ours | deviation | verdict |\n|---|---|---|---|---|---|---|\n";
      for (const auto& r : o.published) {
        const std::string m = r["metric"];
        std::string paper = fmt(m, r["paper"].get<double>());
        if (r.contains("paper_std")) paper += " ± " + fmt(m == "support_size" ? "x" : m, r["paper_std"].get<double>());
        Stat ours{r["ours_mean"].is_number() ? r["ours_mean"].get<double>() : std::nan(""),
                  r["ours_std"].is_number() ? r["ours_std"].get<double>() : 0.0, r["n"].get<std::size_t>()};
        std::string dev = "–";
        if (r.contains("deviation")) {
          dev = fmt(m == "support_size" || m == "mistakes" ? "x" : m, r["deviation"].get<double>());
          if (r["relative_deviation"].is_number()) {
            char b[32];
            std::snprintf(b, sizeof b, " (%+.1f%%)", 100.0 * r["relative_deviation"].get<double>());
            dev += b;
          }
        }
        md << "| " << r["dataset"].get<std::string>() << " | " << r["label"].get<std::string>() << " | " << m
           << (r["source"].get<std::string>().empty() ? "" : " (" + r["source"].get<std::string>() + ")")
           << " | " << paper << " | " << fmt_stat(m, ours) << " | " << dev << " | " << r["verdict"].get<std::string>() << " |\n";
      }
    }
    if (!o.claims.empty()) {
      md << "\n### Published claims\n\n| claim | our numbers | verdict |\n|---|---|---|\n";
      for (const auto& c : o.claims) {
        std::string nums = c["numbers"].get<std::string>();
        for (auto& ch : nums) if (ch == '|') ch = '/';
        md << "| " << c["claim"].get<std::string>() << " | " << nums << " | **" << c["verdict"].get<std::string>()
           << "**" << (c.contains("points_passing") ? " (" + c["points_passing"].get<std::string>() + " points)" : "")
           << " |\n";
      }
    }
    if (std::any_of(gs.begin(), gs.end(), [](const Group& g) { return !g.bounds.empty(); })) {
      md << "\n### Mistake bounds (applicable ones; mean over permutations)\n\n"
            "| data | algorithm | bound | tag | kind | rounds covered | bound value | empirical | bound / empirical | holds |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n";
      for (const auto& g : gs)
        for (const auto& [name, rows] : g.bounds) {
          std::vector<double> v, e, ratio, rounds;
          std::size_t holds = 0;
          for (const auto& r : rows) {
            if (r["value"].is_number()) v.push_back(r["value"].get<double>());
            if (r["empirical"].is_number()) e.push_back(r["empirical"].get<double>());
            if (r["value"].is_number() && r["empirical"].is_number() && r["empirical"].get<double>() > 0)
              ratio.push_back(r["value"].get<double>() / r["empirical"].get<double>());
            holds += r.value("holds", true);
            if (r["rounds"].is_number()) rounds.push_back(r["rounds"].get<double>());
          }
          char rb[32] = "–";
          if (!ratio.empty()) std::snprintf(rb, sizeof rb, "%.3g", mean_std(ratio).mean);
          md << "| " << g.dataset << " | " << g.name() << " | " << name << " | " << rows[0].value("tag", "") << " | "
             << rows[0].value("kind", "") << " | " << fmt_stat("x", mean_std(rounds)) << " | " << fmt_stat("x", mean_std(v)) << " | " << fmt_stat("x", mean_std(e))
             << " | " << rb << " | " << holds << "/" << rows.size() << " |\n";
        }
    }
    std::vector<std::string> failed;
    for (const auto& g : gs) for (const auto& e : g.errors) failed.push_back(g.dataset + " " + g.name() + " " + e);
    if (!failed.empty()) {
      md << "\n**Failed cells (" << failed.size() << "):**\n\n";
      for (std::size_t k = 0; k < failed.size() && k < 20; ++k) md << "- " << failed[k] << "\n";
      if (failed.size() > 20) md << "- … " << failed.size() - 20 << " more\n";
    }
    md << "\nFiles: `" << s.figure << "/finals.csv`, `" << s.figure << "/published.csv`, `" << s.figure
       << "/timings.csv`, `" << s.figure << "/curves_*.csv`, `" << s.figure << "/summary.json`.\n\n";
  }
  write_file_atomic(path, md.str());
}

std::vector<std::string> compare_json(const json& a, const json& b, const std::string& where) {
  std::vector<std::string> d;
  const std::string at = where.empty() ? "/" : where;
  if (a.is_number() && b.is_number()) {
    if (a.is_number_integer() && b.is_number_integer()) {
      if (a.get<int64_t>() != b.get<int64_t>()) d.push_back(at + ": " + a.dump() + " (reference " + b.dump() + ")");
    } else {
      const double x = a.get<double>(), y = b.get<double>();
      if (std::fabs(x - y) > 1e-9 * std::max(std::fabs(x), std::fabs(y)))
        d.push_back(at + ": " + a.dump() + " (reference " + b.dump() + ")");
    }
  } else if (a.type() != b.type()) {
    d.push_back(at + ": " + a.dump().substr(0, 80) + " (reference " + b.dump().substr(0, 80) + ")");
  } else if (a.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (k == "seconds") continue;
      if (!b.contains(k)) d.push_back(where + "/" + k + ": not in the reference");
      else for (auto& e : compare_json(v, b[k], where + "/" + k)) d.push_back(e);
    }
    for (const auto& [k, v] : b.items())
      if (k != "seconds" && !a.contains(k)) d.push_back(where + "/" + k + ": missing (reference has it)");
  } else if (a.is_array()) {
    if (a.size() != b.size())
      d.push_back(at + ": " + std::to_string(a.size()) + " entries (reference " + std::to_string(b.size()) + ")");
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      for (auto& e : compare_json(a[i], b[i], where + "/" + std::to_string(i))) d.push_back(e);
  } else if (a != b) {
    d.push_back(at + ": " + a.dump() + " (reference " + b.dump() + ")");
  }
  return d;
}

}  // namespace plab
