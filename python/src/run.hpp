// perceptron_lab.run: one call of the run pipeline (experiments/run/pipeline.hpp), the one `plab run`
// makes, with the GIL released while it learns and Ctrl-C checked between blocks of rounds.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "introspect.hpp"

namespace plab::py {
namespace pyb = pybind11;

// spec: the learner's, the kernel's and the comparator's keywords given.
struct RunArgs {
  LearnerSpec spec;
  std::optional<uint64_t> shuffle;
  bool bounds = true;
  int64_t threads = 0;  // 0: the hardware threads (core/thread_pool.hpp); its range is the declaration's
};

// A finished run: its data (the request points into it), request and report.
struct RunOutcome {
  std::shared_ptr<const Dataset> data;
  RunRequest req;
  RunReport rep;
};

std::shared_ptr<RunOutcome> run_on(std::shared_ptr<const Dataset> data, const RunArgs& args);
// Thrown by check_interrupt; without_gil turns it back into the pending Python exception.
struct Interrupted {};
// Throws Interrupted when a signal handler raised (Ctrl-C: KeyboardInterrupt); call inside
// without_gil, every few thousand rounds.
void check_interrupt();
// f() with the GIL released (other Python threads run meanwhile); an interrupt seen by
// check_interrupt is raised as the Python exception when f returns.
template <class F>
auto without_gil(F&& f) {
  try {
    pyb::gil_scoped_release nogil;
    return f();
  } catch (const Interrupted&) {
    throw pyb::error_already_set();
  }
}
// Binds RunArgs, RunOutcome and run() into `m`.
void bind_run(pyb::module_& m);

}  // namespace plab::py
