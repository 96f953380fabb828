// Perceptron, primal and kernel form (Rosenblatt 1958; docs/learners.md#perceptron; JMLR Fig. 1).
// Update iff y_t s_t <= 0 (ties count, so round 1 always updates), as the proofs and DOGMA do.
#pragma once
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"

namespace plab {

// Primal linear Perceptron on a dense weight vector, sparse-aware: each round costs O(nnz(x)).
class PrimalPerceptron final : public Learner {
 public:
  explicit PrimalPerceptron(const LearnerOptions& o) : w_(dense_weights(o.dim)) {}
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
    if (r.mistake) {  // docs/learners.md#perceptron: w_{t+1} = w_t + y_t x_t
      if (!x.idx.empty() && x.idx.back() >= w_.size()) w_.resize(x.idx.back() + 1, 0.0);
      for (std::size_t k = 0; k < x.idx.size(); ++k) w_[x.idx[k]] += x.y * x.val[k];
      norm2_ += x.sqnorm + 2.0 * x.y * r.score;  // MR Lemma 1 increment (docs/bounds.md#lemma1)
      ++updates_;
      r.update = UpdateKind::update;
    }
    r.support_size = updates_;
    r.f_norm2 = norm2_;
    return r;
  }
  std::size_t support_size() const override { return updates_; }
  double norm2() const override { return norm2_; }
  // w = 0 of dimension dim: O(dim) memory by design, so say so when it does not fit.
  static std::vector<double> dense_weights(std::size_t dim) {
    try {
      return std::vector<double>(dim, 0.0);
    } catch (const std::bad_alloc&) {
      throw std::runtime_error("perceptron: the dense weight vector of dimension " + std::to_string(dim) + " (" +
                               std::to_string(dim / 131072) + " MB) does not fit in memory; kernel-perceptron " +
                               "--kernel linear keeps memory proportional to the non-zeros");
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
    std::vector<double> v = r.get<double>("w");
    if (v.size() < w_.size()) v.resize(w_.size(), 0.0);
    w_ = std::move(v);
    norm2_ = r.get_one<double>("norm2");
    updates_ = r.get_one<uint64_t>("updates");
  }

 private:
  std::vector<double> w_;
  double norm2_ = 0.0;
  std::size_t updates_ = 0;
};

// Kernel Perceptron: S <- S u {t}, alpha_t = y_t on every mistake (docs/learners.md#perceptron,
// dual form).
class KernelPerceptron final : public ExpansionLearner {
 public:
  using ExpansionLearner::ExpansionLearner;
  RoundRecord learn(const Example& x, int64_t t) override { return step(x, t, begin(x, t)); }
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    learn_block_appending(xs, n, t0, out, [this](const Example& x, int64_t t, RoundRecord r) { return step(x, t, r); });
  }

 private:
  RoundRecord step(const Example& x, int64_t t, RoundRecord r) {
    if (r.mistake) {
      f_.add(x, t, x.y);
      norm2_ += r.kxx + 2.0 * x.y * r.score;  // ||f + y k||^2 = ||f||^2 + 2 y f(x) + k(x,x)
      r.update = UpdateKind::add;
    }
    return finish(r);
  }
};

}  // namespace plab
