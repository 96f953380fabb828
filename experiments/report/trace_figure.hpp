// `plab plot`: one figure of the runs recorded by `plab run --trace`, drawn by the report's one
// plot path (experiments/report/plot.hpp: <base>.dat, <base>.gp, <base>.png, <base>.svg). Each
// trace is a curve named by its metadata; with bounds, the hard bounds of one trace evaluated on
// its prefixes (bounds/prefix_bounds.hpp) are drawn over it; with paper, the published series of
// a matching figure (experiments/report/trace_paper.hpp). docs/plot.md is the user's page.
#pragma once
#include <string>
#include <vector>

#include "bounds/prefix_bounds.hpp"

namespace plab {

struct TraceFigureRequest {
  std::vector<std::string> traces;
  std::string out = "plot.png";   // .png or .svg: the other image, the script and the data go beside it
  std::string metric = "mistakes";  // online_error | mistakes | support_size
  std::string x = "rounds";         // rounds | support
  bool bounds = false, paper = false;
  bool draw = true;  // false: only <base>.dat and <base>.gp (tests without gnuplot)
};

struct TraceFigure {
  std::string base;                // the images are <base>.png and <base>.svg
  std::vector<BoundPoint> bounds;  // the bound points drawn (empty without bounds)
  std::vector<std::string> notes;  // for the user: what the figure leaves out, a violated bound
};

// Reads and checks every trace as `plab bounds --trace` does (experiments/run/trace.hpp) and
// draws the figure. Throws DataError naming the file and line of a bad trace, and
// std::invalid_argument naming the trace or the option for what does not apply to a run (a
// support size of a linear learner, bounds of a run without any).
TraceFigure write_trace_figure(const TraceFigureRequest& r);

}  // namespace plab
