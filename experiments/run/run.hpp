// The online protocol, shared by `plab run`, the reproduction runner and the tests: feed the
// examples in a given order, one round each, and keep every round record.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"
#include "datasets/dataset.hpp"

namespace plab {

struct RunResult {
  std::vector<RoundRecord> rounds;
  std::size_t mistakes = 0;      // rounds with y s <= 0
  std::size_t updates = 0;       // rounds where the hypothesis changed
  std::size_t margin_errors = 0;
  std::size_t count = 0;         // rounds run (rounds.size(), unless streamed: run_stream keeps no record)
  std::size_t support_size = 0;  // final
  double seconds = 0.0;          // wall time of learning only
};

// Non-finite arithmetic during a run (docs/learners.md#non-finite): the message names the round,
// the data row and the quantity.
struct NonFiniteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws NonFiniteError when a quantity of record r is not finite: the score, k(x,x) or the
// running ||f||^2 (every learner fills them), or an optional quantity (coefficient, step, norm,
// threshold) that is +-inf. (An optional quantity that does not apply is NaN by the schema, so a
// NaN there cannot be told from "not applicable"; it reaches the running norm or the next score.)
// norm_kept false: the learner keeps no running norm (docs/learners.md#bookkeeping), so a NaN
// f_norm2 is "not kept" and only an infinite one is an error.
void check_finite(const RoundRecord& r, bool norm_kept = true);

// Round order: the file order (no seed) or a seeded Fisher–Yates permutation; `limit` > 0 keeps
// the first `limit` rounds of that order.
std::vector<std::size_t> make_order(std::size_t n, std::optional<uint64_t> shuffle_seed,
                                    std::size_t limit = 0);

// The name of the rows' source in an error message, asked for only then.
using RowSource = std::function<std::string()>;

// Called with each record; used for progress lines (at 1, 2, 4, 8, ... rounds). Records arrive
// after their block of rounds (learn_block), so an observer reads the record, not the learner.
using RoundObserver = std::function<void(const RoundRecord&, const RunResult&)>;

// Every record passes check_finite (the run stops at the first non-finite one). Rounds are numbered
// from first_round (a learner continued from a model file after first_round - 1 rounds: docs/models.md#continue).
// `keep` = false keeps no record (RunResult::rounds stays empty; counts and `observe` as with them):
// a run that writes no trace and evaluates no bound reads none, and 200 bytes a round is the largest
// array such a run would fill (docs/learners.md#bookkeeping).
RunResult run_online(Learner& learner, const Dataset& data, const std::vector<std::size_t>& order,
                     const RoundObserver& observe = {}, int64_t first_round = 1, bool keep = true);

// The same rounds over the rows of a stream as they arrive (at most `limit` when > 0), in
// blocks of the same size, so the records equal run_online's over the same rows in file order
// (tested); each record goes to `observe` and is then dropped: memory is the model's, not the data's.
class RowStream;
RunResult run_stream(Learner& learner, RowStream& rows, std::size_t limit, const RoundObserver& observe,
                     int64_t first_round = 1);

// The same rounds over the rows of a file as a background load stores them (datasets/background_load.hpp),
// in file order, at most `limit` when > 0: the records equal run_online's over the whole file in file
// order (tested). `keep` as run_online's; `source` names the file in an error.
class RowArrivals;
RunResult run_arriving(Learner& learner, const RowArrivals& rows, std::size_t limit, const RoundObserver& observe,
                       int64_t first_round, bool keep, const RowSource& source);

// Fraction of test examples on which hypothesis `which` errs (y * score <= 0, the training
// convention: a zero score is an error; a non-finite score is one too, and counted in *no_score).
double test_error(const Learner& learner, const std::string& which, const Dataset& test,
                  std::size_t* no_score = nullptr);

// True for 1, 2, 4, 8, ...
inline bool is_power_of_two(int64_t t) { return t > 0 && (t & (t - 1)) == 0; }

}  // namespace plab
