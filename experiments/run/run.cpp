#include "experiments/run/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/huge_pages.hpp"
#include "core/random.hpp"
#include "datasets/row_arrivals.hpp"
#include "datasets/row_stream.hpp"

namespace plab {

std::vector<std::size_t> make_order(std::size_t n, std::optional<uint64_t> shuffle_seed,
                                    std::size_t limit) {
  std::vector<std::size_t> order;
  if (shuffle_seed) {
    Rng rng(*shuffle_seed);
    order = rng.permutation(n);
  } else {
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
  }
  if (limit > 0 && limit < n) order.resize(limit);
  return order;
}

namespace {
// The record's optional quantities: NaN where a learner has none, never infinite.
constexpr std::pair<const char*, double RoundRecord::*> kOptional[] = {
    {"the projection error ||delta_t||", &RoundRecord::delta_norm},
    {"||P k(x_t,.)||^2", &RoundRecord::pk2},
    {"the step tau_t", &RoundRecord::tau},
    {"the threshold eta_t", &RoundRecord::eta_t},
    {"the Forgetron phi_t", &RoundRecord::phi},
    {"the Forgetron psi_t", &RoundRecord::psi},
    {"the Forgetron Q_t", &RoundRecord::Q},
    {"the Forgetron sigma_r", &RoundRecord::sigma_r},
    {"the Forgetron f_r", &RoundRecord::f_r},
    {"the margin rho_t", &RoundRecord::rho},
    {"the coefficient of x_t", &RoundRecord::coef},
    {"the truncated norm", &RoundRecord::trunc_norm},
    {"the truncation bound", &RoundRecord::trunc_bound}};

// The first non-finite quantity of a record that check_finite refused, named (out of line: the
// check that every round passes stays a few instructions).
[[noreturn]] __attribute__((noinline)) void stop_non_finite(const RoundRecord& r, bool norm_kept) {
  const auto stop = [&](const char* what, double v) {
    throw NonFiniteError(fmt::format(
        "round {} (data row {}): {} is {}: non-finite arithmetic, the run is stopped (values too large "
        "for the kernel: rescale the data or lower gamma/degree/coef0; docs/learners.md#non-finite)",
        r.t, r.index + 1, what, v));
  };
  if (!std::isfinite(r.score)) stop("the score f(x_t)", r.score);
  if (!std::isfinite(r.kxx)) stop("k(x_t,x_t)", r.kxx);
  if (norm_kept ? !std::isfinite(r.f_norm2) : std::isinf(r.f_norm2)) stop("the running norm ||f_t||^2", r.f_norm2);
  for (const auto& [what, field] : kOptional)
    if (std::isinf(r.*field)) stop(what, r.*field);
  throw std::logic_error("stop_non_finite: no non-finite quantity");
}
}  // namespace

void check_finite(const RoundRecord& r, bool norm_kept) {
  // The largest magnitude of the optional fields that are numbers (a NaN loses every a > m),
  // compared once.
  double m = 0.0;
  for (const auto& [what, field] : kOptional) {
    const double a = std::fabs(r.*field);
    m = a > m ? a : m;
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (!(std::isfinite(r.score) && std::isfinite(r.kxx) &&
        (norm_kept ? std::isfinite(r.f_norm2) : std::fabs(r.f_norm2) != kInf) && m != kInf))
    stop_non_finite(r, norm_kept);
}

namespace {
constexpr std::size_t kBlock = 96;  // rounds handed to learn_block at once (any size gives the same records)

// One block of rounds xs[0..n): learn, stamp each record with its data row (`rows[i]`), check, count;
// the records are kept when `keep` (a stream keeps none: memory bounded by the model).
void learn_rounds(Learner& learner, const std::vector<Example>& xs, const std::size_t* rows, int64_t first_round,
                  std::vector<RoundRecord>& recs, RunResult& res, const RoundObserver& observe, bool keep,
                  const RowSource& source) {
  const std::size_t n = xs.size();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    learner.learn_block(xs.data(), n, first_round, recs.data());
  } catch (const FeatureIndexError& e) {  // name the row: SOURCE: row R (round t): feature index ...
    throw DataError(fmt::format("{}: row {} (round {}): {}", source(), rows[e.t - first_round] + 1, e.t, e.what()));
  }
  res.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool norm_kept = learner.keeps_norm();
  for (std::size_t i = 0; i < n; ++i) {
    RoundRecord& r = recs[i];
    r.index = static_cast<int64_t>(rows[i]);
    check_finite(r, norm_kept);
    res.mistakes += r.mistake;
    res.margin_errors += r.margin_error;
    res.updates += changed(r.update);
    ++res.count;
    if (keep) res.rounds.push_back(r);
    if (observe) observe(keep ? res.rounds.back() : r, res);
  }
}
}  // namespace

RunResult run_online(Learner& learner, const Dataset& data, const std::vector<std::size_t>& order,
                     const RoundObserver& observe, int64_t first_round, bool keep) {
  RunResult res;
  if (keep) {
    res.rounds.reserve(order.size());
    advise_huge_pages(res.rounds.data(), res.rounds.capacity() * sizeof(RoundRecord));
  }
  std::vector<Example> xs;
  std::vector<RoundRecord> recs(kBlock);
  for (std::size_t k0 = 0; k0 < order.size(); k0 += kBlock) {
    const std::size_t n = std::min(kBlock, order.size() - k0);
    xs.clear();
    for (std::size_t k = k0; k < k0 + n; ++k) xs.push_back(data[order[k]]);
    learn_rounds(learner, xs, order.data() + k0, first_round + static_cast<int64_t>(k0), recs, res, observe, keep,
                 [&] { return data.path.empty() ? data.name : data.path; });
  }
  res.support_size = learner.support_size();
  return res;
}

RunResult run_stream(Learner& learner, RowStream& rows, std::size_t limit, const RoundObserver& observe,
                     int64_t first_round) {
  RunResult res;
  Dataset chunk;  // the block's rows; its arrays keep their capacity from block to block
  std::vector<Example> xs;
  std::vector<std::size_t> index(kBlock);
  std::vector<RoundRecord> recs(kBlock);
  bool more = true;
  while (more && (limit == 0 || res.count < limit)) {
    chunk.rowptr.owned().assign(1, 0);
    chunk.idx.clear();
    chunk.val.clear();
    chunk.y.clear();
    chunk.sqnorm.clear();
    const std::size_t want = limit == 0 ? kBlock : std::min(kBlock, limit - res.count);
    while (chunk.size() < want && (more = rows.next(chunk))) index[chunk.size() - 1] = res.count + chunk.size() - 1;
    xs.clear();
    for (std::size_t i = 0; i < chunk.size(); ++i) xs.push_back(chunk[i]);
    if (!xs.empty())
      learn_rounds(learner, xs, index.data(), first_round + static_cast<int64_t>(res.count), recs, res, observe, false,
                   [&] { return rows.name(); });
  }
  res.support_size = learner.support_size();
  return res;
}

RunResult run_arriving(Learner& learner, const RowArrivals& rows, std::size_t limit, const RoundObserver& observe,
                       int64_t first_round, bool keep, const RowSource& source) {
  RunResult res;
  std::vector<Example> xs;
  std::vector<std::size_t> index(kBlock);
  std::vector<RoundRecord> recs(kBlock);
  // A learner that has caught up with the reader waits for kCatchUp rows, not for one block: a wait
  // is a system call and a wake-up, about as dear as a block of a fast learner's rounds.
  constexpr std::size_t kCatchUp = 16 * kBlock;
  std::size_t arrived = 0;
  for (std::size_t k0 = 0; limit == 0 || k0 < limit;) {
    if (arrived < k0 + kBlock) {  // a whole block, unless the file ends first
      arrived = rows.arrived();
      if (arrived < k0 + kBlock) {
        const std::size_t want = k0 == 0 ? kBlock : k0 + kCatchUp;  // the first rounds start at once
        arrived = rows.wait(limit > 0 ? std::min(want, limit) : want);
      }
    }
    if (arrived == k0) break;
    if (keep && k0 == 0) {  // every line of the file may be a row
      res.rounds.reserve(limit > 0 ? std::min(limit, rows.expected) : rows.expected);
      advise_huge_pages(res.rounds.data(), res.rounds.capacity() * sizeof(RoundRecord));
    }
    const std::size_t n = std::min({kBlock, arrived - k0, limit > 0 ? limit - k0 : kBlock});
    xs.clear();
    for (std::size_t k = 0; k < n; ++k) {
      xs.push_back(rows[k0 + k]);
      index[k] = k0 + k;
    }
    learn_rounds(learner, xs, index.data(), first_round + static_cast<int64_t>(k0), recs, res, observe, keep, source);
    k0 += n;
  }
  res.support_size = learner.support_size();
  return res;
}

double test_error(const Learner& learner, const std::string& which, const Dataset& test, std::size_t* no_score) {
  if (no_score) *no_score = 0;
  if (test.size() == 0) return 0.0;
  std::size_t err = 0;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const Example x = test[i];
    const double s = learner.score_as(which, x);
    err += learner.wrong(s, x);
    if (no_score) *no_score += !std::isfinite(s);
  }
  return static_cast<double>(err) / static_cast<double>(test.size());
}

}  // namespace plab
