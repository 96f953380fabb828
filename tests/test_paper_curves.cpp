// The paper-curve verdict (experiments/report/paper_curves.hpp, point_judge.hpp,
// docs/report.md#paper-curves) on hand fixtures: every expected number below is computed by hand
// from the rule in the docs.
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

struct CurveFixture {
  TempDir dir{"paper_curves"};
  Spec spec;
  std::vector<Group> groups;

  // rbp_drawn: what the paper drew for RBP ("run" or "mean"); PA-I is a mean of 5.
  explicit CurveFixture(const std::string& panel, const std::string& type = "final", const std::string& rbp_drawn = "mean") {
    std::filesystem::create_directories(dir.p / "published");
    write(dir.p / "published" / "p.csv", panel);
    const json drawn = {{"RBP", {{"kind", rbp_drawn}, {"n", 5}, {"evidence", "fixture"}}},
                        {"PA-I", {{"kind", "mean"}, {"n", 5}, {"evidence", "fixture"}}}};
    write(dir.p / "published" / "manifest.json",
          json{{"panels", {{"p", {{"drawing_grid_data", {{"x", 2}, {"y", 0.001}}}, {"drawn", drawn}}}}}}.dump());
    json plot = {{"id", "pl"}, {"type", type}, {"dataset", "d"},
                 {"paper", {{"file", "published/p.csv"},
                            {"series", {{"RBP", "rbp"}, {"PA-I", "pa1"}}},
                            {"notes", {{"RBP", "a note on RBP"}}},
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
  CurveFixture f(final_panel());
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
  const std::string ok =
      R"({"panels": {"p": {"drawing_grid_data": {"x": 1, "y": 1}, "drawn": {"RBP": {"kind": "run", "n": 1}}}}})";
  EXPECT_NE(message(std::string(kHeader) + "8,b,RBP,errorbar,0,nan,0.2,,,\n", ok).find("p.csv:2 (x)"), std::string::npos);
  EXPECT_NE(message(std::string(kHeader) + "8,b,RBP,bar,0,1,0.2,,,\n", ok).find("p.csv:2: element"), std::string::npos);
  EXPECT_NE(message(std::string(kHeader) + "8,b,RBP,line,0,1\n", ok).find("p.csv:2: 6 fields"), std::string::npos);
  EXPECT_NE(message("x,y\n", ok).find("p.csv:1: header"), std::string::npos);
  EXPECT_NE(message(std::string(kHeader), "{}").find("drawing_grid_data"), std::string::npos);
  const std::string row = std::string(kHeader) + "8,b,RBP,line,0,1,0.2,,,\n";
  EXPECT_NE(message(row, R"({"panels": {"p": {"drawing_grid_data": {"x": 1, "y": 1}}}})").find("drawn/RBP missing"),
            std::string::npos);
  EXPECT_NE(message(row, R"({"panels": {"p": {"drawing_grid_data": {"x": 1, "y": 1}, "drawn": {"RBP": {"kind": "avg", "n": 1}}}}})")
                .find("drawn/RBP: needs"),
            std::string::npos);
}

TEST(PaperCurves, FinalPlotVerdictsFollowTheRule) {
  CurveFixture f(final_panel());
  f.add_rbp_budgets();
  f.add("pa1", 1000, 10, 0.10, 0.005);
  json points = json::array();
  const json rows = f.judge(&points);
  ASSERT_EQ(rows.size(), 3u);
  // RBP (a mean of 5 with bars, s_paper 0.01) at x = 150: ours 0.25 +- 0.015 over 5, slope -0.001
  // per support: grid 0.001 + 0.001 * 2 = 0.003, |dev| 0.01, d = sqrt(0.01^2/5 + 0.015^2/5),
  // t = 0.007 / 0.0080623 = 0.86824 with Welch's 6.969 degrees of freedom: z = 0.8165989 (the normal
  // quantile of t's upper tail; numbers from scipy.stats, not from the code under test).
  EXPECT_NEAR(points[0]["z"].get<double>(), 0.8165989085948716, 1e-7);
  EXPECT_EQ(points[0]["within"], 1);
  // x = 190: ours 0.21 +- 0.019, paper 0.30: t = 0.087 / sqrt((0.0001 + 0.000361)/5) = 9.0605,
  // 6.058 degrees of freedom: z = 3.9006344.
  EXPECT_NEAR(points[1]["deviation"].get<double>(), -0.09, 1e-12);
  EXPECT_NEAR(points[1]["z"].get<double>(), 3.9006343868710913, 1e-7);
  EXPECT_EQ(points[1]["within"], 0);
  // x = 250: past our largest budget by more than a grid step: not judged, never extrapolated.
  EXPECT_TRUE(points[2]["within"].is_null());
  EXPECT_EQ(points[2]["not_judged"], "x outside our range [100, 200]");
  EXPECT_EQ(rows[0]["series"], "RBP");
  EXPECT_EQ(rows[0]["drawn"], "mean of 5");
  EXPECT_EQ(rows[0]["judged"], 2);
  EXPECT_EQ(rows[0]["within"], 1);
  EXPECT_EQ(rows[0]["outside"], 1);
  EXPECT_NEAR(rows[0]["rms_z"].get<double>(), 2.817958693590056, 1e-7);
  EXPECT_EQ(rows[0]["verdict"], "differs");
  EXPECT_EQ(rows[0]["direction"], "ours below");
  EXPECT_DOUBLE_EQ(rows[0]["at_x"].get<double>(), 190.0);
  ASSERT_EQ(rows[0]["not_judged"].size(), 1u);
  EXPECT_EQ(rows[0]["not_judged"][0]["count"], 1);
  EXPECT_EQ(rows[0]["note"], "a note on RBP");  // the series' note from "notes"
  EXPECT_FALSE(rows[1].contains("note"));      // PA-I has none
  // PA-I's reference line (a mean of 5, no printed spread: ours stands in) against our single point:
  // its second vertex repeats the first; d = 0.005 sqrt(2/5), t = 0.009 / 0.0031623 = 2.846 with our
  // 4 degrees of freedom: z = 1.9900855 <= 2, consistent.
  EXPECT_EQ(rows[1]["series"], "PA-I");
  EXPECT_EQ(rows[1]["judged"], 1);
  EXPECT_EQ(rows[1]["duplicates"], 1);
  EXPECT_EQ(points[4]["not_judged"], "repeats the number at line 5 of the panel file");
  EXPECT_NEAR(points[3]["z"].get<double>(), 1.990085501393156, 1e-7);
  EXPECT_EQ(rows[1]["verdict"], "consistent");
  // The annotation 1015 +- 5 against PA-I's support 1000 +- 10 over 5: d = sqrt(25/5 + 100/5) = 5,
  // t = (15 - 0.5) / 5 = 2.9 with 5.882 degrees of freedom: z = 2.1978213 > 2.1.
  EXPECT_EQ(rows[2]["series"], "PA-I (support-size annotation)");
  EXPECT_NEAR(points[5]["z"].get<double>(), 2.197821278554593, 1e-7);
  EXPECT_EQ(rows[2]["verdict"], "differs");
  EXPECT_EQ(rows[2]["note"], "by elimination");
}

// A point within one drawing-grid step past our range's end is judged at the end.
TEST(PaperCurves, APointAtOurRangesEndIsJudged) {
  CurveFixture f(std::string(kHeader) + "8,b,RBP,errorbar,0,201.5,0.20,0.19,0.21,\n8,b,RBP,errorbar,0,98.5,0.30,0.29,0.31,\n");
  f.add_rbp_budgets();
  json points = json::array();
  const json rows = f.judge(&points);
  EXPECT_EQ(rows[0]["judged"], 2);
  EXPECT_EQ(points[0]["z"].get<double>(), 0.0);  // 0.20 against ours 0.20 at x = 200
  EXPECT_EQ(points[1]["z"].get<double>(), 0.0);
  EXPECT_EQ(rows[0]["verdict"], "consistent");
}

// One curve per permutation (Figures 8-9): each is one run, against our single-run spread.
TEST(PaperCurves, PerPermutationCurvesAreSingleRuns) {
  CurveFixture f(std::string(kHeader) + "8,b,RBP,line,0,100,0.2,,,\n8,b,RBP,line,0,200,0.1,,,\n"
                                   "8,b,RBP,line,1,100,0.3,,,\n8,b,RBP,line,1,200,0.2,,,\n",
            "final", "run");
  f.add_rbp_budgets();
  json points = json::array();
  const json rows = f.judge(&points);
  // x = 100: ours 0.30 +- 0.01 over 5 at our first point (no slope): d = 0.01 sqrt(1 + 1/5),
  // t = (0.1 - 0.001) / d = 9.0373 with 4 degrees of freedom: z = 3.3424304; the second curve's 0.3
  // there: z = 0.
  EXPECT_TRUE(points[0]["paper_spread"].is_null());
  EXPECT_NEAR(points[0]["z"].get<double>(), 3.342430387624209, 1e-7);
  EXPECT_EQ(points[2]["z"].get<double>(), 0.0);
  EXPECT_EQ(rows[0]["drawn"], "one run");
}

// The per-point evidence is a gzip file (Figures 6-7: 25000 points), identical for identical input.
TEST(PaperCurves, EveryPointGoesToACompressedCsv) {
  CurveFixture f(final_panel());
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
            "figure,plot,series,element,curve,x,paper,paper_spread,ours_mean,ours_std,z,deviation,within,not_judged");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 7);  // header + 6 points
  EXPECT_NE(text.find("F,pl,RBP,errorbar,0,190,0.3,0.01,"), std::string::npos) << text;
}

TEST(PaperCurves, CurvePlotsInterpolateOurCurveInT) {
  CurveFixture f(std::string(kHeader) + "6,a,RBP,line,0,150,0.25,,,\n6,a,RBP,line,0,50,0.9,,,\n6,a,RBP,marker,0,200,0.17,,,\n"
                                   "6,a,RBP,marker,0,151,0.2505,,,\n",
            "curve", "run");
  f.add("rbp", 0, 0, 0, 0);
  f.groups[0].t = {100, 200};
  f.groups[0].curves["online_error"] = {{0.3, 0.02, 5}, {0.2, 0.01, 5}};
  json points = json::array();
  const json rows = f.judge(&points);
  EXPECT_EQ(points[0]["z"].get<double>(), 0.0);  // x = 150: ours 0.25, the paper's 0.25
  EXPECT_EQ(points[1]["not_judged"], "x outside our range [100, 200]");  // x = 50: before our first sample
  // x = 200, the last sample: 0.17 against 0.2 +- 0.01, slope -0.001: grid 0.003,
  // d = 0.01 sqrt(1.2), t = 0.027 / 0.0109545 = 2.4648 with 4 degrees of freedom: z = 1.8162211.
  EXPECT_NEAR(points[2]["z"].get<double>(), 1.8162210915667172, 1e-7);
  EXPECT_EQ(points[2]["within"], 1);
  // The marker at x = 151 sits on the line's vertex at 150 (one grid step): the same number, once.
  EXPECT_EQ(points[3]["not_judged"], "repeats the number at line 2 of the panel file");
  EXPECT_EQ(rows[0]["points"], 4);
  EXPECT_EQ(rows[0]["duplicates"], 1);
  EXPECT_EQ(rows[0]["judged"], 2);
  // rms z = 1.8162211 / sqrt(2).
  EXPECT_NEAR(rows[0]["rms_z"].get<double>(), 1.2842622499808591, 1e-7);
  EXPECT_EQ(rows[0]["verdict"], "consistent");
}

TEST(PaperCurves, PublishedValuesComeFromThePanel) {
  CurveFixture f(final_panel() + "8,b,RBP,line,0,100,0.4,,,\n8,b,RBP,line,0,300,0.3,,,\n8,b,RBP,line,0,200,0.35,,,\n");
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
  CurveFixture f(final_panel());
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
  j = base;  // a note on a paper series that "series" does not name
  j["plots"] = {{{"id", "pl"}, {"paper", {{"file", "x.csv"}, {"series", {{"PA-I", "pa1"}}}, {"notes", {{"RBP", "n"}}}}}}};
  try {
    parse_spec(j, false, "s.json");
    FAIL() << "accepted a note on an unknown paper series";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/plots/0/paper/notes/RBP"), std::string::npos) << e.what();
  }
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
