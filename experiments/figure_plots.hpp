// The figures of a spec's "plots": series from the groups, drawn by experiments/plot.hpp.
//   curve    mean curve over permutations against the number of samples
//   final    one point per grid point (mean, with std error bars); "hline" series span the x range
//   profile  analysis profiles against their x (experiments/theory_figures.hpp)
#pragma once
#include <string>
#include <vector>

#include "experiments/aggregate.hpp"
#include "experiments/plot.hpp"
#include "experiments/spec.hpp"

namespace plab {

std::vector<PlotSeries> curve_series(const FigurePlot& p, const std::vector<Group>& groups, const std::string& ds);
std::vector<PlotSeries> final_series(const Spec& s, const FigurePlot& p, const std::vector<Group>& groups,
                                     const std::string& ds);

// Writes <fdir>/<plot id>.gp/.dat for every plot and, with `draw`, its .png/.svg; returns the
// image names "<FIG>/<plot id>" (relative to the results directory).
std::vector<std::string> write_plots(const Spec& s, const std::vector<Group>& groups, const std::string& fdir,
                                     bool draw);

}  // namespace plab
