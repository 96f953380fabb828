// The `plab reproduce` workflow (docs/specs.md, docs/report.md): selects the specs, runs their cells
// (experiments/schedule/runner.hpp), writes per-figure CSVs, figures, summaries and REPORT.md
// (experiments/report/), compares the quick numbers with the reference and answers the exit
// status (experiments/exit_codes.hpp). The CLI (cli/cmd_reproduce.cpp) only turns flags into a
// request.
#pragma once
#include <string>
#include <vector>

namespace plab {

struct ReproduceRequest {
  std::vector<std::string> figures;  // empty: every spec
  bool quick = false, check = false, update_reference = false, no_plots = false, fresh = false, allow_dirty = false;
  bool plan = false;      // print the cost distribution of the last run and its predicted makespan; run nothing
  unsigned jobs = 1;
  std::string readme;     // README whose figure table is rewritten ("" = none)
  std::string results;    // "": default_results_dir()
  std::string reference;  // "": RESULTS/reference
  std::string specs;      // "": default_specs_dir()
};

// The spec folder of the source tree this program was built from.
std::string default_specs_dir();
// results/ of the repository containing the current directory (a folder with .git and
// experiments/specs/), else ./results: resolved at run time, so a moved or second checkout
// writes into its own tree.
std::string default_results_dir();

// Runs the request; returns its exit status (0, or the first that applies of
// experiments/exit_codes.hpp, the problems listed on stderr). Throws std::invalid_argument on an
// invalid request or spec (exit 2) and other exceptions on I/O errors (exit 1). Under MPI
// (docs/cluster.md) every rank calls it; rank 0 writes everything.
int reproduce(const ReproduceRequest& request);

}  // namespace plab
