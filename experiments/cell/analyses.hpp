// The cell-level mechanisms of the theory figures T1-T7 (docs/conventions.md#theory-figures): a
// spec's "analysis" block (every key optional), run by run_cell after the learner:
//   "o2b": {"delta": 0.05}   CCG online-to-batch selection on a conservative Perceptron run
//       (docs/bounds.md#online-to-batch; experiments/run/online_to_batch_eval.hpp). Results: o2b_index, o2b_supports,
//       o2b_criterion, o2b_empirical, o2b_risk_bound (M/T + deviation), test_error_ccg (with a test set).
//   "rho_profile": {"comparator": "truth", "svm_C": 1, "rho": [..], "at": rho0}   MR (4) and (8)
//       (all-T and update-round forms, docs/bounds.md#mr4_all_t, docs/bounds.md#mr8_i) at each rho of the grid for the unit
//       comparator; profiles "MR (4) all-T", "MR (8) all-T", "MR (4) I", "MR (8) I" (x = rho) and the
//       results mr4_all_at, mr8_all_at, mr4_I_at, mr8_I_at (at rho0) and profile_violations (number
//       of (rho, bound) pairs below the mistakes: each is a theorem at every rho, so it must be 0).
// The report-level side (bound metrics, profiles in plots, the T7 table) is
// experiments/report/theory_figures.hpp.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "algorithms/learner.hpp"
#include "experiments/cell/cell_data.hpp"
#include "experiments/run/run.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// {"results": {name: number}, "profiles": {name: {"x": [...], "y": [...]}}} for a finished run.
nlohmann::json run_analyses(const Cell& c, const RunResult& res, const CellData& d,
                            const std::vector<std::size_t>& order, const LearnerOptions& o);

}  // namespace plab
