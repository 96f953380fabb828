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

std::vector<PlotSeries> curve_series(const FigurePlot& p, const std::vector<Group>& groups, const std::string& ds);
std::vector<PlotSeries> final_series(const Spec& s, const FigurePlot& p, const std::vector<Group>& groups,
                                     const std::string& ds);

// Writes <fdir>/<plot id>.gp/.dat for every plot and, with `draw`, its .png/.svg, the paper's
// series of `paper` drawn beside ours; returns the image names "<FIG>/<plot id>" (relative to the
// results directory).
std::vector<std::string> write_plots(const Spec& s, const std::vector<Group>& groups, const std::string& fdir,
                                     bool draw, const PaperPanels& paper);

}  // namespace plab
