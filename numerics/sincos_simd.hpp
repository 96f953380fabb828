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
#include <cmath>
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

// The vector sequences' constants by index (CST(i) in PLAB_SINCOS_CORE): kConst[i].
enum : int { kiTwoOverPi, kiShift, kiP1, kiP2, kiP3, kiHalf, kiOne, kiS, kiC = kiS + 8, kiCount = kiC + 7 };
constexpr double kConst[kiCount] = {kTwoOverPi, kShift, kP1, kP2, kP3, 0.5, 1.0,
                                    kS[0], kS[1], kS[2], kS[3], kS[4], kS[5], kS[6], kS[7],
                                    kC[0], kC[1], kC[2], kC[3], kC[4], kC[5], kC[6]};
// The same, each repeated in the four lanes of an AVX2 vector.
struct alignas(32) Const4 {
  double v[4 * kiCount];
};
constexpr Const4 make_const4() {
  Const4 c{};
  for (int i = 0; i < 4 * kiCount; ++i) c.v[i] = kConst[i / 4];
  return c;
}
inline constexpr Const4 kConst4 = make_const4();

// The scalar sequence: the definition of every path's bits (numerics/fast_trig.cpp states the method).
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

// cos and sin of any x as every path gives them: trig_fallback_sincos outside 0 < |x| <=
// kTrigReducedMax, else sincos_core.
inline void sincos_exact(double x, double& c, double& s) {
  if (trig_fallback(x)) {
    trig_fallback_sincos(x, c, s);
  } else {
    sincos_core(x, c, s);
  }
}

// The vector paths take two shortcuts that keep sincos_core's bits on the lanes they keep; the
// others (kept in `bad`) are recomputed by sincos_exact:
// - The reduction's error by Fast2Sum in place of TwoSum: with |r1| >= 2^-33 > |ph| (ph =
//   fl(k P2), |ph| <= 2^-34 for |x| <= kTrigReducedMax, |k| <= 667544), b = r - r1 and ph + b are
//   exact and r1 - (r - b) is exactly 0, so the tail is -(ph + b) - pl; the vectors keep nrl = -rl
//   = fma(k, P3, (ph + b) + pl) (rounding to nearest is symmetric) and use it as -rl: fnma(hz, rl,
//   rl) = fms(hz, nrl, nrl), fnma(r, rl, y) = fma(r, nrl, y). Where k = 0 both rl and nrl are +0:
//   the two fmses then give +0 whatever the zeros' signs, and y (e - 0.5 zlo, a difference of exact
//   zeros or non-zero) is never -0, so the fmas agree too.
// - e - 0.5 zlo as one fnma: with |r| >= 2^-34, zlo is 0 or a multiple of 2^-172, so 0.5 zlo is exact.
// Lanes with |r1| < 2^-33 (x within 2^-33 of a multiple of pi/2, or 0) or outside 0 < |x| <=
// kTrigReducedMax (Inf and NaN included; a caller that knows its lanes within it skips that test)
// are the bad ones. Four arithmetic operations fewer a
// vector than the scalar sequence, one compare more: the map of an AVX2 FOGD pass is bound by the
// count of FP operations. (A search over 1.4 million doubles near multiples of pi/2 found no lane
// below 2^-33 where the shortcuts change a bit either; the threshold is what the argument needs.)
constexpr double kFast2SumMin = 0x1p-33;

// The arithmetic on U vectors x[0..U), step by step across them (each element gets the same
// values as sincos_core; the U chains interleave, where one alone waits on the fma latency): t[j]
// (its low bits: k mod 4), sr[j] = sin r, cr[j] = cos r. BAD(j, r1) is told each vector's r1.
#define PLAB_SINCOS_CORE(VEC, CST, FMA, FNMA, FMS, SUB, ADD, MUL, BAD, U, x, t, sr, cr)              \
  VEC t[U], sr[U], cr[U];                                                                           \
  {                                                                                                 \
    VEC r[U], nrl[U], z[U], ps[U], pc[U];                                                           \
    for (int j = 0; j < U; ++j) {                                                                   \
      t[j] = FMA(x[j], CST(kiTwoOverPi), CST(kiShift));                                            \
      const VEC k = SUB(t[j], CST(kiShift));                                                        \
      const VEC r1 = FNMA(k, CST(kiP1), x[j]);                                                      \
      BAD(j, r1);                                                                                   \
      const VEC ph = MUL(k, CST(kiP2)), pl = FMS(k, CST(kiP2), ph);                                 \
      r[j] = SUB(r1, ph);                                                                           \
      nrl[j] = FMA(k, CST(kiP3), ADD(ADD(ph, SUB(r[j], r1)), pl));                                  \
      z[j] = MUL(r[j], r[j]);                                                                       \
      ps[j] = CST(kiS);                                                                          \
      pc[j] = CST(kiC);                                                                          \
    }                                                                                               \
    for (int i = 1; i < 8; ++i)                                                                     \
      for (int j = 0; j < U; ++j) {                                                                 \
        ps[j] = FMA(ps[j], z[j], CST(kiS + i));                                                      \
        if (i < 7) pc[j] = FMA(pc[j], z[j], CST(kiC + i));                                           \
      }                                                                                             \
    for (int j = 0; j < U; ++j) {                                                                   \
      const VEC hz = MUL(CST(kiHalf), z[j]), zlo = FMS(r[j], r[j], z[j]);                             \
      const VEC rz = MUL(r[j], z[j]);                                                               \
      const VEC rz_lo = FMA(r[j], zlo, FMS(r[j], z[j], rz));                                        \
      sr[j] = ADD(r[j], FMA(rz, ps[j], FMA(rz_lo, ps[j], FMS(hz, nrl[j], nrl[j]))));                \
      const VEC h = SUB(CST(kiOne), hz), e = SUB(SUB(CST(kiOne), h), hz);                             \
      cr[j] = ADD(h, FMA(MUL(z[j], z[j]), pc[j], FMA(r[j], nrl[j], FNMA(CST(kiHalf), zlo, e))));     \
    }                                                                                               \
  }

// c[0..4U) = cos and s[0..4U) = sin of the AVX2 vectors v[0..U); the bad lanes take sincos_exact.
// Unchecked: the caller knows every lane to be within |v| <= kTrigReducedMax (a bound on the chains
// that formed them, numerics/fourier_features.hpp), so only the reduction's test remains.
template <int U, bool Checked = true>
__attribute__((target("avx2,fma"), always_inline)) inline void sincos_avx2(const __m256d* v, double* c, double* s) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  __m256d badv[U];
  for (int j = 0; j < U; ++j)
    badv[j] = Checked ? _mm256_cmp_pd(_mm256_andnot_pd(sign, v[j]), _mm256_set1_pd(kTrigReducedMax), _CMP_NLE_UQ)
                      : _mm256_setzero_pd();
#define PLAB_BAD_AVX2(j, r1) \
  badv[j] = _mm256_or_pd(badv[j], _mm256_cmp_pd(_mm256_andnot_pd(sign, r1), _mm256_set1_pd(kFast2SumMin), _CMP_LT_OQ))
  // The constants read from memory at each use, as the fmas' memory operands: held in registers
  // they took most of the sixteen, and GCC spilled and reloaded them by moves of their own.
  const double* kv = kConst4.v;
  asm("" : "+r"(kv));  // not loop-invariant to GCC: no register is given to them
#define PLAB_CST_AVX2(i) _mm256_load_pd(kv + 4 * (i))
  PLAB_SINCOS_CORE(__m256d, PLAB_CST_AVX2, _mm256_fmadd_pd, _mm256_fnmadd_pd, _mm256_fmsub_pd, _mm256_sub_pd, _mm256_add_pd, _mm256_mul_pd, PLAB_BAD_AVX2, U, v, t, sr, cr)
#undef PLAB_CST_AVX2
#undef PLAB_BAD_AVX2
  unsigned bad = 0;
  for (int j = 0; j < U; ++j) {
    bad |= static_cast<unsigned>(_mm256_movemask_pd(badv[j])) << (4 * j);
    // Sign bits: q1 = bit 1 of q (sin's flip), q0 = bit 0 (the swap, by blendv on q0's sign bit);
    // cos flips on q1 ^ q0. The blends took a cycle a vector less than a mask of q0 and an and-xor
    // swap on an AMD EPYC Zen 3.
    const __m256i q = _mm256_castpd_si256(t[j]);
    const __m256d q0 = _mm256_castsi256_pd(_mm256_slli_epi64(q, 63)), q1 = _mm256_castsi256_pd(_mm256_slli_epi64(q, 62));
    const __m256d sv = _mm256_blendv_pd(sr[j], cr[j], q0), cv = _mm256_blendv_pd(cr[j], sr[j], q0);
    const __m256d sflip = _mm256_and_pd(sign, q1), cflip = _mm256_and_pd(sign, _mm256_xor_pd(q1, q0));
    _mm256_storeu_pd(s + 4 * j, _mm256_xor_pd(sv, sflip));
    _mm256_storeu_pd(c + 4 * j, _mm256_xor_pd(cv, cflip));
  }
  if (bad) {
    alignas(32) double x[4 * U];
    for (int j = 0; j < U; ++j) _mm256_store_pd(x + 4 * j, v[j]);
    for (int i = 0; bad; ++i, bad >>= 1)
      if (bad & 1) sincos_exact(x[i], c[i], s[i]);
  }
}

// The same on AVX-512 vectors: c[0..8U), s[0..8U).
template <int U, bool Checked = true>
__attribute__((target("avx512f"), always_inline)) inline void sincos_avx512(const __m512d* v, double* c, double* s) {
  const __m512i sign = _mm512_set1_epi64(std::bit_cast<int64_t>(-0.0)), one = _mm512_set1_epi64(1);
  __mmask8 badm[U];
  for (int j = 0; j < U; ++j)
    badm[j] = Checked ? _mm512_cmp_pd_mask(_mm512_abs_pd(v[j]), _mm512_set1_pd(kTrigReducedMax), _CMP_NLE_UQ) : 0;
#define PLAB_BAD_AVX512(j, r1) \
  badm[j] = static_cast<__mmask8>(badm[j] | _mm512_cmp_pd_mask(_mm512_abs_pd(r1), _mm512_set1_pd(kFast2SumMin), _CMP_LT_OQ))
#define PLAB_CST_AVX512(i) _mm512_set1_pd(kConst[i])
  PLAB_SINCOS_CORE(__m512d, PLAB_CST_AVX512, _mm512_fmadd_pd, _mm512_fnmadd_pd, _mm512_fmsub_pd, _mm512_sub_pd, _mm512_add_pd, _mm512_mul_pd, PLAB_BAD_AVX512, U, v, t, sr, cr)
#undef PLAB_CST_AVX512
#undef PLAB_BAD_AVX512
  unsigned bad = 0;
  for (int j = 0; j < U; ++j) {
    bad |= static_cast<unsigned>(badm[j]) << (8 * j);
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
      if (bad & 1) sincos_exact(x[i], c[i], s[i]);
  }
}
#undef PLAB_SINCOS_CORE

}  // namespace plab::trig
