// The one plot function every figure uses: writes <base>.dat (one gnuplot data block per
// series) and <base>.gp (a self-contained gnuplot script), then runs gnuplot to draw <base>.png
// and <base>.svg. The script and data stay beside the images so a figure can be redrawn by hand.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plab {

struct PlotSeries {
  std::string title;
  std::string color_key;        // algorithm name: the same algorithm has the same colour everywhere
  std::string style = "lines";  // lines | points | linespoints | errorbars | xyerrorbars | hline
  std::vector<double> x, y, yerr, xerr;  // errors may be empty
};

struct PlotSpec {
  std::string title, xlabel, ylabel;
  std::optional<std::pair<double, double>> xrange, yrange;
  bool logx = false, logy = false;
  std::string key = "top right";
};

// Colour of an algorithm: its registry colour; "#rrggbb" as given; other names hash into a spare palette.
std::string plot_color(const std::string& key);

// Returns false (and writes nothing but the .dat/.gp files) when gnuplot is unavailable or fails.
bool plot(const PlotSpec& spec, const std::vector<PlotSeries>& series, const std::string& base);

}  // namespace plab
