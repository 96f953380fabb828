// Which cell to hand out first, and how long a run takes on P workers (docs/cluster.md).
// `plab reproduce` hands out the most expensive cells first (longest processing time first, LPT:
// Graham 1969, makespan <= 4/3 - 1/(3P) of the optimum); the order changes no result.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// A relative cost of a cell, for ordering only: rounds x mean non-zeros per row x the support the
// learner scans per round (1 for the primal Perceptron, else the budget or the rounds).
double estimate_cost(const Cell& c, const Dataset& train);

// Makespan of `costs` on `workers` identical workers under LPT (each cost, largest first, goes to
// the least loaded worker). Never below the largest cost.
double lpt_makespan(std::vector<double> costs, std::size_t workers);

// One finished cell's recorded time (RESULTS/cell_times.csv, written after every run).
struct CellTime {
  std::string figure, dataset, algorithm, point;
  int perm = 0;
  std::size_t stage = 0;
  double seconds = 0.0;  // the whole cell: learning, bounds, comparator, analyses
};

std::vector<CellTime> read_cell_times(const std::string& path);  // throws naming file and line

// The report of `plab reproduce --plan`: cells, total, largest cells, and the predicted makespan on
// each of `workers` (stages run one after another, each LPT-scheduled, the largest cell the floor).
std::string plan_report(const std::vector<CellTime>& cells, const std::vector<std::size_t>& workers);

}  // namespace plab
