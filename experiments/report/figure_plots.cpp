#include "experiments/report/figure_plots.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "experiments/report/group_metrics.hpp"
#include "experiments/report/theory_figures.hpp"

namespace plab {

namespace {

// Error rate over the last `win` rounds at sample k, from the cumulative curve:
// (M(t_k) - M(t_j)) / (t_k - t_j) with M(t) = online_error(t) t and t_j <= t_k - win the latest.
double windowed(const Group& g, std::size_t k, double win) {
  const auto& c = g.curves.at("online_error");
  double t0 = 0.0, m0 = 0.0;
  for (std::size_t j = 0; j < k && g.t[j] <= g.t[k] - win; ++j) { t0 = g.t[j]; m0 = c[j].mean * g.t[j]; }
  return (c[k].mean * g.t[k] - m0) / (g.t[k] - t0);
}

PlotSeries group_curve(const FigurePlot& p, const Group& g) {
  PlotSeries se;
  se.title = g.name();
  se.style = "lines";
  const auto col = p.colors.find(g.algo_id);
  se.color_key = col == p.colors.end() ? g.algo : col->second;
  for (std::size_t k = 0; k < g.t.size(); ++k) {
    if (g.t[k] < p.xmin) continue;
    double y = g.curves.at(p.metric)[k].mean;
    if (p.window > 0 && p.metric == "online_error") y = windowed(g, k, p.window);
    se.x.push_back(g.t[k] * p.x_scale);
    se.y.push_back(y * p.y_scale);
  }
  return se;
}

PlotSeries final_one(const Spec& s, const FigurePlot& p, const PlotSeriesSpec& sr, const std::vector<Group>& groups,
                     const std::string& ds) {
  PlotSeries se;
  se.style = sr.style.value_or("xyerrorbars");
  for (const Group* g : select(groups, sr.sel, ds)) {
    se.title = sr.title.value_or(g->label);
    se.color_key = sr.color.value_or(g->algo);
  }
  for (const FinalPoint& q : final_points(s, sr.sel, sr.x.value_or(p.x), sr.y.value_or(p.y), groups, ds)) {
    se.x.push_back(q.x * p.x_scale); se.y.push_back(q.y * p.y_scale);
    se.yerr.push_back(q.y_std * p.y_scale); se.xerr.push_back(q.x_std * p.x_scale);
  }
  return se;
}

}  // namespace

std::vector<PlotSeries> curve_series(const FigurePlot& p, const std::vector<Group>& groups, const std::string& ds) {
  std::vector<PlotSeries> series, bands;
  for (const auto& g : groups) {
    if (g.dataset != ds || g.t.empty()) continue;
    if (!p.algorithms.empty() && std::find(p.algorithms.begin(), p.algorithms.end(), g.algo_id) == p.algorithms.end())
      continue;
    series.push_back(group_curve(p, g));
    // The paper's curve plots (Figures 6-7) are one run each (docs/report.md#drawn): our single-run
    // band, mean +- one std over the permutations, shows where one run of ours falls.
    if (p.paper && p.window == 0) {
      PlotSeries band = series.back();
      band.title.clear();
      band.style = "band";
      for (std::size_t k = 0; k < g.t.size(); ++k)
        if (g.t[k] >= p.xmin) band.yerr.push_back(g.curves.at(p.metric)[k].std * p.y_scale);
      bands.push_back(std::move(band));
    }
  }
  series.insert(series.begin(), bands.begin(), bands.end());
  if (p.yrange)  // grey vertical markers (e.g. the shifts of a drifting target)
    for (double v : p.vlines) {
      PlotSeries vl;
      vl.color_key = "#aaaaaa"; vl.style = "lines";
      vl.x = {v * p.x_scale, v * p.x_scale}; vl.y = {p.yrange->first, p.yrange->second};
      series.push_back(vl);
    }
  return series;
}

std::vector<PlotSeries> final_series(const Spec& s, const FigurePlot& p, const std::vector<Group>& groups,
                                     const std::string& ds) {
  std::vector<PlotSeries> series, hlines;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& sr : p.series) {
    PlotSeries se = final_one(s, p, sr, groups, ds);
    if (se.style == "hline") { hlines.push_back(std::move(se)); continue; }
    for (double v : se.x) if (std::isfinite(v)) { lo = std::min(lo, v); hi = std::max(hi, v); }
    series.push_back(std::move(se));
  }
  if (p.xrange) { lo = p.xrange->first; hi = p.xrange->second; }
  for (auto& se : hlines) {
    if (se.y.empty() || !std::isfinite(lo)) continue;
    const double y = se.y[0];
    se.x = {lo, hi}; se.y = {y, y}; se.yerr.clear(); se.xerr.clear();
    series.push_back(se);
  }
  return series;
}

std::vector<std::string> write_plots(const Spec& s, const std::vector<Group>& groups, const std::string& fdir,
                                     bool draw, const PaperPanels& paper) {
  std::vector<std::string> images;
  for (const auto& p : s.plots) {
    const std::string ds = p.dataset.value_or(s.datasets.empty() ? "" : s.datasets[0].id);
    PlotSpec ps;
    ps.title = p.title.value_or(s.figure + " " + ds);
    ps.xlabel = p.xlabel; ps.ylabel = p.ylabel; ps.key = p.key;
    ps.logx = p.logx; ps.logy = p.logy;
    ps.xrange = p.xrange; ps.yrange = p.yrange;
    std::vector<PlotSeries> series;
    if (p.type == FigurePlot::Type::profile) series = profile_series(p, groups, p.dataset.value_or(""));
    else if (p.type == FigurePlot::Type::curve) series = curve_series(p, groups, ds);
    else series = final_series(s, p, groups, ds);
    if (const auto it = paper.panels.find(p.id); it != paper.panels.end())
      for (auto& se : paper_series(s, p, it->second)) series.push_back(std::move(se));
    plot(ps, series, fdir + "/" + p.id, draw);
    images.push_back(s.figure + "/" + p.id);
  }
  return images;
}

}  // namespace plab
