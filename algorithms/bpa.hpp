// BPA-S, the simple Budgeted Passive-Aggressive learner (Wang, Vucetic, AISTATS 2010, "Online
// Passive-Aggressive Algorithms on a Budget", Sec. 3, BPA-S; docs/learners.md#bpa-s). On a hinge
// loss l = 1 - y s > 0 the PA-I step tau = min(C, l / k(x_t,x_t)) (Crammer et al. 2006, Fig. 1);
// while |S| < B, x_t is added with y tau as PA-I does. With |S| = B the paper's problem
//   min_{r, beta} 1/2 ||f_new - f_t||^2 + C l(f_new; x_t, y_t),  f_new = f_t - a_r k(x_r,.) + beta k(x_t,.)
// has, for each r, the closed form beta_r = a_r k(x_r,x_t) / k(x_t,x_t) + y tau, where the loss
// term C max(0, l - tau k(x_t,x_t)) does not depend on r and ||f_new - f_t||^2 =
// a_r^2 (k_rr - k_rt^2 / k_tt) + tau^2 k_tt; so r* = the first arg min of a_r^2 (k_rr - k_rt^2/k_tt).
// Measured against f_PA = f_t + y tau k(x_t,.) instead of f_t, the distance differs by the same
// tau^2 k_tt for every r: the same r*, and for tau < C the same beta. k(x_t,x_t) = 0 (a zero input,
// linear kernel): tau = C and beta = y C, the projection term being 0.
// Recorded for the bounds (docs/bounds.md#budget_ogd_all_t): tau and delta_norm = ||delta_t||, the
// norm of f_new - f_PA = -a_r (k(x_r,.) - (k_rt/k_tt) k(x_t,.)), i.e. sqrt(a_r^2 (k_rr - k_rt^2/k_tt)),
// 0 on a round that only adds.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/learner.hpp"

namespace plab {

class BudgetPassiveAggressiveSimple final : public ExpansionLearner {
 public:
  explicit BudgetPassiveAggressiveSimple(const LearnerOptions& o) : ExpansionLearner(o), B_(o.budget), C_(o.C) {}

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    const double ys = x.y * r.score, loss = 1.0 - ys;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (!(loss > 0.0)) return finish(r);
    const double ktt = r.kxx, tau = ktt > 0.0 ? std::min(C_, loss / ktt) : C_;  // PA-I step
    r.tau = tau;
    double s = r.score;  // f(x_t) of the function beta k(x_t,.) is added to
    double beta = x.y * tau;
    r.update = UpdateKind::add;
    r.delta_norm = 0.0;
    if (f_.size() >= B_) {
      const std::vector<double> row = f_.row();  // k(x_i, x_t); the norm update below rescores
      std::size_t best = 0;
      double q_best = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < f_.size(); ++i) {  // BPA-S: a_r^2 (k_rr - k_rt^2 / k_tt)
        const double a = f_.alpha[i], proj = ktt > 0.0 ? row[i] * row[i] / ktt : 0.0;
        const double q = a * a * (f_.self(i) - proj);
        if (q < q_best) { q_best = q; best = i; }
      }
      r.delta_norm = std::sqrt(std::max(0.0, q_best));  // ||f_new - f_PA||
      const double ar = f_.alpha[best], krt = row[best];
      if (ktt > 0.0) beta += ar * krt / ktt;
      const double fr = f_.score(f_.sv.row(best));
      norm2_ += -2.0 * ar * fr + ar * ar * f_.self(best);  // ||f - a_r k_r||^2
      s -= ar * krt;
      r.removed = f_.sv.id(best);
      f_.remove(best);
      r.update = UpdateKind::evict;
    }
    f_.add(x, t, beta);
    norm2_ += 2.0 * beta * s + beta * beta * ktt;
    r.coef = beta;
    return finish(r);
  }

 private:
  std::size_t B_;
  double C_;
};

}  // namespace plab
