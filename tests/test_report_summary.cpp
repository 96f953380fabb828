// The report's first screen (docs/report.md): the summary and failure list built from a fixture
// of cells whose counts are worked out by hand below, the anchors its links point to, compact
// claim cells with the evidence in claims.csv, the 300-character limit on table cells, the
// README's figure table drawn from the same rows, and the provenance of the source tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>

#include "core/file_io.hpp"
#include "experiments/report/aggregate.hpp"
#include "experiments/report/report.hpp"
#include "experiments/report/report_format.hpp"
#include "experiments/report/report_md.hpp"
#include "experiments/report/report_summary.hpp"
#include "experiments/version.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using nlohmann::json;
namespace fs = std::filesystem;
using plab::test_util::read_text;
using plab::test_util::TempDir;

namespace {

// Three algorithms on one data set: `a` (2 permutations), `b` (a budget grid of 2 points x 2
// permutations), `c` (its only cell failed).
json fixture_spec() {
  return json::parse(R"({
    "figure": "FIX", "title": "FIX: a fixture figure", "permutations": 2,
    "datasets": [{"id": "d", "data": "synthetic:dekel:n=50,seed=1"}],
    "algorithms": [
      {"id": "a", "algo": "kernel-perceptron", "label": "A"},
      {"id": "b", "algo": "rbp", "label": "B", "params": {"budget": [5, 10]}},
      {"id": "c", "algo": "stoptron", "label": "C", "params": {"budget": 5}}
    ],
    "plots": [{"id": "err", "type": "curve", "metric": "online_error"}],
    "published": [
      {"algorithm": "a", "metric": "online_error", "value": 0.1, "tol_abs": 0.01, "source": "Tab. 1"},
      {"algorithm": "a", "metric": "mistakes", "value": 100, "tol": 0.05, "source": "Tab. 1", "note": "a note on it"},
      {"algorithm": "c", "metric": "online_error", "value": 0.2, "tol_abs": 0.01, "source": "Tab. 1"},
      {"algorithm": "a", "metric": "seconds", "value": 35, "source": "Tab. 1"}
    ],
    "claims": [
      {"claim": "B errs less than 30% at every budget", "checks": [{"a": {"algorithm": "b", "metric": "online_error"}, "op": "<", "b": 0.3}]},
      {"claim": "A makes fewer than 110 mistakes", "checks": [{"a": {"algorithm": "a", "metric": "mistakes"}, "op": "<", "b": 110}]},
      {"claim": "C errs less than A", "checks": [{"a": {"algorithm": "c", "metric": "online_error"}, "op": "<", "b": {"algorithm": "a", "metric": "online_error"}}]},
      {"claim": "A errs less than B at budget 10, and less than 20%", "checks": [
        {"a": {"algorithm": "a", "metric": "online_error"}, "op": "<", "b": {"algorithm": "b", "metric": "online_error", "point": {"budget": 10}}},
        {"a": {"algorithm": "a", "metric": "online_error"}, "op": "<", "b": 0.2}]}
    ]
  })");
}

json bound_row(const std::string& id, double value, double empirical, bool holds, bool vacuous) {
  return {{"id", id}, {"name", "Bound " + id}, {"tag", "[M]"}, {"kind", "a_priori"}, {"applicable", true},
          {"hard", false}, {"value", value}, {"empirical", empirical}, {"holds", holds}, {"vacuous", vacuous},
          {"rounds", 1000}};
}

CellOutcome outcome(const std::string& algo, int perm, std::size_t point, const json& results, double seconds,
                    const json& bounds = json::array()) {
  CellOutcome o;
  o.cell.figure = "FIX";
  o.cell.dataset = "d";
  o.cell.algo_id = algo;
  o.cell.perm = perm;
  o.cell.point_index = point;
  o.cell.point = algo == "b" ? json{{"budget", point == 0 ? 5 : 10}} : json::object();
  o.doc = {{"results", results},
           {"curve", {{"t", {1000}}, {"online_error", {results.value("online_error", 0.0)}}, {"support_size", {1}}}},
           {"bounds", bounds}};
  o.seconds = seconds;
  return o;
}

// The fixture's cells. Means over permutations: a errs (0.10 + 0.11) / 2 = 0.105 (within 0.01 of
// 0.1) with (110 + 130) / 2 = 120 mistakes (not within 5% of 100, not < 110); b[5] 0.25, b[10] 0.15.
std::vector<CellOutcome> fixture_cells() {
  std::vector<CellOutcome> v;
  v.push_back(outcome("a", 0, 0, {{"online_error", 0.10}, {"mistakes", 110}},  0.5,
                      json::array({bound_row("x", 200, 110, true, false), bound_row("y", 120, 110, true, true)})));
  v.push_back(outcome("a", 1, 0, {{"online_error", 0.11}, {"mistakes", 130}}, 0.25,
                      json::array({bound_row("x", 200, 130, true, false), bound_row("y", 120, 130, false, false)})));
  v.push_back(outcome("b", 0, 0, {{"online_error", 0.24}}, 0.125));
  v.push_back(outcome("b", 1, 0, {{"online_error", 0.26}}, 0.125));
  v.push_back(outcome("b", 0, 1, {{"online_error", 0.14}}, 1.0));
  v.push_back(outcome("b", 1, 1, {{"online_error", 0.16}}, 1.0));
  CellOutcome failed = outcome("c", 0, 0, json::object(), std::nan(""));
  failed.doc = nullptr;
  failed.error = "boom";
  v.push_back(failed);
  return v;
}

struct SummaryFixture {
  TempDir dir{"report_summary"};
  std::vector<Spec> specs;
  std::vector<std::vector<Group>> groups;
  std::vector<FigureOutputs> outs;
  explicit SummaryFixture(const std::string& long_claim = "") {
    json j = fixture_spec();
    if (!long_claim.empty())  // a claim text longer than a table cell
      j["claims"].push_back({{"claim", long_claim},
                             {"checks", json::array({{{"a", {{"algorithm", "b"}, {"metric", "online_error"}}},
                                                      {"op", "<"}, {"b", 1}}})}});
    specs.push_back(parse_spec(j, false, "fixture"));
    groups.push_back(aggregate(specs[0], fixture_cells()));
    outs.push_back(write_figure(specs[0], groups[0], dir.p.string(), false));
  }
};

// Cells of every Markdown table line (split at '|' not escaped as "\|").
std::vector<std::string> table_cells(const std::string& md) {
  std::vector<std::string> cells;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '|') continue;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') { cells.push_back(cell); cell.clear(); }
      else cell += line[i];
    }
  }
  return cells;
}

std::size_t code_points(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

TEST(ReportSummary, CountsOfAFixtureFigure) {
  SummaryFixture f;
  const FigureSummary s = summarize_figure(f.specs[0], f.groups[0], f.outs[0]);
  EXPECT_EQ(s.title, "a fixture figure");  // the "FIX: " prefix is dropped
  EXPECT_EQ(s.thumbnail, "FIX/err");
  // published: a online_error 0.105 vs 0.1 ± 0.01 confirmed; a mistakes 120 vs 100 ± 5% not
  // confirmed; c: no result; seconds: no verdict, not counted.
  EXPECT_EQ(s.published_judged, 3u);
  EXPECT_EQ(s.published_matched, 1u);
  // claims: b 0.25, 0.15 < 0.3 confirmed; a 120 < 110 not confirmed; c not evaluated;
  // a 0.105 < b[10] 0.15 and < 0.2 confirmed.
  EXPECT_EQ(s.claims_total, 4u);
  EXPECT_EQ(s.claims_confirmed, 2u);
  // bounds: a's x holds twice, y once (one of them vacuous).
  EXPECT_EQ(s.bound_rows, 4u);
  EXPECT_EQ(s.bound_held, 3u);
  EXPECT_EQ(s.bound_vacuous, 1u);
  EXPECT_EQ(s.cells, 7u);
  EXPECT_EQ(s.cells_failed, 1u);
  EXPECT_DOUBLE_EQ(s.seconds, 0.5 + 0.25 + 0.125 + 0.125 + 1.0 + 1.0);
  std::vector<std::string> anchors;
  for (const auto& p : s.problems) anchors.push_back(p.anchor);
  EXPECT_EQ(anchors, (std::vector<std::string>{"FIX-published-2", "FIX-published-3", "FIX-claim-2", "FIX-claim-3",
                                               "FIX-bound-2", "FIX-failed"}));
  // a's mistakes: sample std of (110, 130) = sqrt(2 * 10^2 / 1) = 14.1.
  EXPECT_EQ(s.problems[0].text,
            "published d A mistakes: paper 100, ours 120 ± 14.1: not confirmed (tolerance 5% relative)");
  EXPECT_EQ(s.problems[1].text, "published d C online_error: paper 20.00%, ours –: no result");
  EXPECT_EQ(s.problems[2].text, "claim \"A makes fewer than 110 mistakes\": not confirmed: A mistakes 120 < 110 ✗");
  EXPECT_EQ(s.problems[3].text, "claim \"C errs less than A\": not evaluated (missing results)");
  EXPECT_EQ(s.problems[4].text, "d A: bound Bound y [M] holds in 1/2 permutations");
  EXPECT_EQ(s.problems[5].text, "1 failed cell(s)");
  // JSON round trip (results/figures.json is what the README table is drawn from).
  const FigureSummary back = figure_summary_from_json(to_json(s));
  EXPECT_EQ(to_json(back), to_json(s));
}

TEST(ReportSummary, TableAndFailureListLinkToRowsOfTheReport) {
  SummaryFixture f;
  const std::string md = report_markdown(f.specs, f.groups, f.outs, TreeState{"abc123", true, {}}, "header\n");
  EXPECT_EQ(md.substr(0, md.find('\n')), "# Reproduction report — commit `abc123` (clean tree)");
  const std::string row = "| [FIX](#FIX) | a fixture figure | **1/3** | – | **2/4** | **3/4**, 1 vacuous | "
                          "<a href=\"#FIX\"><img src=\"FIX/err.png\" alt=\"FIX\" width=\"120\"></a> | "
                          "7 cells (**1 failed**), 3.0 s |";
  EXPECT_NE(md.find(row), std::string::npos) << md.substr(0, 1500);
  EXPECT_NE(md.find("**Not confirmed, not evaluated or failed (6):**"), std::string::npos);
  // Every link of the failure list has its anchor in the report, and comes before the sections.
  const std::regex link(R"(^- \[FIX\]\(#([A-Za-z0-9-]+)\) )");
  std::size_t links = 0;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, link)) continue;
    ++links;
    EXPECT_NE(md.find("<a name=\"" + m[1].str() + "\"></a>"), std::string::npos) << m[1];
    EXPECT_LT(md.find(line), md.find("## <a name=\"FIX\"></a>"));
  }
  EXPECT_EQ(links, 6u);
  // A published number's note stands beside its verdict.
  EXPECT_NE(md.find("| not confirmed (tolerance 5% relative); a note on it |"), std::string::npos);
  EXPECT_NE(md.find("<a name=\"FIX-claim-2\"></a>A makes fewer than 110 mistakes | **not confirmed**, "
                    "A mistakes 120 < 110 ✗ |"),
            std::string::npos);
}

// Paper series (docs/report.md#paper-curves): series consistent over series with a judged point,
// points within over judged, judged over published (a repeated number once); a series that
// differs and an unavailable data set are problems.
TEST(ReportSummary, PaperPointsAndUnavailableDataAreCountedAndListed) {
  SummaryFixture f;
  Spec s = f.specs[0];
  s.unavailable["news20"] = "not on the data search path";
  FigureOutputs out = f.outs[0];
  out.paper = json::array({{{"plot", "err"}, {"series", "RBP"}, {"drawn", "mean of 5"}, {"points", 6}, {"duplicates", 1},
                            {"judged", 4}, {"within", 3}, {"rms_z", 2.5}, {"max_z", 4.0}, {"at_x", 150.0},
                            {"direction", "ours above"}, {"verdict", "differs"}},
                           {{"plot", "err"}, {"series", "PA-I"}, {"points", 2}, {"duplicates", 0}, {"judged", 2},
                            {"within", 2}, {"verdict", "consistent"}},
                           {{"plot", "err"}, {"series", "MRBP"}, {"points", 3}, {"duplicates", 0}, {"judged", 0},
                            {"within", 0}, {"verdict", "not judged (outside our range)"}}});
  const FigureSummary sum = summarize_figure(s, f.groups[0], out);
  EXPECT_EQ(sum.paper_within, 5u);
  EXPECT_EQ(sum.paper_judged, 6u);
  EXPECT_EQ(sum.paper_points, 10u);
  EXPECT_EQ(sum.paper_series_matched, 1u);
  EXPECT_EQ(sum.paper_series_judged, 2u);
  std::vector<std::string> texts;
  for (const auto& p : sum.problems) texts.push_back(p.anchor + ": " + p.text);
  EXPECT_NE(std::find(texts.begin(), texts.end(),
                      "FIX-paper-1: paper curve err RBP (mean of 5): differs, rms z 2.5 (ours above), 3/4 points "
                      "within z <= 2, largest z 4 at x = 150"),
            texts.end());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "FIX-data-news20: data not available: news20 (not on the data search path)"),
            texts.end());
  const std::string table = summary_table({sum}, {"", "#"});
  EXPECT_NE(table.find("| **1/2** series consistent; **5/6** points within; **6/10** judged |"), std::string::npos) << table;
  EXPECT_EQ(to_json(figure_summary_from_json(to_json(sum))), to_json(sum));
}

TEST(ReportSummary, ClaimCellsNameTheTightestPointAndTheCsvHoldsEveryPoint) {
  SummaryFixture f;
  const json& c = f.outs[0].claims[0];
  // b[5] errs 0.25 (margin (0.3 - 0.25) / 0.3 = 1/6), b[10] 0.15 (margin 1/2): b[5] is tightest.
  EXPECT_EQ(c["numbers"], "2/2 points; tightest: B [budget=5] online_error 25.00% < 0.3 ✓");
  ASSERT_EQ(c["points"].size(), 2u);
  EXPECT_NEAR(c["points"][0]["margin"].get<double>(), 1.0 / 6.0, 1e-12);
  EXPECT_NEAR(c["points"][1]["margin"].get<double>(), 0.5, 1e-12);
  // One point, two checks: a < b[10] has margin (0.15 - 0.105) / 0.15 = 0.3, a < 0.2 has 0.475.
  EXPECT_EQ(f.outs[0].claims[3]["numbers"],
            "tightest of 2 checks: A online_error 10.50% < B [budget=10] online_error 15.00% ✓");
  const std::string csv = read_text(f.dir.p / "FIX" / "claims.csv");
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // header, 2 points of claim 1, 1 of claim 2, none of claim 3 (not evaluated), 2 checks of claim 4
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "figure,claim,point,check,lhs,lhs_value,op,rhs,rhs_value,tol,passes,margin");
  EXPECT_EQ(lines[3], "FIX,2,1,1,A mistakes,120,<,110,110,,0,-0.0833333333333");  // (110 - 120) / 120
  EXPECT_EQ(lines[5], "FIX,4,1,2,A online_error,0.105,<,0.2,0.2,,1,0.475");
}

TEST(ReportSummary, NoTableCellOfAGeneratedReportIsLongerThan300Characters) {
  std::string long_claim;
  while (long_claim.size() < 600) long_claim += "a claim | with pipes, ünïcödé and many words ";
  SummaryFixture f(long_claim);
  const std::string md = report_markdown(f.specs, f.groups, f.outs, TreeState{"abc", false, {"M x.cpp"}}, "h\n");
  const auto cells = table_cells(md);
  ASSERT_GT(cells.size(), 50u);
  for (const auto& c : cells) EXPECT_LE(code_points(c), kMaxCell) << c;
  EXPECT_EQ(md.substr(0, md.find('\n')),
            "# Reproduction report — DIRTY TREE, no commit reproduces it exactly: `abc` with 1 uncommitted change(s) "
            "(M x.cpp)");
}

TEST(ReportFormat, TinyResidualsAreNotShownAsZero) {
  EXPECT_EQ(format_metric("nu_identity_residual", 3.5e-17), "3.5e-17");
  EXPECT_EQ(format_metric("nu_identity_residual", 0.0), "0");
  EXPECT_EQ(format_metric("mistakes", 120.0000000001), "120");
  EXPECT_EQ(table_cell("a|b\nc"), "a\\|b c");
  // Cut at byte 297 would split "é" (bytes 296-297): the cut moves before it.
  EXPECT_EQ(table_cell(std::string(296, 'x') + "é" + std::string(10, 'y'), 300), std::string(296, 'x') + "…");
}

TEST(ReportSummary, PaperFiguresFirstThenTheoryThenNorma) {
  std::vector<std::string> f = {"N1", "T2", "R10", "X1", "R4", "R1", "T1"};
  std::sort(f.begin(), f.end(), figure_before);
  EXPECT_EQ(f, (std::vector<std::string>{"R1", "R4", "R10", "T1", "T2", "N1", "X1"}));
}

TEST(ReportSummary, ReadmeBlockBetweenMarkers) {
  const std::string readme = std::string("intro\n") + kReadmeBegin + "\nold table\n" + kReadmeEnd + "\nrest\n";
  const std::string out = replace_readme_block(readme, "new table\n", "R.md");
  EXPECT_EQ(out, std::string("intro\n") + kReadmeBegin + "\nnew table\n" + kReadmeEnd + "\nrest\n");
  EXPECT_EQ(current_readme_block(out), "new table\n");
  try {
    replace_readme_block("no markers\n", "x", "R.md");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--readme R.md"), std::string::npos) << e.what();
  }
}

// The committed README table and the committed report's summary are renderings of the committed
// results/figures.json (written by make reproduce): neither can drift from the other.
TEST(ReportSummary, CommittedReadmeAndReportComeFromFiguresJson) {
  const fs::path src = PLAB_SOURCE_DIR;
  const auto figures = read_json_if_valid((src / "results" / "figures.json").string());
  if (!figures) GTEST_SKIP() << "results/figures.json not committed yet (make reproduce writes it)";
  EXPECT_EQ(current_readme_block(read_text(src / "README.md")), readme_block(*figures))
      << "README.md's figure table differs from results/figures.json: run make reproduce";
  std::vector<FigureSummary> rows;
  for (const auto& r : figures->at("figures")) rows.push_back(figure_summary_from_json(r));
  const std::string report = read_text(src / "results" / "REPORT.md");
  EXPECT_NE(report.find(summary_table(rows, {"", "#"})), std::string::npos);
  EXPECT_EQ(report.substr(0, report.find('\n')), "# Reproduction report — " + figures->at("provenance")["describe"].get<std::string>());
  for (const auto& c : table_cells(report)) EXPECT_LE(code_points(c), kMaxCell) << c;
}

namespace {

int sh(const std::string& dir, const std::string& cmd) {
  return std::system(("cd '" + dir + "' && " + cmd + " >/dev/null 2>&1").c_str());
}

}  // namespace

TEST(Provenance, CleanOnlyAtTheBuiltCommitWithNoChangesOutsideTheOutputs) {
  if (std::system("git --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "git not installed";
  TempDir d("provenance");
  const std::string dir = d.p.string();
  ASSERT_EQ(sh(dir, "git init -q . && git config user.email t@t && git config user.name t && mkdir results && "
                    "echo a > a.cpp && echo r > results/REPORT.md && echo m > README.md && git add -A && "
                    "git commit -qm init"),
            0);
  const std::string head = [&] {
    FILE* p = popen(("git -C '" + dir + "' rev-parse --short=12 HEAD").c_str(), "r");
    char buf[64] = {};
    const std::size_t n = fread(buf, 1, sizeof buf - 1, p);
    pclose(p);
    return std::string(buf, n > 0 ? n - 1 : 0);
  }();
  EXPECT_TRUE(tree_state(dir, head).clean);
  EXPECT_EQ(tree_state(dir, head).describe(), "commit `" + head + "` (clean tree)");
  // The outputs of make reproduce do not make the tree dirty.
  ASSERT_EQ(sh(dir, "echo r2 > results/REPORT.md && echo new > results/new.csv && echo m2 > README.md"), 0);
  EXPECT_TRUE(tree_state(dir, head).clean);
  // A binary built elsewhere, or from a dirty tree, is not this commit.
  EXPECT_FALSE(tree_state(dir, head + "-dirty").clean);
  EXPECT_FALSE(tree_state(dir, "0123456789ab").clean);
  // Any other change, tracked or untracked, is.
  ASSERT_EQ(sh(dir, "echo spec > new.json"), 0);
  TreeState t = tree_state(dir, head);
  EXPECT_FALSE(t.clean);
  EXPECT_EQ(t.changes, std::vector<std::string>{"?? new.json"});
  ASSERT_EQ(sh(dir, "rm new.json && echo b > a.cpp"), 0);
  t = tree_state(dir, head);
  EXPECT_EQ(t.changes, std::vector<std::string>{"M a.cpp"});
  EXPECT_NE(t.describe().find("DIRTY TREE"), std::string::npos);
  // Outside a work tree the state is unknown, never clean.
  TempDir plain("provenance_plain");
  t = tree_state(plain.p.string(), head);
  EXPECT_FALSE(t.clean);
  ASSERT_EQ(t.changes.size(), 1u);
  EXPECT_NE(t.changes[0].find("not a git work tree"), std::string::npos);
}

TEST(ReproduceCli, ReadmeTableIsRewrittenFromTheRunsSummary) {
  TempDir d("reproduce_readme");
  const fs::path readme = d.p / "README.md";
  write_file_atomic(readme.string(), std::string("# x\n") + kReadmeBegin + "\nstale\n" + kReadmeEnd + "\ntail\n");
  const auto r = test_util::run_cli("reproduce T6 --quick --no-plots --jobs 2 --allow-dirty --results '" +
                                    d.p.string() + "' --readme '" + readme.string() + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto figures = read_json_if_valid((d.p / "quick" / "figures.json").string());
  ASSERT_TRUE(figures);
  ASSERT_EQ(figures->at("figures").size(), 1u);
  EXPECT_EQ(figures->at("figures")[0]["figure"], "T6");
  const std::string text = read_text(readme);
  EXPECT_EQ(current_readme_block(text), readme_block(*figures));
  EXPECT_EQ(text.substr(text.size() - 5), "tail\n");
  const std::string report = read_text(d.p / "quick" / "REPORT.md");
  // Provenance first; this run named T6, so the line also says the report holds only T6.
  EXPECT_EQ(report.substr(0, report.find('\n')),
            "# Reproduction report — " + figures->at("provenance")["describe"].get<std::string>() +
                " — only the figures named on the command line (T6); the others are not in this file");
}

TEST(ReproduceCli, ReadmeWithoutMarkersIsRejectedBeforeAnyCellRuns) {
  TempDir d("reproduce_readme_bad");
  const fs::path readme = d.p / "README.md";
  write_file_atomic(readme.string(), "# no markers\n");
  auto r = test_util::run_cli("reproduce T6 --quick --allow-dirty --results '" + d.p.string() + "' --readme '" +
                              readme.string() + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--readme " + readme.string() + ": no figure table markers"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d.p / "quick" / "cells"));
  r = test_util::run_cli("reproduce T6 --quick --allow-dirty --results '" + d.p.string() + "' --readme '" +
                         (d.p / "missing.md").string() + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("missing.md: no such file"), std::string::npos) << r.output;
}
