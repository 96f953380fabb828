#include "experiments/report/theory_figures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "core/file_io.hpp"
#include "core/format.hpp"
#include "core/random.hpp"
#include "bounds/comparator.hpp"
#include "bounds/formulas.hpp"
#include "bounds/profile.hpp"
#include "experiments/report/figure_csv.hpp"
#include "experiments/run/trace.hpp"

namespace plab {

using nlohmann::json;

namespace {

std::string csv_number_10(double v) { return std::isfinite(v) ? format_g(v, 10) : std::string(); }

bool selected(const Group& g, const PlotSeriesSpec& sr, const std::string& ds) {
  const std::string want = sr.sel.dataset.value_or(ds);
  return g.algo_id == sr.sel.algorithm && (want.empty() || g.dataset == want);
}

// A metric as a horizontal line across the x range of the first profile.
void add_metric_lines(const PlotSeriesSpec& sr, const std::vector<Group>& groups, const std::string& ds,
                      std::vector<PlotSeries>& out) {
  for (const auto& g : groups) {
    if (!selected(g, sr, ds)) continue;
    const auto it = g.stats.find(*sr.metric);
    if (it == g.stats.end() || out.empty() || out[0].x.empty()) continue;
    PlotSeries se;
    se.title = sr.title.value_or(g.name() + " " + *sr.metric);
    se.color_key = sr.color.value_or(g.algo);
    se.style = "hline";
    se.x = {out[0].x.front(), out[0].x.back()};
    se.y = {it->second.mean, it->second.mean};
    out.push_back(se);
  }
}

PlotSeries mean_profile(const Group& g, const PlotSeriesSpec& sr, const std::vector<json>& perms) {
  PlotSeries se;
  se.title = sr.title.value_or(g.name() + " " + sr.profile);
  se.color_key = sr.color.value_or(sr.profile);
  se.style = sr.style.value_or("lines");
  const auto x = perms[0]["x"].get<std::vector<double>>();
  for (std::size_t k = 0; k < x.size(); ++k) {
    std::vector<double> v;
    for (const auto& p : perms)
      if (p["y"].size() == x.size() && p["y"][k].is_number()) v.push_back(p["y"][k].get<double>());
    const Stat st = mean_std(v);
    se.x.push_back(x[k]); se.y.push_back(st.mean); se.yerr.push_back(st.std); se.xerr.push_back(0.0);
  }
  return se;
}

}  // namespace

std::vector<PlotSeries> profile_series(const FigurePlot& plot, const std::vector<Group>& groups, const std::string& ds) {
  std::vector<PlotSeries> out;
  for (const auto& sr : plot.series) {
    if (sr.metric) {
      add_metric_lines(sr, groups, ds, out);
      continue;
    }
    for (const auto& g : groups) {
      if (!selected(g, sr, ds)) continue;
      const auto it = g.profiles.find(sr.profile);
      if (it != g.profiles.end() && !it->second.empty()) out.push_back(mean_profile(g, sr, it->second));
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

namespace {

// One tightness row (bound / empirical over the permutations of a group), or null when the
// bound has no value in any permutation.
json tightness_row(const std::string& src, const Group& g, const std::string& id, const std::vector<json>& rs) {
  std::vector<double> v, e, ratio;
  std::size_t holds = 0, hard_bad = 0, vacuous = 0;
  for (const auto& r : rs) {
    if (!r["value"].is_number() || !r["empirical"].is_number()) continue;
    vacuous += r.value("vacuous", false);
    v.push_back(r["value"].get<double>());
    e.push_back(r["empirical"].get<double>());
    if (e.back() > 0) ratio.push_back(v.back() / e.back());
    holds += r.value("holds", true);
    hard_bad += r.value("hard", true) && !r.value("holds", true);
  }
  if (v.empty()) return nullptr;
  const Stat sv = mean_std(v), se = mean_std(e), sr = mean_std(ratio);
  return {{"source", src}, {"dataset", g.dataset}, {"algorithm", g.algo_id}, {"algo", g.algo},
          {"point", g.point}, {"bound", id}, {"bound_name", rs[0].value("name", "")},
          {"tag", rs[0].value("tag", "")}, {"kind", rs[0].value("kind", "")}, {"n", v.size()},
          {"bound_mean", sv.mean}, {"mistakes_mean", se.mean},
          {"ratio_mean", std::isfinite(sr.mean) ? json(sr.mean) : json()}, {"ratio_std", sr.std},
          {"holds", std::to_string(holds) + "/" + std::to_string(v.size())}, {"hard_violations", hard_bad},
          {"vacuous", std::to_string(vacuous) + "/" + std::to_string(v.size())},
          {"label", g.name()}};
}

std::string tightness_csv_line(const json& r) {
  auto num = [&](const char* k) { return r[k].is_number() ? csv_number_10(r[k].get<double>()) : std::string(); };
  const std::string point = r["point"].empty() ? "" : r["point"].dump();
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r["source"].get<std::string>(),
                     r["dataset"].get<std::string>(), r["algorithm"].get<std::string>(), r["algo"].get<std::string>(),
                     csv_field(point), r["bound"].get<std::string>(), csv_field(r["bound_name"].get<std::string>()),
                     r["tag"].get<std::string>(), r["kind"].get<std::string>(), r["n"].get<std::size_t>(),
                     num("bound_mean"), num("mistakes_mean"), num("ratio_mean"), num("ratio_std"),
                     r["holds"].get<std::string>(), r["vacuous"].get<std::string>());
}

std::string tightness_md_line(const json& r) {
  const bool bad = r["hard_violations"].get<std::size_t>() > 0;
  const std::string ratio = r["ratio_mean"].is_number() ? format_g(r["ratio_mean"].get<double>(), 3) : "–";
  return fmt::format("| {} | {} | {} | {} (`{}`) | {} | {} | {} | {:.1f} | {}{}{} | {} |\n", r["source"].get<std::string>(),
                     r["dataset"].get<std::string>(), r["label"].get<std::string>(), r["bound_name"].get<std::string>(),
                     r["bound"].get<std::string>(), r["kind"].get<std::string>(), ratio,
                     format_g(r["bound_mean"].get<double>(), 4), r["mistakes_mean"].get<double>(), bad ? "**" : "",
                     r["holds"].get<std::string>(), bad ? " VIOLATED**" : "", r["vacuous"].get<std::string>());
}

bool wanted(const std::vector<std::string>& list, const std::string& x) {
  return list.empty() || std::find(list.begin(), list.end(), x) != list.end();
}

}  // namespace

json tightness_table(const Spec& t, const std::vector<Spec>& specs, const std::vector<std::vector<Group>>& groups,
                     const std::string& dir) {
  const TableSpec cfg = t.table.value_or(TableSpec{});
  json rows = json::array();
  std::string csv = "source,dataset,algorithm,algo,point,bound,bound_name,tag,kind,n,bound_mean,mistakes_mean,"
                    "ratio_mean,ratio_std,holds,vacuous\n";
  std::string md = "| source | data | algorithm | bound | kind | bound / mistakes | bound | mistakes | holds | vacuous |\n"
                   "|---|---|---|---|---|---|---|---|---|---|\n";
  std::size_t missing = 0;
  for (const auto& src : t.sources) {
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const Spec& x) { return x.figure == src; });
    if (it == specs.end()) { ++missing; continue; }
    for (const auto& g : groups[static_cast<std::size_t>(it - specs.begin())]) {
      if (!wanted(cfg.algorithms, g.algo)) continue;
      for (const auto& [id, rs] : g.bounds) {
        if (!wanted(cfg.bounds, id)) continue;
        json r = tightness_row(src, g, id, rs);
        if (r.is_null()) continue;
        csv += tightness_csv_line(r);
        md += tightness_md_line(r);
        for (const char* k : {"algo", "ratio_std", "label"}) r.erase(k);
        rows.push_back(r);
      }
    }
  }
  if (missing) md += fmt::format("\n{} source figure(s) were not part of this run.\n", missing);
  std::filesystem::create_directories(dir + "/" + t.figure);
  write_file_atomic(dir + "/" + t.figure + "/tightness.csv", csv);
  return {{"rows", rows}, {"markdown", md}};
}

}  // namespace plab
