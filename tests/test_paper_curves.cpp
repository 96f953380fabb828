// The paper-curve verdict (experiments/report/paper_curves.hpp, docs/report.md#paper-curves) on hand
// fixtures: every expected number below is computed by hand from the rule in the docs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "experiments/report/figure_csv.hpp"
#include "experiments/report/paper_curves.hpp"
#include "test_util.hpp"

namespace plab {
namespace {

using nlohmann::json;
using test_util::TempDir;

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

const char* kHeader = "figure,panel,series,element,curve,x,y,y_err_low,y_err_high,text\n";

// A panel of a final plot: three RBP error bars, PA-I's reference line and its annotation.
std::string final_panel() {
  return std::string(kHeader) +
         "8,b,RBP,errorbar,0,150,0.26,0.25,0.27,\n"
         "8,b,RBP,errorbar,0,190,0.30,0.29,0.31,\n"
         "8,b,RBP,errorbar,0,250,0.20,0.19,0.21,\n"
         "8,b,PA-I,refline,0,1,0.11,,,\n"
         "8,b,PA-I,refline,0,900,0.11,,,\n"
         "8,b,PA-I,annotation,0,1015,,,,\"Size of the support set = 1015+-5\"\n";
}

struct Fixture {
  TempDir dir{"paper_curves"};
  Spec spec;
  std::vector<Group> groups;

  explicit Fixture(const std::string& panel, const std::string& type = "final") {
    std::filesystem::create_directories(dir.p / "published");
    write(dir.p / "published" / "p.csv", panel);
    write(dir.p / "published" / "manifest.json",
          R"({"panels": {"p": {"drawing_grid_data": {"x": 2, "y": 0.001}}}})");
    json plot = {{"id", "pl"}, {"type", type}, {"dataset", "d"},
                 {"paper", {{"file", "published/p.csv"},
                            {"series", {{"RBP", "rbp"}, {"PA-I", "pa1"}}},
                            {"annotation", {{"algorithm", "pa1"}, {"note", "by elimination"}}}}}};
    if (type == "curve") plot.erase("type");
    const json j = {{"figure", "F"},
                    {"datasets", {{{"id", "d"}, {"data", "synthetic:dekel:n=10"}}}},
                    {"algorithms", {{{"id", "rbp"}, {"algo", "rbp"}, {"params", {{"budget", {100, 200}}}}},
                                    {{"id", "pa1"}, {"algo", "pa1"}}}},
                    {"plots", {plot}}};
    spec = parse_spec(j, false, (dir.p / "F.json").string());
  }

  // RBP at budgets 100 (0.30 +- 0.01) and 200 (0.20 +- 0.02).
  void add_rbp_budgets() {
    add("rbp", 100, 0, 0.30, 0.01);
    add("rbp", 200, 0, 0.20, 0.02);
    groups[groups.size() - 2].point = {{"budget", 100}};
    groups.back().point = {{"budget", 200}};
  }

  json judge(json* points) const {
    const PaperPanel panel = read_paper_panel(spec.plots[0].paper->path);
    return judge_paper_plot(spec, spec.plots[0], panel, groups, points);
  }

  void add(const std::string& algo, double support, double support_std, double err, double err_std) {
    Group g;
    g.dataset = "d"; g.algo_id = algo; g.algo = algo; g.label = algo;
    g.stats["support_size"] = {support, support_std, 5};
    g.stats["online_error"] = {err, err_std, 5};
    groups.push_back(g);
  }
};

TEST(PaperCurves, ReadsAPanelAndItsPrecision) {
  Fixture f(final_panel());
  const PaperPanel p = read_paper_panel(f.spec.plots[0].paper->path);
  ASSERT_EQ(p.points.size(), 6u);
  EXPECT_EQ(p.points[0].series, "RBP");
  EXPECT_EQ(p.points[0].element, "errorbar");
  EXPECT_DOUBLE_EQ(p.points[0].lo, 0.25);
  EXPECT_TRUE(std::isnan(p.points[3].lo));
  EXPECT_EQ(p.points[5].text, "Size of the support set = 1015+-5");
  EXPECT_EQ(p.points[5].line, 7u);
  EXPECT_DOUBLE_EQ(p.dx, 2.0);
  EXPECT_DOUBLE_EQ(p.dy, 0.001);
}

TEST(PaperCurves, MalformedPanelsNameFileAndLine) {
  const auto message = [](const std::string& text, const std::string& manifest) {
    TempDir d("paper_bad");
    write(d.p / "p.csv", text);
    write(d.p / "manifest.json", manifest);
    try {
      read_paper_panel((d.p / "p.csv").string());
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string ok = R"({"panels": {"p": {"drawing_grid_data": {"x": 1, "y": 1}}}})";
  EXPECT_NE(message(std::string(kHeader) + "8,b,RBP,errorbar,0,nan,0.2,,,\n", ok).find("p.csv:2 (x)"), std::string::npos);
  EXPECT_NE(message(std::string(kHeader) + "8,b,RBP,bar,0,1,0.2,,,\n", ok).find("p.csv:2: element"), std::string::npos);
  EXPECT_NE(message(std::string(kHeader) + "8,b,RBP,line,0,1\n", ok).find("p.csv:2: 6 fields"), std::string::npos);
  EXPECT_NE(message("x,y\n", ok).find("p.csv:1: header"), std::string::npos);
  EXPECT_NE(message(std::string(kHeader), "{}").find("drawing_grid_data"), std::string::npos);
}

TEST(PaperCurves, FinalPlotVerdictsFollowTheRule) {
  Fixture f(final_panel());
  f.add_rbp_budgets();
  f.add("pa1", 1000, 10, 0.10, 0.005);
  json points = json::array();
  const json rows = f.judge(&points);
  ASSERT_EQ(rows.size(), 3u);
  // RBP at x = 150: ours 0.25 +- 0.015, s_paper 0.01, slope -0.001 per support:
  // tol = 2 sqrt(0.015^2 + 0.01^2) + 0.001 + 0.001 * 2 = 0.0390555; |dev| = 0.01: within.
  EXPECT_NEAR(points[0]["tolerance"].get<double>(), 2 * std::sqrt(0.015 * 0.015 + 0.0001) + 0.003, 1e-12);
  EXPECT_EQ(points[0]["within"], 1);
  // RBP at x = 190: ours 0.21 +- 0.019, paper 0.30: |dev| 0.09 > 0.0459: not within.
  EXPECT_NEAR(points[1]["deviation"].get<double>(), -0.09, 1e-12);
  EXPECT_EQ(points[1]["within"], 0);
  // RBP at x = 250: past our largest budget: not judged, never extrapolated.
  EXPECT_TRUE(points[2]["within"].is_null());
  EXPECT_EQ(rows[0]["series"], "RBP");
  EXPECT_EQ(rows[0]["judged"], 2);
  EXPECT_EQ(rows[0]["within"], 1);
  EXPECT_EQ(rows[0]["outside"], 1);
  EXPECT_EQ(rows[0]["verdict"], "not matched");
  EXPECT_NEAR(rows[0]["max_deviation"].get<double>(), 0.09, 1e-12);
  EXPECT_DOUBLE_EQ(rows[0]["at_x"].get<double>(), 190.0);
  // PA-I's reference line against our single point: tol = 2 * 0.005 + 0.001, |dev| = 0.01.
  EXPECT_EQ(rows[1]["series"], "PA-I");
  EXPECT_EQ(rows[1]["within"], 2);
  EXPECT_EQ(rows[1]["verdict"], "matched");
  // The annotation against PA-I's support: tol = 2 sqrt(10^2 + 5^2) + 0.5 = 22.86, |dev| = 15.
  EXPECT_EQ(rows[2]["series"], "PA-I (support-size annotation)");
  EXPECT_EQ(rows[2]["verdict"], "matched");
  EXPECT_EQ(rows[2]["note"], "by elimination");
  EXPECT_NEAR(points[5]["tolerance"].get<double>(), 2 * std::sqrt(125.0) + 0.5, 1e-12);
}

// Several curves of one series (one per permutation, Figures 8-9): s_paper is their std at x.
TEST(PaperCurves, TheSpreadOfSeveralPaperCurvesIsTheirStdAtX) {
  Fixture f(std::string(kHeader) + "8,b,RBP,line,0,100,0.2,,,\n8,b,RBP,line,0,200,0.1,,,\n"
                                   "8,b,RBP,line,1,100,0.3,,,\n8,b,RBP,line,1,200,0.2,,,\n");
  f.add_rbp_budgets();
  json points = json::array();
  f.judge(&points);
  // x = 100: the curves give 0.2 and 0.3, std sqrt(2 * 0.05^2) = 0.0707; ours 0.30 +- 0.01 at our
  // first point (no slope there): tol = 2 sqrt(0.01^2 + 0.005) + 0.001.
  EXPECT_NEAR(points[0]["paper_spread"].get<double>(), std::sqrt(0.005), 1e-12);
  EXPECT_NEAR(points[0]["tolerance"].get<double>(), 2 * std::sqrt(0.0001 + 0.005) + 0.001, 1e-12);
  EXPECT_EQ(points[0]["within"], 1);  // |0.30 - 0.2| = 0.1 < 0.1438
}

// The per-point evidence is a gzip file (Figures 6-7: 25000 points), identical for identical input.
TEST(PaperCurves, EveryPointGoesToACompressedCsv) {
  Fixture f(final_panel());
  f.add_rbp_budgets();
  f.add("pa1", 1000, 10, 0.10, 0.005);
  json points = json::array();
  f.judge(&points);
  write_paper_points_csv(f.spec, points, (f.dir.p / "a").string());
  write_paper_points_csv(f.spec, points, (f.dir.p / "b").string());
  const std::string gz = (f.dir.p / "a" / "paper_points.csv.gz").string();
  EXPECT_EQ(test_util::read_text(gz), test_util::read_text(f.dir.p / "b" / "paper_points.csv.gz"));
  FILE* p = popen(("gzip -dc " + gz).c_str(), "r");
  std::string text;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  ASSERT_EQ(pclose(p), 0);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "figure,plot,series,element,curve,x,paper,paper_spread,ours_mean,ours_std,tolerance,deviation,within");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 7);  // header + 6 points
  EXPECT_NE(text.find("F,pl,RBP,errorbar,0,190,0.3,0.01,"), std::string::npos) << text;
}

TEST(PaperCurves, CurvePlotsInterpolateOurCurveInT) {
  Fixture f(std::string(kHeader) + "6,a,RBP,line,0,150,0.25,,,\n6,a,RBP,line,0,50,0.9,,,\n6,a,RBP,marker,0,200,0.17,,,\n",
            "curve");
  f.add("rbp", 0, 0, 0, 0);
  f.groups[0].t = {100, 200};
  f.groups[0].curves["online_error"] = {{0.3, 0.02, 5}, {0.2, 0.01, 5}};
  json points = json::array();
  const json rows = f.judge(&points);
  // x = 150: ours 0.25 +- 0.015; tol = 2 * 0.015 + 0.001 + 0.001 * 2.
  EXPECT_NEAR(points[0]["tolerance"].get<double>(), 0.033, 1e-12);
  EXPECT_EQ(points[0]["within"], 1);
  EXPECT_TRUE(points[1]["within"].is_null());  // x = 50: before our first sample
  // x = 200, the last sample: 0.17 against 0.2 +- 0.01: tol = 0.02 + 0.001 + 0.002 < 0.03.
  EXPECT_EQ(points[2]["within"], 0);
  EXPECT_EQ(rows[0]["verdict"], "not matched");
}

TEST(PaperCurves, PublishedValuesComeFromThePanel) {
  Fixture f(final_panel() + "8,b,RBP,line,0,100,0.4,,,\n8,b,RBP,line,0,300,0.3,,,\n8,b,RBP,line,0,200,0.35,,,\n");
  PaperPanels panels;
  panels.panels.emplace("pl", read_paper_panel(f.spec.plots[0].paper->path));
  const PaperValue a = paper_value(f.spec, {"pl", "", "annotation"}, panels);
  EXPECT_DOUBLE_EQ(a.value, 1015.0);
  ASSERT_TRUE(a.std);
  EXPECT_DOUBLE_EQ(*a.std, 5.0);
  EXPECT_DOUBLE_EQ(paper_value(f.spec, {"pl", "PA-I", "refline"}, panels).value, 0.11);
  EXPECT_DOUBLE_EQ(paper_value(f.spec, {"pl", "PA-I", "refline_end"}, panels).value, 900.0);
  EXPECT_DOUBLE_EQ(paper_value(f.spec, {"pl", "RBP", "line"}, panels).value, 0.3);  // the largest x
  EXPECT_THROW(paper_value(f.spec, {"pl", "MRBP", "line"}, panels), std::invalid_argument);
  EXPECT_THROW(paper_value(f.spec, {"other", "RBP", "line"}, panels), std::invalid_argument);
}

TEST(PaperCurves, PaperSeriesAreDashedAndTitledOnce) {
  Fixture f(final_panel());
  const PaperPanel panel = read_paper_panel(f.spec.plots[0].paper->path);
  FigurePlot p = f.spec.plots[0];
  p.y_scale = 100;
  const auto series = paper_series(f.spec, p, panel);
  ASSERT_EQ(series.size(), 2u);  // RBP's error bars, PA-I's reference line (annotations are text)
  EXPECT_EQ(series[0].title, "paper: RBP");
  EXPECT_EQ(series[0].style, "paper_errorbars");
  EXPECT_EQ(series[0].color_key, "rbp");
  ASSERT_EQ(series[0].yerr.size(), 3u);
  EXPECT_NEAR(series[0].yerr[0], 1.0, 1e-12);  // half of 0.27 - 0.25, times the plot's 100
  EXPECT_EQ(series[1].style, "paper_lines");
  EXPECT_EQ(series[1].x.size(), 2u);
}

TEST(PaperCurves, SpecErrorsNameThePointer) {
  const json base = {{"figure", "F"},
                     {"datasets", {{{"id", "d"}, {"data", "synthetic:dekel:n=10"}}}},
                     {"algorithms", {{{"id", "pa1"}, {"algo", "pa1"}}}}};
  json j = base;
  j["plots"] = {{{"id", "pl"}, {"paper", {{"file", "x.csv"}, {"series", {{"PA-I", "pa2"}}}}}}};
  EXPECT_THROW(parse_spec(j, false, "s.json"), std::invalid_argument);
  j = base;
  j["plots"] = {{{"id", "pl"}, {"paper", {{"file", "x.csv"}}}}};
  j["published"] = {{{"algorithm", "pa1"}, {"metric", "online_error"}, {"value", {{"plot", "nope"}, {"element", "refline"}, {"series", "PA-I"}}}}};
  try {
    parse_spec(j, false, "s.json");
    FAIL() << "accepted a published value from an unknown plot";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/published/0/value/plot"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace plab
