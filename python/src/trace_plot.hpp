// What Result.plot and plot_traces (python/perceptron_lab/plot.py) draw, computed here: a trace
// file read and checked as `plab plot` reads it, the bounds on a run's prefixes
// (bounds/prefix_bounds.hpp, the points `plab plot --bounds` draws) and the legend name of a run.
// No bound is evaluated in Python.
#pragma once
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "algorithms/round_record.hpp"
#include "bounds/bounds.hpp"

namespace plab::py {
namespace pyb = pybind11;

// The drawn bound points of a run as a JSON array (to_json(BoundPoint)).
std::string bound_points_json(const std::vector<RoundRecord>& rounds, const RunFacts& facts);
// Binds TraceFile, read_trace, trace_label and no_support_reason into `m`.
void bind_trace_plot(pyb::module_& m);

}  // namespace plab::py
