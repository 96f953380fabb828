// BOGD and BOGD++, Bounded Online Gradient Descent (Zhao, Wang, Wu, Jin, Hoi, ICML 2012, "Fast
// Bounded Online Gradient Descent Algorithms for Scalable Kernel-Based Online Learning", Sec. 3;
// docs/learners.md#bogd). Online gradient descent on the regularised hinge loss
// (lambda/2)||f||^2 + max(0, 1 - y f(x)) with step eta: every round every coefficient shrinks by
// 1 - eta lambda, and on a hinge loss > 0 (y s < 1) x_t is added with -eta dl/df = eta y_t. With
// |S| = B an added x_t first removes one support j drawn at random and rescales the others so that
// the expected function is the unbudgeted step's (unbiased):
//   BOGD    j uniform, p_j = 1/B;  a_i <- a_i (1 - eta lambda) B/(B-1)
//   BOGD++  p_j = (1 - b_j)/(B-1), b_j = |a_j| sqrt(k_jj) / sum_i |a_i| sqrt(k_ii) (small terms go
//           first); a_i <- a_i (1 - eta lambda) / (1 - p_i), which is unbiased: E[a_i'] = (1 - p_i) a_i'
// (BOGD++'s p_j as recalled from the paper, not checked against its text; unbiased by construction.)
// B = 1: the one support is removed, nothing is rescaled. Then, as the authors' code does on such a
// round (docs/learners.md#bogd-cap), the coefficient cap: all coefficients, the new one included, are
// multiplied by s = min(eta cap / max_i |a_i|, 1), so that max_i |a_i| <= eta cap (--cap; 0: none).
// The removal draw is plab::Rng(seed).
// For the bounds only (record_norms; docs/learners.md#bookkeeping) the Gram matrix of the supports
// is kept, packed lower triangle (O(B) per change, from the scoring row), with the running ||f||^2:
// BOGD updates it at a removal in O(B) and recomputes alpha^T K alpha (one sweep over the triangle,
// form()) every B removals and where the update cancels, since the growth factor
// (1 - eta lambda) B/(B-1) > 1 multiplies its carried rounding at every removal
// (update_norm_after_removal); BOGD++ recomputes it at every removal.
// Recorded for the bounds (docs/bounds.md#budget_ogd_all_t, docs/bounds.md#bogd_expectation): tau = eta
// on every update and delta_norm = ||delta_t||, delta_t = f_{t+1} - ((1 - eta lambda) f_t + eta y k(x_t,.)),
// what the removal, rescaling and cap changed against the unbudgeted step (0 when nothing is removed):
// the coefficients d_i = (s g_i - c) a_i (i != j), d_j = -c a_j and (s - 1) eta y for x_t; for BOGD's
// common g in closed form from ||f||^2, f(x_j), k_jj, k(x_j, x_t), f(x_t) and k(x_t, x_t), O(1) (O(B)
// for f(x_j)); for BOGD++ the form d^T K d plus x_t's terms, O(B^2), as the norm after the removal.
// The cap's s depends on the support drawn, so with a cap the removal is not unbiased
// (docs/bounds.md#bogd_expectation).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/random.hpp"
#include "core/scratch_vector.hpp"
#include "numerics/coef_scale.hpp"
#include "numerics/common_divisor.hpp"
#include "numerics/lane_sum.hpp"

namespace plab {

class BoundedOnlineGradientDescent final : public ExpansionLearner {
 public:
  enum class Removal { uniform, weighted };
  // Its options: the budget, the seed of its removals and its steps; the defaults are LIBOL KOL's,
  // the cap the authors' code's (docs/learners.md#bogd-cap).
  struct Options {
    std::size_t budget = 0, seed = 1;
    double eta = kOgdEta, lambda = 0.001, cap = 2.0;
    static std::vector<OptionMember<Options>> rows() {
      return {budget_option<Options>(&Options::budget), seed_option<Options>(&Options::seed), ogd_eta_option(&Options::eta),
              {"lambda", &Options::lambda, "BOGD regulariser lambda: coefficients shrink by 1 - eta lambda each round",
               at_least(0), {}, {"ogd_lambda"}},
              {"cap", &Options::cap,
               "BOGD, BOGD++ coefficient cap: after a removal every coefficient is scaled so that max |a_i| <= eta cap "
               "(0: no cap; docs/learners.md#bogd-cap)", at_least(0), {}, {"ogd_cap"},
               0.0}};  // a record from before the cap had none
    }
    // The shrink 1 - eta lambda stays positive.
    void validate(const SpellOption& spell) const {
      if (!(eta * lambda < 1.0))
        throw std::invalid_argument(spell("eta") + " * " + spell("lambda") + " must be < 1 (the shrink 1 - eta lambda)");
    }
  };
  // Its floors (docs/learners.md#floors): the score's row and the shrink (n); at a removal instead
  // BOGD's cap maximum and rescaling (2n), BOGD++'s probabilities and factors (a division each),
  // cap and rescaling (4n).
  static double floor_ops_uniform(const FloorRound& r) { return r.n * r.term + (r.removed ? 2.0 : 1.0) * r.n; }
  static double floor_ops_weighted(const FloorRound& r) { return r.n * r.term + (r.removed ? 4.0 : 1.0) * r.n; }
  BoundedOnlineGradientDescent(const LearnerOptions& o, const Options& own, Removal removal = Removal::uniform)
      : ExpansionLearner(o), B_(own.budget), eta_(own.eta), lambda_(own.lambda), cap_(own.cap), removal_(removal),
        rng_(own.seed) {
    drop_norm();  // then no Gram matrix: the norm and delta_norm are all it serves
  }

  // The removal stream and the Gram matrix (n x n, slot order) beside the expansion (computed here
  // when the run kept none).
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("rng", rng_.state());
    const std::size_t n = f_.size();
    std::vector<double> g(n * n), row(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (norm_dropped_) f_.sv.kernel_row(f_.kernel, f_.sv.row(i), row.data());
      for (std::size_t j = 0; j <= i; ++j)  // the lower triangle, mirrored; the diagonal as add_slot keeps it
        g[i * n + j] = g[j * n + i] = !norm_dropped_ ? K(i, j) : i == j ? f_.self(i) : row[j];
    }
    w.put("gram", g);
    if (!norm_dropped_) w.put_one<uint64_t>("norm_removals", since_exact_);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    rng_.set_state(r.get<uint64_t>("rng"));
    const std::vector<double> g = r.get<double>("gram", f_.size() * f_.size());
    gram_.clear();
    since_exact_ = r.has("norm_removals") ? r.get_one<uint64_t>("norm_removals") : 0;
    require_state(since_exact_ < std::max<std::size_t>(B_, 1), "norm_removals: not below the budget");
    check_gram(g);
    if (norm_dropped_) return;
    for (std::size_t i = 0; i < f_.size(); ++i) gram_.insert(gram_.end(), &g[i * f_.size()], &g[i * f_.size()] + i + 1);
  }
  // The Gram matrix of the supports: symmetric, k(x_i,x_i) on the diagonal, |K_ij| <= sqrt(K_ii K_jj).
  void check_gram(const std::vector<double>& g) const {
    const std::size_t n = f_.size();
    for (std::size_t i = 0; i < n; ++i) {
      require_state(std::abs(g[i * n + i] - f_.self(i)) <= 1e-12 * std::abs(f_.self(i)), "gram: K_" + std::to_string(i) + std::to_string(i) + " = " +
                                                    std::to_string(g[i * n + i]) + " is not k(x,x) = " +
                                                    std::to_string(f_.self(i)) + " of support " + std::to_string(i));
      for (std::size_t j = 0; j < i; ++j)
        require_state(g[i * n + j] == g[j * n + i] &&
                          std::abs(g[i * n + j]) <= std::sqrt(g[i * n + i] * g[j * n + j]) * (1.0 + 1e-12),
                      "gram: entry (" + std::to_string(i) + ", " + std::to_string(j) +
                          ") is not symmetric or exceeds sqrt(K_ii K_jj)");
    }
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    // The scoring row feeds only the Gram matrix and the norm: without them the fused score.
    RoundRecord r = norm_dropped_ ? begin_without_row(x, t) : begin(x, t);
    const double ys = x.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;
    const double c = 1.0 - eta_ * lambda_;
    if (!(ys < 1.0)) {  // no loss: the regulariser's shrink only
      if (f_.size() > 0 && c != 1.0) {
        f_.scale(c, t);
        norm2_ *= c * c;
        r.update = UpdateKind::update;
      }
      return finish(r);
    }
    AlignedVector<double>& row = row_;  // k(x_i, x_t) (empty without the norm)
    if (!norm_dropped_) f_.take_row(row);
    double s = r.score;                  // f(x_t) of the function a k(x_t,.) is added to
    r.update = UpdateKind::add;
    r.delta_norm = norm_dropped_ ? kNoNorm : 0.0;
    const double a = eta_ * x.y;  // -eta dl/df, l = max(0, 1 - y f)
    double cap = 1.0;             // the cap's factor s (1: it does not act)
    if (f_.size() >= B_) {
      const std::size_t n = f_.size();
      ScratchVector<double>& p = p_;
      p.clear();
      const std::size_t j = draw(p, c);  // BOGD++: also its own factors, g_ in slot order
      const double aj = f_.alpha[j];
      const double gu = c * static_cast<double>(n) / static_cast<double>(n - 1);  // BOGD's common factor
      // Without the norm nothing reads the coefficients before the rescaling: it runs inside the
      // cap's pass, before the removal (slot j, removed, keeps its value). Not while the averaged
      // sums are kept (until the first removal): scale updates them too.
      const bool rescaled = norm_dropped_ && cap_ > 0.0 && (removal_ == Removal::uniform || !p.empty()) &&
                            !f_.averaging_valid();
      cap = cap_factor(j, p, gu, a, rescaled);
      double fj = 0.0, kjj = 0.0;  // f(x_j), k(x_j,x_j) before the removal (the norm's update)
      if (!norm_dropped_) {
        fj = gram_dot(j);
        kjj = K(j, j);
        r.delta_norm = removal_norm(j, p, c, fj, cap, a, row, r.score, r.kxx);
      }
      r.removed = f_.sv.id(j);
      r.update = UpdateKind::evict;
      remove_slot(j, row, p);
      if (!rescaled && p.empty()) f_.scale(gu, t);
      else if (!rescaled) f_.scale_each(g_.data(), t);  // g_ moved with the slots
      s = norm_dropped_ ? 0.0 : f_.dot_alpha(row.data());  // only the norm reads it
      if (!norm_dropped_) update_norm_after_removal(n, gu, aj, fj, kjj);
    } else if (f_.size() > 0) {
      f_.scale(c, t);
      norm2_ *= c * c;
      s *= c;
    }
    add_slot(x, t, a, row, r.kxx);
    norm2_ += 2.0 * a * s + a * a * r.kxx;
    if (cap != 1.0) {  // the cap (authors' BOGD.m, after the append): every coefficient times s
      f_.scale(cap, t);
      norm2_ *= cap * cap;
    }
    r.coef = a * cap;  // the new support's coefficient (the step a_t = tau stays eta; the cap is in delta_t)
    r.eta_t = eta_;
    r.tau = eta_;
    return finish(r);
  }
  // The running ||f||^2 after removing slot j (coefficient aj, f(x_j) = fj, k(x_j,x_j) = kjj, all
  // before the removal) from n supports and rescaling. BOGD: g^2 (||f||^2 - 2 a_j f(x_j) + a_j^2
  // k_jj), O(B), and every B removals alpha^T K alpha afresh (O(B^2), O(B) amortised): the factor
  // g^2 > 1 multiplies the carried rounding each removal, at most (B/(B-1))^(2B) < e^2.2 between
  // two recomputations, and when the difference cancels (measured relative error in
  // docs/learners.md#bogd). BOGD++ rescales each
  // coefficient by its own factor: the new norm is a new quadratic form, O(B^2) every removal.
  void update_norm_after_removal(std::size_t n, double g, double aj, double fj, double kjj) {
    const double rest = norm2_ - 2.0 * aj * fj + aj * aj * kjj;  // ||f - a_j k_j||^2
    const double terms = norm2_ + 2.0 * std::abs(aj * fj) + aj * aj * kjj;
    // Recomputed also when the difference cancels (its terms over 16 times it): small budgets.
    if (removal_ == Removal::weighted || n == 1 || ++since_exact_ >= B_ || !(16.0 * rest > terms)) {
      norm2_ = quadratic_form();
      since_exact_ = 0;
      return;
    }
    norm2_ = g * g * rest;
  }
  // Slot i's rescaling factor after the removal (p moved with the slots): BOGD's common gu, BOGD++'s own.
  double factor(std::size_t i, const ScratchVector<double>& p, double gu) const {
    return removal_ == Removal::uniform ? gu : (1.0 - eta_ * lambda_) / (1.0 - p[i]);
  }
  // The cap's factor s = min(eta cap / max |a_i|, 1) over the coefficients after removing slot j,
  // rescaling (the bits bump gives) and appending a; 1 without a cap.
  // With rescale (BOGD's and BOGD++'s own factors), every coefficient but slot j's is rescaled in
  // the same pass, the values the maximum reads (one pass over alpha where there were two).
  double cap_factor(std::size_t j, const ScratchVector<double>& p, double gu, double a, bool rescale = false) {
    if (!(cap_ > 0.0)) return 1.0;
    double m = std::abs(a);
    double* al = f_.alpha.data();
    for (const auto& [b, e] : {std::pair{std::size_t{0}, j}, std::pair{j + 1, f_.size()}}) {
      std::size_t i = b;
      if (removal_ == Removal::uniform) m = scaled_max_abs(al + b, nullptr, e - b, gu - 1.0, m, rescale), i = e;
      else if (!p.empty()) m = scaled_max_abs(al + b, g_.data() + b, e - b, 0.0, m, rescale), i = e;
      for (; i < e; ++i) {  // p in slot order before the removal, as alpha
        const double ai = al[i];
        m = std::max(m, std::abs(ai + (factor(i, p, gu) - 1.0) * ai));
      }
    }
    return m > 0.0 ? std::min(eta_ * cap_ / m, 1.0) : 1.0;
  }
  // ||delta_t||, delta_t = f_{t+1} - ((1 - eta lambda) f_t + a k(x_t,.)), of removing slot j with
  // removal probabilities p (before the removal), cap factor s and new coefficient a; fj = f(x_j),
  // row[i] = k(x_i, x_t), score = f_t(x_t), kxx = k(x_t, x_t). With s = 1 the new point's
  // coefficient is the unbudgeted step's and drops out.
  double removal_norm(std::size_t j, const ScratchVector<double>& p, double c, double fj, double s, double a,
                      const AlignedVector<double>& row, double score, double kxx) const {
    const std::size_t n = f_.size();
    const double aj = f_.alpha[j], kjj = K(j, j), an = (s - 1.0) * a;  // an: the new point's coefficient in delta
    if (n == 1) {
      if (s == 1.0) return c * std::abs(aj) * std::sqrt(std::max(0.0, kjj));
      return std::sqrt(std::max(0.0, c * c * aj * aj * kjj + an * an * kxx - 2.0 * c * aj * an * row[j]));
    }
    if (removal_ == Removal::uniform) {
      const double g = c * static_cast<double>(n) / static_cast<double>(n - 1);
      if (s == 1.0) {
        const double e = g - c;
        return std::sqrt(std::max(0.0, e * e * norm2_ - 2.0 * e * g * aj * fj + g * g * aj * aj * kjj));
      }
      // delta = e r - c a_j k_j + an k_t with r = f_t - a_j k_j, e = s g - c.
      const double e = s * g - c, R = norm2_ - 2.0 * aj * fj + aj * aj * kjj;
      const double rj = fj - aj * kjj, rt = score - aj * row[j];
      const double q = e * e * R + c * c * aj * aj * kjj + an * an * kxx - 2.0 * e * c * aj * rj + 2.0 * e * an * rt -
                       2.0 * c * aj * an * row[j];
      return std::sqrt(std::max(0.0, q));
    }
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i) d[i] = i == j ? -c * aj : (s * (c / (1.0 - p[i])) - c) * f_.alpha[i];
    double q = form(d.data(), d.data());
    if (s != 1.0) {
      double dr = 0.0;
      for (std::size_t i = 0; i < n; ++i) dr += d[i] * row[i];
      q += 2.0 * an * dr + an * an * kxx;
    }
    return std::sqrt(std::max(0.0, q));
  }
  // Replays another program's removals (the authors' code as an oracle, tests/test_okl_oracle.cpp):
  // the supports of these ids (their rounds) are removed in turn, in place of the draws.
  void replay_removals(std::vector<int64_t> ids) {
    replay_ = std::move(ids);
    replayed_ = 0;
  }
  // The slot to remove; p gets BOGD++'s removal probabilities (slot order) and g_ its factors
  // (shrink c).
  std::size_t draw(ScratchVector<double>& p, double c) {
    const std::size_t n = f_.size();
    if (replayed_ < replay_.size()) {
      if (removal_ == Removal::weighted && n > 1) probabilities(p, c);
      for (std::size_t i = 0; i < n; ++i)
        if (f_.sv.id(i) == replay_[replayed_]) { ++replayed_; return i; }
      throw std::logic_error("replay_removals: no support " + std::to_string(replay_[replayed_]));
    }
    if (removal_ == Removal::uniform || n == 1) return static_cast<std::size_t>(rng_.below(n));  // B = 1: no rescaling (no other support)
    const double sum = probabilities(p, c);
    // p_j = (1 - b_j)/(n - 1) by rejection from the uniform draw: slot j = below(n) is taken with
    // probability 1 - b_j (u < 1 - b_j, u uniform in [0, 1)), else both are drawn again; a taken slot
    // has probability (1 - b_j) / sum_i (1 - b_i) = p_j. Sum_i (1 - b_i) = n - 1, so at most n/(n - 1)
    // tries are expected: O(1), where walking the running sum of p was two serial chains of adds, each
    // add waiting for the one before (docs/learners.md#bogd-draw). A NaN weight is taken (nothing to
    // loop on).
    for (;;) {
      const auto j = static_cast<std::size_t>(rng_.below(n));
      const double u = rng_.uniform();
      if (!(u >= (sum > 0.0 ? 1.0 - weight(j) / sum : 1.0))) return j;
    }
  }
  // BOGD++'s weight of slot j, |a_j| sqrt(k_jj) (|a_j| where k(x,x) = 1 exactly, Kernel::self).
  double weight(std::size_t j) const {
    const double a = std::abs(f_.alpha[j]);
    return f_.kernel.unit_diagonal() ? a : a * std::sqrt(self(j));
  }
  // BOGD++'s removal probabilities p_j = (1 - b_j)/(n - 1) (slot order), b_j = w_j / sum_i w_i, and
  // g_ its factors c / (1 - p_j) (factor()'s bits); the sum of the weights is a lane sum
  // (docs/learners.md#lane-sums), which it returns (0: all weights 0, p uniform).
  double probabilities(ScratchVector<double>& p, double c) {
    using V4 = CommonDivisor::V4;
    using I4 = int64_t __attribute__((vector_size(32)));
    const std::size_t n = f_.size();
    p.resize(n);
    g_.resize(n);
    double* __restrict w = p.data();  // restrict: a store to p could not move alpha's pointer
    double* __restrict g = g_.data();
    const double* __restrict a = f_.alpha.data();
    V4 lo = {};  // the least weight, four lanes (the quotients' range check)
    std::size_t i = 0;
    if (f_.kernel.unit_diagonal()) {  // weight()'s two forms, each loop without its branch
      lo += std::numeric_limits<double>::infinity();
      for (; i + 4 <= n; i += 4) {
        V4 x;
        std::memcpy(&x, a + i, sizeof x);
        x = reinterpret_cast<V4>(reinterpret_cast<I4>(x) & std::numeric_limits<int64_t>::max());  // |x|, std::abs's bits
        lo = x < lo ? x : lo;
        std::memcpy(w + i, &x, sizeof x);
      }
    }
    for (std::size_t k = i; k < n; ++k) w[k] = weight(k);
    double least = i < n ? *std::min_element(w + i, w + n) : std::numeric_limits<double>::infinity();
    for (int l = 0; l < 4; ++l) least = std::min(least, lo[l]);
    const double sum = lane_total(w, n);
    if (!(sum > 0.0)) {  // all-zero weights: uniform
      p.assign(n, 1.0 / static_cast<double>(n));
      for (std::size_t k = 0; k < n; ++k) g[k] = c / (1.0 - p[k]);
      return 0.0;
    }
    // Each quotient by the sum and by n - 1 the division's bits from a product and two fmas where
    // the weights are in range (checked once above, not a vector at a time: that check was half of
    // this pass); 1 - b_j is then +0 or in [2^-53, 1] (0 <= w_j <= sum, so b_j in [0, 1]), in range
    // too. The factor's divisor 1 - p_j is the slot's own: a division a slot, at the path's width.
    const bool markstein = CommonDivisor(sum).covers(least, sum) &&
                           CommonDivisor(static_cast<double>(n - 1)).covers(0x1p-53, 1.0);  // every w_j <= sum
    removal_probabilities(w, g, n, sum, c, markstein);
    return sum;
  }

  // k(x_i, x_i): the Gram matrix's diagonal, the same bits (both are Kernel::self of the row's sqnorm).
  double self(std::size_t i) const { return norm_dropped_ ? f_.self(i) : K(i, i); }
  // K_ij, i >= j at packed row i (its columns 0..i); K is symmetric (k(x,x') = k(x',x) bit for bit).
  static std::size_t packed(std::size_t i, std::size_t j) { return i >= j ? i * (i + 1) / 2 + j : j * (j + 1) / 2 + i; }
  double& K(std::size_t i, std::size_t j) { return gram_[packed(i, j)]; }
  double K(std::size_t i, std::size_t j) const { return gram_[packed(i, j)]; }
  // The chain of column i in a sum over n slots: four interleaved partial sums, i mod 4, the
  // n mod 4 trailing columns in chain 0 (a fixed order: the same bits everywhere).
  static std::size_t chain(std::size_t i, std::size_t n) { return i < n - n % 4 ? i % 4 : 0; }
  // f(x_j) = sum_i a_i K_ji in those chains.
  double gram_dot(std::size_t j) const { return gram_dot(j, f_.alpha.data()); }
  // The same for the coefficients a (slot order) in place of alpha.
  double gram_dot(std::size_t j, const double* a) const {
    const std::size_t n = f_.size();
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    for (std::size_t i = 0; i < n; ++i) v[chain(i, n)] += a[i] * K(j, i);
    return (v[0] + v[1]) + (v[2] + v[3]);
  }
  // sum_j w_j gram_dot(j, a) in slot order (w = a = alpha: ||f||^2 = alpha^T K alpha), the same
  // bits from one sweep over the packed triangle: row i's entry K_im (m <= i) is column m of row
  // i's sum and column i of row m's. Rows in order, each row's columns reach its chains in column
  // order: m <= i while row i is swept, m > i later, when row m is. Half the matrix's memory
  // traffic of a row-by-row sum, and the column updates fill the add latency of the row's chains.
  double form(const double* w, const double* a) const {
    using Lanes = double __attribute__((vector_size(4 * sizeof(double))));  // chains 0..3 of one row
    const std::size_t n = f_.size(), n4 = n - n % 4;
    if (n == 0) return 0.0;  // B = 1 after its removal
    sums_.assign(4 * n, 0.0);
    double* V[4] = {&sums_[0], &sums_[n], &sums_[2 * n], &sums_[3 * n]};  // V[l][j]: chain l of row j
    for (std::size_t i = 0; i < n; ++i) {
      const double* k = &gram_[packed(i, 0)];
      double* col = V[chain(i, n)];  // row m < i gets column i here
      const double ai = a[i];
      Lanes own = {0.0, 0.0, 0.0, 0.0}, av, kv, cv;
      std::size_t m = 0;
      for (; m + 4 <= std::min(i, n4); m += 4) {
        std::memcpy(&av, a + m, sizeof av);
        std::memcpy(&kv, k + m, sizeof kv);
        own += av * kv;
        std::memcpy(&cv, col + m, sizeof cv);
        cv += ai * kv;
        std::memcpy(col + m, &cv, sizeof cv);
      }
      double o[4] = {own[0], own[1], own[2], own[3]};
      for (; m < i; ++m) {
        o[chain(m, n)] += a[m] * k[m];
        col[m] += ai * k[m];
      }
      o[chain(i, n)] += a[i] * k[i];  // the diagonal, own row only
      for (std::size_t l = 0; l < 4; ++l) V[l][i] = o[l];
    }
    double q = 0.0;
    for (std::size_t j = 0; j < n; ++j) q += w[j] * ((V[0][j] + V[1][j]) + (V[2][j] + V[3][j]));
    return q;
  }
  double quadratic_form() const { return form(f_.alpha.data(), f_.alpha.data()); }
  // Removes slot j as KernelExpansion::remove does (the last slot moves into j), with its Gram row
  // and column, and the same move in `row` and `p`.
  void remove_slot(std::size_t j, AlignedVector<double>& row, ScratchVector<double>& p) {
    const std::size_t last = f_.size() - 1;
    if (!norm_dropped_) {
      for (std::size_t i = 0; i < last; ++i) K(j, i) = K(last, i == j ? last : i);
      gram_.resize(packed(last, 0));
    }
    if (!row.empty()) {
      row[j] = row[last];
      row.pop_back();
    }
    if (!p.empty()) {
      p[j] = p[last];
      p.pop_back();
      g_[j] = g_[last];
      g_.pop_back();
    }
    f_.remove(j);
  }
  // Appends x_t with coefficient a: its Gram row is the scoring row and k(x_t,x_t).
  void add_slot(const Example& x, int64_t t, double a, const AlignedVector<double>& row, double kxx) {
    if (!norm_dropped_) {
      gram_.insert(gram_.end(), row.begin(), row.begin() + static_cast<std::ptrdiff_t>(f_.size()));
      gram_.push_back(kxx);
    }
    f_.add(x, t, a);
  }

  std::size_t B_;
  double eta_, lambda_, cap_;
  Removal removal_;
  Rng rng_;
  std::vector<double> g_;  // scratch: BOGD++'s factors of a removal
  static constexpr double kNoNorm = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> gram_;  // K_ij = k(x_i, x_j) over the slots, the lower triangle packed by rows (kept with the norm)
  std::size_t since_exact_ = 0;  // BOGD: removals since ||f||^2 was last recomputed
  AlignedVector<double> row_;  // learn()'s scoring row (no allocation a round)
  ScratchVector<double> p_;    // and its removal probabilities
  std::vector<int64_t> replay_;  // replay_removals(): the ids to remove, replay_[replayed_] next
  std::size_t replayed_ = 0;
  mutable std::vector<double> sums_;  // form()'s partial sums
};

}  // namespace plab
