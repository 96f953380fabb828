// BPA-S and BPA-NN, Budgeted Passive-Aggressive (Wang, Vucetic, AISTATS 2010, "Online
// Passive-Aggressive Algorithms on a Budget", Sec. 3; docs/learners.md#bpa-s, #bpa-nn). On a hinge
// loss l = 1 - y s > 0 the PA-I step tau = min(C, l / k(x_t,x_t)) (Crammer et al. 2006, Fig. 1);
// while |S| < B, x_t is added with y tau as PA-I does. With |S| = B the paper's problem is, for a
// span V_r that holds x_t,
//   min_{r, beta} 1/2 ||f_new - f_t||^2 + C l(f_new; x_t, y_t),
//   f_new = f_t - a_r k(x_r,.) + sum_{v in V_r} beta_v k(v,.)
// with V_r = {x_t} (BPA-S) or {x_t, nn(r)} (BPA-NN: nn(r) the support nearest to x_r in kernel
// distance k_rr - 2 k_rj + k_jj, j != r; ties: the oldest support). Derived from the problem as
// stated (not checked against the paper's text): with p = k_V(x_r), K = K_V and c = K^{-1} p,
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
// Cost of a BPA-NN round at |S| = B: O(B d + B), a constant number of kernel rows. The scoring
// row; the candidates O(B) from each support's nearest neighbour, kept with k(x_r, nn(r)) and their
// distance; f(x_r) and f(x_j) for the running norm, one two-lane kernel pass; an added support is
// compared with each one's neighbour from the scoring row (O(B)); a removal recomputes the
// neighbour of the supports whose neighbour it was, one kernel row each (one on average: every
// support has one neighbour). Memory O(B) beyond the expansion.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "algorithms/learner.hpp"
#include "numerics/coef_scale.hpp"
#include "numerics/lane_min.hpp"

namespace plab {

class BudgetPassiveAggressive final : public ExpansionLearner {
 public:
  enum class Span { simple, nearest };  // V_r = {x_t} (BPA-S) or {x_t, nn(r)} (BPA-NN)
  // det K_V <= kSingular k_tt k_jj counts as singular: the kernel values' rounding (~1e-15
  // relative) then is more than 1e-5 of det, and K_V^{-1} p loses its digits.
  static constexpr double kSingular = 1e-10;

  // Its options: the budget B and PA-I's C.
  struct Options {
    std::size_t budget = 0;
    double C = 1.0;
    static std::vector<OptionMember<Options>> rows() {
      return {budget_option<Options>(&Options::budget), C_option<Options>(&Options::C)};
    }
  };
  BudgetPassiveAggressive(const LearnerOptions& o, const Options& own, Span span = Span::simple)
      : ExpansionLearner(o), B_(own.budget), C_(own.C), nearest_(span == Span::nearest) { drop_norm(); }
  // Its floors (docs/learners.md#floors): the score's row; BPA-S at a removal q_r = a_r^2 (k_rr -
  // k_rt^2 / k_tt), 3 products a candidate; BPA-NN on a step x_t offered as a neighbour both ways
  // (2n), at a removal also the pair's q_r (12 products and a division a candidate).
  static double floor_ops_simple(const FloorRound& r) { return r.n * r.term + (r.removed ? 3.0 * r.n : 0.0); }
  static double floor_ops_nearest(const FloorRound& r) {
    return r.n * r.term + (!r.step ? 0.0 : 2.0 * r.n + (r.removed ? 13.0 * r.n : 0.0));
  }
  // Its options from o.own (what make_learner hands it; absent: their defaults).
  explicit BudgetPassiveAggressive(const LearnerOptions& o, Span span = Span::simple)
      : BudgetPassiveAggressive(o, options_from<Options>(o.own), span) {}

  // k(x_i,x_i) and BPA-NN's nearest neighbours are recomputed from the supports: the kernel is
  // symmetric bit for bit (the same fma chain over the common features, sqnorms added either way).
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    self_.clear();
    for (std::size_t i = 0; i < f_.size(); ++i) self_.push_back(f_.self(i));
    if (!nearest_) return;
    nn_j_.assign(f_.size(), kNone);
    nn_k_.assign(f_.size(), 0.0);
    nn_d_.assign(f_.size(), 0.0);
    nn_s_.assign(f_.size(), 0.0);
    for (std::size_t i = 0; i < f_.size(); ++i) find_nearest(i);
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
    AlignedVector<double>& row = row_;  // k(x_i, x_t) in slot order (the norm update below rescores)
    // The expansion's row swapped in (score() refills the old one without zeroing it first: a
    // cleared one cost a memset of B values at every update), or none.
    if (nearest_ || f_.size() >= B_) f_.take_row(row);
    else row.clear();
    if (f_.size() >= B_) {
      const std::size_t best = cheapest_removal(row, ktt);
      const Removal rm = removal(best, row, ktt);
      r.delta_norm = std::sqrt(std::max(0.0, rm.q));  // ||f_new - f_PA||
      const double ar = f_.alpha[best];
      beta += rm.dt;
      double fx[2] = {0.0, 0.0};  // f(x_r), f(x_j): kernel rows for the norm only
      if (norm_dropped_) {
      } else if (rm.dj != 0.0) {
        const Example xs[2] = {f_.sv.row(best), f_.sv.row(rm.j)};
        f_.scores(xs, 2, fx);
      } else {
        fx[0] = f_.score(f_.sv.row(best));
      }
      norm2_ += -2.0 * ar * fx[0] + ar * ar * self_[best];  // ||f - a_r k_r||^2
      s -= ar * row[best];
      if (rm.dj != 0.0) {  // BPA-NN: nn(r)'s coefficient grows by a_r c_j
        const double gj = fx[1] - ar * nn_k_[best];  // (f - a_r k_r)(x_j)
        norm2_ += 2.0 * rm.dj * gj + rm.dj * rm.dj * self_[rm.j];
        s += rm.dj * row[rm.j];
        f_.bump(rm.j, rm.dj, t);
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
  // Four lanes at a time (GCC vector extensions, each lane the scalar's bits) for the O(B) loops of
  // a BPA-NN round.
  using V4 = double __attribute__((vector_size(32)));
  using I4 = int64_t __attribute__((vector_size(32)));
  // Vectors pass by reference here, never by value (no vector ABI to depend on the -m flags).
  template <class V, class T>
  static const V& load4(const T* p, V& v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  // Candidate r's removal: q_r = ||a_r (k_r - P_V k_r)||^2 and the coefficient changes a_r c on
  // x_t (dt) and on nn(r) = slot j (dj), c = K_V^{-1} p.
  struct Removal {
    double q = 0.0, dt = 0.0, dj = 0.0;
    std::size_t j = kNone;
  };
  // Which projection candidate r takes: on V = {x_t, nn(r)} (two), on nn(r) alone (k_tt = 0), or
  // on x_t alone (BPA-S, B = 1, or K_V singular with k_tt > 0).
  enum class Onto { pair, neighbour, self };
  Onto span_of(std::size_t r, const AlignedVector<double>& row, double ktt) const {
    if (!nearest_ || nn_j_[r] == kNone) return Onto::self;
    const std::size_t j = nn_j_[r];
    const double kjj = self_[j], ktj = row[j];
    if (ktt * kjj - ktj * ktj > kSingular * ktt * kjj) return Onto::pair;
    return !(ktt > 0.0) && kjj > 0.0 ? Onto::neighbour : Onto::self;
  }
  // The candidate of least q_r, the first of equals (first_min). BPA-S's q_r are formed in one
  // branch-free loop (the same expression as removal_cost's, so the same bits), which vectorises:
  // the candidates' loop with its switch was a seventh of an ijcnn1 pass. With k_tt = 1 (the
  // Gaussian) k_rt^2 / k_tt is k_rt^2 exactly, so that loop has no division. BPA-NN's at k_tt > 0
  // (no candidate then projects on nn(r) alone): removal_cost's two expressions for every slot, the
  // pair's where K_V is regular, branch-free at the path's width (pair_removal_costs: 8 lanes on
  // AVX-512; the candidates' calls and switch were a fifth of an a9a BPA-NN pass).
  std::size_t cheapest_removal(const AlignedVector<double>& row, double ktt) const {
    const std::size_t n = f_.size();
    q_.resize(n);
    double* __restrict q = q_.data();
    if (nearest_ && ktt > 0.0) {  // the least taken as the costs are stored
      static_assert(sizeof(std::size_t) == sizeof(int64_t));  // nn_j_ read as int64_t: kNone is -1
      return first_min(q, n, pair_removal_costs(f_.alpha.data(), self_.data(), row.data(), nn_k_.data(), nn_s_.data(),
                                                 reinterpret_cast<const int64_t*>(nn_j_.data()), n, ktt, kSingular, q));
    } else if (nearest_) {
      for (std::size_t i = 0; i < n; ++i) q[i] = removal_cost(i, row, ktt);
    } else {  // formed and their least taken in one pass (store_least)
      const double* __restrict a = f_.alpha.data();
      const double* __restrict krr = self_.data();
      const double* __restrict krt = row.data();
      const auto at = [&](std::size_t i) {
        const double proj = ktt == 1.0 ? krt[i] * krt[i] : ktt > 0.0 ? krt[i] * krt[i] / ktt : 0.0;
        return a[i] * a[i] * (krr[i] - proj);
      };
      double m;
      if (ktt == 1.0)
        m = store_least(q, n, [&](std::size_t i) {
          V4 va, vrr, vrt;
          load4(a + i, va), load4(krr + i, vrr), load4(krt + i, vrt);
          return va * va * (vrr - vrt * vrt);
        }, at);
      else
        m = store_least(q, n, [&](std::size_t i) {
          V4 v;
          for (int l = 0; l < 4; ++l) v[l] = at(i + l);
          return v;
        }, at);
      return first_min(q, n, m);
    }
    return first_min(q, n);
  }
  // q_r alone (one division: the candidates' loop).
  double removal_cost(std::size_t r, const AlignedVector<double>& row, double ktt) const {
    const double a = f_.alpha[r], krr = self_[r], krt = row[r];
    switch (span_of(r, row, ktt)) {
      case Onto::pair: {  // p^T K_V^{-1} p = (k_jj k_rt^2 - 2 k_tj k_rt k_rj + k_tt k_rj^2) / det
        const std::size_t j = nn_j_[r];
        const double kjj = self_[j], krj = nn_k_[r], ktj = row[j], det = ktt * kjj - ktj * ktj;
        return a * a * (krr - (kjj * krt * krt - 2.0 * ktj * krt * krj + ktt * krj * krj) / det);
      }
      case Onto::neighbour: {
        const double krj = nn_k_[r];
        return a * a * (krr - krj * krj / self_[nn_j_[r]]);
      }
      case Onto::self: break;
    }
    const double proj = ktt > 0.0 ? krt * krt / ktt : 0.0;
    return a * a * (krr - proj);
  }
  Removal removal(std::size_t r, const AlignedVector<double>& row, double ktt) const {
    Removal m;
    m.q = removal_cost(r, row, ktt);
    const double a = f_.alpha[r], krt = row[r];
    const Onto span = span_of(r, row, ktt);
    if (span == Onto::self) {
      if (ktt > 0.0) m.dt = a * krt / ktt;
      return m;
    }
    m.j = nn_j_[r];
    const double kjj = self_[m.j], krj = nn_k_[r], ktj = row[m.j];
    if (span == Onto::neighbour) {
      m.dj = a * krj / kjj;
    } else {  // c = K_V^{-1} p, the 2 x 2 inverse
      const double det = ktt * kjj - ktj * ktj;
      m.dt = a * (kjj * krt - ktj * krj) / det;
      m.dj = a * (ktt * krj - ktj * krt) / det;
    }
    return m;
  }

  // BPA-NN: support i's nearest neighbour j (kNone: no other support), k(x_i, x_j) and their
  // kernel distance k_ii - 2 k_ij + k_jj, in slot order (nn_j_, nn_k_, nn_d_; nn_s_ = k_jj). A neighbour is the
  // outcome of offering the slots in turn: the first offered is taken, then one of smaller distance,
  // or of equal distance and smaller id (the older support, which slot moves do not change).
  // Slot j, k(x_i, x_j) = kij, offered to support i.
  void offer(std::size_t i, std::size_t j, double kij) {
    const double d = self_[i] - 2.0 * kij + self_[j];
    if (nn_j_[i] == kNone || d < nn_d_[i] || (d == nn_d_[i] && f_.sv.id(j) < f_.sv.id(nn_j_[i])))
      nn_j_[i] = j, nn_k_[i] = kij, nn_d_[i] = d, nn_s_[i] = self_[j];
  }
  // The outcome of offering slots 0..n-1 but one in turn, d[j] their distances (the skipped slot's
  // NaN, never taken, never equal) and m their least that is not NaN (+inf when none): the
  // smallest id among the slots of the least d (the first offered of them, then each of equal d
  // and smaller id); when the first offered slot's d is NaN it stays (nothing compares with it),
  // when no d is below +inf the ties are those at +inf, the first offered slot among them. kNone
  // when no slot is offered (first >= n).
  std::size_t nearest_of(const double* d, std::size_t n, std::size_t first, double m) const {
    if (first >= n) return kNone;
    if (std::isnan(d[first])) return first;
    return least_id(d, n, m);
  }
  // The smallest id among the slots i < n with d[i] == m, kNone when none.
  std::size_t least_id(const double* d, std::size_t n, double m) const {
    const int64_t* id = f_.sv.ids();
    std::size_t best = kNone;
    visit_hits(
        n, [&](std::size_t i, I4& hit) { V4 v; hit = load4(d + i, v) == m; }, [&](std::size_t i) { return d[i] == m; },
        [&](std::size_t i) {
          if (best == kNone || id[i] < id[best]) best = i;
        });
    return best;
  }
  // Support i's neighbour anew, from its kernel row.
  void find_nearest(std::size_t i) {
    const std::size_t n = f_.size();
    near_row_.resize(n);
    near_d_.resize(n);
    f_.sv.kernel_row(f_.kernel, f_.sv.row(i), near_row_.data());
    const double* __restrict k = near_row_.data();
    const double* __restrict self = self_.data();
    double* __restrict d = near_d_.data();
    const double sii = self_[i];
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // The distances stored with their least (nearest_of's, d[i] NaN: never taken, never equal) in
    // one pass, where the distances, their least and the ties took three.
    const double m = store_least(
        d, n,
        [&](std::size_t j) {
          V4 kj, sj;
          V4 v = sii - 2.0 * load4(k + j, kj) + load4(self + j, sj);
          if (i - j < 4) v[i - j] = nan;
          return v;
        },
        [&](std::size_t j) { return j == i ? nan : sii - 2.0 * k[j] + self[j]; });
    const std::size_t j = nearest_of(d, n, i == 0 ? 1 : 0, m);
    nn_j_[i] = j;
    nn_k_[i] = j == kNone ? 0.0 : k[j];
    nn_d_[i] = j == kNone ? 0.0 : near_d_[j];
    nn_s_[i] = j == kNone ? 0.0 : self_[j];
  }

  // Appends x_t (BPA-NN: its neighbour, and it as the neighbour of the supports it is nearer to).
  void add(const Example& x, int64_t t, double beta, const AlignedVector<double>& row, double ktt) {
    const std::size_t n = f_.add(x, t, beta);
    self_.push_back(ktt);
    if (!nearest_) return;
    near_d_.resize(n + 1);
    double* __restrict d = near_d_.data();
    const double* __restrict self = self_.data();
    const double* __restrict k = row.data();
    const int64_t none = static_cast<int64_t>(kNone);
    const std::size_t* nj = nn_j_.data();  // offer writes through them and never resizes them
    const double* nd = nn_d_.data();
    // One pass, slot by slot: x_t offered to support i at offer's distance (offer's own test
    // decides, and every slot it can take passes this one; an offer changes slot i's neighbour
    // alone), and support i's distance to x_t stored with their least (nearest_of's), where the
    // offers, the distances, their least and the ties took four.
    const double m = store_least(
        d, n,
        [&](std::size_t i) {
          I4 j;
          V4 si, ki, ni;
          load4(self + i, si), load4(k + i, ki);
          const I4 hit = (load4(nj + i, j) == none) | (si - 2.0 * ki + ktt <= load4(nd + i, ni));
          if (any_lane(hit))
            for (std::size_t l = 0; l < 4; ++l)
              if (hit[l]) offer(i + l, n, k[i + l]);
          return ktt - 2.0 * ki + si;
        },
        [&](std::size_t i) {
          if (nn_j_[i] == kNone || self[i] - 2.0 * k[i] + ktt <= nn_d_[i]) offer(i, n, k[i]);
          return ktt - 2.0 * k[i] + self[i];
        });
    const std::size_t j = nearest_of(d, n, 0, m);
    nn_j_.push_back(j);
    nn_k_.push_back(j == kNone ? 0.0 : row[j]);
    nn_d_.push_back(j == kNone ? 0.0 : d[j]);
    nn_s_.push_back(j == kNone ? 0.0 : self_[j]);
  }
  // Removes slot r (the last slot moves into r), with the same move in row and the per-slot data;
  // the supports whose neighbour was r get theirs anew.
  void remove(std::size_t r, AlignedVector<double>& row) {
    const std::size_t last = f_.size() - 1;
    row[r] = row[last];
    row.pop_back();
    self_[r] = self_[last];
    self_.pop_back();
    f_.remove(r);
    if (!nearest_) return;
    orphans_.clear();
    const auto rr = static_cast<int64_t>(r), ll = static_cast<int64_t>(last);
    visit_hits(
        last + 1,
        [&](std::size_t i, I4& hit) {
          I4 j;
          load4(nn_j_.data() + i, j);
          hit = (j == rr) | (j == ll);
        },
        [&](std::size_t i) { return nn_j_[i] == r || nn_j_[i] == last; },
        [&](std::size_t i) {
          if (i == r) return;
          if (nn_j_[i] == r) orphans_.push_back(i == last ? r : i);
          else nn_j_[i] = r;  // its neighbour was the last slot, now at r
        });
    nn_j_[r] = nn_j_[last], nn_k_[r] = nn_k_[last], nn_d_[r] = nn_d_[last], nn_s_[r] = nn_s_[last];
    nn_j_.pop_back(), nn_k_.pop_back(), nn_d_.pop_back(), nn_s_.pop_back();
    for (std::size_t i : orphans_) find_nearest(i);
  }

  std::size_t B_;
  double C_;
  bool nearest_;
  std::vector<double> self_;  // k(x_i, x_i) over the slots
  AlignedVector<double> row_;   // learn()'s copy of the scoring row (no allocation a round)
  mutable std::vector<double> q_;  // cheapest_removal's costs, one a support
  std::vector<std::size_t> nn_j_;  // BPA-NN: each slot's nearest neighbour (offer)
  std::vector<double> nn_k_, nn_d_, nn_s_;  // nn_s_: k_jj of the neighbour j (slot moves keep it)
  std::vector<double> near_row_, near_d_;   // find_nearest's and add's scratch: a kernel row, distances
  std::vector<std::size_t> orphans_;        // remove's scratch
};

}  // namespace plab
