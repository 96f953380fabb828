// What a per-cell metric (experiments/cell/cell_metrics.hpp) reads of a finished run, below both
// the metric table and the metrics it lists.
#pragma once
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "algorithms/learner.hpp"
#include "experiments/cell/cell_data.hpp"
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

// The learner of a metric keyed by learner name, as its class: the registry name fixes the class,
// so a mismatch is a wrong table entry (std::logic_error), never a silent skip.
template <class L>
const L& learner_as(const Learner& l, const std::string& metric) {
  if (typeid(l) != typeid(L)) throw std::logic_error("cell metric " + metric + ": learner of another class");
  return static_cast<const L&>(l);
}

}  // namespace plab
