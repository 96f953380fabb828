// The vector cos and sin of numerics/fast_trig.cpp, for the files that form their arguments in
// registers (numerics/fourier_chains.cpp maps each block of chains as it is summed): the method and
// its bounds are fast_trig.cpp's (one fixed sequence of IEEE operations, the same bits on every
// path). Only for numerics/ files outside the unity batches: GCC 12 reports uninitialised values
// inside its own AVX-512 intrinsics (bug 105593), so both warnings are off in the files that
// include this one.
#pragma once
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <bit>
#include <cstdint>

#include "numerics/trig_range.hpp"

namespace plab::trig {

constexpr double kShift = 0x1.8p52, kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kP1 = 0x1.921fb54442d18p+0, kP2 = 0x1.1a62633145c07p-54, kP3 = -0x1.f1976b7ed8fbcp-110;
// (-1)^i / (2i+1)! for i = 8 down to 1, and (-1)^i / (2i)! for i = 8 down to 2 (Horner order); every
// factorial up to 17! is below 2^53, so each quotient is correctly rounded.
constexpr double kS[8] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0, -1.0 / 39916800.0,
                          1.0 / 362880.0,          -1.0 / 5040.0,          1.0 / 120.0,        -1.0 / 6.0};
constexpr double kC[7] = {1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0,
                          1.0 / 40320.0,          -1.0 / 720.0,          1.0 / 24.0};

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

// c[0..4U) = cos and s[0..4U) = sin of the AVX2 vectors v[0..U); lanes outside 0 < |x| <=
// kTrigReducedMax take trig_fallback_sincos (the same call on every path).
template <int U>
__attribute__((target("avx2,fma"), always_inline)) inline void sincos_avx2(const __m256d* v, double* c, double* s) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  unsigned bad = 0;
  for (int j = 0; j < U; ++j) {
    const __m256d a = _mm256_andnot_pd(sign, v[j]);
    bad |= static_cast<unsigned>(_mm256_movemask_pd(_mm256_or_pd(_mm256_cmp_pd(a, _mm256_set1_pd(kTrigReducedMax), _CMP_NLE_UQ),
                                                                 _mm256_cmp_pd(a, _mm256_setzero_pd(), _CMP_EQ_OQ))))
           << (4 * j);
  }
  PLAB_SINCOS_CORE(__m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_fnmadd_pd, _mm256_fmsub_pd, _mm256_sub_pd, _mm256_add_pd, _mm256_mul_pd, U, v, t, sr, cr)
  for (int j = 0; j < U; ++j) {
    // Sign bits: q1 = bit 1 of q (sin's flip), q0 = bit 0 (the swap); cos flips on q1 ^ q0.
    const __m256i q = _mm256_castpd_si256(t[j]);
    const __m256d q0 = _mm256_castsi256_pd(_mm256_slli_epi64(q, 63)), q1 = _mm256_castsi256_pd(_mm256_slli_epi64(q, 62));
    const __m256d swap = _mm256_and_pd(_mm256_xor_pd(sr[j], cr[j]),  // (sr ^ cr) where q is odd, else 0
                                       _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_setzero_si256(), _mm256_castpd_si256(q0))));
    const __m256d sflip = _mm256_and_pd(sign, q1), cflip = _mm256_and_pd(sign, _mm256_xor_pd(q1, q0));
    _mm256_storeu_pd(s + 4 * j, _mm256_xor_pd(_mm256_xor_pd(sr[j], swap), sflip));
    _mm256_storeu_pd(c + 4 * j, _mm256_xor_pd(_mm256_xor_pd(cr[j], swap), cflip));
  }
  if (bad) {
    alignas(32) double x[4 * U];
    for (int j = 0; j < U; ++j) _mm256_store_pd(x + 4 * j, v[j]);
    for (int i = 0; bad; ++i, bad >>= 1)
      if (bad & 1) trig_fallback_sincos(x[i], c[i], s[i]);
  }
}

// The same on AVX-512 vectors: c[0..8U), s[0..8U).
template <int U>
__attribute__((target("avx512f"), always_inline)) inline void sincos_avx512(const __m512d* v, double* c, double* s) {
  const __m512i sign = _mm512_set1_epi64(std::bit_cast<int64_t>(-0.0)), one = _mm512_set1_epi64(1);
  unsigned bad = 0;
  for (int j = 0; j < U; ++j) {
    const __m512d a = _mm512_abs_pd(v[j]);
    bad |= static_cast<unsigned>(_mm512_cmp_pd_mask(a, _mm512_set1_pd(kTrigReducedMax), _CMP_NLE_UQ) |
                                 _mm512_cmp_pd_mask(a, _mm512_setzero_pd(), _CMP_EQ_OQ))
           << (8 * j);
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
    _mm512_storeu_pd(s + 8 * j, _mm512_castsi512_pd(_mm512_ternarylogic_epi64(sv, sign, q1, 0x78)));
    _mm512_storeu_pd(c + 8 * j, _mm512_castsi512_pd(_mm512_ternarylogic_epi64(cv, sign, q10, 0x78)));
  }
  if (bad) {
    alignas(64) double x[8 * U];
    for (int j = 0; j < U; ++j) _mm512_store_pd(x + 8 * j, v[j]);
    for (int i = 0; bad; ++i, bad >>= 1)
      if (bad & 1) trig_fallback_sincos(x[i], c[i], s[i]);
  }
}
#undef PLAB_SINCOS_CORE

}  // namespace plab::trig
