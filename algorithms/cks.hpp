// Crammer–Kandola–Singer budget Perceptron ("Online classification on a budget", NIPS 2003;
// docs/learners.md#cks). Margin Perceptron with cache size N = its option budget:
//   if y_t f(x_t) <= beta: store x_t with alpha_t = y_t; keep |S| <= N by removing
//   i* = argmax_i y_i (f(x_i) - alpha_i k(x_i,x_i))   (largest margin once its own term is out)
// Order (the sources differ; docs/learners.md#cks): default REMOVE-THEN-INSERT: when the cache is
// full the removal is chosen among the N stored examples and x_t is always stored. Why: it is how the
// original figure is recalled (docs/learners.md#cks), and it makes every update progress on x_t like
// RBP and DOGMA's overwrite, instead of possibly discarding x_t itself at once (with insert-first
// x_t is a candidate: its value y_t s_t <= beta can win when every stored margin is smaller).
// Insert-then-remove is available as the constructor's `insert_first` for comparison.
// Ties in the argmax go to the oldest support (smallest id), so the choice is order-free.
// Cost: F_i = f(x_i) is kept for every support and updated with kernel rows, O(|S|) per update
// beyond the one extra kernel row of the removed example (no O(|S|^2) recomputation).
#pragma once
#include <stdexcept>
#include <vector>

#include "algorithms/learner.hpp"

namespace plab {

class CKSPerceptron final : public ExpansionLearner {
 public:
  // CKS's options: the budget (cache size N) and the margin beta (docs/learners.md#cks).
  struct Options {
    std::size_t budget = 0;
    double beta = 0.0;
    static std::vector<OptionMember<Options>> rows() {
      return {budget_option<Options>(&Options::budget), {"beta", &Options::beta, "CKS margin threshold beta", at_least(0)}};
    }
  };
  CKSPerceptron(const LearnerOptions& o, const Options& own, bool insert_first = false)
      : ExpansionLearner(o), N_(own.budget), beta_(own.beta), insert_first_(insert_first) {}
  // f(x_i) for the support in slot i, maintained incrementally (tests compare with f_.score).
  const std::vector<double>& support_scores() const { return F_; }

  // F_i = f(x_i), maintained incrementally (recomputing it would change its bits).
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("support_scores", F_);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    F_ = r.get<double>("support_scores", f_.size());
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    if (x.y * r.score > beta_) return finish(r);  // docs/learners.md#cks: update iff y f(x) <= beta
    r.margin_error = !r.mistake;
    kt_.assign(f_.row().begin(), f_.row().end());
    double s = r.score;
    r.update = UpdateKind::add;
    if (!insert_first_ && f_.size() >= N_) evict(argmax(), s, r);
    for (std::size_t i = 0; i < F_.size(); ++i) F_[i] += x.y * kt_[i];
    F_.push_back(s + x.y * r.kxx);
    norm2_ += r.kxx + 2.0 * x.y * s;  // ||f + y k_t||^2
    f_.add(x, t, x.y);
    kt_.push_back(r.kxx);
    if (insert_first_ && f_.size() > N_) evict(argmax(), s, r);
    return finish(r);
  }

 private:
  std::size_t argmax() const {
    std::size_t best = 0;
    double bv = 0.0;
    for (std::size_t i = 0; i < F_.size(); ++i) {
      const double a = f_.alpha[i];
      const double v = (a >= 0.0 ? 1.0 : -1.0) * (F_[i] - a * f_.self(i));  // alpha_i = y_i
      if (i == 0 || v > bv || (v == bv && f_.sv.id(i) < f_.sv.id(best))) { best = i; bv = v; }
    }
    return best;
  }
  // f <- f - a_j k(x_j,.): F_i -= a_j k(x_i,x_j), ||f||^2 -= 2 a_j f(x_j) - a_j^2 k_jj; slot j
  // is then filled by the last one, in F_ and kt_ exactly as in the support set.
  void evict(std::size_t j, double& s, RoundRecord& r) {
    buf_.resize(f_.size());
    f_.sv.kernel_row(f_.kernel, f_.sv.row(j), buf_.data());
    const double a = f_.alpha[j];
    norm2_ += -2.0 * a * F_[j] + a * a * f_.self(j);
    for (std::size_t i = 0; i < F_.size(); ++i) F_[i] -= a * buf_[i];
    s -= a * kt_[j];
    F_[j] = F_.back(); F_.pop_back();
    kt_[j] = kt_.back(); kt_.pop_back();
    r.removed = f_.sv.id(j);
    f_.remove(j);
    r.update = UpdateKind::evict;
  }

  std::size_t N_;
  double beta_;
  bool insert_first_;
  std::vector<double> F_, kt_, buf_;
};

}  // namespace plab
