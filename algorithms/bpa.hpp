// BPA-S and BPA-NN, Budgeted Passive-Aggressive (Wang, Vucetic, AISTATS 2010, "Online
// Passive-Aggressive Algorithms on a Budget", Sec. 3; docs/learners.md#bpa-s, #bpa-nn). On a hinge
// loss l = 1 - y s > 0 the PA-I step tau = min(C, l / k(x_t,x_t)) (Crammer et al. 2006, Fig. 1);
// while |S| < B, x_t is added with y tau as PA-I does. With |S| = B the paper's problem is, for a
// span V_r that holds x_t,
//   min_{r, beta} 1/2 ||f_new - f_t||^2 + C l(f_new; x_t, y_t),
//   f_new = f_t - a_r k(x_r,.) + sum_{v in V_r} beta_v k(v,.)
// with V_r = {x_t} (BPA-S) or {x_t, nn(r)} (BPA-NN: nn(r) the support nearest to x_r in kernel
// distance k_rr - 2 k_rj + k_jj, j != r; ties: the oldest support). Derived from the problem as
// stated (the paper's text could not be checked): with p = k_V(x_r), K = K_V and c = K^{-1} p,
// write beta = a_r c + g. As x_t is in V, K^{-1} k_V(x_t) = e_t, so the projection a_r P_V k_r
// leaves f(x_t) as it was (l_r = l) and the objective splits into
//   1/2 a_r^2 (k_rr - p^T c)  +  [1/2 g^T K g + C max(0, l - y g^T k_V(x_t))],
// the bracket being PA-I's problem in span V, solved by g = y tau e_t with the same tau for every
// r (k_V(x_t)^T K^{-1} k_V(x_t) = k_tt). So r* = the first arg min (slot order) of
// q_r = a_r^2 (k_rr - p^T c), beta on x_t = a_r c_t + y tau (the new support's coefficient) and
// beta on nn(r) = a_r c_j (added to its coefficient). BPA-S: c_t = k_rt / k_tt,
// q_r = a_r^2 (k_rr - k_rt^2 / k_tt). Measured against f_PA = f_t + y tau k(x_t,.) instead of f_t
// the distance differs by the same tau^2 k_tt for every r: the same r*, and for tau < C the same
// beta. k(x_t,x_t) = 0 (a zero input, linear kernel): tau = C, the projection term on x_t 0.
// BPA-NN's K is singular when k(x_t,.) and k(nn(r),.) are parallel (x_t = nn(r) in feature space)
// or one is 0; it is counted singular from det K <= kSingular k_tt k_jj, and that r falls back to
// the 1-D projection on the non-zero one of the two (on x_t: BPA-S's; none when both are 0); B = 1
// (no nn) is BPA-S.
// Recorded for the bounds (docs/bounds.md#budget_ogd_all_t): tau and delta_norm = ||delta_t||, the
// norm of f_new - f_PA = -a_r (k(x_r,.) - P_V k(x_r,.)), i.e. sqrt(q_r), 0 on a round that only adds.
// Cost of a BPA-NN round at |S| = B: the scoring row O(B d), the candidates O(B) from the kept Gram
// matrix of the supports (algorithms/support_gram.hpp) and each support's nearest neighbour, kept
// incrementally: an add compares the new support with each nn (O(B)), a removal recomputes the nn
// of the supports whose nn it was, O(B) each from the Gram matrix (one on average: every support
// has one nn). Memory B^2 doubles.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/learner.hpp"
#include "algorithms/support_gram.hpp"

namespace plab {

class BudgetPassiveAggressive final : public ExpansionLearner {
 public:
  enum class Span { simple, nearest };  // V_r = {x_t} (BPA-S) or {x_t, nn(r)} (BPA-NN)
  // det K_V <= kSingular k_tt k_jj counts as singular: the kernel values' rounding (~1e-15
  // relative) then is more than 1e-5 of det, and K_V^{-1} p loses its digits.
  static constexpr double kSingular = 1e-10;

  explicit BudgetPassiveAggressive(const LearnerOptions& o, Span span = Span::simple)
      : ExpansionLearner(o), B_(o.budget), C_(o.C), nearest_(span == Span::nearest) {}

  // BPA-NN: the Gram matrix of the supports; the nearest neighbours follow from it.
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    if (nearest_) gram_.save(w, "gram");
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    if (!nearest_) return;
    gram_.load(r, "gram", f_.size());
    nn_.assign(f_.size(), kNone);
    for (std::size_t i = 0; i < f_.size(); ++i) nn_[i] = nearest(i);
  }

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
    std::vector<double> row;  // k(x_i, x_t) in slot order (the norm update below rescores)
    if (nearest_ || f_.size() >= B_) row = f_.row();
    if (f_.size() >= B_) {
      std::size_t best = 0;
      Removal rm;
      rm.q = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < f_.size(); ++i) {
        const Removal c = removal(i, row, ktt);
        if (c.q < rm.q) { rm = c; best = i; }
      }
      r.delta_norm = std::sqrt(std::max(0.0, rm.q));  // ||f_new - f_PA||
      const double ar = f_.alpha[best];
      beta += rm.dt;
      const double fr = nearest_ ? gram_.dot(best, f_.alpha.data()) : f_.score(f_.sv.row(best));
      norm2_ += -2.0 * ar * fr + ar * ar * f_.self(best);  // ||f - a_r k_r||^2
      s -= ar * row[best];
      if (rm.dj != 0.0) {  // BPA-NN: nn(r)'s coefficient grows by a_r c_j
        const std::size_t j = rm.j;
        const double gj = gram_.dot(j, f_.alpha.data()) - ar * gram_(best, j);  // (f - a_r k_r)(x_j)
        norm2_ += 2.0 * rm.dj * gj + rm.dj * rm.dj * f_.self(j);
        s += rm.dj * row[j];
        f_.bump(j, rm.dj, t);
      }
      r.removed = f_.sv.id(best);
      remove(best, row);
      r.update = UpdateKind::evict;
    }
    add(x, t, beta, row, ktt);
    norm2_ += 2.0 * beta * s + beta * beta * ktt;
    r.coef = beta;
    return finish(r);
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // Candidate r's removal: q_r = ||a_r (k_r - P_V k_r)||^2 and the coefficient changes a_r c on
  // x_t (dt) and on nn(r) = slot j (dj).
  struct Removal {
    double q = 0.0, dt = 0.0, dj = 0.0;
    std::size_t j = kNone;
  };
  Removal removal(std::size_t r, const std::vector<double>& row, double ktt) const {
    Removal m;
    const double a = f_.alpha[r], krr = f_.self(r), krt = row[r];
    const std::size_t j = nearest_ ? nn_[r] : kNone;
    if (j != kNone) {
      const double kjj = gram_(j, j), krj = gram_(r, j), ktj = row[j], det = ktt * kjj - ktj * ktj;
      if (det > kSingular * ktt * kjj) {  // c = K_V^{-1} p, the 2 x 2 inverse
        const double ct = (kjj * krt - ktj * krj) / det, cj = (ktt * krj - ktj * krt) / det;
        m.q = a * a * (krr - (krt * ct + krj * cj));
        m.dt = a * ct;
        m.dj = a * cj;
        m.j = j;
        return m;
      }
      if (!(ktt > 0.0) && kjj > 0.0) {  // k(x_t,.) = 0: span V is k(nn(r),.)
        m.q = a * a * (krr - krj * krj / kjj);
        m.dj = a * krj / kjj;
        m.j = j;
        return m;
      }
    }
    const double proj = ktt > 0.0 ? krt * krt / ktt : 0.0;  // BPA-S: span V is k(x_t,.)
    m.q = a * a * (krr - proj);
    if (ktt > 0.0) m.dt = a * krt / ktt;
    return m;
  }

  // BPA-NN's kernel distance of slots i and j, and whether j is nearer to i than k (kNone: no
  // candidate yet); ties go to the older support (the smaller id), which slot moves do not change.
  double dist(std::size_t i, std::size_t j) const { return gram_(i, i) - 2.0 * gram_(i, j) + gram_(j, j); }
  bool nearer(std::size_t i, std::size_t j, std::size_t k) const {
    if (k == kNone) return true;
    const double dj = dist(i, j), dk = dist(i, k);
    return dj < dk || (dj == dk && f_.sv.id(j) < f_.sv.id(k));
  }
  std::size_t nearest(std::size_t i) const {
    std::size_t k = kNone;
    for (std::size_t j = 0; j < f_.size(); ++j)
      if (j != i && nearer(i, j, k)) k = j;
    return k;
  }

  // Appends x_t (BPA-NN: its Gram row and column, and the nn of every support it is nearer to).
  void add(const Example& x, int64_t t, double beta, const std::vector<double>& row, double ktt) {
    const std::size_t n = f_.add(x, t, beta);
    if (!nearest_) return;
    gram_.append(row.data(), ktt);
    for (std::size_t i = 0; i < n; ++i)
      if (nearer(i, n, nn_[i])) nn_[i] = n;
    nn_.push_back(nearest(n));
  }
  // Removes slot r (the last slot moves into r), with the same move in row, the Gram matrix and
  // the nn; the supports whose nn was r get theirs anew.
  void remove(std::size_t r, std::vector<double>& row) {
    const std::size_t last = f_.size() - 1;
    row[r] = row[last];
    row.pop_back();
    f_.remove(r);
    if (!nearest_) return;
    gram_.remove(r);
    std::vector<std::size_t> orphans;
    for (std::size_t i = 0; i <= last; ++i) {
      if (i == r) continue;
      if (nn_[i] == r) orphans.push_back(i == last ? r : i);
      else if (nn_[i] == last) nn_[i] = r;
    }
    nn_[r] = nn_[last];
    nn_.pop_back();
    for (std::size_t i : orphans) nn_[i] = nearest(i);
  }

  std::size_t B_;
  double C_;
  bool nearest_;
  SupportGram gram_;             // BPA-NN: K_ij = k(x_i, x_j) over the slots
  std::vector<std::size_t> nn_;  // BPA-NN: the slot of each support's nearest neighbour (kNone: alone)
};

}  // namespace plab
