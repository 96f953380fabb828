// The bounds of a run on its prefixes (docs/bounds.md#prefixes): for t on a log-spaced grid, the
// one evaluation `plab bounds --trace` makes (evaluate_bounds), on the first t records only, as
// if the run had stopped after round t. `plab bounds --prefix`, `plab plot --bounds` and the
// Python package's Result.plot all read these numbers; none evaluates a bound of its own.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/round_record.hpp"
#include "bounds/bounds.hpp"

namespace plab {

// 1, 2, 4, ..., the powers of two below T, and T itself (empty for T = 0).
std::vector<std::size_t> log_spaced_rounds(std::size_t T);

// The facts of the prefix 1..t of a run of T rounds. The metadata's f_norm2_exact is the final
// hypothesis's ||f_T||^2, so for t < T it is dropped and round t's running f_norm2 is read, as
// for a trace cut after round t. Everything else (comparator, its norm, r2) was fixed before the run.
RunFacts prefix_facts(const RunFacts& facts, std::size_t t, std::size_t T);

// evaluate_bounds on rounds 1..t (1 <= t <= rounds.size()); throws std::out_of_range otherwise.
std::vector<BoundResult> evaluate_bounds_prefix(const std::vector<RoundRecord>& rounds, const RunFacts& facts,
                                                std::size_t t);

// One drawn point of a bound: row `id` evaluated on the prefix 1..t. It covers `rounds` rounds
// (< t after a budget learner's Perceptron prefix has ended) with `mistakes` mistakes in them.
struct BoundPoint {
  std::string id, name;
  std::size_t t = 0, rounds = 0;
  double value = 0.0, mistakes = 0.0;
  bool vacuous = false, holds = true;
};
// Drawn: an applicable hard bound (docs/bounds.md#kinds); report-only, reference and
// expectation rows are not mistake bounds of this run.
bool drawn_bound(const BoundResult& b);
// Every drawn bound at every t of log_spaced_rounds(rounds.size()), in row order then t; a
// point that covers the same rounds as the one before it (a prefix that has ended) is left out.
std::vector<BoundPoint> prefix_bound_points(const std::vector<RoundRecord>& rounds, const RunFacts& facts);
// {"id", "name", "t", "rounds", "value", "mistakes", "vacuous", "holds"}: the points as the
// Python package reads them.
nlohmann::json to_json(const BoundPoint& p);
// Why no row can be drawn ("" when some can): the first reason a row gives, for a figure without bounds.
std::string no_drawn_bound_reason(const std::vector<BoundResult>& full_run);

}  // namespace plab
