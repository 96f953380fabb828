// The series `plab plot` draws from one trace (experiments/report/trace_figure.hpp): the run's
// curve, and its bounds on its prefixes (bounds/prefix_bounds.hpp), in the report's plot series.
#pragma once
#include <string>
#include <vector>

#include "bounds/prefix_bounds.hpp"
#include "experiments/report/plot.hpp"
#include "experiments/run/trace.hpp"
#include "experiments/run/trace_names.hpp"

namespace plab {

// What a curve shows: its y (--metric) and its x (--x).
enum class TraceMetric { online_error, mistakes, support_size };
enum class TraceAxis { rounds, support };
// The option values as spelled on the command line; throw std::invalid_argument naming the option.
TraceMetric trace_metric(const std::string& name);
TraceAxis trace_axis(const std::string& name);
std::string metric_name(TraceMetric m);

// The run's curve: metric against rounds or support size at no more than about `max_points`
// rounds (every round of a shorter run): rounds 1 .. max_points/2, then evenly spaced ones and
// the last, so that a long run stays a small image and its start still shows on a log axis.
PlotSeries trace_curve(const Trace& tr, TraceMetric metric, TraceAxis x, const std::string& title,
                       std::size_t max_points = 1200);

// The drawn bounds of one trace, two series per bound: solid where it says something, faded
// where it is vacuous (docs/bounds.md#vacuous), joined at the point where one becomes the
// other. Each point sits at the rounds the bound covers; online_error divides by them.
std::vector<PlotSeries> bound_series(const std::vector<BoundPoint>& points, const Trace& tr, TraceMetric metric,
                                     TraceAxis x);

}  // namespace plab
