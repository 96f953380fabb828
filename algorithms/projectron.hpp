// Projectron and Projectron++ (Orabona, Keshet, Caputo; ICML 2008, JMLR 10 (2009) 2643-2666).
// Projectron (JMLR Fig. 2; docs/learners.md#projectron): on a mistake, project f + y k(x,.) onto
// span(S) when the projection error ||delta|| is small, else add x to S. Projectron++ (JMLR Fig. 5,
// Sec. 4; docs/learners.md#projectron++) also makes projected updates on margin errors 0 < y s < 1.
// Optional per-round threshold eta_t from a norm cap U (ICML Eq. 13, Corollary 1;
// docs/bounds.md#projectron_icml_cor1).
//
// Conventions (docs/conventions.md#eta): EtaConvention::paper tests ||delta|| <= eta (default);
// EtaConvention::dogma tests ||delta||^2 <= eta (DOGMA's k_projectron*_train.m).
//
// Linear algebra: the papers keep Kinv = K^{-1} by the matrix-inversion-lemma recursion
// (JMLR Fig. 4); the JMLR paper notes a Cholesky update as the alternative
// (docs/learners.md#projectron), and that is what is used here: K = L L^T. The recursion is not
// backward stable: with eta ~ 0 it adds nearly dependent supports and Kinv drifts until the
// applied update is no longer the logged projection (with the recursion, 1-D Gaussian data and
// eta = 0, the residual ||k - K d|| reached 1.37 with logged ||delta|| ~ 0). Triangular solves
// with L are backward stable, so the applied projection stays consistent with what is logged up
// to rounding.
// Accuracy of the inverse (requirement: after 10^4 additions ||K Kinv - I|| <= 1e-8, with or
// without a refresh): there is no refresh, because none is needed. The factor grown by appends
// is as accurate as a fresh factorisation of K (which is what a refresh would compute):
// ||K Kinv - I|| is ~ eps cond(K) for any inverse in double precision, and the forward solve's
// chunked sums (panel_solve.hpp) give the grown rows the error growth of a blocked Cholesky
// (unchunked sums give about 4.2e-8 in the gamma 0.1 case below). Measured with
// Kinv = L^{-T} L^{-1}, 10^4 additions on N(0, I_10) points (tests/test_projectron.cpp,
// ProjectronInverse): gamma 0.5, ||.||_F ~ 2.6e-12; gamma 0.1, cond(K) 6.9e8: ||.||_2 = 8.2e-9 ..
// 9.8e-9 grown (the spread is the test's own solves, compiled two ways) against 9.3e-9 .. 1.6e-8
// for a fresh Eigen LLT; backward error ||L L^T - K|| / ||K|| ~ 1e-15. So 1e-8 holds up to
// cond(K) ~ 1e9 and beyond that no inverse in double precision can meet it.
//
// Coordinates: f is kept as beta = L^T alpha, its coordinates in the orthonormal basis
// e = L^{-1} (k(s_1,.), ..., k(s_n,.)) of span(S). With z_t = L^{-1} k_t (k_t the kernel row of
// x_t): f(x_t) = beta . z_t, ||P k(x_t,.)||^2 = ||z_t||^2 (JMLR Eqs. 7-8: k^T K^{-1} k =
// ||L^{-1} k||^2) and ||delta_t||^2 = k(x,x) - ||z_t||^2. The projected step alpha += y tau K^{-1} k_t
// (JMLR Eq. 9) is beta += y tau z_t, and adding x_t with coefficient y appends the row
// [z_t^T, ||delta_t||] to L and makes beta = [beta + y z_t; y ||delta_t||] -- all O(n). alpha =
// L^{-T} beta (one backward solve) is formed only when someone needs the expansion (sync()).
// z_t depends on S and x_t only, not on alpha, so learn_block() solves for a block of
// kPanelLanes upcoming rounds at once (panel_solve.hpp: the factor is read once per block, at
// the FMA rate); a support added inside the block extends the later rounds' z by one component.
// Every z component is computed by the same fma chain whatever the blocking, so learn() and
// learn_block() give bit-identical records (tested).
//
// Numerical guard (docs/learners.md#projectron): a point is ADDED iff (S is empty or the threshold
// test fails) AND ||delta||^2 > kGuard * k(x,x); otherwise it is projected. L_ii^2 = ||delta_i||^2
// at the time i was added, so the guard bounds every pivot from below; ||delta||^2 = k(x,x) - ||z||^2
// carries an absolute error ~ 1e-16 k(x,x), so a pivot near rounding level has no correct digits.
// kGuard = 1e-8, chosen by measurement (1-D Gaussian data in [0,1], eta = 0, T <= 3000, gamma
// 0.2..500): the residual ||K d - k||/||k|| of the applied update is <= 1e-13 for every guard
// >= 1e-12 (backward stability), but with guards <= 1e-9 cond(K) reaches 1e14-1e17 and
// max|alpha| 1e5, and alpha^T K alpha itself then loses digits (running vs exact ||f||^2 off by
// up to 3e-6 relative); with 1e-8: cond(K) <= ~2e13, max|alpha| ~ 1e3, ||f||^2 agree to 1e-10.
// The guard bounds each pivot, not their product: a cluster of supports each added just above it
// can still reach max|alpha| 2e7 (docs/learners.md#projectron).
// The price: a guard-forced projection differs from the kernel Perceptron's step by the residual
// delta_t, ||delta_t|| <= 1e-4 sqrt(k(x,x)), so eta = 0 reproduces the kernel Perceptron only up
// to such terms on (nearly) dependent data (measured: scores within 2e-7 relative; exact in
// general position). The guard is relative to k(x,x) so that it means the same for linear/poly
// kernels of any scale; for the Gaussian kernel it is "add iff ||delta||^2 > max(eta^2, guard)".
// Bounds use eta_eff = max ||delta_t|| (bounds.cpp), so guard-forced projections are accounted for.
// A zero feature vector (k(x,x) = 0) on an empty S is "projected" onto {0}: k(x,.) = 0, so f is
// unchanged either way.
#pragma once
#include <Eigen/Dense>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif
#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <vector>

#include "algorithms/learner.hpp"
#include "numerics/column_solve.hpp"
#include "numerics/panel_solve.hpp"

namespace plab {

// The Projectron(++)'s own options (docs/learners.md#projectron): the threshold eta, its reading
// (eta_convention, declared alike by the multiclass Projectron++ and PA-I) and ICML's U; the
// Projectron++ adds the threshold of its margin test. Each learner's Options derives from this
// struct and declares the rows it takes.
struct ProjectronOptions {
  double eta = 0.1;
  std::string eta_convention = "paper";
  double U = 0.0;
  std::string margin_threshold = "eta";  // Projectron++ only (docs/conventions.md#margin-threshold)
  EtaConvention convention() const { return eta_convention_of(eta_convention); }
  // The rows of eta and eta_convention (every Projectron), then U (the binary ones).
  template <class O>
  static std::vector<OptionMember<O>> threshold_rows(bool with_U) {
    std::vector<OptionMember<O>> rows = {
        {"eta", &ProjectronOptions::eta, "Projectron(++) threshold eta (docs/learners.md#projectron)", at_least(0)},
        eta_convention_option<O>(&ProjectronOptions::eta_convention)};
    if (with_U)
      rows.push_back({"U", &ProjectronOptions::U, "Projectron: per-round eta_t from U (ICML Eq. 13); 0 = off", at_least(0)});
    return rows;
  }
};

// Cholesky factor L of the Gram matrix of S (K = L L^T), stored as a packed lower triangle:
// row i holds L(i,0..i) at offset i(i+1)/2, so a new support appends one row without moving
// the others and the solves stream contiguous rows; the buffer's capacity doubles as it grows.
// Forward solves (z = L^{-1} k) go through forward_panel() on packed().
class GramCholesky {
 public:
  std::size_t size() const { return n_; }
  const double* packed() const { return p_.data(); }
  // L(i,j) (0 above the diagonal).
  double operator()(std::size_t i, std::size_t j) const { return j <= i ? row(i)[j] : 0.0; }

  // d = L_m^{-T} z with L_m the leading m x m block (m = size() by default), axpy form over the
  // rows of L (row i of L is column i of L^T): for i = m-1..0: d_i = z_i / L_ii; z_j -= L_ij d_i
  // (j < i). z is overwritten (scratch). Rows go 4 at a time so each load/store of z_j serves four.
  void backward(double* z, double* d, std::size_t m = static_cast<std::size_t>(-1)) const {
    std::size_t i = std::min(m, n_);
#if defined(__AVX2__) && defined(__FMA__)
    for (; i % 4 != 0; --i) axpy_row(i - 1, z, d);  // top rows until i is a multiple of 4
    for (; i >= 4; i -= 4) {
      const std::size_t b = i - 4;
      const double* r[4] = {row(b), row(b + 1), row(b + 2), row(b + 3)};
      for (std::size_t m4 = 4; m4-- > 0;) {  // the 4 x 4 diagonal block
        d[b + m4] = z[b + m4] / r[m4][b + m4];
        for (std::size_t c = 0; c < m4; ++c) z[b + c] -= r[m4][b + c] * d[b + m4];
      }
      const __m256d d0 = _mm256_set1_pd(d[b]), d1 = _mm256_set1_pd(d[b + 1]),
                    d2 = _mm256_set1_pd(d[b + 2]), d3 = _mm256_set1_pd(d[b + 3]);
      for (std::size_t j = 0; j < b; j += 4) {  // b is a multiple of 4: no remainder
        __m256d zj = _mm256_loadu_pd(z + j);
        zj = _mm256_fnmadd_pd(_mm256_loadu_pd(r[0] + j), d0, zj);
        zj = _mm256_fnmadd_pd(_mm256_loadu_pd(r[1] + j), d1, zj);
        zj = _mm256_fnmadd_pd(_mm256_loadu_pd(r[2] + j), d2, zj);
        zj = _mm256_fnmadd_pd(_mm256_loadu_pd(r[3] + j), d3, zj);
        _mm256_storeu_pd(z + j, zj);
      }
    }
#endif
    for (; i > 0; --i) axpy_row(i - 1, z, d);
  }

  // Appends the row [z^T, diag]: with z = L^{-1} k_t and diag = ||delta_t|| = sqrt(k(x,x) -
  // ||z||^2) > 0 the new factor satisfies L' L'^T = [[K, k_t], [k_t^T, k(x,x)]]. On an empty set
  // this gives L = [sqrt(k(x,x))].
  void append(const double* z, double diag) {
    const std::size_t need = (n_ + 1) * (n_ + 2) / 2;
    if (need > p_.capacity()) p_.reserve(std::max<std::size_t>(need, 2 * p_.capacity()));
    p_.insert(p_.end(), z, z + n_);
    p_.push_back(diag);
    if (by_columns_) cols_.append(row(n_));
    ++n_;
  }

  // Keeps a copy of L by columns from now on, for forward() (solves one right-hand side at a time).
  void keep_columns() {
    by_columns_ = true;
    cols_.assign(p_.data(), n_);
  }
  // z <- L^{-1} z: forward_panel's bits with stride 1, across rows when the columns are kept.
  void forward(double* z) const {
    if (by_columns_) forward_columns(cols_, z);
    else forward_panel(p_.data(), 0, n_, z, 1);
  }

  // Model files: the packed triangle as it is (rebuilding it from the supports would not give
  // its bits: each row was computed when its support entered).
  void save(StateWriter& w, const std::string& name) const {
    w.put(name, std::span<const double>(p_.data(), n_ * (n_ + 1) / 2));
  }
  void load(const StateReader& r, const std::string& name, std::size_t n) {
    p_ = r.get<double>(name, n * (n + 1) / 2);
    n_ = n;
    if (by_columns_) cols_.assign(p_.data(), n_);
  }

  // Row-major dense n x n copies (tests): L, and K^{-1} = L^{-T} L^{-1} formed from L.
  Eigen::MatrixXd factor() const {
    const auto n = static_cast<Eigen::Index>(n_);
    Eigen::MatrixXd L = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j <= i; ++j) L(i, j) = row(static_cast<std::size_t>(i))[j];
    return L;
  }
  Eigen::MatrixXd inverse() const {
    const Eigen::MatrixXd L = factor();
    const Eigen::MatrixXd X = L.triangularView<Eigen::Lower>().solve(
        Eigen::MatrixXd::Identity(L.rows(), L.cols()));  // X = L^{-1}
    return X.transpose() * X;
  }

 private:
  const double* row(std::size_t i) const { return &p_[i * (i + 1) / 2]; }
  void axpy_row(std::size_t i, double* z, double* d) const {
    const double* r = row(i);
    const double di = z[i] / r[i];
    d[i] = di;
    for (std::size_t j = 0; j < i; ++j) z[j] -= r[j] * di;
  }

  std::size_t n_ = 0;
  std::vector<double> p_;  // packed lower triangle
  bool by_columns_ = false;
  FactorColumns cols_;     // L by columns (keep_columns)
};

// a . b over n terms in a fixed order (four interleaved fma chains, combined pairwise), so the
// value does not depend on the compiler's vectorisation.
inline double fixed_dot(const double* a, const double* b, std::size_t n) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (std::size_t m = 0; m < 4; ++m) s[m] = std::fma(a[j + m], b[j + m], s[m]);
  for (; j < n; ++j) s[0] = std::fma(a[j], b[j], s[0]);
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// Shared machinery: the block solve, the projection of k(x_t,.) onto span(S), the mistake step
// and the beta coordinates (file comment).
class ProjectronBase : public ExpansionLearner {
 public:
  ProjectronBase(const LearnerOptions& o, const ProjectronOptions& own) : ExpansionLearner(o), opt_(own) {}
  // Its floor (docs/learners.md#floors, #projectronpp-floor): the score's row and the forward solve
  // z_t = L^{-1} k_t, n(n + 1)/2 fmas.
  static double floor_ops(const FloorRound& r) { return r.n * r.term + r.n * (r.n + 1.0) / 2.0; }
  const GramCholesky& chol() const { return chol_; }
  const SupportSet& supports() const { return f_.sv; }
  // d = K^{-1} k_t = L^{-T} z_t of the last projected update, with K the Gram matrix of S at that
  // round (tests check its residual ||K d - k_t||).
  std::vector<double> last_projection() const {
    std::vector<double> z = last_z_, d(z.size());
    chol_.backward(z.data(), d.data(), z.size());
    return d;
  }

  // Everything that reads alpha forms it first (sync).
  double score(const Example& x) const override { sync(); return f_.score(x); }
  double norm2_exact() const override { sync(); return f_.norm2_exact(); }
  const KernelExpansion* expansion() const override { sync(); return &f_; }
  double score_as(const std::string& which, const Example& x) const override {
    sync();
    return ExpansionLearner::score_as(which, x);
  }

  RoundRecord learn(const Example& x, int64_t t) final {
    RoundRecord r;
    learn_block(&x, 1, t, &r);
    return r;
  }

  // The expansion with alpha formed (sync), the factor L, beta and its averaging sums, the last
  // projection (tests) and whether alpha is still the labels.
  void save_state(StateWriter& w) const override {
    sync();
    ExpansionLearner::save_state(w);
    chol_.save(w, "L");
    w.put("beta", beta_);
    w.put("wbeta", wbeta_);
    w.put("last_z", last_z_);
    w.put_one<uint64_t>("exact", exact_);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    const std::size_t n = f_.size();
    chol_.load(r, "L", n);
    beta_ = r.get<double>("beta", n);
    wbeta_ = r.get<double>("wbeta", n);
    last_z_ = r.get<double>("last_z");
    require_state(last_z_.size() <= n, "last_z: longer than the support set");
    exact_ = r.get_one<uint64_t>("exact") != 0;
    dirty_ = false;
  }

  // Kernel rows of up to kPanelLanes rounds against S, one block solve, then the rounds in order
  // (a lone round uses stride 1: same arithmetic, no idle lanes). Kernel rows and z_t are kept
  // lane-major (lane l at l * ld) and moved into and out of the row-major panel by to_panel /
  // from_panel; the panel's idle lanes and its extension rows are zero.
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) final {
    for (std::size_t b = 0; b < n; b += kPanelLanes) {
      const std::size_t m = std::min(kPanelLanes, n - b), w = m == 1 ? 1 : kPanelLanes;
      std::size_t ns = chol_.size();
      const std::size_t ld = (ns + m + 7) / 8 * 8;  // room for the supports this block may add, whole lines
      krow_.resize(m * ld);
      zrow_.resize(m * ld);
      panel_.resize(ld * w);
      f_.sv.kernel_rows(f_.kernel, xs + b, m, krow_.data(), ld);
      to_panel(krow_.data(), ld, m, ns, panel_.data(), w);
      std::fill(panel_.begin() + static_cast<std::ptrdiff_t>(ns * w), panel_.end(), 0.0);
      forward_panel(chol_.packed(), 0, ns, panel_.data(), w);
      from_panel(panel_.data(), w, m, ns, zrow_.data(), ld);
      for (std::size_t l = 0; l < m; ++l) {
        const Example& x = xs[b + l];
        const int64_t t = t0 + static_cast<int64_t>(b + l);
        z_ = std::span<const double>(&zrow_[l * ld], ns);
        RoundRecord& r = out[b + l];
        r = RoundRecord{};
        rounds_ = t;
        r.t = t; r.y = x.y; r.kxx = f_.kernel.self(x.sqnorm);
        // While exact_, alpha = the labels exactly: the kernel Perceptron's score, bit for bit.
        r.score = exact_ ? f_.dot_alpha(&krow_[l * ld]) : fixed_dot(beta_.data(), z_.data(), ns);  // f(x_t) = beta . z_t
        r.mistake = x.y * r.score <= 0.0;
        round(x, t, r);
        if (chol_.size() > ns && l + 1 < m) {  // x_t was added: extend the later rounds' k and z
          for (std::size_t l2 = l + 1; l2 < m; ++l2)
            krow_[l2 * ld + ns] = panel_[ns * w + l2] = f_.sv.kernel_one(f_.kernel, xs[b + l2], ns);
          forward_panel(chol_.packed(), ns, ns + 1, panel_.data(), w);
          for (std::size_t l2 = l + 1; l2 < m; ++l2) zrow_[l2 * ld + ns] = panel_[ns * w + l2];
        }
        ns = chol_.size();
        finish(r);
      }
    }
  }

  // Relative guard below which ||delta||^2 counts as zero (see the file comment).
  static constexpr double kGuard = 1e-8;

 protected:
  // The algorithm's decision on round t; z_ = L^{-1} k_t and r.score, r.mistake are set.
  virtual void round(const Example& x, int64_t t, RoundRecord& r) = 0;

  // Records ||Pk||^2 = ||z||^2 and ||delta|| = sqrt(max(0, k(x,x) - ||Pk||^2)) (JMLR Eqs. 7-8);
  // returns ||delta||^2.
  double project(RoundRecord& r) const {
    const double pk2 = fixed_dot(z_.data(), z_.data(), z_.size());
    const double dl2 = std::max(0.0, r.kxx - pk2);
    r.pk2 = pk2;
    r.delta_norm = std::sqrt(dl2);
    return dl2;
  }

  // f <- f + y tau P k(x,.) (JMLR Eq. 9): beta += y tau z_t.
  // ||f||^2 grows by 2 y tau s + tau^2 ||Pk||^2, since <f, Pk> = <f, k> = s for f in span(S).
  void projected_update(const RoundRecord& r, double tau, int64_t t) {
    const double c = r.y * tau;
    last_z_.assign(z_.begin(), z_.end());
    // z_t = 0 (k_t orthogonal to span(S), or S empty): f does not change, so alpha stays the labels.
    if (c == 0.0 || std::all_of(z_.begin(), z_.end(), [](double v) { return v == 0.0; })) return;
    bump(c, t);
    norm2_ += 2.0 * c * r.score + tau * tau * r.pk2;
    exact_ = false;  // alpha is no longer the labels
    dirty_ = true;
  }

  // Mistake round of Projectron and Projectron++ (JMLR Fig. 2 / Fig. 5 first branch).
  void mistake_step(const Example& x, int64_t t, RoundRecord& r) {
    r.tau = 1.0;
    const double dl2 = project(r);
    const double dl = r.delta_norm;
    bool proj;
    if (opt_.U > 0.0) {
      // ICML 2008 Eq. (13), Cor. 1 [R] (docs/bounds.md#projectron_icml_cor1):
      // eta_t = (2 l - ||Pk||^2 - 0.5) / (2U), tested against the norm ||delta|| whatever
      // eta_convention says (the corollary's form).
      const double loss = 1.0 - r.y * r.score;
      r.eta_t = (2.0 * loss - r.pk2 - 0.5) / (2.0 * opt_.U);
      proj = dl <= r.eta_t;
    } else if (opt_.convention() == EtaConvention::paper) {
      proj = dl <= opt_.eta;  // JMLR Fig. 2: ||delta|| <= eta
    } else {
      proj = dl2 <= opt_.eta;  // DOGMA: ||delta||^2 <= eta (docs/conventions.md#eta)
    }
    if (chol_.size() == 0) proj = false;       // always add on an empty S (docs/learners.md#projectron)
    if (!(dl2 > kGuard * r.kxx)) proj = true;  // numerical guard (file comment)
    if (proj) {
      projected_update(r, 1.0, t);
      r.update = UpdateKind::project;
    } else {
      // Add x with coefficient y: L gets the row [z^T, ||delta||], beta = [beta + y z; y ||delta||].
      chol_.append(z_.data(), dl);
      f_.add(x, t, r.y);  // alpha_new = y (the rest of alpha is formed by sync())
      bump(r.y, t);
      if (!exact_) dirty_ = true;  // while exact, f_.alpha (the labels) and its sums are current
      beta_.push_back(r.y * dl);
      wbeta_.push_back(r.y * dl * static_cast<double>(t));
      norm2_ += 2.0 * r.y * r.score + r.kxx;  // ||f + y k||^2 = ||f||^2 + 2 y s + k(x,x)
      r.update = UpdateKind::add;
    }
  }

  ProjectronOptions opt_;
  GramCholesky chol_;
  std::span<const double> z_;  // L^{-1} k_t of the current round (a row of zrow_)

 private:
  // beta += c z_ on round t, with the averaging sums (KernelExpansion's wsum, in beta coordinates:
  // alpha -> L^T alpha is one fixed linear map once supports are only appended).
  void bump(double c, int64_t t) {
    const double ct = c * static_cast<double>(t);
    for (std::size_t j = 0; j < z_.size(); ++j) {
      beta_[j] += c * z_[j];
      wbeta_[j] += ct * z_[j];
    }
  }
  // alpha = L^{-T} beta and wsum = L^{-T} wbeta into f_ (two backward solves).
  void sync() const {
    if (!dirty_) return;
    const std::size_t n = beta_.size();
    std::vector<double> a(n), w(n), tmp = beta_;
    chol_.backward(tmp.data(), a.data());
    tmp = wbeta_;
    chol_.backward(tmp.data(), w.data());
    // A cache refresh: f_ belongs to this (never const-constructed) learner.
    const_cast<KernelExpansion&>(f_).set_coefficients(std::move(a), std::move(w));
    dirty_ = false;
  }

  std::vector<double> beta_, wbeta_;   // f and the averaging sums in the basis e (file comment)
  // 64-byte aligned (core/huge_pages.hpp) and rows of whole cache lines: no vector load of the
  // solve, the kernel rows or the transposes splits a line.
  AlignedVector<double> panel_;        // block solve (row-major, lanes per row)
  AlignedVector<double> krow_, zrow_;  // the block's kernel rows and z_t, lane-major
  std::vector<double> last_z_;         // z of the last projected update
  // Until the first projection alpha_i = y_i exactly (f_.alpha is kept current), and the score is
  // alpha . k_t as in the kernel Perceptron: exact ties y s = 0 (a9a has many: equal Hamming
  // distances) stay exactly 0 and count as mistakes (docs/conventions.md#mistake), where beta . z_t
  // would give +-1e-16. After it both forms carry rounding; beta . z_t is the O(n) one.
  bool exact_ = true;
  mutable bool dirty_ = false;         // f_.alpha is stale
};

// Projectron: updates on mistakes only (JMLR Fig. 2).
class Projectron final : public ProjectronBase {
 public:
  struct Options : ProjectronOptions {
    static std::vector<OptionMember<Options>> rows() { return threshold_rows<Options>(true); }
  };
  Projectron(const LearnerOptions& o, const Options& own) : ProjectronBase(o, own) {}
  // Its options from o.own (what make_learner hands it; absent ones at their defaults).
  explicit Projectron(const LearnerOptions& o) : Projectron(o, options_from<Options>(o.own)) {}

 protected:
  void round(const Example& x, int64_t t, RoundRecord& r) override {
    const double ys = r.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;  // logged only; the Projectron ignores it
    if (r.mistake) mistake_step(x, t, r);
  }
};

// Projectron++: mistakes as the Projectron; margin errors 0 < y s < 1 make a projected step
// of size tau when the loss pays for the projection error (JMLR Fig. 5, Sec. 4;
// docs/learners.md#projectron++). Margin errors never add. With U > 0 the mistake branch uses eta_t
// (as the Projectron), the margin branch still uses eta (the ICML margin rule with U is [R] and cut
// off in the available text). eta = 0 is defined as the limit eta -> 0+: the test l >= ||delta||/eta (or
// l - ||delta||^2/eta > 0) then fails for every ||delta|| > 0, and we also skip ||delta|| = 0,
// so there are no margin updates at all and Projectron++(eta=0) == Projectron(eta=0).
class ProjectronPP final : public ProjectronBase {
 public:
  struct Options : ProjectronOptions {
    static std::vector<OptionMember<Options>> rows() {
      auto rows = threshold_rows<Options>(true);
      rows.push_back({"margin_threshold", &ProjectronOptions::margin_threshold,
                      "Projectron++ margin test: eta (l - d/eta > 0: JMLR Fig. 5, DOGMA's binary code) | 2eta "
                      "(l - d/(2 eta) > 0: DOGMA's multiclass code; docs/conventions.md#margin-threshold)",
                      {}, {"eta", "2eta"}});
      return rows;
    }
  };
  ProjectronPP(const LearnerOptions& o, const Options& own)
      : ProjectronBase(o, own), margin_eta_(own.margin_threshold == "2eta" ? 2.0 * own.eta : own.eta) {}
  // Its options from o.own (what make_learner hands it; absent ones at their defaults).
  explicit ProjectronPP(const LearnerOptions& o) : ProjectronPP(o, options_from<Options>(o.own)) {}

 protected:
  void round(const Example& x, int64_t t, RoundRecord& r) override {
    const double ys = r.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (r.mistake) {
      mistake_step(x, t, r);
    } else if (r.margin_error) {
      margin_step(t, r);
    }
  }

 private:
  void margin_step(int64_t t, RoundRecord& r) {
    const double dl2 = project(r);
    // eta of the margin test: eta, or 2 eta under margin_threshold "2eta" (docs/conventions.md#margin-threshold).
    const double dl = r.delta_norm, pk2 = r.pk2, l = 1.0 - r.y * r.score, eta = margin_eta_;
    // pk2 > 0 is required by both rules: pk2 = 0 means k_t = 0, so d = 0 and nothing would move.
    bool upd = false;
    double tau = 0.0;
    if (eta > 0.0 && pk2 > 0.0) {
      if (opt_.convention() == EtaConvention::paper) {
        // JMLR Fig. 5: update iff l >= ||delta||/eta; tau = min(l/pk2, 2(l - ||delta||/eta)/pk2, 1).
        // slack = 0 would give tau = 0 (no move); Thm 4 needs tau > 0, so require slack > 0.
        const double slack = l - dl / eta;
        upd = slack > 0.0;
        tau = std::min({l / pk2, 2.0 * slack / pk2, 1.0});
      } else {
        // DOGMA k_projectron2_train.m: update iff l - ||delta||^2/eta > 0;
        // tau = min(l/pk2, 1, 2(l - ||delta||^2/eta)/pk2) (docs/conventions.md#eta)
        const double slack = l - dl2 / eta;
        upd = slack > 0.0;
        tau = std::min({l / pk2, 1.0, 2.0 * slack / pk2});
      }
    }
    if (upd) {
      projected_update(r, tau, t);
      r.tau = tau;
      r.update = UpdateKind::margin_project;
    } else {
      r.tau = 0.0;
      r.update = UpdateKind::margin_skip;
    }
  }

  double margin_eta_;
};

}  // namespace plab
