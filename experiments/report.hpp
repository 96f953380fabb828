// Aggregation over permutations, per-figure outputs (CSV, summary JSON, figures), the published
// numbers and claims beside ours, results/REPORT.md, and the regression comparison.
//
// Per figure directory <dir>/<FIG>/:
//   finals.csv     one row per (dataset, algorithm, grid point): mean and std over permutations
//   curves_<ds>.csv  mean/std online error and support size against the number of samples
//   published.csv  every published number of the spec, ours beside it, deviation, verdict
//   timings.csv    learning time per group (the only non-deterministic file), paper's times
//   summary.json   the deterministic numbers compared by --check (no timings)
//   <plot>.png/.svg/.gp/.dat
// std is the sample standard deviation (n - 1 in the denominator, MATLAB's std), 0 when n = 1.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/runner.hpp"
#include "experiments/spec.hpp"

namespace plab {

struct Stat {
  double mean = 0.0, std = 0.0;
  std::size_t n = 0;
};
Stat mean_std(const std::vector<double>& v);

// One (dataset, algorithm, grid point) over its permutations.
struct Group {
  std::string dataset, algo_id, algo, label;
  std::size_t point_index = 0;
  nlohmann::json point;
  std::map<std::string, std::vector<double>> values;  // metric -> one value per finished perm
  std::map<std::string, Stat> stats;                  // metric -> mean/std
  Stat seconds;
  std::vector<double> t;                              // curve rounds
  std::map<std::string, std::vector<Stat>> curves;    // online_error / support_size per t
  std::vector<std::string> errors;                    // failed permutations
  // Applicable bounds (bounds/bounds.hpp to_json rows), one per finished perm, in evaluation order.
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> bounds;
  // Profiles of a cell analysis (experiments/theory_figures.hpp): name -> one {"x","y"} per perm.
  std::map<std::string, std::vector<nlohmann::json>> profiles;
  std::string name() const;                           // "projectron++ [eta=0.1]"
};

// Groups in spec order (data set, algorithm, point).
std::vector<Group> aggregate(const Spec& s, const std::vector<CellOutcome>& cells);

struct FigureOutputs {
  nlohmann::json summary;        // deterministic (what --check compares)
  nlohmann::json published;      // rows: paper value, ours, deviation, verdict
  nlohmann::json claims;         // rows: claim, numbers, verdict
  std::vector<std::string> images;  // relative to the results dir, without extension
  std::string extra_markdown;       // e.g. the T7 tightness table (experiments/theory_figures.hpp)
};

// Writes the figure's directory <dir>/<FIG>/ (CSVs, summary.json, plots) and returns its tables.
FigureOutputs write_figure(const Spec& s, const std::vector<Group>& groups, const std::string& dir,
                           bool draw);

// results/REPORT.md from every figure's outputs.
void write_report(const std::string& path, const std::vector<Spec>& specs,
                  const std::vector<std::vector<Group>>& groups,
                  const std::vector<FigureOutputs>& outs, const std::string& header);

// Differences between a summary and its reference (integers exactly, reals within 1e-9
// relative; keys named "seconds" ignored). Empty = identical.
std::vector<std::string> compare_json(const nlohmann::json& ours, const nlohmann::json& ref,
                                      const std::string& where = "");

}  // namespace plab
