#include "experiments/theory_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "core/random.hpp"
#include "bounds/comparator.hpp"
#include "bounds/formulas.hpp"
#include "bounds/profile.hpp"
#include "datasets/text_parse.hpp"
#include "experiments/online_to_batch_eval.hpp"
#include "experiments/trace.hpp"

namespace plab {

using nlohmann::json;

namespace {

json o2b_analysis(const json& a, const RunResult& res, const CellData& d, const std::vector<std::size_t>& order,
                  const LearnerOptions& o) {
  const double delta = a.value("delta", 0.05);
  const O2BEvaluation e = o2b_kernel_perceptron(*d.train, order, res.rounds, o.kernel, delta);
  json r = {{"o2b_index", e.index},         {"o2b_supports", e.supports}, {"o2b_criterion", e.criterion},
            {"o2b_empirical", e.empirical}, {"o2b_risk_bound", e.risk_bound}};
  if (d.test) r["test_error_ccg"] = o2b_test_error(e, *d.train, o.kernel, *d.test);
  return r;
}

// MR (4)/(8) at each rho of a grid (theory.md 2.6, 2.8, 2.9: the two are not ordered at a fixed rho).
json rho_profile(const Cell& c, const json& a, const RunResult& res, const CellData& d,
                 const std::vector<std::size_t>& order, const LearnerOptions& o, json& results) {
  const Comparator g = make_comparator(a.value("comparator", "truth"), *d.train, order, o.kernel,
                                       a.value("svm_C", 1.0), derive_seed(c.perm_seed, 0xC0));
  if (!(g.norm > 0)) throw std::invalid_argument("rho_profile: comparator has norm 0");
  std::vector<double> m_all, m_mist;
  double r2 = 0.0, r2I = 0.0;
  for (std::size_t t = 0; t < res.rounds.size(); ++t) {
    const RoundRecord& rr = res.rounds[t];
    const double kxx = std::isnan(rr.kxx) ? o.kernel.self((*d.train)[order[t]].sqnorm) : rr.kxx;
    const double m = rr.y * g.scores[t] / g.norm;  // unit-comparator margin
    m_all.push_back(m);
    r2 = std::max(r2, kxx);
    if (rr.mistake) { m_mist.push_back(m); r2I = std::max(r2I, kxx); }
  }
  const bounds::MarginProfile PT(m_all), PI(m_mist);
  const double r = std::sqrt(r2), rI = std::sqrt(r2I), M = static_cast<double>(res.mistakes);
  auto curves = [&](double rho) {
    const double s = 1.0 / rho;
    return std::vector<double>{bounds::mr4(PT.l1(s), r, s), bounds::freund_schapire(PT.l2(s), r, s),
                               bounds::mr4(PI.l1(s), rI, s), bounds::mr8(PI.l2(s), rI, s)};
  };
  static const char* names[] = {"MR (4) all-T", "MR (8) all-T", "MR (4) I", "MR (8) I"};
  const auto grid = a.value("rho", std::vector<double>{});
  std::vector<std::vector<double>> ys(4);
  std::size_t violations = 0;
  for (double rho : grid) {
    if (!(rho > 0)) throw std::invalid_argument("rho_profile: every rho must be > 0");
    const auto v = curves(rho);
    for (std::size_t k = 0; k < 4; ++k) {
      ys[k].push_back(v[k]);
      violations += !bounds::within(M, v[k]);
    }
  }
  results["profile_violations"] = violations;
  if (a.contains("at")) {
    const double at = a["at"].get<double>();
    if (!(at > 0)) throw std::invalid_argument("rho_profile: \"at\" must be > 0");
    const auto v = curves(at);
    results["mr4_all_at"] = v[0];
    results["mr8_all_at"] = v[1];
    results["mr4_I_at"] = v[2];
    results["mr8_I_at"] = v[3];
    for (double x : v) violations += !bounds::within(M, x);
    results["profile_violations"] = violations;
  }
  json prof = json::object();
  for (std::size_t k = 0; k < 4; ++k) prof[names[k]] = {{"x", grid}, {"y", ys[k]}};
  return prof;
}

Stat stat_of(const std::vector<double>& v) {
  Stat s = mean_std(v);
  return s;
}

}  // namespace

json run_analyses(const Cell& c, const RunResult& res, const CellData& d, const std::vector<std::size_t>& order,
                  const LearnerOptions& o) {
  json out = {{"results", json::object()}, {"profiles", json::object()}};
  if (!c.analysis.is_object()) return out;
  for (const auto& [k, v] : c.analysis.items()) {
    if (k == "o2b") {
      const json r = o2b_analysis(v, res, d, order, o);
      for (const auto& [n, x] : r.items()) out["results"][n] = x;
    } else if (k == "rho_profile") {
      json results = json::object();
      out["profiles"] = rho_profile(c, v, res, d, order, o, results);
      for (const auto& [n, x] : results.items()) out["results"][n] = x;
    } else {
      throw std::invalid_argument("spec \"analysis\": unknown analysis '" + k + "' (known: o2b, rho_profile)");
    }
  }
  return out;
}

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
    *out = v.empty() ? Stat{std::nan(""), std::nan(""), 0} : stat_of(v);
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

void add_profiles(Group& g, const json& doc) {
  if (!doc.contains("profiles") || !doc["profiles"].is_object()) return;
  for (const auto& [name, p] : doc["profiles"].items()) g.profiles[name].push_back(p);
}

std::vector<PlotSeries> profile_series(const json& plot, const std::vector<Group>& groups, const std::string& ds) {
  std::vector<PlotSeries> out;
  for (const auto& sr : plot.value("series", json::array())) {
    const std::string want_ds = sr.value("dataset", ds), algo = sr.value("algorithm", "");
    const std::string name = sr.value("profile", "");
    if (sr.contains("metric")) {  // a metric as a horizontal line across the profiles' x range
      for (const auto& g : groups) {
        if (g.algo_id != algo || (!want_ds.empty() && g.dataset != want_ds)) continue;
        const auto it = g.stats.find(sr["metric"].get<std::string>());
        if (it == g.stats.end() || out.empty() || out[0].x.empty()) continue;
        PlotSeries se;
        se.title = sr.value("title", g.name() + " " + sr["metric"].get<std::string>());
        se.color_key = sr.value("color", g.algo);
        se.style = "hline";
        se.x = {out[0].x.front(), out[0].x.back()};
        se.y = {it->second.mean, it->second.mean};
        out.push_back(se);
      }
      continue;
    }
    for (const auto& g : groups) {
      if (g.algo_id != algo || (!want_ds.empty() && g.dataset != want_ds)) continue;
      const auto it = g.profiles.find(name);
      if (it == g.profiles.end() || it->second.empty()) continue;
      PlotSeries se;
      se.title = sr.value("title", g.name() + " " + name);
      se.color_key = sr.value("color", name);
      se.style = sr.value("style", "lines");
      const auto x = it->second[0]["x"].get<std::vector<double>>();
      for (std::size_t k = 0; k < x.size(); ++k) {
        std::vector<double> v;
        for (const auto& p : it->second)
          if (p["y"].size() == x.size() && p["y"][k].is_number()) v.push_back(p["y"][k].get<double>());
        const Stat st = mean_std(v);
        se.x.push_back(x[k]); se.y.push_back(st.mean); se.yerr.push_back(st.std); se.xerr.push_back(0.0);
      }
      out.push_back(se);
    }
  }
  return out;
}

std::vector<std::string> hard_bound_violations(const std::vector<Group>& groups) {
  std::vector<std::string> out;
  for (const auto& g : groups)
    for (const auto& [name, rows] : g.bounds)
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const json& r = rows[i];
        if (r.value("applicable", false) && r.value("hard", true) && !r.value("holds", true))
          out.push_back(g.dataset + " / " + g.name() + " / " + name + ": bound " + r["value"].dump() +
                        " < empirical " + r["empirical"].dump() + " (permutation row " + std::to_string(i) + ")" +
                        (r.value("note", "").empty() ? "" : " [" + r.value("note", "") + "]"));
      }
  return out;
}

json tightness_table(const Spec& t, const std::vector<Spec>& specs, const std::vector<std::vector<Group>>& groups,
                     const std::string& dir) {
  const json cfg = t.table.is_object() ? t.table : json::object();
  const auto want_bounds = cfg.value("bounds", std::vector<std::string>{});
  const auto want_algos = cfg.value("algorithms", std::vector<std::string>{});
  auto csv_num = [](double v) {
    if (!std::isfinite(v)) return std::string();
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return std::string(b);
  };
  auto q = [](std::string s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) { if (c == '"') o += '"'; o += c; }
    return o + "\"";
  };
  json rows = json::array();
  std::ostringstream csv, md;
  csv << "source,dataset,algorithm,algo,point,bound,tag,kind,n,bound_mean,mistakes_mean,ratio_mean,ratio_std,holds\n";
  md << "| source | data | algorithm | bound | kind | bound / mistakes | bound | mistakes | holds |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  std::size_t missing = 0;
  for (const auto& src : t.sources) {
    std::size_t si = specs.size();
    for (std::size_t i = 0; i < specs.size(); ++i) if (specs[i].figure == src) si = i;
    if (si == specs.size()) { ++missing; continue; }
    for (const auto& g : groups[si]) {
      if (!want_algos.empty() && std::find(want_algos.begin(), want_algos.end(), g.algo) == want_algos.end()) continue;
      for (const auto& [name, rs] : g.bounds) {
        if (!want_bounds.empty() && std::find(want_bounds.begin(), want_bounds.end(), name) == want_bounds.end()) continue;
        std::vector<double> v, e, ratio;
        std::size_t holds = 0, hard_bad = 0;
        for (const auto& r : rs) {
          if (!r["value"].is_number() || !r["empirical"].is_number()) continue;
          v.push_back(r["value"].get<double>());
          e.push_back(r["empirical"].get<double>());
          if (e.back() > 0) ratio.push_back(v.back() / e.back());
          holds += r.value("holds", true);
          hard_bad += r.value("hard", true) && !r.value("holds", true);
        }
        if (v.empty()) continue;
        const Stat sv = mean_std(v), se = mean_std(e), sr = mean_std(ratio);
        const std::string point = g.point.empty() ? "" : g.point.dump();
        rows.push_back({{"source", src}, {"dataset", g.dataset}, {"algorithm", g.algo_id}, {"point", g.point},
                        {"bound", name}, {"tag", rs[0].value("tag", "")}, {"kind", rs[0].value("kind", "")},
                        {"n", v.size()}, {"bound_mean", sv.mean}, {"mistakes_mean", se.mean},
                        {"ratio_mean", std::isfinite(sr.mean) ? json(sr.mean) : json()},
                        {"holds", std::to_string(holds) + "/" + std::to_string(v.size())},
                        {"hard_violations", hard_bad}});
        csv << src << "," << g.dataset << "," << g.algo_id << "," << g.algo << "," << q(point) << "," << q(name) << ","
            << rs[0].value("tag", "") << "," << rs[0].value("kind", "") << "," << v.size() << "," << csv_num(sv.mean)
            << "," << csv_num(se.mean) << "," << csv_num(sr.mean) << "," << csv_num(sr.std) << "," << holds << "/"
            << v.size() << "\n";
        char rb[48] = "–", bb[48], eb[48];
        if (std::isfinite(sr.mean)) std::snprintf(rb, sizeof rb, "%.3g", sr.mean);
        std::snprintf(bb, sizeof bb, "%.4g", sv.mean);
        std::snprintf(eb, sizeof eb, "%.1f", se.mean);
        md << "| " << src << " | " << g.dataset << " | " << g.name() << " | " << name << " | "
           << rs[0].value("kind", "") << " | " << rb << " | " << bb << " | " << eb << " | "
           << (hard_bad ? "**" : "") << holds << "/" << v.size() << (hard_bad ? " VIOLATED**" : "") << " |\n";
      }
    }
  }
  if (missing) md << "\n" << missing << " source figure(s) were not part of this run.\n";
  const std::string fdir = dir + "/" + t.figure;
  std::filesystem::create_directories(fdir);
  write_file_atomic(fdir + "/tightness.csv", csv.str());
  return {{"rows", rows}, {"markdown", md.str()}};
}

}  // namespace plab
