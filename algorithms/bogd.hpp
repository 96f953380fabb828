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
// B = 1: the one support is removed, nothing is rescaled. No coefficient cap (the toolbox's
// optional clipping of |a_i| to eta gamma is not applied). The removal draw is plab::Rng(seed).
// The running ||f||^2 is exact for BOGD (one kernel row of the removed support per removal, as RBP).
// BOGD++'s per-coefficient rescaling would need the O(B^2) quadratic form at every removal (a9a at
// B = 793: 130 s instead of 4 s), so bogd++ keeps no running norm: its records leave f_norm2 empty
// and norm2() is alpha^T K alpha, recomputed when asked.
#pragma once
#include <cmath>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/random.hpp"

namespace plab {

// The options of the online gradient learners (BOGD, BOGD++, FOGD, NOGD); defaults in LearnerOptions.
inline const std::vector<OptionInfo>& ogd_options() {
  static const std::vector<OptionInfo> v = {
      learner_option("Online gradient descent options", "ogd_eta", &LearnerOptions::ogd_eta,
                     "step size eta of BOGD, BOGD++, FOGD and NOGD", above(0)),
      learner_option("Online gradient descent options", "ogd_lambda", &LearnerOptions::ogd_lambda,
                     "BOGD regulariser lambda: coefficients shrink by 1 - eta lambda each round", at_least(0)),
  };
  return v;
}

class BoundedOnlineGradientDescent final : public ExpansionLearner {
 public:
  enum class Removal { uniform, weighted };
  explicit BoundedOnlineGradientDescent(const LearnerOptions& o, Removal removal = Removal::uniform)
      : ExpansionLearner(o), B_(o.budget), eta_(o.ogd_eta), lambda_(o.ogd_lambda), removal_(removal), rng_(o.seed) {
    if (!(eta_ * lambda_ < 1.0)) throw std::invalid_argument("--ogd-eta * --ogd-lambda must be < 1 (the shrink 1 - eta lambda)");
  }

  double norm2() const override { return removal_ == Removal::weighted ? f_.norm2_exact() : norm2_; }
  // The removal stream beside the expansion.
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("rng", rng_.state());
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    rng_.set_state(r.get<uint64_t>("rng"));
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = step(x, t);
    if (removal_ == Removal::weighted) r.f_norm2 = kNone;
    return r;
  }

 private:
  RoundRecord step(const Example& x, int64_t t) {
    RoundRecord r = begin(x, t);
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
    std::vector<double> row = f_.row();  // k(x_i, x_t)
    double s = r.score;                  // f(x_t) of the function a k(x_t,.) is added to
    r.update = UpdateKind::add;
    if (f_.size() >= B_) {
      const std::size_t n = f_.size();
      std::vector<double> p;
      const std::size_t j = draw(p);
      r.removed = f_.sv.id(j);
      r.update = UpdateKind::evict;
      if (removal_ == Removal::uniform || n == 1) {
        const double aj = f_.alpha[j], fj = f_.score(f_.sv.row(j));
        norm2_ += -2.0 * aj * fj + aj * aj * f_.self(j);  // ||f - a_j k_j||^2
        s -= aj * row[j];
        f_.remove(j);
        const double g = n > 1 ? c * static_cast<double>(n) / static_cast<double>(n - 1) : 1.0;
        f_.scale(g, t);
        norm2_ *= g * g;
        s *= g;
      } else {
        f_.remove(j);  // the last slot moves into j: the same move in row and p
        row[j] = row[n - 1];
        p[j] = p[n - 1];
        s = 0.0;
        for (std::size_t i = 0; i + 1 < n; ++i) {
          f_.bump(i, (c / (1.0 - p[i]) - 1.0) * f_.alpha[i], t);
          s += f_.alpha[i] * row[i];
        }
      }
    } else if (f_.size() > 0) {
      f_.scale(c, t);
      norm2_ *= c * c;
      s *= c;
    }
    const double a = eta_ * x.y;  // -eta dl/df, l = max(0, 1 - y f)
    f_.add(x, t, a);
    norm2_ += 2.0 * a * s + a * a * r.kxx;
    r.coef = a;
    r.eta_t = eta_;
    return finish(r);
  }
  // The slot to remove; p gets BOGD++'s removal probabilities (slot order).
  std::size_t draw(std::vector<double>& p) {
    const std::size_t n = f_.size();
    if (removal_ == Removal::uniform || n == 1) return static_cast<std::size_t>(rng_.below(n));
    double sum = 0.0;
    p.resize(n);
    for (std::size_t i = 0; i < n; ++i) sum += p[i] = std::abs(f_.alpha[i]) * std::sqrt(f_.self(i));
    for (std::size_t i = 0; i < n; ++i)  // all-zero weights: uniform
      p[i] = sum > 0.0 ? (1.0 - p[i] / sum) / static_cast<double>(n - 1) : 1.0 / static_cast<double>(n);
    const double u = rng_.uniform();
    double acc = 0.0;
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (u < (acc += p[i])) return i;
    return n - 1;
  }

  std::size_t B_;
  double eta_, lambda_;
  Removal removal_;
  Rng rng_;
};

}  // namespace plab
