// Forgetron (Dekel, Shalev-Shwartz, Singer; NIPS 2005, SIAM J. Comput. 37(5) 2008;
// docs/learners.md#forgetron). Kernel Perceptron with budget B (= supports kept after each round):
// on a mistake that makes |S| = B + 1, shrink every weight by phi_t, then remove the oldest support
// (FIFO by id).
//   self-tuned: phi_t from the 15/32 rule (docs/learners.md#forgetron-self-tuned; DOGMA and
//               Foundry agree)
//   basic:      phi_t = min((B+1)^(-1/(2(B+1))), U/||f'_t||), U = 1/4 sqrt((B+1)/ln(B+1))
//               (docs/learners.md#forgetron-basic, Foundry; the constants are [M]-recalled, see
//               docs/bounds.md#forgetron)
// The running ||f||^2 is exact: shrink multiplies it by phi^2, removal of a_r k(x_r,.) subtracts
// 2 a_r f''(x_r) - a_r^2 k(x_r,x_r).
// Record: Q on every round; on mistakes phi (1 without removal), psi (0 without removal); on
// removals also sigma_r (before shrinking), f_r = f'_t(x_r), removed id. The basic rule keeps Q
// too (the same removal-cost sum, a diagnostic: its 15/32 invariant is not enforced there).
#pragma once
#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "algorithms/learner.hpp"
#include "numerics/lane_min.hpp"

namespace plab {

// Self-tuned shrink: max phi in (0,1] with Q + psi(phi sigma_r, phi p) <= (15/32) M, written as
// A phi^2 + b phi + c <= 0 (docs/learners.md#forgetron-self-tuned, line by line, as
// tests/tools/forgetron_reference.py).
inline double forgetron_phi(double sigma_r, double p, double Q, double M) {
  const double A = sigma_r * sigma_r - 2.0 * sigma_r * p, b = 2.0 * sigma_r;
  const double c = Q - 15.0 / 32.0 * M;
  const double disc = b * b - 4.0 * A * c;
  if (A > 0.0 || (A < 0.0 && disc > 0.0 && (-b - std::sqrt(disc)) / (2.0 * A) > 1.0))
    return std::min(1.0, (-b + std::sqrt(disc)) / (2.0 * A));
  if (A == 0.0) return std::min(1.0, -c / b);
  return 1.0;
}

// psi(lam, mu) = lam^2 + 2 lam - 2 lam mu, the removal cost (docs/learners.md#forgetron step 5).
inline double forgetron_psi(double lam, double mu) { return lam * lam + 2.0 * lam - 2.0 * lam * mu; }

// Basic Forgetron constants (docs/learners.md#forgetron-basic).
inline double forgetron_basic_U(std::size_t B) {
  const double b1 = static_cast<double>(B) + 1.0;
  return 0.25 * std::sqrt(b1 / std::log(b1));
}
inline double forgetron_basic_cap(std::size_t B) {
  const double b1 = static_cast<double>(B) + 1.0;
  return std::pow(b1, -1.0 / (2.0 * b1));
}

class Forgetron final : public ExpansionLearner {
 public:
  enum class Rule { self_tuned, basic };
  // Its one option, the budget B.
  using Options = BudgetOptions;
  Forgetron(const LearnerOptions& o, const Options& own, Rule rule = Rule::self_tuned)
      : ExpansionLearner(o), B_(own.budget), rule_(rule) {}
  // Its option from o.own (what make_learner hands it; absent: its default).
  explicit Forgetron(const LearnerOptions& o, Rule rule = Rule::self_tuned)
      : Forgetron(o, options_from<Options>(o.own), rule) {}
  double Q() const { return Q_; }
  int64_t mistakes() const { return M_; }
  // Its floor (docs/learners.md#floors), both rules: the score's row; at a removal also f'(x_r),
  // a kernel row over the n + 1 supports, and the shrink phi f' (n + 1).
  static double floor_ops(const FloorRound& r) {
    return r.n * r.term + (r.removed ? (r.n + 1.0) * r.term + (r.n + 1.0) : 0.0);
  }

  // The FIFO of support ids (oldest first), Q and the mistake count.
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("fifo", std::vector<int64_t>(fifo_.begin(), fifo_.end()));
    w.put_one("Q", Q_);
    w.put_one("mistakes", M_);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    const auto fifo = r.get<int64_t>("fifo", f_.size());
    std::vector<int64_t> ids(fifo), have;
    for (std::size_t i = 0; i < f_.size(); ++i) have.push_back(f_.sv.id(i));
    std::sort(ids.begin(), ids.end());
    std::sort(have.begin(), have.end());
    require_state(ids == have, "fifo: not the ids of the supports");
    fifo_.assign(fifo.begin(), fifo.end());
    Q_ = r.get_one<double>("Q");
    M_ = r.get_one<int64_t>("mistakes");
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin_without_row(x, t);
    r.Q = Q_;
    if (!r.mistake) return finish(r);
    ++M_;
    // 1. Perceptron step f'_t = f + y k(x_t,.)   (docs/learners.md#forgetron)
    f_.add(x, t, x.y);
    fifo_.push_back(t);
    norm2_ += r.kxx + 2.0 * x.y * r.score;
    r.update = UpdateKind::add;
    r.phi = 1.0;
    r.psi = 0.0;
    if (f_.size() <= B_) return finish(r);  // 2. within budget

    // 3. r = oldest; sigma_r before shrinking; f'_t(x_r) with x_t already included.
    const std::size_t slot = slot_of(fifo_.front());
    const Example xr = f_.sv.row(slot);
    const double yr = f_.alpha[slot] >= 0.0 ? 1.0 : -1.0;  // alpha_i = sigma_i y_i, sigma_i > 0
    const double sigma = std::abs(f_.alpha[slot]);
    const double fr = f_.score_only(xr);
    double phi;
    if (rule_ == Rule::self_tuned) {
      phi = forgetron_phi(sigma, yr * fr, Q_, static_cast<double>(M_));  // docs/learners.md#forgetron-self-tuned
    } else {
      const double nrm = std::sqrt(std::max(0.0, norm2_));                // ||f'_t||, docs/learners.md#forgetron-basic
      phi = forgetron_basic_cap(B_);
      if (nrm > 0.0) phi = std::min(phi, forgetron_basic_U(B_) / nrm);
    }
    f_.scale(phi, t);                 // f''_t = phi f'_t
    norm2_ *= phi * phi;
    // 4. remove r: f_t = f''_t - a_r k(x_r,.), a_r = phi sigma_r y_r, f''(x_r) = phi f'(x_r)
    const double ar = f_.alpha[slot], frr = phi * fr, krr = f_.self(slot);
    norm2_ += -2.0 * ar * frr + ar * ar * krr;
    // 5. Q += psi(phi sigma_r, y_r f''_t(x_r))
    const double psi = forgetron_psi(phi * sigma, yr * frr);
    Q_ += psi;
    r.removed = fifo_.front();
    f_.remove(slot);
    fifo_.pop_front();
    r.update = UpdateKind::shrink;
    r.phi = phi; r.psi = psi; r.Q = Q_; r.sigma_r = sigma; r.f_r = fr;
    return finish(r);
  }

 private:
  // Slot of a support id: removal moves the last slot into the hole, so slots are not FIFO
  // ordered; a scan is O(B), below the O(B nnz) kernel row of the same round.
  std::size_t slot_of(int64_t id) const {
    const std::size_t i = first_equal(f_.sv.ids(), f_.size(), id);
    if (i == f_.size()) throw std::logic_error("Forgetron: oldest support id not found");
    return i;
  }

  std::size_t B_;
  Rule rule_;
  std::deque<int64_t> fifo_;  // support ids, oldest first
  double Q_ = 0.0;
  int64_t M_ = 0;
};

}  // namespace plab
