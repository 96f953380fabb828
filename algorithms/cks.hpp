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
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "algorithms/learner.hpp"
#include "numerics/lane_min.hpp"

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
  // Its floor (docs/learners.md#floors): the score's row; on a step F_i += y k_it (n); at a removal
  // also the removed support's kernel row, F_i -= a_r k_ir (n) and the argmax's product (n).
  static double floor_ops(const FloorRound& r) {
    return r.n * r.term + (!r.step ? 0.0 : r.n + (r.removed ? r.n * r.term + 2.0 * r.n : 0.0));
  }
  // f(x_i) for the support in slot i, maintained incrementally (tests compare with f_.score).
  const std::vector<double>& support_scores() const { return F_; }

  // F_i = f(x_i), maintained incrementally (recomputing it would change its bits).
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("support_scores", F_);
  }
  void load_state(const StateReader& r) override {
    fresh_ = false;
    ExpansionLearner::load_state(r);
    F_ = r.get<double>("support_scores", f_.size());
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    if (x.y * r.score > beta_) return finish(r);  // docs/learners.md#cks: update iff y f(x) <= beta
    r.margin_error = !r.mistake;
    f_.take_row(kt_);
    double s = r.score;
    r.update = UpdateKind::add;
    if (!insert_first_ && f_.size() >= N_) {
      const double a = evict(argmax(), s, r);
      refresh<true, true>(a, x.y);  // F_i = (F_i - a_j k_ij) + y k_it
    } else {
      refresh<false, true>(0.0, x.y);  // F_i += y k_it
    }
    F_.push_back(s + x.y * r.kxx);
    norm2_ += r.kxx + 2.0 * x.y * s;  // ||f + y k_t||^2
    f_.add(x, t, x.y);
    kt_.push_back(r.kxx);
    const double v = candidate(F_.size() - 1);
    v_.push_back(v);
    vmax_ = v > vmax_ ? v : vmax_;
    if (insert_first_ && f_.size() > N_) refresh<true, false>(evict(argmax(), s, r), 0.0);  // F_i -= a_j k_ij
    return finish(r);
  }

 private:
  // The candidate value of slot i: y_i (F_i - alpha_i k_ii), alpha_i = y_i.
  double candidate(std::size_t i) const {
    const double a = f_.alpha[i];
    return (a >= 0.0 ? 1.0 : -1.0) * (F_[i] - a * f_.self(i));
  }
  // F_i <- (F_i - a buf_i) + y kt_i in one pass (Sub, Add: which parts; each F_i the same bits as
  // the two passes one after the other), and beside it every candidate value v_i and their largest
  // vmax_, which the next argmax reads instead of a pass of its own (F_ changes only here and at a
  // new support). A maximum is exact in any order (sixteen lanes in four accumulators; of -0 and +0
  // either, and argmax compares with ==); a NaN value is never taken unless all are.
  template <bool Sub, bool Add>
  void refresh(double a, double y) {
    const std::size_t n = F_.size();
    v_.resize(n);
    double* F = F_.data();
    double* v = v_.data();
    const double* b = buf_.data();
    const double* k = kt_.data();
    const double* al = f_.alpha.data();
    const auto step = [&](std::size_t i) {
      if constexpr (Sub) F[i] -= a * b[i];
      if constexpr (Add) F[i] += y * k[i];
    };
    const double inf = std::numeric_limits<double>::infinity();
    double m = -inf;
    std::size_t i = 0;
    if (f_.kernel.unit_diagonal()) {  // k_ii = 1 exactly (KernelExpansion::self)
      using V4 = double __attribute__((vector_size(32)));
      constexpr std::size_t kAcc = 4;
      V4 mv[kAcc];
      for (auto& q : mv) q = V4{-inf, -inf, -inf, -inf};
      const V4 one = {1.0, 1.0, 1.0, 1.0};
      for (; i + 4 * kAcc <= n; i += 4 * kAcc)
        for (std::size_t q = 0; q < kAcc; ++q) {
          const std::size_t o = i + 4 * q;
          V4 vf, va;
          std::memcpy(&vf, F + o, sizeof vf);
          if constexpr (Sub) {
            V4 vb;
            std::memcpy(&vb, b + o, sizeof vb);
            vf = vf - a * vb;
          }
          if constexpr (Add) {
            V4 vk;
            std::memcpy(&vk, k + o, sizeof vk);
            vf = vf + y * vk;
          }
          std::memcpy(F + o, &vf, sizeof vf);
          std::memcpy(&va, al + o, sizeof va);
          const V4 vv = (va >= 0.0 ? one : -one) * (vf - va * 1.0);  // candidate(), lane by lane
          std::memcpy(v + o, &vv, sizeof vv);
          mv[q] = vv > mv[q] ? vv : mv[q];
        }
      for (const auto& q : mv)
        for (std::size_t l = 0; l < 4; ++l) m = q[l] > m ? q[l] : m;
    }
    for (; i < n; ++i) {
      step(i);
      v[i] = candidate(i);
      m = v[i] > m ? v[i] : m;
    }
    vmax_ = m;
    fresh_ = true;
  }
  // The slot of the largest candidate y_i (F_i - alpha_i k_ii), ties to the smallest id (ids are
  // unique, so one order over the candidates): the smallest id among the slots equal to the largest
  // value, four compared at a time. A NaN candidate is never taken unless all are (slot 0).
  std::size_t argmax() {
    const std::size_t n = F_.size();
    if (!fresh_) {  // after load_state: the candidates as refresh forms them
      v_.resize(n);
      vmax_ = -std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n; ++i) {
        v_[i] = candidate(i);
        vmax_ = v_[i] > vmax_ ? v_[i] : vmax_;
      }
      fresh_ = true;
    }
    using V4 = double __attribute__((vector_size(32)));
    using I4 = int64_t __attribute__((vector_size(32)));
    const double m = vmax_;
    const V4 mm = {m, m, m, m};
    const int64_t* id = f_.sv.ids();
    std::size_t best = 0;
    int64_t best_id = INT64_MAX;
    visit_hits(
        n,
        [&](std::size_t i, I4& hit) {
          V4 v;
          std::memcpy(&v, v_.data() + i, sizeof v);
          hit = v == mm;
        },
        [&](std::size_t i) { return v_[i] == m; },
        [&](std::size_t i) {
          if (id[i] < best_id) best_id = id[i], best = i;
        });
    return best;
  }
  // Removes the support in slot j: ||f||^2 -= 2 a_j f(x_j) - a_j^2 k_jj, s -= a_j k(x_t,x_j), and
  // buf_ = its kernel row; slot j is then filled by the last one, in F_, kt_ and buf_ exactly as in
  // the support set. Returns a_j for the caller's refresh (F_i -= a_j k(x_i,x_j)).
  double evict(std::size_t j, double& s, RoundRecord& r) {
    buf_.resize(f_.size());
    f_.sv.kernel_row(f_.kernel, f_.sv.row(j), buf_.data());
    const double a = f_.alpha[j];
    norm2_ += -2.0 * a * F_[j] + a * a * f_.self(j);
    s -= a * kt_[j];
    for (auto* w : {&F_, &buf_}) {
      (*w)[j] = w->back();
      w->pop_back();
    }
    kt_[j] = kt_.back(); kt_.pop_back();
    r.removed = f_.sv.id(j);
    f_.remove(j);
    r.update = UpdateKind::evict;
    return a;
  }

  std::size_t N_;
  double beta_;
  bool insert_first_;
  std::vector<double> F_, buf_;
  AlignedVector<double> kt_;
  std::vector<double> v_;  // argmax's candidates, slot by slot, and their largest (refresh)
  double vmax_ = -std::numeric_limits<double>::infinity();
  bool fresh_ = false;  // v_ and vmax_ hold the current F_ (false only after load_state)
};

}  // namespace plab
