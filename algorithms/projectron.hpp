// Projectron and Projectron++ (Orabona, Keshet, Caputo; ICML 2008, JMLR 10 (2009) 2643-2666).
// Projectron (JMLR Fig. 2; theory.md 3.1): on a mistake, project f + y k(x,.) onto span(S)
// when the projection error ||delta|| is small, else add x to S. Projectron++ (JMLR Fig. 5,
// Sec. 4; theory.md 4.1) also makes projected updates on margin errors 0 < y s < 1.
// Optional per-round threshold eta_t from a norm cap U (ICML Eq. 13, Corollary 1; theory.md 3.3).
//
// Conventions (reproduction.md §1): EtaConvention::paper tests ||delta|| <= eta (default);
// EtaConvention::dogma tests ||delta||^2 <= eta (DOGMA's k_projectron*_train.m).
//
// Numerical guard (theory.md 3.1): a point is ADDED iff (S is empty or the threshold test fails)
// AND ||delta||^2 > 1e-12 * k(x,x); otherwise it is projected. Adding a point with ||delta||^2
// at round-off level would make K (numerically) singular and Kinv meaningless. The guard is
// relative to k(x,x) so that it means the same for linear/poly kernels of any scale; for the
// Gaussian kernel (k(x,x) = 1) it is theory.md's max(eta^2, 1e-12). A zero feature vector
// (k(x,x) = 0) on an empty S is "projected" onto {0}: k(x,.) = 0, so f is unchanged either way.
#pragma once
#include <Eigen/Dense>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "algorithms/learner.hpp"

namespace plab {

// Inverse of the Gram matrix of S, stored as a packed lower triangle (row i holds
// Kinv(i,0..i) at offset i(i+1)/2). Packing halves the memory traffic of the two O(n^2)
// passes and lets a new support append one row without moving the others; the buffer's
// capacity doubles as it grows (std::vector growth, reserved explicitly below).
// Accuracy: no periodic refresh. ||K Kinv - I||_F stays < 1e-12 for well-conditioned K even
// after 10^4 additions (tests/test_projectron.cpp); for ill-conditioned K the recursion loses
// accuracy like eps cond(K)^p, p ~ 1.7, and an Eigen LDLT refresh at every doubling of |S| was
// tried and did not help (the error comes from the latest additions, not from old drift).
class GramInverse {
 public:
  std::size_t size() const { return n_; }
  double operator()(std::size_t i, std::size_t j) const {
    return i >= j ? p_[i * (i + 1) / 2 + j] : p_[j * (j + 1) / 2 + i];
  }
  // Row-major dense n x n copy (tests).
  std::vector<double> dense() const {
    std::vector<double> a(n_ * n_);
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t j = 0; j < n_; ++j) a[i * n_ + j] = (*this)(i, j);
    return a;
  }

  // d = Kinv k (symmetric matvec over the packed triangle; 2 n^2 flops). Row i of the triangle
  // is both row i (dot with k) and column i (axpy into d) of Kinv, so one sweep does both; rows
  // go 4 at a time so each load of k_j and d_j serves four rows (FMA-bound, not load-bound).
  void multiply(const double* k, double* d) const {
    std::fill(d, d + n_, 0.0);
    std::size_t i = 0;
#if defined(__AVX2__) && defined(__FMA__)
    for (; i + 4 <= n_; i += 4) {
      const double* r[4] = {row(i), row(i + 1), row(i + 2), row(i + 3)};
      const double* kk = k + i;
      const __m256d k0 = _mm256_set1_pd(kk[0]), k1 = _mm256_set1_pd(kk[1]),
                    k2 = _mm256_set1_pd(kk[2]), k3 = _mm256_set1_pd(kk[3]);
      __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
      for (std::size_t j = 0; j < i; j += 4) {  // i is a multiple of 4: no remainder
        const __m256d kj = _mm256_loadu_pd(k + j);
        const __m256d x0 = _mm256_loadu_pd(r[0] + j), x1 = _mm256_loadu_pd(r[1] + j),
                      x2 = _mm256_loadu_pd(r[2] + j), x3 = _mm256_loadu_pd(r[3] + j);
        a0 = _mm256_fmadd_pd(x0, kj, a0);
        a1 = _mm256_fmadd_pd(x1, kj, a1);
        a2 = _mm256_fmadd_pd(x2, kj, a2);
        a3 = _mm256_fmadd_pd(x3, kj, a3);
        __m256d dj = _mm256_loadu_pd(d + j);
        dj = _mm256_fmadd_pd(x0, k0, dj);
        dj = _mm256_fmadd_pd(x1, k1, dj);
        dj = _mm256_fmadd_pd(x2, k2, dj);
        dj = _mm256_fmadd_pd(x3, k3, dj);
        _mm256_storeu_pd(d + j, dj);
      }
      double s[4] = {hsum(a0), hsum(a1), hsum(a2), hsum(a3)};
      // The 4 x 4 diagonal block, lower part r[m][i + c] (c <= m), used symmetrically.
      for (std::size_t m = 0; m < 4; ++m)
        for (std::size_t c = 0; c <= m; ++c) {
          const double v = r[m][i + c];
          s[m] += v * kk[c];
          if (c < m) s[c] += v * kk[m];
        }
      for (std::size_t m = 0; m < 4; ++m) d[i + m] += s[m];
    }
#endif
    for (; i < n_; ++i) {  // remaining rows (all rows without AVX2/FMA)
      const double* r = row(i);
      const double ki = k[i];
      double acc = 0.0;
      for (std::size_t j = 0; j < i; ++j) {
        acc += r[j] * k[j];
        d[j] += r[j] * ki;
      }
      d[i] += acc + r[i] * ki;
    }
  }

  // Kinv(0..m-1, 0..m-1) += c v v^T on the first m rows (m <= size()); 2 m^2 flops over the
  // triangle (m^2 multiply-adds). The bench uses it at fixed size; grow() uses it after appending.
  void rank1_update(const double* v, double c, std::size_t m) {
    for (std::size_t i = 0; i < m; ++i) {
      double* r = &p_[i * (i + 1) / 2];
      const double cvi = c * v[i];
      Eigen::Map<Eigen::VectorXd>(r, static_cast<Eigen::Index>(i + 1)).noalias() +=
          cvi * Eigen::Map<const Eigen::VectorXd>(v, static_cast<Eigen::Index>(i + 1));
    }
  }

  // Adds a support with projection coefficients d (length size()) and squared projection error
  // dl2 > 0: Kinv_new = [[Kinv, 0], [0^T, 0]] + (1/dl2) [d; -1][d; -1]^T
  // (matrix inversion lemma, Csato-Opper 2002; JMLR Fig. 4; theory.md 3.1). On an empty set this
  // gives Kinv = [1 / k(x,x)].
  void grow(const double* d, double dl2) {
    const std::size_t need = (n_ + 1) * (n_ + 2) / 2;
    if (need > p_.capacity()) p_.reserve(std::max<std::size_t>(need, 2 * p_.capacity()));
    p_.resize(need, 0.0);  // new row n_ starts at zero
    v_.assign(d, d + n_);
    v_.push_back(-1.0);
    ++n_;
    rank1_update(v_.data(), 1.0 / dl2, n_);
  }

 private:
  const double* row(std::size_t i) const { return &p_[i * (i + 1) / 2]; }
#if defined(__AVX2__) && defined(__FMA__)
  static double hsum(__m256d v) {
    const __m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
  }
#endif

  std::size_t n_ = 0;
  std::vector<double> p_;  // packed lower triangle
  std::vector<double> v_;  // scratch [d; -1]
};

// Shared machinery: the projection of k(x_t,.) onto span(S) and the mistake step.
class ProjectronBase : public ExpansionLearner {
 public:
  explicit ProjectronBase(const LearnerOptions& o) : ExpansionLearner(o), opt_(o) {
    if (!(o.eta >= 0.0) || !std::isfinite(o.eta))
      throw std::invalid_argument("--eta must be >= 0 (and finite)");
    if (!(o.U >= 0.0) || !std::isfinite(o.U))
      throw std::invalid_argument("--U must be >= 0 (and finite; 0 disables the per-round eta_t)");
  }
  const GramInverse& kinv() const { return kinv_; }
  const SupportSet& supports() const { return f_.sv; }

  // Relative guard below which ||delta||^2 counts as zero (see the file comment).
  static constexpr double kGuard = 1e-12;

 protected:
  // Fills d_ = Kinv k_t (k_t = f_.row() from begin()) and returns ||delta||^2; records
  // ||Pk||^2 = k_t.d and ||delta|| = sqrt(max(0, k(x,x) - ||Pk||^2)) (JMLR Eqs. 7-8).
  double project(RoundRecord& r) {
    const std::size_t n = kinv_.size();
    d_.resize(n);
    const double* k = f_.row().data();
    kinv_.multiply(k, d_.data());
    double pk2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) pk2 += k[i] * d_[i];
    const double dl2 = std::max(0.0, r.kxx - pk2);
    r.pk2 = pk2;
    r.delta_norm = std::sqrt(dl2);
    return dl2;
  }

  // f <- f + y tau P k(x,.): alpha_j += y tau d_j (JMLR Eq. 9). ||f||^2 grows by
  // 2 y tau s + tau^2 ||Pk||^2, since <f, Pk> = <f, k> = s for f in span(S).
  void projected_update(const RoundRecord& r, double tau, int64_t t) {
    const double c = r.y * tau;
    for (std::size_t j = 0; j < d_.size(); ++j) f_.bump(j, c * d_[j], t);
    norm2_ += 2.0 * c * r.score + tau * tau * r.pk2;
  }

  // Mistake round of Projectron and Projectron++ (JMLR Fig. 2 / Fig. 5 first branch).
  void mistake_step(const Example& x, int64_t t, RoundRecord& r) {
    r.tau = 1.0;
    const double dl2 = project(r);
    const double dl = r.delta_norm;
    bool proj;
    if (opt_.U > 0.0) {
      // ICML 2008 Eq. (13), Cor. 1; theory.md 3.3 [R]: eta_t = (2 l - ||Pk||^2 - 0.5) / (2U),
      // tested against the norm ||delta|| whatever eta_convention says (the corollary's form).
      const double loss = 1.0 - r.y * r.score;
      r.eta_t = (2.0 * loss - r.pk2 - 0.5) / (2.0 * opt_.U);
      proj = dl <= r.eta_t;
    } else if (opt_.eta_convention == EtaConvention::paper) {
      proj = dl <= opt_.eta;  // JMLR Fig. 2: ||delta|| <= eta
    } else {
      proj = dl2 <= opt_.eta;  // DOGMA: ||delta||^2 <= eta (reproduction.md §1)
    }
    if (kinv_.size() == 0) proj = false;            // always add on an empty S (theory.md 3.1)
    if (!(dl2 > kGuard * r.kxx)) proj = true;       // numerical guard (file comment)
    if (proj) {
      projected_update(r, 1.0, t);
      r.update = UpdateKind::project;
    } else {
      kinv_.grow(d_.data(), dl2);
      f_.add(x, t, r.y);
      norm2_ += 2.0 * r.y * r.score + r.kxx;  // ||f + y k||^2 = ||f||^2 + 2 y s + k(x,x)
      r.update = UpdateKind::add;
    }
  }

  LearnerOptions opt_;
  GramInverse kinv_;
  std::vector<double> d_;  // projection coefficients of the current round
};

// Projectron: updates on mistakes only (JMLR Fig. 2).
class Projectron final : public ProjectronBase {
 public:
  using ProjectronBase::ProjectronBase;
  std::string name() const override { return "projectron"; }
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    const double ys = r.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;  // logged only; the Projectron ignores it
    if (r.mistake) mistake_step(x, t, r);
    return finish(r);
  }
};

// Projectron++: mistakes as the Projectron; margin errors 0 < y s < 1 make a projected step
// of size tau when the loss pays for the projection error (JMLR Fig. 5, Sec. 4; theory.md 4.1).
// Margin errors never add. With U > 0 the mistake branch uses eta_t (as the Projectron), the
// margin branch still uses eta (the ICML margin rule with U is [R] and cut in the seed).
// eta = 0 is defined as the limit eta -> 0+: the test l >= ||delta||/eta (or
// l - ||delta||^2/eta > 0) then fails for every ||delta|| > 0, and we also skip ||delta|| = 0,
// so there are no margin updates at all and Projectron++(eta=0) == Projectron(eta=0).
class ProjectronPP final : public ProjectronBase {
 public:
  using ProjectronBase::ProjectronBase;
  std::string name() const override { return "projectron++"; }
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    const double ys = r.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (r.mistake) {
      mistake_step(x, t, r);
    } else if (r.margin_error) {
      margin_step(t, r);
    }
    return finish(r);
  }

 private:
  void margin_step(int64_t t, RoundRecord& r) {
    const double dl2 = project(r);
    const double dl = r.delta_norm, pk2 = r.pk2, l = 1.0 - r.y * r.score, eta = opt_.eta;
    // pk2 > 0 is required by both rules: pk2 = 0 means k_t = 0, so d = 0 and nothing would move.
    bool upd = false;
    double tau = 0.0;
    if (eta > 0.0 && pk2 > 0.0) {
      if (opt_.eta_convention == EtaConvention::paper) {
        // JMLR Fig. 5: update iff l >= ||delta||/eta; tau = min(l/pk2, 2(l - ||delta||/eta)/pk2, 1)
        const double slack = l - dl / eta;
        upd = slack >= 0.0;
        tau = std::min({l / pk2, 2.0 * slack / pk2, 1.0});
      } else {
        // DOGMA k_projectron2_train.m: update iff l - ||delta||^2/eta > 0;
        // tau = min(l/pk2, 1, 2(l - ||delta||^2/eta)/pk2) (reproduction.md §1)
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
};

}  // namespace plab
