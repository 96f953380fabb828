// What the grid runner (experiments/schedule/runner.hpp) is asked to do and what it reports,
// shared with the scheduler and the workers it dispatches to.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

#include "experiments/schedule/transport.hpp"

namespace plab {

struct RunnerOptions {
  std::string cells_dir;       // where <key>.json files live
  unsigned jobs = 1;
  std::ostream* log = nullptr;  // progress lines (null = silent)
  // Reuse finished cell files. The key holds the git revision, not uncommitted edits, so the
  // regression check (--check / --update-reference) and --fresh recompute every cell.
  bool reuse = true;
  Transport* transport = nullptr;  // the ranks of the job (null: this process alone)
};

struct RunStats {
  std::size_t total = 0, computed = 0, cached = 0, failed = 0;
  double wall_seconds = 0.0;
};

}  // namespace plab
