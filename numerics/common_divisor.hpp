// Quotients a / b of many a by one divisor b, each with the bits of the IEEE division a / b, at the
// cost of a product and two fmas where the divider takes 8 cycles for four lanes
// (docs/learners.md#common-divisor): z = RN(1/b) once, then q = RN(a z) is within an ulp of a/b,
// r = a - b q is exact in an fma, and RN(q + r z) = RN(a/b) (Markstein's theorem). The theorem needs
// r exact and nothing in between to underflow or overflow: outside |b| in [2^-40, 2^40] and |a| in
// [2^-900, 2^900] (zeros, NaN and infinities too) the division itself runs.
// Requires: nothing of b (any double). Ensures: operator() returns a / b bit for bit.
#pragma once
#if defined(__FMA__)
#include <immintrin.h>
#endif
#include <cmath>
#include <cstring>

namespace plab {

class CommonDivisor {
 public:
  using V4 = double __attribute__((vector_size(32)));

  explicit CommonDivisor(double b) : b_(b), z_(1.0 / b), fast_(std::abs(b) >= 0x1p-40 && std::abs(b) <= 0x1p40) {}

  double operator()(double a) const {
    if (!fast_ || !in_range(std::abs(a))) return a / b_;
    const double q = a * z_;
    return std::fma(std::fma(-b_, q, a), z_, q);
  }

  V4 operator()(V4 a) const {
#if defined(__FMA__)
    __m256d av;
    std::memcpy(&av, &a, sizeof av);
    const __m256d m = _mm256_andnot_pd(_mm256_set1_pd(-0.0), av);  // |a|; NaN fails both compares
    const __m256d ok = _mm256_and_pd(_mm256_cmp_pd(m, _mm256_set1_pd(0x1p-900), _CMP_GE_OQ),
                                     _mm256_cmp_pd(m, _mm256_set1_pd(0x1p900), _CMP_LE_OQ));
    if (!fast_ || _mm256_movemask_pd(ok) != 0xF) return a / b_;
    const __m256d b = _mm256_set1_pd(b_), z = _mm256_set1_pd(z_), q = _mm256_mul_pd(av, z);
    const __m256d out = _mm256_fmadd_pd(_mm256_fnmadd_pd(b, q, av), z, q);
    V4 res;
    std::memcpy(&res, &out, sizeof res);
    return res;
#else
    V4 res;
    for (int l = 0; l < 4; ++l) res[l] = (*this)(a[l]);
    return res;
#endif
  }

  // Whether the product and two fmas give a / b for every numerator a that is +0 or in [lo, hi],
  // 0 < lo <= hi, with no check a numerator (numerics/coef_scale.hpp, removal_probabilities): b and
  // the bounds in range, and b > 0 (then +0 / b is +0 from the fmas too; -0 would not be).
  bool covers(double lo, double hi) const { return fast_ && b_ > 0.0 && in_range(lo) && in_range(hi); }

 private:
  static bool in_range(double m) { return m >= 0x1p-900 && m <= 0x1p900; }
  double b_, z_;
  bool fast_;
};

}  // namespace plab
