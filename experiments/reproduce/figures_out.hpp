// What a finished `plab reproduce` run writes per figure and how it is judged: the figures'
// groups and outputs (the T7 table over its sources' groups, its summary.json rewritten), the
// comparison with the reference, and the exit status.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/report/report.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

struct Figures {
  std::vector<std::vector<Group>> groups;  // per spec
  std::vector<FigureOutputs> outs;         // per spec
};

// Aggregates each spec's outcomes and writes its folder under `out`; then the table figures (T7).
Figures write_figures(const std::vector<Spec>& specs, const std::map<std::string, std::vector<CellOutcome>>& outcomes,
                      const std::string& out, bool draw);

// Number of differences of the summaries from the reference folder (listed on stderr).
std::size_t check_reference(const std::vector<Spec>& specs, const Figures& f, const std::string& ref_dir);

// The exit status of a finished run (experiments/exit_codes.hpp); every problem and the status's
// reason are listed on stderr.
int run_exit_status(const std::vector<Spec>& specs, const Figures& f, std::size_t failed, std::size_t ndiff,
                    const std::string& ref_dir);

}  // namespace plab
