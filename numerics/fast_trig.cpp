#include "numerics/fast_trig.hpp"

#include "numerics/simd.hpp"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (GCC bug 105593), so it
// is off for this file only (as fast_exp.cpp).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

// cos(x) and sin(x) by one fixed sequence of IEEE operations on every path (every fma written as
// one; a negated operand is a sign flip, so fma(-a, b, c) is one FNMADD and fma(a, b, -c) one
// FMSUB), so the random Fourier map has the same bits whatever the machine or the vector width
// (docs/learners.md#fogd):
//   k = rne(x 2/pi) by the 1.5 * 2^52 shifter;  P1 + P2 + P3 = pi/2 to 2^-160 (P1 the double nearest);
//   r1 = x - k P1 (one fma, exact);  r + rl = r1 - k P2 - k P3, r = r1 - k P2 rounded, rl its error
//     (k P2 split exactly by an fma, the subtraction by TwoSum) less k P3;
//   z = r^2;  sin = r + (r^3 S(z) + rl (1 - z/2)),  S = sum_{i=1..8} (-1)^i z^(i-1) / (2i+1)!, r^3 as
//     r z plus its rounding error and r times that of z (fmas);
//   cos = h + (z^2 C(z) + ((1 - h) - z/2) - (r^2 - z)/2 - r rl),  h = 1 - z/2,
//     C = sum_{i=2..8} (-1)^i z^(i-2) / (2i)!  (the roundings of h and of z carried in the tail);
//   q = k mod 4: sin x = (sin, cos, -sin, -cos)[q],  cos x = (cos, -sin, -cos, sin)[q]  (of r + rl).
// For 0 < |x| <= 2^20 (|k| < 2^20) r1 is exact (a multiple of 2^-53 below 1) and k |pi/2 - P1 - P2
// - P3| < 2^-140, far below any |r| a double there reaches; |r| <= pi/4 (plus a rounding) keeps the
// omitted Taylor terms below 0.03 ulp. Measured error against long double cosl and sinl: <= 0.67
// ulp (tests/test_fast_trig.cpp holds it to 0.7; libm's is about 0.56 ulp). Other x (0, larger, Inf,
// NaN) take std::cos and std::sin, lane by lane after the vector pass: the same call on every path,
// and NaN for Inf and NaN as libm gives.
namespace plab {
namespace {

constexpr double kShift = 0x1.8p52, kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kP1 = 0x1.921fb54442d18p+0, kP2 = 0x1.1a62633145c07p-54, kP3 = -0x1.f1976b7ed8fbcp-110;
// (-1)^i / (2i+1)! for i = 8 down to 1, and (-1)^i / (2i)! for i = 8 down to 2 (Horner order); every
// factorial up to 17! is below 2^53, so each quotient is correctly rounded.
constexpr double kS[8] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0, -1.0 / 39916800.0,
                          1.0 / 362880.0,          -1.0 / 5040.0,          1.0 / 120.0,        -1.0 / 6.0};
constexpr double kC[7] = {1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0,
                          1.0 / 40320.0,          -1.0 / 720.0,          1.0 / 24.0};

// True where x takes the fallback: not 0 < |x| <= kTrigReducedMax (NaN included).
inline bool fallback(double x) { return !(std::fabs(x) <= kTrigReducedMax) || x == 0.0; }

// The reduction and polynomials, whatever x (the caller replaces the fallback's elements).
inline void sincos_core(double x, double& c, double& s) {
  const double t = std::fma(x, kTwoOverPi, kShift), k = t - kShift;
  const double r1 = std::fma(-k, kP1, x);
  const double ph = k * kP2, pl = std::fma(k, kP2, -ph);
  const double r = r1 - ph, b = r - r1;
  const double rl = std::fma(-k, kP3, ((r1 - (r - b)) - (ph + b)) - pl);
  const double z = r * r;
  double ps = kS[0];
#pragma GCC unroll 8
  for (int i = 1; i < 8; ++i) ps = std::fma(ps, z, kS[i]);
  const double hz = 0.5 * z, zlo = std::fma(r, r, -z), rz = r * z;
  const double rz_lo = std::fma(r, zlo, std::fma(r, z, -rz));  // r^3 - rz
  const double sr = r + std::fma(rz, ps, std::fma(rz_lo, ps, std::fma(-hz, rl, rl)));
  double pc = kC[0];
#pragma GCC unroll 8
  for (int i = 1; i < 7; ++i) pc = std::fma(pc, z, kC[i]);
  const double h = 1.0 - hz, e = (1.0 - h) - hz;
  const double cr = h + std::fma(z * z, pc, std::fma(-r, rl, e - 0.5 * zlo));
  const uint64_t q = std::bit_cast<uint64_t>(t);
  const double sv = (q & 1) ? cr : sr, cv = (q & 1) ? sr : cr;
  s = (q & 2) ? -sv : sv;
  c = ((q + 1) & 2) ? -cv : cv;
}

void sincos_scalar(double x, double& c, double& s) {
  if (fallback(x)) {
    c = std::cos(x);
    s = std::sin(x);
  } else {
    sincos_core(x, c, s);
  }
}

// The arithmetic above on U vectors x[0..U), step by step across them (each element gets the
// scalar's sequence of operations; the U chains interleave, where one alone waits on the fma
// latency): t[j] (its low bits: k mod 4), sr[j] = sin r, cr[j] = cos r.
#define PLAB_SINCOS_CORE(VEC, SET1, FMA, FNMA, FMS, SUB, ADD, MUL, U, x, t, sr, cr)                   \
  VEC t[U], sr[U], cr[U];                                                                           \
  {                                                                                                 \
    VEC r[U], rl[U], z[U], ps[U], pc[U];                                                            \
    for (int j = 0; j < U; ++j) {                                                                   \
      t[j] = FMA(x[j], SET1(kTwoOverPi), SET1(kShift));                                            \
      const VEC k = SUB(t[j], SET1(kShift));                                                        \
      const VEC r1 = FNMA(k, SET1(kP1), x[j]);                                                      \
      const VEC ph = MUL(k, SET1(kP2)), pl = FMS(k, SET1(kP2), ph);                                 \
      r[j] = SUB(r1, ph);                                                                           \
      const VEC b = SUB(r[j], r1);                                                                  \
      rl[j] = FNMA(k, SET1(kP3), SUB(SUB(SUB(r1, SUB(r[j], b)), ADD(ph, b)), pl));                  \
      z[j] = MUL(r[j], r[j]);                                                                       \
      ps[j] = SET1(kS[0]);                                                                          \
      pc[j] = SET1(kC[0]);                                                                          \
    }                                                                                               \
    for (int i = 1; i < 8; ++i)                                                                     \
      for (int j = 0; j < U; ++j) {                                                                 \
        ps[j] = FMA(ps[j], z[j], SET1(kS[i]));                                                      \
        if (i < 7) pc[j] = FMA(pc[j], z[j], SET1(kC[i]));                                           \
      }                                                                                             \
    for (int j = 0; j < U; ++j) {                                                                   \
      const VEC hz = MUL(SET1(0.5), z[j]), zlo = FMS(r[j], r[j], z[j]);                             \
      const VEC rz = MUL(r[j], z[j]);                                                               \
      const VEC rz_lo = FMA(r[j], zlo, FMS(r[j], z[j], rz));                                        \
      sr[j] = ADD(r[j], FMA(rz, ps[j], FMA(rz_lo, ps[j], FNMA(hz, rl[j], rl[j]))));                 \
      const VEC h = SUB(SET1(1.0), hz), e = SUB(SUB(SET1(1.0), h), hz);                             \
      cr[j] = ADD(h, FMA(MUL(z[j], z[j]), pc[j], FNMA(r[j], rl[j], SUB(e, MUL(SET1(0.5), zlo)))));  \
    }                                                                                               \
  }

// The lanes of x[0..w) marked in bad (bit i: lane i) by the fallback.
inline void redo(unsigned bad, const double* x, double* c, double* s) {
  for (int i = 0; bad; ++i, bad >>= 1)
    if (bad & 1) sincos_scalar(x[i], c[i], s[i]);
}

// Blocks of kU2 (AVX2) or kU8 (AVX-512) vectors, then single vectors, then the scalar tail. Two
// measured best on both (ns a value, AVX2 / AVX-512, AMD EPYC Zen 4: one 2.05 / 1.02, two 1.87 /
// 0.87, four 2.48 / 1.04: AVX2's 16 registers spill).
constexpr int kU2 = 2, kU8 = 2;

__attribute__((target("avx2,fma"))) void sincos_avx2(const double* x, std::size_t n, double* c, double* s) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  std::size_t i = 0;
  const auto block = [&]<int U>() __attribute__((target("avx2,fma"))) {
    __m256d v[U];
    unsigned bad[U];
    for (int j = 0; j < U; ++j) {
      v[j] = _mm256_loadu_pd(x + i + 4 * j);
      const __m256d a = _mm256_andnot_pd(sign, v[j]);
      bad[j] = static_cast<unsigned>(_mm256_movemask_pd(_mm256_or_pd(_mm256_cmp_pd(a, _mm256_set1_pd(kTrigReducedMax), _CMP_NLE_UQ),
                                                                     _mm256_cmp_pd(a, _mm256_setzero_pd(), _CMP_EQ_OQ))));
    }
    PLAB_SINCOS_CORE(__m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_fnmadd_pd, _mm256_fmsub_pd, _mm256_sub_pd, _mm256_add_pd, _mm256_mul_pd, U, v, t, sr, cr)
    for (int j = 0; j < U; ++j) {
      // Sign bits: q1 = bit 1 of q (sin's flip), q0 = bit 0 (the swap); cos flips on q1 ^ q0.
      const __m256i q = _mm256_castpd_si256(t[j]);
      const __m256d q0 = _mm256_castsi256_pd(_mm256_slli_epi64(q, 63)), q1 = _mm256_castsi256_pd(_mm256_slli_epi64(q, 62));
      const __m256d swap = _mm256_and_pd(_mm256_xor_pd(sr[j], cr[j]),  // (sr ^ cr) where q is odd, else 0
                                         _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_setzero_si256(), _mm256_castpd_si256(q0))));
      const __m256d sflip = _mm256_and_pd(sign, q1), cflip = _mm256_and_pd(sign, _mm256_xor_pd(q1, q0));
      _mm256_storeu_pd(s + i + 4 * j, _mm256_xor_pd(_mm256_xor_pd(sr[j], swap), sflip));
      _mm256_storeu_pd(c + i + 4 * j, _mm256_xor_pd(_mm256_xor_pd(cr[j], swap), cflip));
      if (bad[j]) redo(bad[j], x + i + 4 * j, c + i + 4 * j, s + i + 4 * j);
    }
  };
  for (; i + 4 * kU2 <= n; i += 4 * kU2) block.template operator()<kU2>();
  for (; i + 4 <= n; i += 4) block.template operator()<1>();
  for (; i < n; ++i) sincos_scalar(x[i], c[i], s[i]);
}

__attribute__((target("avx512f"))) void sincos_avx512(const double* x, std::size_t n, double* c, double* s) {
  const __m512i sign = _mm512_set1_epi64(std::bit_cast<int64_t>(-0.0)), one = _mm512_set1_epi64(1);
  std::size_t i = 0;
  const auto block = [&]<int U>() __attribute__((target("avx512f"))) {
    __m512d v[U];
    unsigned bad[U];
    for (int j = 0; j < U; ++j) {
      v[j] = _mm512_loadu_pd(x + i + 8 * j);
      const __m512d a = _mm512_abs_pd(v[j]);
      bad[j] = static_cast<unsigned>(_mm512_cmp_pd_mask(a, _mm512_set1_pd(kTrigReducedMax), _CMP_NLE_UQ) |
                                     _mm512_cmp_pd_mask(a, _mm512_setzero_pd(), _CMP_EQ_OQ));
    }
    PLAB_SINCOS_CORE(__m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_fnmadd_pd, _mm512_fmsub_pd, _mm512_sub_pd, _mm512_add_pd, _mm512_mul_pd, U, v, t, sr, cr)
    for (int j = 0; j < U; ++j) {
      // Sign bits as the AVX2 path's: sin flips on bit 1 of q, cos on bit 1 ^ bit 0; a ^ (b & c) is
      // ternary-logic 0x78.
      const __m512i q = _mm512_castpd_si512(t[j]);
      const __mmask8 odd = _mm512_test_epi64_mask(q, one);
      const __m512i q1 = _mm512_slli_epi64(q, 62), q10 = _mm512_xor_si512(q1, _mm512_slli_epi64(q, 63));
      const __m512i sv = _mm512_castpd_si512(_mm512_mask_blend_pd(odd, sr[j], cr[j]));
      const __m512i cv = _mm512_castpd_si512(_mm512_mask_blend_pd(odd, cr[j], sr[j]));
      _mm512_storeu_pd(s + i + 8 * j, _mm512_castsi512_pd(_mm512_ternarylogic_epi64(sv, sign, q1, 0x78)));
      _mm512_storeu_pd(c + i + 8 * j, _mm512_castsi512_pd(_mm512_ternarylogic_epi64(cv, sign, q10, 0x78)));
      if (bad[j]) redo(bad[j], x + i + 8 * j, c + i + 8 * j, s + i + 8 * j);
    }
  };
  for (; i + 8 * kU8 <= n; i += 8 * kU8) block.template operator()<kU8>();
  for (; i + 8 <= n; i += 8) block.template operator()<1>();
  for (; i < n; ++i) sincos_scalar(x[i], c[i], s[i]);
}
#undef PLAB_SINCOS_CORE

void sincos_on(Simd path, const double* x, std::size_t n, double* c, double* s) {
  switch (path) {
    case Simd::avx512: return sincos_avx512(x, n, c, s);
    case Simd::avx2: return sincos_avx2(x, n, c, s);
    default:  // branch-free first, so that the compiler may vectorise it (the same operations)
      for (std::size_t i = 0; i < n; ++i) sincos_core(x[i], c[i], s[i]);
      for (std::size_t i = 0; i < n; ++i)
        if (fallback(x[i])) sincos_scalar(x[i], c[i], s[i]);
  }
}

}  // namespace

void sincos_fixed(double x, double& c, double& s) { sincos_scalar(x, c, s); }

void sincos_array(const double* x, std::size_t n, double* c, double* s) { sincos_on(simd_path(), x, n, c, s); }

void sincos_array_on(const std::string& isa, const double* x, std::size_t n, double* c, double* s) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("sincos path '" + isa + "' is not available here");
  sincos_on(want, x, n, c, s);
}

}  // namespace plab
