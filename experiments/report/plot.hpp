// The one plot function every figure uses: writes <base>.dat (one gnuplot data block per
// series) and <base>.gp (a self-contained gnuplot script), then draws <base>.png and <base>.svg
// by loading the script into gnuplot through a gnuplot-iostream pipe. The script and data stay
// beside the images so a figure can be redrawn by hand ("gnuplot <base>.gp" in its directory).
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
                                // | paper_lines | paper_points | paper_errorbars (dashed, open)
                                // | band (y +- yerr, filled, translucent)
                                // | faded_linespoints (thin, dashed, translucent: a vacuous stretch)
                                // an empty title leaves the series out of the key
  std::vector<double> x, y, yerr, xerr;  // errors may be empty
};

struct PlotSpec {
  std::string title, xlabel, ylabel;
  std::optional<std::pair<double, double>> xrange, yrange;
  bool logx = false, logy = false;
  std::string key = "top right";
  std::string caption;  // a line under the plot (what the reader needs to read it), empty: none
  std::pair<int, int> size = {900, 620};  // pixels (the SVG's too)
};

// Colour of an algorithm: its registry colour; "#rrggbb" as given; other names hash into a spare palette.
std::string plot_color(const std::string& key);

// Writes <base>.dat and <base>.gp; with `draw` and at least one series, draws the images.
// Throws std::runtime_error naming the figure when gnuplot cannot be started or reports an error.
void plot(const PlotSpec& spec, const std::vector<PlotSeries>& series, const std::string& base, bool draw = true);
// Runs <base>.gp in its directory (the images it names appear beside it); throws as above.
void draw_plot(const std::string& base);

}  // namespace plab
