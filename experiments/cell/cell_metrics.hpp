// Metrics a cell adds to its results beyond the generic ones of run_cell, registered like learners
// (algorithms/registry.hpp): each entry names the learner whose runs it reads (by its registry
// name) or none (every learner), and run_cell calls every entry that applies, in table order.
// The built-in entries (experiments/cell/cell_metrics.cpp): NORMA's (learner "norma") and the
// drifting-data ones (every learner), both in experiments/cell/norma_metrics.hpp.
// A spec param named metric_* switches a metric on and is no learner option (learner_params).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "algorithms/learner.hpp"
#include "experiments/cell/cell.hpp"
#include "experiments/run/run.hpp"

namespace plab {

// What a metric reads: the cell, its data, the options the learner ran with, the trained learner,
// its round records and the rows of d.train in round order.
struct CellRun {
  const Cell& cell;
  const CellData& data;
  const LearnerOptions& options;
  const Learner& learner;
  const RunResult& run;
  const std::vector<std::size_t>& order;
};

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

// The learner of a metric keyed by learner name, as its class: the registry name fixes the class,
// so a mismatch is a wrong table entry (std::logic_error), never a silent skip.
template <class L>
const L& learner_as(const Learner& l, const std::string& metric) {
  if (typeid(l) != typeid(L)) throw std::logic_error("cell metric " + metric + ": learner of another class");
  return static_cast<const L&>(l);
}

}  // namespace plab
