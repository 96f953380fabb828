// The figures of a spec's "plots": series from the groups, drawn by experiments/report/plot.hpp.
//   curve    mean curve over permutations against the number of samples
//   final    one point per grid point (mean, with std error bars); "hline" series span the x range
//   profile  analysis profiles against their x (experiments/report/theory_figures.hpp)
#pragma once
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/report/paper_curves.hpp"
#include "experiments/report/plot.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// One point of a final plot's series: means and standard deviations over permutations, unscaled.
struct FinalPoint {
  double x = 0.0, y = 0.0, y_std = 0.0, x_std = 0.0;
  std::size_t n = 0;  // permutations behind y
};
// The points of the groups `sel` selects in data set `ds`, x metric `xm` and y metric `ym`
// (point:K, dataset:K or a metric), sorted by x; groups without a y value are left out.
std::vector<FinalPoint> final_points(const Spec& s, const Selector& sel, const std::string& xm, const std::string& ym,
                                     const std::vector<Group>& groups, const std::string& ds);

std::vector<PlotSeries> curve_series(const FigurePlot& p, const std::vector<Group>& groups, const std::string& ds);
std::vector<PlotSeries> final_series(const Spec& s, const FigurePlot& p, const std::vector<Group>& groups,
                                     const std::string& ds);

// Writes <fdir>/<plot id>.gp/.dat for every plot and, with `draw`, its .png/.svg, the paper's
// series of `paper` drawn beside ours; returns the image names "<FIG>/<plot id>" (relative to the
// results directory).
std::vector<std::string> write_plots(const Spec& s, const std::vector<Group>& groups, const std::string& fdir,
                                     bool draw, const PaperPanels& paper);

}  // namespace plab
