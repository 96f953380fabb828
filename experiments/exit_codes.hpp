// Exit status of `plab reproduce` (documented in its --help and docs/specs.md).
#pragma once
#include <cstddef>

namespace plab {

inline constexpr int kExitError = 1;          // any other error (I/O, gnuplot)
inline constexpr int kExitInvalid = 2;        // invalid arguments or an invalid spec
inline constexpr int kExitCellFailed = 3;     // a cell failed
inline constexpr int kExitCheckDiffers = 4;   // --check: quick numbers differ from results/reference/
inline constexpr int kExitBoundViolated = 5;  // a hard mistake bound is violated in some cell
inline constexpr int kExitNotEvaluated = 6;   // a claim "not evaluated (missing results)" / a published "no result"

struct RunProblems {
  std::size_t violated = 0, failed = 0, differences = 0, unevaluated = 0;
};

// 0 without problems; otherwise the first that applies of 5, 3, 4, 6 (a violated bound is a bug;
// failed cells explain missing results; differences outrank what could not be evaluated).
constexpr int reproduce_exit_code(const RunProblems& p) {
  if (p.violated) return kExitBoundViolated;
  if (p.failed) return kExitCellFailed;
  if (p.differences) return kExitCheckDiffers;
  if (p.unevaluated) return kExitNotEvaluated;
  return 0;
}

}  // namespace plab
