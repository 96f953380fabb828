// `plab plot --paper`: the published series of a figure that a trace reproduces, drawn as the
// report draws them (experiments/report/paper_curves.hpp: paper_series). A trace matches a curve
// plot of a spec in experiments/specs when the plot has paper data for the metric drawn against
// rounds, and the trace's data set, kernel, learner and options are those of one of the spec's
// algorithms whose paper series the plot names.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "experiments/report/plot.hpp"
#include "experiments/report/trace_series.hpp"
#include "experiments/run/trace.hpp"

namespace plab {

struct PaperOverlay {
  std::vector<PlotSeries> series;                         // in the curve's own units
  std::optional<std::pair<double, double>> yrange;        // the published plot's y range, when it sets one
};
// The paper's series for `tr`, or none with a note saying why.
PaperOverlay paper_overlay(const std::string& path, const Trace& tr, TraceMetric metric, TraceAxis x,
                           std::vector<std::string>& notes,
                           const std::string& specs_dir = std::string(PLAB_SOURCE_DIR) + "/experiments/specs");

}  // namespace plab
