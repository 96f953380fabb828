// Perceptron, primal and kernel form (Rosenblatt 1958; docs/learners.md#perceptron; JMLR Fig. 1).
// Update iff y_t s_t <= 0 (ties count, so round 1 always updates), as the proofs and DOGMA do.
#pragma once
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"

namespace plab {

// Primal linear Perceptron on a dense weight vector, sparse-aware: each round costs O(nnz(x)).
class PrimalPerceptron final : public Learner {
 public:
  // w grows with the rows it updates on (the data's dimension sizes nothing: a row with index 2^31
  // would otherwise hold 16 GiB of zeros before the first round).
  explicit PrimalPerceptron(const LearnerOptions&) {}
  double score(const Example& x) const override {
    double s = 0.0;
    for (std::size_t k = 0; k < x.idx.size(); ++k)
      if (x.idx[k] < w_.size()) s += w_[x.idx[k]] * x.val[k];
    return s;
  }
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r;
    r.t = t; r.y = x.y; r.kxx = x.sqnorm;
    r.score = score(x);
    r.mistake = x.y * r.score <= 0.0;
    seen_ += x.idx.size();
    if (r.mistake) {  // docs/learners.md#perceptron: w_{t+1} = w_t + y_t x_t
      if (!x.idx.empty() && x.idx.back() >= w_.size()) grow(x.idx.back(), t);
      for (std::size_t k = 0; k < x.idx.size(); ++k) w_[x.idx[k]] += x.y * x.val[k];
      norm2_ += x.sqnorm + 2.0 * x.y * r.score;  // MR Lemma 1 increment (docs/bounds.md#lemma1)
      ++updates_;
      r.update = UpdateKind::update;
    }
    r.support_size = updates_;
    r.f_norm2 = norm2_;
    return r;
  }
  // The rounds with learn() called directly (the class is final): inlined, no call a round.
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    for (std::size_t i = 0; i < n; ++i)
      emplace_record(out + i, [&] { return PrimalPerceptron::learn(xs[i], t0 + static_cast<int64_t>(i)); });
  }
  std::size_t support_size() const override { return updates_; }
  double norm2() const override { return norm2_; }
  // Its floor (docs/learners.md#floors): w.x, and w += y x on a step.
  static double floor_ops(const FloorRound& r) { return r.nnz * (r.step ? 2.0 : 1.0); }
  // w holds one weight per feature index up to the largest it updated on: O(dim) memory by design.
  // Beyond 2^27 weights (1 GiB) it must not exceed 8 weights per non-zero given so far, so that
  // memory stays a small multiple of the input (64 bytes per non-zero): a row with index 2^31 in a
  // 2-row file is refused, not 16 GiB of zeros (docs/learners.md#perceptron).
  static constexpr std::size_t kDenseFloor = std::size_t{1} << 27;
  void grow(std::size_t idx, int64_t t) {
    const std::size_t n = idx + 1;
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f", 8.0 * static_cast<double>(n) / 1073741824.0);
    const auto refuse = [&](const std::string& why) {
      throw FeatureIndexError(t, "feature index " + std::to_string(n) + ": the perceptron's dense weight vector would take " +
                                 std::to_string(n) + " x 8 bytes = " + gib + " GiB, " + why + "; kernel-perceptron --kernel linear makes the same updates in memory "
                                 "proportional to the non-zeros (docs/learners.md#perceptron)");
    };
    if (n > kDenseFloor && n / 8 > seen_)
      refuse("more than 1 GiB and than 64 bytes per non-zero of the " + std::to_string(seen_) + " given so far");
    try {
      w_.resize(n, 0.0);
    } catch (const std::bad_alloc&) {
      refuse("more than this process may allocate");
    }
  }
  double norm2_exact() const override {
    double s = 0.0;
    for (double v : w_) s += v * v;
    return s;
  }
  const std::vector<double>& weights() const { return w_; }
  // w up to its last non-zero weight (the dimension of the data it came from is not state: a
  // zero weight adds nothing to a score), the running norm and the update count.
  void save_state(StateWriter& w) const override {
    std::size_t n = w_.size();
    while (n > 0 && w_[n - 1] == 0.0) --n;
    w.put("w", std::span<const double>(w_.data(), n));
    w.put_one("norm2", norm2_);
    w.put_one<uint64_t>("updates", updates_);
  }
  void load_state(const StateReader& r) override {
    w_ = r.get<double>("w");  // one copy: the saved weights, grown by later rows as from a fresh start
    seen_ = w_.size() / 8;  // the model's weights are input too
    norm2_ = r.get_one<double>("norm2");
    updates_ = r.get_one<uint64_t>("updates");
  }

 private:
  std::vector<double> w_;
  double norm2_ = 0.0;
  std::size_t updates_ = 0;
  std::size_t seen_ = 0;  // non-zeros given to learn (with a loaded model's weights / 8)
};

// Kernel Perceptron: S <- S u {t}, alpha_t = y_t on every mistake (docs/learners.md#perceptron,
// dual form).
class KernelPerceptron final : public ExpansionLearner {
 public:
  using ExpansionLearner::ExpansionLearner;
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    step(x, t, r);
    return r;
  }
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    learn_block_appending(xs, n, t0, out, [this](const Example& x, int64_t t, RoundRecord& r) { step(x, t, r); });
  }

 private:
  void step(const Example& x, int64_t t, RoundRecord& r) {
    if (r.mistake) {
      f_.add(x, t, x.y);
      norm2_ += r.kxx + 2.0 * x.y * r.score;  // ||f + y k||^2 = ||f||^2 + 2 y f(x) + k(x,x)
      r.update = UpdateKind::add;
    }
    finish(r);
  }
};

}  // namespace plab
