#include "numerics/fast_exp.hpp"

#include "numerics/simd.hpp"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the _mm512_undefined_*
// placeholders of the unmasked max/min/shift; GCC bug 105593), so it is off for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

// exp(x) by one fixed sequence of IEEE operations on every path (scalar, AVX2, AVX-512), so a
// kernel value has the same bits whatever the machine, the vector width or the slot in a row:
//   clamp x to [-746, 710] (NaN passes through);
//   k = rne(x log2(e)) by the 1.5 * 2^52 shifter;  r = (x - k ln2_hi) - k ln2_lo (two fmas);
//   p = sum_{i=0..13} r^i / i!  (Horner with fma);  exp(x) = (p 2^k1) 2^k2, k1 = rne(k/2), k2 = k - k1.
// |r| <= ln2/2, so the degree-13 Taylor remainder is < 5e-18 (0.04 ulp of 1); the measured error
// against long double expl is <= 1 ulp (tests/test_fast_exp.cpp). Two power-of-two factors keep
// both normal: the first product is exact, the second rounds only for subnormal results; x <= -746
// gives +0 and x >= 710 gives +inf, as exp does. (glibc's libmvec, used before, is documented at
// <= 4 ulp and is 4x slower per element here.)
namespace plab {
namespace {

constexpr double kShift = 0x1.8p52, kLog2e = 0x1.71547652b82fep0;
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1, kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kExpLo = -746.0, kExpHi = 710.0;
// 1/i! for i = 13 down to 2 (Horner order); each i! < 2^53 is exact, so each quotient is 1/i!
// correctly rounded.
constexpr double kC[12] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                           1.0 / 362880.0,     1.0 / 40320.0,     1.0 / 5040.0,      1.0 / 720.0,
                           1.0 / 120.0,        1.0 / 24.0,        1.0 / 6.0,         1.0 / 2.0};
constexpr int64_t kShiftBits = std::bit_cast<int64_t>(kShift);

// 2^k for the integer k held by t = k + kShift (|k| <= 1023): exponent field k + 1023.
inline double pow2_scalar(double t) {
  return std::bit_cast<double>((std::bit_cast<int64_t>(t) - kShiftBits + 1023) << 52);
}

double exp_scalar(double x) {
  x = kExpLo > x ? kExpLo : x;  // as the vector max/min below: NaN passes through
  x = kExpHi < x ? kExpHi : x;
  const double t = std::fma(x, kLog2e, kShift), k = t - kShift;
  const double r = std::fma(-k, kLn2Lo, std::fma(-k, kLn2Hi, x));
  double p = kC[0];
  for (int i = 1; i < 12; ++i) p = std::fma(p, r, kC[i]);
  p = std::fma(p, r, 1.0);
  p = std::fma(p, r, 1.0);
  const double t1 = std::fma(k, 0.5, kShift), k1 = t1 - kShift;
  const double t2 = (k - k1) + kShift;
  return (p * pow2_scalar(t1)) * pow2_scalar(t2);
}

// The vector exp on U vectors at once, step by step across them: each element gets the scalar's
// sequence of operations, and the U Horner chains interleave (one chain alone waits on the fma
// latency: 14 dependent fmas, which left the AVX2 path at 40% of its throughput).
#define PLAB_EXP_VEC(NAME, TARGET, VEC, VI, SET1, MAX, MIN, FMA, FNMA, SUB, ADD, MUL, CAST_I, CAST_D, SUB64, \
                     ADD64, SET64, SLL)                                                                          \
  template <int U>                                                                                          \
  __attribute__((target(TARGET), always_inline)) inline void NAME(VEC* x) {                                 \
    const VEC shift = SET1(kShift);                                                                         \
    VEC k[U], r[U], p[U];                                                                                   \
    for (int j = 0; j < U; ++j) {                                                                           \
      x[j] = MIN(SET1(kExpHi), MAX(SET1(kExpLo), x[j])); /* min/max return the second operand on NaN: x */  \
      k[j] = SUB(FMA(x[j], SET1(kLog2e), shift), shift);                                                    \
      r[j] = FNMA(k[j], SET1(kLn2Lo), FNMA(k[j], SET1(kLn2Hi), x[j])); /* fma(-k, ., .) as the scalar's */    \
      p[j] = SET1(kC[0]);                                                                                   \
    }                                                                                                       \
    for (int i = 1; i < 12; ++i)                                                                            \
      for (int j = 0; j < U; ++j) p[j] = FMA(p[j], r[j], SET1(kC[i]));                                      \
    for (int j = 0; j < U; ++j) p[j] = FMA(p[j], r[j], SET1(1.0));                                          \
    for (int j = 0; j < U; ++j) p[j] = FMA(p[j], r[j], SET1(1.0));                                          \
    for (int j = 0; j < U; ++j) {                                                                           \
      const VEC t1 = FMA(k[j], SET1(0.5), shift), k1 = SUB(t1, shift);                                      \
      const VEC t2 = ADD(SUB(k[j], k1), shift);                                                             \
      const VI bias = SET64(1023 - kShiftBits);                                                             \
      const VEC s1 = CAST_D(SLL(ADD64(CAST_I(t1), bias), 52));                                              \
      const VEC s2 = CAST_D(SLL(ADD64(CAST_I(t2), bias), 52));                                              \
      x[j] = MUL(MUL(p[j], s1), s2);                                                                        \
    }                                                                                                       \
  }

PLAB_EXP_VEC(exp4, "avx2,fma", __m256d, __m256i, _mm256_set1_pd, _mm256_max_pd, _mm256_min_pd, _mm256_fmadd_pd,
             _mm256_fnmadd_pd, _mm256_sub_pd, _mm256_add_pd, _mm256_mul_pd, _mm256_castpd_si256, _mm256_castsi256_pd,
             _mm256_sub_epi64, _mm256_add_epi64, _mm256_set1_epi64x, _mm256_slli_epi64)
PLAB_EXP_VEC(exp8, "avx512f", __m512d, __m512i, _mm512_set1_pd, _mm512_max_pd, _mm512_min_pd, _mm512_fmadd_pd,
             _mm512_fnmadd_pd, _mm512_sub_pd, _mm512_add_pd, _mm512_mul_pd, _mm512_castpd_si512, _mm512_castsi512_pd,
             _mm512_sub_epi64, _mm512_add_epi64, _mm512_set1_epi64, _mm512_slli_epi64)
#undef PLAB_EXP_VEC

// Vectors a block of rbf_avx2 / rbf_avx512 (4 and 2 measured 1.30 / 1.53 ns a value on AVX2, 0.81 /
// 0.90 on AVX-512, against 1.75 / 0.93 one vector at a time; AMD EPYC Zen 4).
constexpr int kExpU = 4;

// The argument of the Gaussian: -gamma * max(0, (sq + xs) - 2 dot) (max clamps round-off).
inline double rbf_arg(double neg_gamma, double xs, double sq, double dot) {
  const double d2 = (sq + xs) - 2.0 * dot;  // no fma: where both terms are inf this is NaN, an fma's inf
  return neg_gamma * (d2 > 0.0 ? d2 : 0.0);  // as the vector max(d2, 0)
}

void rbf_scalar(double gamma, double xs, const double* sq, const double* dots, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = exp_scalar(rbf_arg(-gamma, xs, sq[i], dots[i]));
}

__attribute__((target("avx2,fma"))) void rbf_avx2(double gamma, double xs, const double* sq, const double* dots, double* out,
                                                  std::size_t n) {
  const __m256d g = _mm256_set1_pd(-gamma), x = _mm256_set1_pd(xs), two = _mm256_set1_pd(2.0);
#define arg(i)                                                                                     \
  _mm256_mul_pd(g, _mm256_max_pd(_mm256_sub_pd(_mm256_add_pd(_mm256_loadu_pd(sq + (i)), x),       \
                                               _mm256_mul_pd(two, _mm256_loadu_pd(dots + (i)))), \
                                 _mm256_setzero_pd()))
  std::size_t i = 0;
  for (; i + 4 * kExpU <= n; i += 4 * kExpU) {
    __m256d v[kExpU];
    for (int j = 0; j < kExpU; ++j) v[j] = arg(i + 4 * j);
    exp4<kExpU>(v);
    for (int j = 0; j < kExpU; ++j) _mm256_storeu_pd(out + i + 4 * j, v[j]);
  }
  for (; i + 4 <= n; i += 4) {
    __m256d v[1] = {arg(i)};
    exp4<1>(v);
    _mm256_storeu_pd(out + i, v[0]);
  }
#undef arg
  rbf_scalar(gamma, xs, sq + i, dots + i, out + i, n - i);
}

__attribute__((target("avx512f"))) void rbf_avx512(double gamma, double xs, const double* sq, const double* dots, double* out,
                                                   std::size_t n) {
  const __m512d g = _mm512_set1_pd(-gamma), x = _mm512_set1_pd(xs), two = _mm512_set1_pd(2.0);
#define arg(i)                                                                                     \
  _mm512_mul_pd(g, _mm512_max_pd(_mm512_sub_pd(_mm512_add_pd(_mm512_loadu_pd(sq + (i)), x),       \
                                               _mm512_mul_pd(two, _mm512_loadu_pd(dots + (i)))), \
                                 _mm512_setzero_pd()))
  std::size_t i = 0;
  for (; i + 8 * kExpU <= n; i += 8 * kExpU) {
    __m512d v[kExpU];
    for (int j = 0; j < kExpU; ++j) v[j] = arg(i + 8 * j);
    exp8<kExpU>(v);
    for (int j = 0; j < kExpU; ++j) _mm512_storeu_pd(out + i + 8 * j, v[j]);
  }
  for (; i + 8 <= n; i += 8) {
    __m512d v[1] = {arg(i)};
    exp8<1>(v);
    _mm512_storeu_pd(out + i, v[0]);
  }
#undef arg
  rbf_scalar(gamma, xs, sq + i, dots + i, out + i, n - i);
}

}  // namespace

double exp_fixed(double x) { return exp_scalar(x); }

namespace {
__attribute__((target("avx2,fma"))) void exp_avx2(const double* x, double* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256d v[1] = {_mm256_loadu_pd(x + i)};
    exp4<1>(v);
    _mm256_storeu_pd(out + i, v[0]);
  }
  for (; i < n; ++i) out[i] = exp_scalar(x[i]);
}
__attribute__((target("avx512f"))) void exp_avx512(const double* x, double* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512d v[1] = {_mm512_loadu_pd(x + i)};
    exp8<1>(v);
    _mm512_storeu_pd(out + i, v[0]);
  }
  for (; i < n; ++i) out[i] = exp_scalar(x[i]);
}
}  // namespace

void exp_fixed_on(const std::string& isa, const double* x, double* out, std::size_t n) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("exp path '" + isa + "' is not available here");
  switch (want) {
    case Simd::avx512: return exp_avx512(x, out, n);
    case Simd::avx2: return exp_avx2(x, out, n);
    default:
      for (std::size_t i = 0; i < n; ++i) out[i] = exp_scalar(x[i]);
  }
}

namespace {
void rbf_on(Simd path, double gamma, double xs, const double* sq, const double* dots, double* out, std::size_t n) {
  switch (path) {
    case Simd::avx512: return rbf_avx512(gamma, xs, sq, dots, out, n);
    case Simd::avx2: return rbf_avx2(gamma, xs, sq, dots, out, n);
    default: return rbf_scalar(gamma, xs, sq, dots, out, n);
  }
}
}  // namespace

void rbf_from_dots(double gamma, double xs, const double* sq, double* out, std::size_t n) {
  rbf_on(simd_path(), gamma, xs, sq, out, out, n);
}

void rbf_from_dots(double gamma, double xs, const double* sq, const double* dots, double* out, std::size_t n) {
  rbf_on(simd_path(), gamma, xs, sq, dots, out, n);
}

void rbf_from_dots_on(const std::string& isa, double gamma, double xs, const double* sq, double* out, std::size_t n) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("rbf path '" + isa + "' is not available here");
  rbf_on(want, gamma, xs, sq, out, out, n);
}

}  // namespace plab
