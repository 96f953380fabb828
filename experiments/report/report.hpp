// Per-figure outputs and the report, put together from one module per job:
//   experiments/report/aggregate.hpp     groups over permutations (mean, std), selectors, metrics
//   experiments/report/figure_csv.hpp    finals.csv, curves_<ds>.csv, published.csv, timings.csv
//   experiments/report/verdicts.hpp      published numbers and claims beside ours
//   experiments/report/figure_plots.hpp  the spec's plots (<plot>.png/.svg/.gp/.dat)
//   experiments/report/report_md.hpp     results/REPORT.md
//   experiments/report/report_summary.hpp  its summary, results/figures.json, the README's figure table
// and summary.json, the deterministic numbers compared by --check (no timings).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/report/figure_outputs.hpp"
#include "experiments/cell/cell.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/version.hpp"

namespace plab {


// Writes the figure's directory <dir>/<FIG>/ (CSVs, summary.json, plots) and returns its tables.
FigureOutputs write_figure(const Spec& s, const std::vector<Group>& groups, const std::string& dir,
                           bool draw);

// <dir>/REPORT.md and <dir>/figures.json (the summary rows both the report and the README's
// figure table are drawn from, experiments/report/report_summary.hpp) from every figure's outputs;
// returns figures.json. `header` is the report's line on how and when it was made.
nlohmann::json write_report(const std::string& dir, const std::vector<Spec>& specs,
                            const std::vector<std::vector<Group>>& groups, const std::vector<FigureOutputs>& outs,
                            const TreeState& tree, const std::string& header, const std::string& named = "");

// Differences between a summary and its reference (integers exactly, reals within 1e-9
// relative; keys named "seconds" ignored). Empty = identical.
std::vector<std::string> compare_json(const nlohmann::json& ours, const nlohmann::json& ref,
                                      const std::string& where = "");

}  // namespace plab
