#include "experiments/report/trace_series.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace plab {

TraceMetric trace_metric(const std::string& name) {
  if (name == "online_error") return TraceMetric::online_error;
  if (name == "mistakes") return TraceMetric::mistakes;
  if (name == "support_size") return TraceMetric::support_size;
  throw std::invalid_argument("--metric " + name + ": expected online_error, mistakes or support_size");
}

TraceAxis trace_axis(const std::string& name) {
  if (name == "rounds") return TraceAxis::rounds;
  if (name == "support") return TraceAxis::support;
  throw std::invalid_argument("--x " + name + ": expected rounds or support");
}

std::string metric_name(TraceMetric m) {
  return m == TraceMetric::online_error ? "online_error" : m == TraceMetric::mistakes ? "mistakes" : "support_size";
}

namespace {

// Cumulative mistakes after each round.
std::vector<double> cumulative_mistakes(const Trace& tr) {
  std::vector<double> m(tr.rounds.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < tr.rounds.size(); ++i) m[i] = sum += tr.rounds[i].mistake ? 1.0 : 0.0;
  return m;
}

double x_at(const Trace& tr, std::size_t t, TraceAxis x) {
  return x == TraceAxis::rounds ? static_cast<double>(t) : static_cast<double>(tr.rounds[t - 1].support_size);
}

}  // namespace

PlotSeries trace_curve(const Trace& tr, TraceMetric metric, TraceAxis x, const std::string& title,
                       std::size_t max_points) {
  PlotSeries s;
  s.title = title;
  s.color_key = tr.meta.value("algo", std::string());
  s.style = "lines";
  const std::size_t T = tr.rounds.size();
  // The first half of the points are rounds 1, 2, 3, ... (a log axis shows them), the rest evenly spaced.
  const std::size_t dense = max_points / 2, spaced = max_points - dense;
  const std::size_t step = T > max_points && spaced > 0 ? (T - dense + spaced - 1) / spaced : 1;
  const std::vector<double> M = cumulative_mistakes(tr);
  for (std::size_t t = 1; t <= T; ++t) {
    if (t > dense && t != T && t % step != 0) continue;
    const RoundRecord& r = tr.rounds[t - 1];
    s.x.push_back(x_at(tr, t, x));
    s.y.push_back(metric == TraceMetric::mistakes       ? M[t - 1]
                  : metric == TraceMetric::online_error ? M[t - 1] / static_cast<double>(t)
                                                        : static_cast<double>(r.support_size));
  }
  return s;
}

namespace {

// Colour-blind-safe colours for the bounds, in row order (Okabe-Ito, then Tableau).
const char* const kBoundColors[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
                                    "#56b4e9", "#8c564b", "#9467bd", "#7f7f7f", "#bcbd22"};

}  // namespace

std::vector<PlotSeries> bound_series(const std::vector<BoundPoint>& points, const Trace& tr, TraceMetric metric,
                                     TraceAxis x) {
  std::vector<PlotSeries> out;
  std::size_t bound = 0;
  for (std::size_t i = 0; i < points.size();) {
    std::size_t end = i;
    while (end < points.size() && points[end].id == points[i].id) ++end;
    PlotSeries solid, faded;
    solid.color_key = faded.color_key = kBoundColors[bound++ % std::size(kBoundColors)];
    solid.style = "linespoints";
    faded.style = "faded_linespoints";
    bool any_solid = false;
    for (std::size_t k = i; k < end; ++k) {
      const BoundPoint& p = points[k];
      const double y = metric == TraceMetric::online_error ? p.value / static_cast<double>(p.rounds) : p.value;
      // A faded point also joins its neighbours, so the stretch meets the solid line.
      const bool near_vacuous = p.vacuous || (k > i && points[k - 1].vacuous) || (k + 1 < end && points[k + 1].vacuous);
      solid.x.push_back(x_at(tr, p.rounds, x));
      solid.y.push_back(p.vacuous ? NAN : y);
      faded.x.push_back(solid.x.back());
      faded.y.push_back(near_vacuous ? y : NAN);
      any_solid = any_solid || !p.vacuous;
    }
    const std::string name = points[i].name;
    if (any_solid) {
      solid.title = name;
      out.push_back(std::move(solid));
    } else {
      faded.title = name + " (vacuous)";
    }
    if (faded.title.size() || std::any_of(faded.y.begin(), faded.y.end(), [](double v) { return !std::isnan(v); }))
      out.push_back(std::move(faded));
    i = end;
  }
  return out;
}

}  // namespace plab
