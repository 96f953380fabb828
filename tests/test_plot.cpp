// experiments/report/plot.hpp: the script and data are written beside the figure, gnuplot draws it
// through gnuplot-iostream, and a gnuplot error is an exception naming the figure.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "experiments/report/plot.hpp"
#include "tests/test_util.hpp"

using namespace plab;
namespace fs = std::filesystem;

namespace {

using plab::test_util::TempDir;

std::vector<PlotSeries> one_series() {
  PlotSeries s;
  s.title = "perceptron";
  s.color_key = "perceptron";
  s.x = {1, 2, 3};
  s.y = {0.5, 0.25, 0.125};
  return {s};
}

std::string read(const fs::path& p) { return plab::test_util::read_text(p); }

}  // namespace

TEST(Plot, WritesScriptDataAndImages) {
  TempDir d("ok");
  PlotSpec ps;
  ps.title = "t";
  plot(ps, one_series(), (d.p / "fig").string());
  EXPECT_EQ(read(d.p / "fig.dat"), "# perceptron\n1 0.5 0 0\n2 0.25 0 0\n3 0.125 0 0\n\n\n");
  const std::string gp = read(d.p / "fig.gp");
  EXPECT_NE(gp.find("data = \"fig.dat\""), std::string::npos);
  EXPECT_NE(gp.find("plot data index 0 using 1:2 with lines lw 2 lc rgb '#000000' title \"perceptron\""),
            std::string::npos) << gp;
  EXPECT_GT(fs::file_size(d.p / "fig.png"), 0u);
  EXPECT_GT(fs::file_size(d.p / "fig.svg"), 0u);
}

TEST(Plot, NoDrawWritesOnlyScriptAndData) {
  TempDir d("nodraw");
  plot(PlotSpec{}, one_series(), (d.p / "fig").string(), false);
  EXPECT_TRUE(fs::exists(d.p / "fig.gp"));
  EXPECT_TRUE(fs::exists(d.p / "fig.dat"));
  EXPECT_FALSE(fs::exists(d.p / "fig.png"));
}

TEST(Plot, GnuplotErrorIsAnExceptionNamingTheFigure) {
  TempDir d("bad");
  PlotSpec ps;
  ps.key = "no-such-key-position";  // gnuplot rejects the "set key" line
  try {
    plot(ps, one_series(), (d.p / "broken").string());
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("broken"), std::string::npos) << m;
    EXPECT_NE(m.find("gnuplot failed"), std::string::npos) << m;
  }
}
