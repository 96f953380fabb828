// The first screen of results/REPORT.md and the README's figure table, both rendered from one
// set of rows (results/figures.json) so that they cannot drift apart (docs/report.md):
// per figure what it shows, published numbers matched, claims confirmed, bound rows held and
// vacuous, a thumbnail and the cells' time; then every item that is not confirmed, not
// evaluated or failed, each linking to its row in the report.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/report/figure_outputs.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// One line of the failure list: the anchor of its row in the report and what went wrong.
struct SummaryItem {
  std::string anchor, text;
};

struct FigureSummary {
  std::string figure, title;
  std::string thumbnail;  // first image, relative to the results directory, without extension ("" = none)
  std::size_t published_matched = 0, published_judged = 0;  // judged: has a tolerance (or no result)
  std::size_t claims_confirmed = 0, claims_total = 0;
  // The paper's plotted points (docs/report.md#paper-curves): judged points within ours, and
  // series matched (every judged point within) over series with a judged point.
  std::size_t paper_within = 0, paper_judged = 0, paper_series_matched = 0, paper_series_judged = 0;
  std::size_t paper_points = 0;  // published points, each number once
  std::size_t bound_rows = 0, bound_held = 0, bound_vacuous = 0;  // one row per (group, bound, permutation)
  std::size_t cells = 0, cells_failed = 0;
  double seconds = 0.0;  // learning time summed over the figure's finished cells
  std::vector<SummaryItem> problems;
};

// The anchor of a row of the report: "R1-published-3", "R1-claim-2", "R1-bound-7", "R1-paper-2", "R1-failed"
// (i counts from 1 in table order; 0 = no number).
std::string row_anchor(const std::string& figure, const std::string& kind, std::size_t i = 0);

// Report order: the paper's figures (R) first, then theory (T), NORMA (N), any other prefix;
// within a prefix by number ("R4" before "R10").
bool figure_before(const std::string& a, const std::string& b);
std::vector<std::size_t> report_order(const std::vector<Spec>& specs);

// Whether a bound table row (a group's rows of one bound id) is listed as a problem.
bool bound_rows_all_hold(const std::vector<nlohmann::json>& rows);

FigureSummary summarize_figure(const Spec& s, const std::vector<Group>& groups, const FigureOutputs& out);
nlohmann::json to_json(const FigureSummary& f);
FigureSummary figure_summary_from_json(const nlohmann::json& j);

// Links: the report uses files relative to the results directory and "#" anchors; the README
// uses "results/" and "results/REPORT.md#".
struct SummaryLinks {
  std::string files, anchors;
  bool times = true;  // the cells and learning time column (the report's; the README links to it)
};

// The summary table (one row per figure, in the given order).
std::string summary_table(const std::vector<FigureSummary>& rows, const SummaryLinks& links);
// "- [R1 claim 2](#R1-claim-2) ..." lines of every figure, or one line saying nothing failed.
std::string problem_list(const std::vector<FigureSummary>& rows, const SummaryLinks& links);

// results/figures.json: {"provenance": {...}, "figures": [rows in report order]}.
nlohmann::json figures_json(const std::vector<FigureSummary>& rows, const nlohmann::json& provenance);

// The README's figure table from figures.json, and a README with the text between its markers
// (kReadmeBegin / kReadmeEnd lines) replaced; throws std::invalid_argument naming `path` when
// the markers are missing.
inline constexpr const char* kReadmeBegin = "<!-- figures:begin (written by make reproduce; do not edit) -->";
inline constexpr const char* kReadmeEnd = "<!-- figures:end -->";
std::string readme_block(const nlohmann::json& figures);
std::string replace_readme_block(const std::string& readme, const std::string& block, const std::string& path);
// The text between the markers ("" when they are missing).
std::string current_readme_block(const std::string& readme);

}  // namespace plab
