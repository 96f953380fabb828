// Metrics a cell adds to its results beyond the generic ones of run_cell, registered like learners
// (algorithms/registry.hpp): each entry names the learner whose runs it reads (by its registry
// name) or none (every learner), and run_cell calls every entry that applies, in table order.
// The built-in entries (experiments/cell/cell_metrics.cpp): NORMA's (learner "norma") and the
// drifting-data ones (every learner), both in experiments/cell/norma_metrics.hpp.
// A spec param named metric_* switches a metric on and is no learner option (learner_params).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/cell/cell_run.hpp"

namespace plab {

struct CellMetric {
  std::string name;     // unique, for messages
  std::string learner;  // registry name of the learner whose runs it reads; "" = every learner
  std::vector<std::string> keys;  // the results keys it may add (each a known_metrics() name)
  std::function<void(const CellRun&, nlohmann::json& results)> add;  // adds its keys to results
};

// The table: the built-ins, then the registered ones.
const std::vector<CellMetric>& cell_metrics();
// Adds an entry (before any cell runs: not thread-safe). Throws std::invalid_argument on an empty
// or taken name, a missing function, no keys, or a learner name the learner registry does not know.
void register_cell_metric(CellMetric m);
// Every entry whose learner is "" or r.cell.algo, in table order. A key an entry adds without
// declaring it is a std::logic_error (a spec could not name it).
void add_cell_metrics(const CellRun& r, nlohmann::json& results);

}  // namespace plab
