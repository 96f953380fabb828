// NOGD, Nystrom Online Gradient Descent (Lu, Hoi, Wang, Zhao, Liu, JMLR 17 (2016), "Large Scale
// Online Kernel Learning", Sec. 4.2, Algorithm 2; docs/learners.md#nogd). Kernel online gradient
// descent on the hinge loss (on y s < 1 add x_t with eta y) until |S| = B; on the first update with
// |S| = B, the Nystrom map from the top k eigenpairs (lambda_i, v_i) of the B x B kernel matrix K
// of the supports,
//   z(x) = M k_B(x),  M = Lambda_k^{-1/2} V_k^T,  k_B(x) = (k(x_1,x), ..., k(x_B,x)),
// replaces f: w = Lambda_k^{1/2} V_k^T alpha (w = alpha M^+, the projection of f on the span of the
// top k eigenfunctions), and from then on f(x) = w.z(x), on y s < 1 w += eta y z(x_t) (the
// switching round included, with the new map). Eigenpairs with lambda <= 1e-6 lambda_max are not
// kept (Lambda^{-1/2} would amplify rounding; K of rank < k has fewer), so k' = min(k, B, that
// count) dimensions. f stays the expansion sum_i beta_i k(x_i,.) with beta = M^T w, whose RKHS
// norm is ||w||^2 (V_k^T K V_k = Lambda_k): the running norm. K's top eigenpairs:
// numerics/top_eigenpairs.hpp (Lanczos for k well below B, else the full solver; single-threaded,
// the same bits for any --threads). A zero K keeps no eigenpair: f = 0 from the switch on, and
// each step's whole h_t is the projection error. beta = M^T w is formed only when the expansion
// is read (expansion(), models, the averaged hypothesis, ||f||^2 recomputed), not on each update:
// the averaging sums follow as beta's do, M^T (sum_t t dw_t) beside the switch's sums.
// In the RKHS the Nystrom phase is a projected step: with P the projection on the span of the top
// eigenfunctions phi_i = sum_j M_ij k(x_j,.) (orthonormal), z_i(x) = <k(x,.), phi_i> and f_{t+1} =
// P (f_t + eta y k(x_t,.)). Recorded for the bounds (docs/bounds.md#budget_ogd_all_t): tau = eta and
// delta_norm = ||f_{t+1} - (f_t + eta y k(x_t,.))|| = ||(I - P) h_t||: eta sqrt(k(x_t,x_t) - ||z(x_t)||^2)
// on a Nystrom round (f_t = P f_t), sqrt(||h_t||^2 - ||w||^2) on the switching round, 0 before.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/learner.hpp"
#include "numerics/lane_dots.hpp"
#include "numerics/top_eigenpairs.hpp"

namespace plab {

class NystromOnlineGradientDescent final : public ExpansionLearner {
 public:
  // Its options: the budget, the step and the rank; the defaults are LIBOL KOL's.
  struct Options {
    std::size_t budget = 0;
    double eta = kOgdEta;
    std::size_t rank = 20;
    static std::vector<OptionMember<Options>> rows() {
      return {budget_option<Options>(&Options::budget), ogd_eta_option(&Options::eta),
              {"rank", &Options::rank, "NOGD: k, the top eigenpairs of the budget's kernel matrix kept", at_least(1)}};
    }
  };
  // Its floor (docs/learners.md#floors): the score's row; after the switch (B supports) also M k
  // (k B) and w.phi (k).
  static double floor_ops(const FloorRound& r) {
    const Options own = options_from<Options>(r.options->own);
    return r.n * r.term + (r.n == static_cast<double>(own.budget) ? static_cast<double>(own.rank) * (r.n + 1.0) : 0.0);
  }
  NystromOnlineGradientDescent(const LearnerOptions& o, const Options& own)
      : ExpansionLearner(o), B_(own.budget), eta_(own.eta), rank_(own.rank) {}

  double score(const Example& x) const override { return nystrom() ? map_score(x) : f_.score(x); }
  double score_as(const std::string& which, const Example& x) const override {
    if (which != "averaged") return score(x);
    materialise();
    return f_.score_averaged(x, rounds_);
  }
  const KernelExpansion* expansion() const override {
    materialise();
    return &f_;
  }
  double norm2_exact() const override {
    materialise();
    return f_.norm2_exact();
  }

  // After the switch the supports are fixed: the block's kernel rows in one pass over them
  // (SupportSet::kernel_rows, the same bits as one row at a time), then the rounds.
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    if (!nystrom()) return ExpansionLearner::learn_block(xs, n, t0, out);
    block_rows_.resize(n * ldm_);
    f_.sv.kernel_rows(f_.kernel, xs, n, block_rows_.data(), ldm_);
    map_rows(block_rows_.data(), n);
    for (std::size_t l = 0; l < n; ++l) {
      given_z_ = block_z_.data() + l * k_;
      emplace_record(out + l, [&] { return learn(xs[l], t0 + static_cast<int64_t>(l)); });
    }
    given_z_ = nullptr;
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = nystrom() ? begin(x, t, map_score(x)) : begin(x, t);
    const double ys = x.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (!(ys < 1.0)) return finish(r);
    const double a = eta_ * x.y;  // -eta dl/df, l = max(0, 1 - y f)
    r.coef = a;
    r.eta_t = eta_;
    r.tau = eta_;
    r.delta_norm = 0.0;
    if (!nystrom() && f_.size() < B_) {  // kernel OGD
      f_.add(x, t, a);
      norm2_ += 2.0 * a * r.score + a * a * r.kxx;
      r.update = UpdateKind::add;
      return finish(r);
    }
    const bool switching = !nystrom();
    if (switching) {
      const AlignedVector<double> row = f_.row();
      start_nystrom();
      map_row(row.data());  // z(x_t) with the new map
    }
    double z2 = 0.0;
    for (std::size_t i = 0; i < k_; ++i) z2 += z_[i] * z_[i];
    const double h2 = norm2_ + 2.0 * a * r.score + a * a * r.kxx;  // ||f_t + a k(x_t,.)||^2
    for (std::size_t i = 0; i < k_; ++i) {
      w_[i] += a * z_[i];
      tdw_[i] += static_cast<double>(t) * (a * z_[i]);
    }
    if (switching) sync(t);
    else stale_ = true;
    norm2_ = 0.0;
    for (double v : w_) norm2_ += v * v;
    r.delta_norm = std::sqrt(std::max(0.0, switching ? h2 - norm2_ : a * a * (r.kxx - z2)));
    r.update = UpdateKind::update;
    return finish(r);
  }

  // The phase, the map and w beside the expansion.
  void save_state(StateWriter& w) const override {
    materialise();
    ExpansionLearner::save_state(w);
    w.put_one<uint64_t>("nystrom_k", k_);
    std::vector<double> M(k_ * f_.size());  // stored without the rows' padding
    for (std::size_t i = 0; i < k_; ++i) std::copy_n(&M_[i * ldm_], f_.size(), &M[i * f_.size()]);
    w.put("nystrom_M", M);
    w.put("nystrom_w", w_);
    if (switched_ && k_ == 0) w.put_one<uint64_t>("nystrom_switched", 1);  // a zero K: no eigenpair
    if (!switched_) return;
    w.put("nystrom_wsum0", base_wsum_);  // the sums beta's are formed from: a continued run forms the same bits
    w.put("nystrom_tdw", tdw_);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    k_ = r.get_one<uint64_t>("nystrom_k");
    require_state(k_ <= f_.size(), "nystrom_k: more dimensions than supports");
    require_state(k_ <= rank_, "nystrom_k: " + std::to_string(k_) + " dimensions, above the option rank = " + std::to_string(rank_));
    const std::vector<double> M = r.get<double>("nystrom_M", k_ * f_.size());
    ldm_ = padded(f_.size());
    M_.assign(k_ * ldm_, 0.0);
    for (std::size_t i = 0; i < k_; ++i) std::copy_n(&M[i * f_.size()], f_.size(), &M_[i * ldm_]);
    w_ = r.get<double>("nystrom_w", k_);
    switched_ = k_ > 0 || (r.has("nystrom_switched") && r.get_one<uint64_t>("nystrom_switched") == 1);
    require_state(!switched_ || f_.size() == B_, "nystrom_k: the map is made with exactly the budget's supports");
    if (r.has("nystrom_wsum0")) {
      const std::vector<double> ws = r.get<double>("nystrom_wsum0", f_.size());
      base_wsum_.assign(ws.begin(), ws.end());
    } else {
      base_wsum_ = f_.wsum();
    }
    tdw_ = r.has("nystrom_tdw") ? r.get<double>("nystrom_tdw", k_) : std::vector<double>(k_, 0.0);
    stale_ = false;
  }

 private:
  bool nystrom() const { return switched_; }
  // w.z(x), z = M k_B(x); leaves z(x) in z_.
  double map_score(const Example& x) const {
    if (given_z_) {
      z_.assign(given_z_, given_z_ + k_);
    } else {
      row_.resize(f_.size());
      f_.sv.kernel_row(f_.kernel, x, row_.data());
      map_row(row_.data());
    }
    double s = 0.0;
    for (std::size_t i = 0; i < k_; ++i) s += w_[i] * z_[i];
    return s;
  }
  // z_ = M k for a kernel row k: z_i is the lane sum over the supports (docs/learners.md#lane-sums);
  // four chains side by side still waited on the add latency, most of an ijcnn1 round; two rows
  // at a time (lane_dot2) hide it.
  void map_row(const double* k) const {
    const std::size_t n = f_.size();
    z_.assign(k_, 0.0);
    std::size_t i = 0;
    for (; i + 2 <= k_; i += 2) lane_dot2(&M_[i * ldm_], &M_[(i + 1) * ldm_], k, n, z_[i], z_[i + 1]);
    if (i < k_) z_[i] = lane_dot(&M_[i * ldm_], k, n);
  }
  // block_z_ = the maps M k of the m kernel rows K (row l at K + l ldm_), the same bits as map_row:
  // two rows of M at a time against every round's row, so the pair (6 KB at B = 400) stays in L1
  // while M (k x B: 64 KB at 20 x 400, past L1) was read from L2 every round; and against two
  // rounds' rows at once (lane_dot2x2: on AVX-512 each load serves two products; four rounds at
  // once, 12 loads for 16 products, made NOGD's a9a pass 4% slower).
  void map_rows(const double* K, std::size_t m) {
    const std::size_t n = f_.size();
    block_z_.resize(m * k_);
    // A tile of rounds whose kernel rows fit in 32 KB of L1 (4 at B = 793, 10 at B = 400) meets
    // every pair of rows of M: the rows of M stream from L2 once a tile, where the whole block's
    // rows did once a pair. 24 KB (2 rounds at B = 793) made NOGD's a9a pass 7% slower on an AMD
    // EPYC Zen 5 (48 KB of L1), 40 KB (6 rounds, past L1 with the pair of rows of M) no faster.
    constexpr std::size_t kTileBytes = 32768;
    const std::size_t ld = ldm_;
    const std::size_t tile = std::max<std::size_t>(2, (kTileBytes / (8 * std::max<std::size_t>(n, 1))) & ~std::size_t{1});
    std::size_t i = 0;
    for (std::size_t l0 = 0; l0 < m; l0 += tile) {
      const std::size_t l1 = std::min(m, l0 + tile);
      for (i = 0; i + 2 <= k_; i += 2) {
        std::size_t l = l0;
        for (; l + 2 <= l1; l += 2) {  // two rounds at once: each row of M loaded once for both
          double d[4];
          lane_dot2x2(&M_[i * ld], &M_[(i + 1) * ld], K + l * ld, K + (l + 1) * ld, n, d);
          block_z_[l * k_ + i] = d[0];
          block_z_[(l + 1) * k_ + i] = d[1];
          block_z_[l * k_ + i + 1] = d[2];
          block_z_[(l + 1) * k_ + i + 1] = d[3];
        }
        if (l < l1) lane_dot2(&M_[i * ld], &M_[(i + 1) * ld], K + l * ld, n, block_z_[l * k_ + i], block_z_[l * k_ + i + 1]);
      }
    }
    i = k_ - k_ % 2;
    if (i < k_)
      for (std::size_t l = 0; l < m; ++l) block_z_[l * k_ + i] = lane_dot(&M_[i * ld], K + l * ld, n);
  }
  // Algorithm 2's switch: K's top eigenpairs, M and w = Lambda^{1/2} V^T alpha.
  void start_nystrom() {
    const std::size_t n = f_.size();
    std::vector<Example> xs;
    for (std::size_t i = 0; i < n; ++i) xs.push_back(f_.sv.row(i));
    std::vector<double> K(n * n);
    f_.sv.kernel_rows(f_.kernel, xs.data(), n, K.data(), n);  // column l = k(x_., x_l); the solver reads the lower half
    const Eigenpairs e = top_eigenpairs(K.data(), n, rank_);
    const double top = e.values.empty() ? 0.0 : e.values[0];
    std::vector<std::size_t> keep;
    for (std::size_t i = 0; i < e.values.size(); ++i)
      if (e.values[i] > 1e-6 * top) keep.push_back(i);
    k_ = keep.size();
    switched_ = true;
    ldm_ = padded(n);
    M_.assign(k_ * ldm_, 0.0);
    w_.assign(k_, 0.0);
    tdw_.assign(k_, 0.0);
    for (std::size_t i = 0; i < k_; ++i) {
      const std::vector<double>& v = e.vectors[keep[i]];
      const double l = e.values[keep[i]], inv = 1.0 / std::sqrt(l);
      double va = 0.0;
      for (std::size_t j = 0; j < n; ++j) {
        M_[i * ldm_ + j] = inv * v[j];
        va += v[j] * f_.alpha[j];
      }
      w_[i] = std::sqrt(l) * va;
    }
  }
  // alpha = M^T w at the switch (through bump: the averaging sums follow); they are the base of
  // the later rounds' sums.
  void sync(int64_t t) {
    const std::size_t n = f_.size();
    for (std::size_t j = 0; j < n; ++j) {
      double b = 0.0;
      for (std::size_t i = 0; i < k_; ++i) b += M_[i * ldm_ + j] * w_[i];
      f_.bump(j, b - f_.alpha[j], t);
    }
    base_wsum_ = f_.wsum();
    tdw_.assign(k_, 0.0);
    stale_ = false;
  }
  // beta = M^T w and the averaging sums base + M^T (sum_t t dw_t), when read.
  void materialise() const {
    if (!stale_) return;
    const std::size_t n = f_.size();
    std::vector<double> a(n), ws(n);
    for (std::size_t j = 0; j < n; ++j) {
      double b = 0.0, d = 0.0;
      for (std::size_t i = 0; i < k_; ++i) {
        b += M_[i * ldm_ + j] * w_[i];
        d += M_[i * ldm_ + j] * tdw_[i];
      }
      a[j] = b;
      ws[j] = base_wsum_[j] + d;
    }
    auto& self = const_cast<NystromOnlineGradientDescent&>(*this);
    self.f_.set_coefficients(std::move(a), std::move(ws));
    stale_ = false;
  }

  std::size_t B_;
  double eta_;
  std::size_t rank_, k_ = 0;     // the Nystrom phase's k_ dimensions
  bool switched_ = false;        // the Nystrom phase (k_ = 0 only for a zero K)
  // M: k_ x B row-major, each row ldm_ apart (B rounded up to whole cache lines) and M and the
  // block's kernel rows 64-byte aligned, so that no vector load of M k splits a line.
  static std::size_t padded(std::size_t n) { return (n + 7) / 8 * 8; }
  std::size_t ldm_ = 0;
  AlignedVector<double> M_;
  std::vector<double> w_;
  std::vector<double> tdw_;          // sum_t t dw_t since the switch
  AlignedVector<double> base_wsum_;  // the averaging sums at the switch
  mutable bool stale_ = false;   // alpha and the averaging sums lag behind w
  mutable std::vector<double> row_, z_;
  AlignedVector<double> block_rows_;  // learn_block's kernel rows after the switch (ldm_ apart)
  std::vector<double> block_z_;       // and their maps
  const double* given_z_ = nullptr;            // the round's map among them, while learn_block runs
};

}  // namespace plab
