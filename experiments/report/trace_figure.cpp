#include "experiments/report/trace_figure.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/file_io.hpp"
#include "core/format.hpp"
#include "datasets/dataset.hpp"
#include "experiments/report/plot.hpp"
#include "experiments/report/trace_paper.hpp"
#include "experiments/report/trace_series.hpp"
#include "experiments/run/trace.hpp"

namespace plab {
namespace {

// <out> without its extension; refuses anything but .png and .svg.
std::string image_base(const std::string& out) {
  const std::filesystem::path p(out);
  const std::string ext = p.extension().string();
  if (ext != ".png" && ext != ".svg")
    throw std::invalid_argument("-o " + out + ": expected an image name ending in .png or .svg");
  return (p.parent_path() / p.stem()).string();
}

void check_request(const TraceFigureRequest& r, TraceMetric metric) {
  if (r.traces.empty()) throw std::invalid_argument("plab plot: give at least one trace (written by plab run --trace)");
  if (r.bounds && r.traces.size() != 1)
    throw std::invalid_argument("--bounds draws the bounds of one run: give one trace, got " +
                                std::to_string(r.traces.size()));
  if (r.bounds && metric == TraceMetric::support_size)
    throw std::invalid_argument("--bounds: the bounds are on the mistakes; use --metric mistakes or online_error");
}

// The trace, read as `plab bounds --trace` reads it, and whether the plot applies to it.
Trace read_checked(const std::string& path, const TraceFigureRequest& r, TraceMetric metric, TraceAxis x) {
  Trace tr = read_trace(path, r.bounds ? TraceUse::bounds : TraceUse::curves);
  if (tr.rounds.empty()) throw DataError(path + ": the trace has no rounds to plot");
  if (metric == TraceMetric::support_size || x == TraceAxis::support)
    if (const std::string why = no_support_reason(tr.meta); !why.empty())
      throw std::invalid_argument(path + ": " + (metric == TraceMetric::support_size ? "--metric support_size" : "--x support") +
                                  " does not apply: " + why);
  return tr;
}

// The bound points of one trace; refuses a trace that has none to draw, saying why.
std::vector<BoundPoint> checked_bound_points(const std::string& path, const Trace& tr, std::vector<std::string>& notes) {
  const RunFacts facts = trace_facts(tr);
  std::vector<BoundPoint> pts = prefix_bound_points(tr.rounds, facts);
  if (pts.empty())
    throw std::invalid_argument(path + ": --bounds: no bound to draw: " +
                                no_drawn_bound_reason(evaluate_bounds(tr.rounds, facts)));
  for (const BoundPoint& p : pts)
    if (!p.holds)
      notes.push_back("*** VIOLATED ***: " + p.name + " = " + format_g(p.value, 10) + " < " + format_g(p.mistakes, 10) +
                      " mistakes on rounds 1.." + std::to_string(p.rounds) + " (a bug: the bounds are theorems)");
  return pts;
}

std::string axis_label(TraceAxis x) { return x == TraceAxis::rounds ? "round t" : "support size |S_t|"; }
std::string metric_label(TraceMetric m) {
  return m == TraceMetric::mistakes       ? "mistakes M_t"
         : m == TraceMetric::online_error ? "online error M_t / t"
                                          : "support size |S_t|";
}

// On log axes a point at 0 has no place: it becomes a gap (NaN) rather than a gnuplot warning.
void drop_non_positive(std::vector<PlotSeries>& series, bool logx, bool logy) {
  for (PlotSeries& s : series)
    for (std::size_t k = 0; k < s.x.size(); ++k)
      if ((logx && !(s.x[k] > 0.0)) || (logy && !(s.y[k] > 0.0))) s.y[k] = NAN;
}

// With bounds: "every round a mistake" (M_t = t, online error 1), the line above which a bound is vacuous.
PlotSeries every_round_line(std::size_t T, TraceMetric metric) {
  PlotSeries s;
  s.title = metric == TraceMetric::mistakes ? "t (a mistake every round)" : "1 (a mistake every round)";
  s.color_key = "#999999";
  s.style = "hline";
  for (const double t : {1.0, static_cast<double>(T)}) {
    s.x.push_back(t);
    s.y.push_back(metric == TraceMetric::mistakes ? t : 1.0);
  }
  return s;
}

// y from just below the smallest positive value to the largest that says something: a vacuous
// bound may be orders of magnitude above the rounds, and would flatten every curve.
std::pair<double, double> log_yrange(const std::vector<PlotSeries>& series, double ceiling) {
  double lo = INFINITY, hi = 0.0;
  for (const PlotSeries& s : series)
    for (double y : s.y)
      if (y > 0.0 && std::isfinite(y)) { lo = std::min(lo, y); hi = std::max(hi, y); }
  if (!std::isfinite(lo)) return {0.1, ceiling};
  return {lo / 1.5, std::min(hi * 1.5, ceiling)};
}

std::string bounds_caption(const Trace& tr) {
  const RunFacts f = trace_facts(tr);
  return "Hard bounds on rounds 1..t, t = 1, 2, 4, ..., " + std::to_string(tr.rounds.size()) + ", against the comparator '" +
         f.comparator + "' (||g0|| = " + format_g(f.g_norm, 6) + "); faded: vacuous (at least the rounds it covers).";
}

}  // namespace

TraceFigure write_trace_figure(const TraceFigureRequest& r) {
  const TraceMetric metric = trace_metric(r.metric);
  const TraceAxis x = trace_axis(r.x);
  check_request(r, metric);
  TraceFigure fig;
  fig.base = image_base(r.out);
  std::vector<PathUse> uses;  // a trace is never one of the four files written
  for (const std::string& path : r.traces) uses.push_back({"trace", path});
  for (const char* ext : {".png", ".svg", ".gp", ".dat"}) uses.push_back({"-o (" + std::string(ext + 1) + ")", fig.base + ext, true});
  refuse_shared_paths(uses);
  std::vector<Trace> traces;
  for (const std::string& path : r.traces) traces.push_back(read_checked(path, r, metric, x));

  std::vector<PlotSeries> series;
  for (const Trace& tr : traces) series.push_back(trace_curve(tr, metric, x, trace_label(tr.meta)));
  PlotSpec ps;
  ps.xlabel = axis_label(x);
  ps.ylabel = metric_label(metric);
  ps.title = metric_label(metric) + " against " + axis_label(x);
  ps.key = metric == TraceMetric::online_error ? "top right" : "top left";
  if (r.bounds) {
    const Trace& tr = traces[0];
    fig.bounds = checked_bound_points(r.traces[0], tr, fig.notes);
    for (auto& s : bound_series(fig.bounds, tr, metric, x)) series.push_back(std::move(s));
    if (x == TraceAxis::rounds) series.push_back(every_round_line(tr.rounds.size(), metric));
    // Log axes: the prefixes are log-spaced, and bounds, curve and vacuous stretches span decades.
    ps.logx = ps.logy = true;
    drop_non_positive(series, ps.logx, ps.logy);
    ps.yrange = log_yrange(series, metric == TraceMetric::mistakes ? 4.0 * static_cast<double>(tr.rounds.size()) : 4.0);
    if (x == TraceAxis::rounds) ps.xrange = {{1.0, static_cast<double>(tr.rounds.size())}};
    ps.caption = bounds_caption(tr);
    // A dozen bounds: the key goes beside the plot, on a wider canvas.
    ps.key = "outside right top font ',9'";
    ps.size = {1250, 680};
  }
  if (r.paper)
    for (std::size_t i = 0; i < traces.size(); ++i) {
      PaperOverlay ov = paper_overlay(r.traces[i], traces[i], metric, x, fig.notes);
      for (auto& s : ov.series) series.push_back(std::move(s));
      if (!ps.yrange && ov.yrange) ps.yrange = ov.yrange;  // the published figure's window
    }
  if (const auto dir = std::filesystem::path(fig.base).parent_path(); !dir.empty()) std::filesystem::create_directories(dir);
  plot(ps, series, fig.base, r.draw);
  return fig;
}

}  // namespace plab
