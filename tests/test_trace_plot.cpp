// `plab plot` (experiments/report/trace_figure.hpp, docs/plot.md): the bound points it writes for
// gnuplot are `plab bounds --trace` on the same trace cut by hand after each plotted round; a
// malformed or foreign trace is refused with the error `plab bounds --trace` gives; every
// learner's trace gives a figure, or a message naming the trace, for every metric.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/format.hpp"
#include "tests/test_util.hpp"

namespace {

using plab::test_util::join;
using plab::test_util::lines_of;
using plab::test_util::run_cli;
using plab::test_util::TempDir;

// One data block of a figure's .dat (experiments/report/plot.cpp): its title line and its x y cells.
struct DatBlock {
  std::string title;
  std::vector<std::pair<std::string, std::string>> xy;
};
std::vector<DatBlock> read_dat(const std::string& path) {
  std::vector<DatBlock> blocks;
  bool open = false;
  for (const std::string& l : lines_of(plab::test_util::read_text(path))) {
    if (l.empty()) { open = false; continue; }
    if (!open) { blocks.push_back({l.substr(2), {}}); open = true; continue; }
    std::istringstream in(l);
    std::string x, y;
    in >> x >> y;
    blocks.back().xy.emplace_back(x, y);
  }
  return blocks;
}

class TracePlot : public ::testing::Test {
 protected:
  static inline TempDir* dir = nullptr;
  static void SetUpTestSuite() { dir = new TempDir("trace_plot"); }
  static void TearDownTestSuite() { delete dir; }
  static std::string path(const std::string& name) { return (dir->p / name).string(); }
  // `plab run ... --trace <name>.csv`; the trace's path.
  static std::string trace(const std::string& name, const std::string& run_args) {
    const std::string p = path(name + ".csv");
    const auto r = run_cli("run " + run_args + " --quiet --trace " + p);
    EXPECT_EQ(r.status, 0) << run_args << "\n" << r.output;
    return p;
  }
};

const std::string kDekel = " --data synthetic:dekel:n=300,seed=2 --kernel rbf --gamma 1";

}  // namespace

// The bound points of the figure are the applicable hard rows `plab bounds --trace --json` gives on
// the trace cut after rounds 1, 2, 4, ..., T (each at the rounds it covers), and only those.
TEST_F(TracePlot, BoundPointsAreThoseOfPlabBoundsOnTheCutTraces) {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"kernel-perceptron", "--algo kernel-perceptron" + kDekel},
      {"projectron++", "--algo projectron++ --eta 0.1" + kDekel},
      {"rbp", "--algo rbp --budget 20" + kDekel},  // bounds on its Perceptron prefix
      {"norma", "--algo norma --rho 0.5" + kDekel},
      {"multiclass-perceptron", "--algo multiclass-perceptron --labels classes" + kDekel},
  };
  for (const auto& [name, args] : runs) {
    SCOPED_TRACE(name);
    const std::string t = trace(name + "_pts", args);
    const auto r = run_cli("plot " + t + " --bounds -o " + path(name + "_pts.svg"));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_TRUE(std::filesystem::file_size(path(name + "_pts.svg")) > 0);
    EXPECT_TRUE(std::filesystem::file_size(path(name + "_pts.png")) > 0);
    // Every block but the run's curve (the first) and the line "a mistake every round" is a bound's.
    std::set<std::pair<std::string, std::string>> plotted;
    const auto blocks = read_dat(path(name + "_pts.dat"));
    ASSERT_GE(blocks.size(), 3u);
    for (std::size_t b = 1; b < blocks.size(); ++b) {
      if (blocks[b].title.find("a mistake every round") != std::string::npos) continue;
      for (const auto& xy : blocks[b].xy)
        if (xy.second != "NaN") plotted.insert(xy);
    }
    const auto lines = lines_of(plab::test_util::read_text(t));
    const std::size_t T = lines.size() - 2;
    std::set<std::pair<std::string, std::string>> expected;
    for (std::size_t cut = 1;; cut = std::min(2 * cut, T)) {
      const std::string p = path(name + "_cut.csv"), j = path(name + "_cut.json");
      std::ofstream(p, std::ios::binary) << join(plab::test_util::trace_prefix(lines, cut));
      const auto b = run_cli("bounds --trace " + p + " --json " + j);
      ASSERT_EQ(b.status, 0) << b.output;
      const auto json = nlohmann::json::parse(plab::test_util::read_text(j));
      for (const auto& row : json.at("bounds")) {
        const std::string kind = row.at("kind").get<std::string>();
        if (!row.at("applicable").get<bool>() || !row.at("hard").get<bool>() || kind == "reference" ||
            kind == "expectation" || row.at("value").is_null())
          continue;
        expected.emplace(plab::format_g(row.at("rounds").get<double>(), 10), plab::format_g(row.at("value").get<double>(), 10));
      }
      if (cut == T) break;
    }
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(plotted, expected);
  }
}

// A damaged or foreign trace: the same message and exit status as `plab bounds --trace`, with or
// without --bounds; a run that kept no norms is drawn, and refused with --bounds as plab bounds refuses it.
TEST_F(TracePlot, BadTracesGetTheErrorsOfPlabBounds) {
  const auto good = lines_of(plab::test_util::read_text(trace("bad_src", "--algo kernel-perceptron" + kDekel)));
  const std::vector<std::pair<std::string, std::vector<std::string>>> bad = {
      {"cut", std::vector<std::string>(good.begin(), good.begin() + 40)},
      {"cell", plab::test_util::with_cell(good, 7, "mistake", "2")},
      {"foreign", plab::test_util::with_meta(good, "/algo", "svm-light")},
      {"no_meta", std::vector<std::string>(good.begin() + 1, good.end())},
      {"label", plab::test_util::with_cell(good, 9, "y", "3")},
  };
  for (const auto& [name, ls] : bad) {
    SCOPED_TRACE(name);
    const std::string p = path("bad_" + name + ".csv");
    std::ofstream(p, std::ios::binary) << join(ls);
    const auto want = run_cli("bounds --trace " + p);
    EXPECT_EQ(want.status, 2) << want.output;
    EXPECT_NE(want.output.find(p + ":"), std::string::npos) << want.output;
    for (const std::string flags : {"", " --bounds"}) {
      const auto got = run_cli("plot " + p + flags + " -o " + path("bad_" + name + ".png"));
      EXPECT_EQ(got.status, want.status) << flags;
      EXPECT_EQ(got.output, want.output) << flags;
    }
  }
  // RBP without the bounds keeps no norms (docs/learners.md#bookkeeping).
  const std::string nb = trace("no_norms", "--algo rbp --budget 20 --no-bounds" + kDekel);
  const auto want = run_cli("bounds --trace " + nb);
  EXPECT_EQ(want.status, 2);
  EXPECT_NE(want.output.find("kept no f_norm2"), std::string::npos) << want.output;
  const auto with_bounds = run_cli("plot " + nb + " --bounds -o " + path("no_norms.png"));
  EXPECT_EQ(with_bounds.status, want.status);
  EXPECT_EQ(with_bounds.output, want.output);
  const auto curve = run_cli("plot " + nb + " -o " + path("no_norms.png"));
  EXPECT_EQ(curve.status, 0) << curve.output;
  EXPECT_TRUE(std::filesystem::exists(path("no_norms.svg")));
}

// Options that do not apply name what is wrong and exit 2, never drawing a figure.
TEST_F(TracePlot, OptionsThatDoNotApplyAreRefused) {
  const std::string a = trace("opt_a", "--algo kernel-perceptron" + kDekel), b = trace("opt_b", "--algo projectron" + kDekel);
  const std::string p = trace("opt_p", "--algo perceptron --data synthetic:dekel:n=300,seed=2");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {a + " " + b + " --bounds", "--bounds draws the bounds of one run: give one trace, got 2"},
      {a + " --bounds --metric support_size", "--bounds: the bounds are on the mistakes"},
      {a + " --metric errors", "--metric errors: expected online_error, mistakes or support_size"},
      {a + " --x time", "--x time: expected rounds or support"},
      {a + " -o fig.pdf", "-o fig.pdf: expected an image name ending in .png or .svg"},
      {p + " --x support", p + ": --x support does not apply: the primal Perceptron keeps one weight vector"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_cli("plot " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
}

// Every learner, each metric, against rounds, with and without its bounds: a figure (both images
// written), or exit 2 naming the trace and why. A support size is refused exactly for the learners
// without a support set, the bounds exactly for those without a bound family.
TEST_F(TracePlot, EveryLearnerGivesAFigureOrAMessagePerMetric) {
  for (const plab::LearnerInfo& L : plab::learners()) {
    SCOPED_TRACE(L.name);
    std::string args = "--algo " + L.name + " --data synthetic:dekel:n=80,seed=3";
    if (L.name != "perceptron") args += " --kernel rbf --gamma 1";  // the primal one is linear
    if (L.uses("budget")) args += " --budget 20";
    if (L.multiclass) args += " --labels classes";
    const std::string t = trace("every_" + L.name, args);
    const bool no_supports = L.name == "perceptron" || L.trace.no_supports;
    for (const std::string metric : {"online_error", "mistakes", "support_size"}) {
      for (const bool bounds : {false, true}) {
        if (bounds && metric == "support_size") continue;  // refused for every trace (above)
        const std::string img = path("every_" + L.name + "_" + metric + (bounds ? "_b" : "") + ".svg");
        const auto r = run_cli("plot " + t + " --metric " + metric + (bounds ? " --bounds" : "") + " -o " + img);
        const bool refused_support = metric == "support_size" && no_supports;
        if (r.status == 0) {
          EXPECT_FALSE(refused_support) << metric;
          EXPECT_GT(std::filesystem::file_size(img), 0u);
          EXPECT_GT(std::filesystem::file_size(img.substr(0, img.size() - 4) + ".png"), 0u);
          if (bounds) {
            EXPECT_FALSE(L.bounds.empty());
          }
          continue;
        }
        EXPECT_EQ(r.status, 2) << metric << r.output;
        EXPECT_NE(r.output.find(t + ": "), std::string::npos) << r.output;
        if (refused_support) {
          EXPECT_NE(r.output.find("--metric support_size does not apply"), std::string::npos) << r.output;
        } else {
          EXPECT_TRUE(bounds && r.output.find("--bounds: no bound to draw: ") != std::string::npos) << metric << r.output;
        }
      }
    }
  }
}

// --paper: a trace that reran a published curve (R2: the kernel Perceptron on the Dekel data,
// gamma = 1) is drawn with the paper's series of that learner, every digitized point of it as
// experiments/published/ holds it; another trace only gets a message.
TEST_F(TracePlot, PaperSeriesOfAMatchingFigure) {
  const std::string t = trace("paper", "--algo kernel-perceptron --data synthetic:dekel:n=10000,seed=1 --kernel rbf --gamma 1");
  const auto r = run_cli("plot " + t + " --paper --metric online_error -o " + path("paper.svg"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--paper: R2 dekel_online_error"), std::string::npos) << r.output;
  std::set<std::pair<std::string, std::string>> drawn, published;
  for (const auto& b : read_dat(path("paper.dat")))
    if (b.title.rfind("paper: ", 0) == 0 || b.title.empty()) drawn.insert(b.xy.begin(), b.xy.end());
  const auto rows = lines_of(plab::test_util::read_text(std::string(PLAB_TEST_DATA) +
                                                        "/../../experiments/published/jmlr2009/fig7a.csv"));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto c = plab::test_util::trace_cells(rows[i]);  // figure,panel,series,element,curve,x,y,...
    if (c[2] == "Perceptron" && c[3] != "annotation")
      published.emplace(plab::format_g(std::stod(c[5]), 10), plab::format_g(std::stod(c[6]), 10));
  }
  EXPECT_GT(published.size(), 100u);
  EXPECT_EQ(drawn, published);
  const auto other = run_cli("plot " + t + " --paper --metric mistakes -o " + path("paper2.svg"));
  EXPECT_EQ(other.status, 0);
  EXPECT_NE(other.output.find("the paper's curves are online error and support size against rounds"), std::string::npos);
  const auto none = run_cli("plot " + trace("paper_none", "--algo kernel-perceptron" + kDekel) +
                            " --paper --metric online_error -o " + path("paper3.svg"));
  EXPECT_EQ(none.status, 0);
  EXPECT_NE(none.output.find("no published figure ran this data set, learner and options"), std::string::npos);
}
