// Per-cell metrics of the NORMA figures N1-N4 (docs/conventions.md#norma-figures,
// docs/learners.md#norma) and of drifting data, added to a cell's results by run_cell through the
// cell metric table (experiments/cell/cell_metrics.hpp).
//
// Metrics (only where they apply; every name is a results key usable in plots and claims):
//   NORMA, any task:      margin_error_fraction = (1/T) sum sigma_t, threshold_final = rho_{T+1}
//   NORMA with nu >= 0:   nu, nu_gap_abs = |fraction - nu|, nu_identity_residual (docs/bounds.md#nu-identity)
//   NORMA with tau > 0:   max_trunc_norm, max_trunc_ratio (max trunc_norm / trunc_bound),
//                         trunc_removed; with constant eta and lambda > 0 also trunc_term_bound,
//                         trunc_tail_bound, trunc_pointwise_bound (docs/bounds.md#norma-truncation); with the spec
//                         param "metric_untruncated_tail": true (not a learner option; the runner
//                         skips "metric_*" params) also, from a shadow run with the same options
//                         but truncate = 0 on the same rounds (O(T^2): off by default):
//                         untruncated_tail_norm (RKHS norm at T of the terms of age >= tau),
//                         untruncated_mistakes, untruncated_support_size and, with a test set,
//                         untruncated_tail_sup (sup over test points of |tail(x)|)
//   NORMA novelty + test: test_flagged_pos / test_flagged_neg = fraction of the test rows with
//                         y > 0 / y < 0 flagged (score < threshold_final; <= with inclusive_ties)
//   drift data (any learner, data "synthetic:drift:...K=..."): post_shift_error = error over the
//                         first K/4 rounds after each shift, settled_error = over the last K/4
//                         rounds before each shift (and before T), shift_jump = post - settled
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"
#include "datasets/dataset.hpp"
#include "experiments/cell/cell_data.hpp"
#include "experiments/cell/cell_run.hpp"
#include "experiments/run/run.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// The table entries: NORMA's metrics (learner "norma") and the drift metrics (any learner).
void add_norma_metrics(const CellRun& r, nlohmann::json& results);
void add_drift_metrics(const CellRun& r, nlohmann::json& results);

// --- building blocks (tests/test_norma_figures.cpp) ---

// RKHS norm of the terms of f of age >= tau at the end of round T, i.e. support ids s <= T - tau
// (the term of round s has been decayed T - s times; docs/bounds.md#norma-truncation "all terms
// older than tau"): sqrt(sum_{i,j old} alpha_i alpha_j k(s_i, s_j)).
double expansion_tail_norm(const KernelExpansion& f, int64_t T, std::size_t tau);
// sup over the rows x of `points` of |sum_{i old} alpha_i k(s_i, x)| (same old terms).
double expansion_tail_sup(const KernelExpansion& f, int64_t T, std::size_t tau, const Dataset& points);

struct NuIdentity {
  double fraction = 0.0;  // (1/T) sum_t sigma_t
  double residual = 0.0;  // docs/bounds.md#nu-identity, ~1e-15 for any run
};
// docs/bounds.md#nu-identity from rho_{t+1} = rho_t + eta_t (nu - sigma_t) (regression: eps_{t+1} =
// eps_t + eta_t (sigma_t - nu)): residual = (sum eta_t sigma_t - nu sum eta_t + (rho_{T+1} -
// rho_1)) / sum eta_t (regression: ... - (eps_{T+1} - eps_1)); for constant eta = Lambda this is
// fraction - (nu - (rho_{T+1} - rho_1) / (Lambda T)). rho_1 and eta_t come from the records.
NuIdentity nu_identity(const std::vector<RoundRecord>& rounds, double nu, double threshold_final,
                       bool regression);

struct Flagged {
  double pos = 0.0, neg = 0.0;  // fraction flagged among y > 0 / y < 0 rows (NaN if none)
  std::size_t npos = 0, nneg = 0;
};
// Novelty detection on a test set: x is flagged iff score(x) < threshold (<= if inclusive).
Flagged novelty_flagged(const Learner& l, double threshold, bool inclusive, const Dataset& test);

// The shift period K of a "synthetic:drift:..." data spec (make_synthetic's default 1000 when
// not given); 0 for any other data.
std::size_t drift_period(const std::string& data_spec);

struct ShiftErrors {
  double post = 0.0, settled = 0.0;  // NaN when no such rounds
};
// Error rates over the first `window` rounds after each shift (rounds jK+1 .. jK+window, j >= 1)
// and over the last `window` rounds of each segment (rounds jK-window+1 .. jK, and the last
// `window` rounds before T).
ShiftErrors drift_shift_errors(const std::vector<RoundRecord>& rounds, std::size_t K, std::size_t window);

}  // namespace plab
