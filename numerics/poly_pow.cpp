#include "numerics/poly_pow.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "numerics/simd.hpp"

namespace plab {
namespace {

// The fast path answers only when every partial power lies in [kPowLo, kPowHi]: no underflow or
// overflow in the products and their error terms, so the relative error bound holds.
constexpr double kPowLo = 0x1p-900, kPowHi = 0x1p+1000;
__extension__ typedef unsigned __int128 u128;  // GCC and clang; __extension__ keeps -Wpedantic quiet

// (h, l) <- (h + l) a for a >= 0 with |l| <= ulp(h)/2. p1 + e1 = h a exactly (fma); t = e1 + l a
// rounded once, |e1 + l a| <= 2^-52 |p1|, so the step's error is at most 2^-105 |p1| (1 + 2^-52);
// (h, l) = Fast2Sum(p1, t) is exact (|p1| >= |t|). After p - 1 steps the relative error of h + l is
// below (p - 1) 2^-104.9 < p 2^-104.
inline void mul_dd(double& h, double& l, double a) {
  const double p1 = h * a;
  const double e1 = std::fma(h, a, -p1);
  const double t = std::fma(l, a, e1);
  h = p1 + t;
  l = t - (h - p1);
}

// Half the spacing of the doubles at h (normal, > 0) on its smaller side: 2^(E - 53) for
// h = 1.m 2^E, a quarter of that spacing when h = 2^E (the spacing below halves). Bit operations,
// the same in the vector paths.
inline double half_spacing(double h) {
  uint64_t u;
  std::memcpy(&u, &h, sizeof u);
  const uint64_t expo = u & 0x7ff0000000000000ull;
  double pow2;
  std::memcpy(&pow2, &expo, sizeof pow2);
  return pow2 * ((u & 0x000fffffffffffffull) ? 0x1p-53 : 0x1p-54);
}

// True when h is b^p correctly rounded: h in [kPowLo, kPowHi] and h + l is farther than twice the error
// bound (p 2^-103 h) from the rounding boundaries on either side of h.
inline bool certain(double h, double l, int p) {
  if (!(h >= kPowLo && h <= kPowHi)) return false;
  return std::fabs(l) + static_cast<double>(p) * 0x1p-103 * h < half_spacing(h);
}

double pow_scalar(double b, int p) {
  if (p <= 1) return p == 1 ? b : 1.0;
  const double a = std::fabs(b);
  double h = a, l = 0.0;
  for (int k = 1; k < p; ++k) mul_dd(h, l, a);
  if (!certain(h, l, p)) return pow_int_exact(b, p);
  return (b < 0.0 && (p & 1)) ? -h : h;
}

void row_scalar(double gamma, double coef0, int p, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = pow_scalar(gamma * out[i] + coef0, p);
}

// The vector paths run the same operations per lane and the same test (certain); a lane it does
// not certify is computed by pow_int_exact, so every path gives the same bits.
// mul_dd on 4 lanes: the scalar mul_dd's operations in its order.
__attribute__((target("avx2,fma"))) inline void mul_dd(__m256d& h, __m256d& l, __m256d a) {
  const __m256d p1 = _mm256_mul_pd(h, a);
  const __m256d t = _mm256_fmadd_pd(l, a, _mm256_fmsub_pd(h, a, p1));
  h = _mm256_add_pd(p1, t);
  l = _mm256_sub_pd(t, _mm256_sub_pd(h, p1));
}

// AVX2: K register sets of 4 values per step, then 4 values at a time, then the scalar path. A
// mul_dd step is ~14 cycles of latency on one chain and 6 operations of issue, so chains in flight
// hide the latency until the 16 registers run out (AMD EPYC Zen 3, p = 7, poly_from_dots_on("avx2")
// timed alone on a row of 19000 dots, best of 400: K = 1 4.7 ns a value, 2: 3.2, 3: 2.8, 4: 2.3,
// 5: 2.5; the former two chains interleaved operation by operation: 2.9. BM_PolyFromDots/1, the
// row's copy included: 68.6 -> 52.0 us).
template <std::size_t K>
__attribute__((target("avx2,fma"))) void row_avx2(double gamma, double coef0, int p, double* out, std::size_t n) {
  if (p <= 1) return row_scalar(gamma, coef0, p, out, n);
  const __m256d g = _mm256_set1_pd(gamma), c = _mm256_set1_pd(coef0), sign = _mm256_set1_pd(-0.0),
                lo = _mm256_set1_pd(kPowLo), hi = _mm256_set1_pd(kPowHi),
                err = _mm256_set1_pd(static_cast<double>(p) * 0x1p-103);
  const __m256i expo = _mm256_set1_epi64x(0x7ff0000000000000ll), mant = _mm256_set1_epi64x(0x000fffffffffffffll);
  const __m256d h53 = _mm256_set1_pd(0x1p-53), h54 = _mm256_set1_pd(0x1p-54);
  auto finish = [&](std::size_t i, __m256d b, __m256d h, __m256d l) __attribute__((target("avx2,fma"))) {
    const __m256i hb = _mm256_castpd_si256(h);
    const __m256d is_pow2 = _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(hb, mant), _mm256_setzero_si256()));
    const __m256d half = _mm256_mul_pd(_mm256_castsi256_pd(_mm256_and_si256(hb, expo)), _mm256_blendv_pd(h53, h54, is_pow2));
    const __m256d slack = _mm256_add_pd(_mm256_andnot_pd(sign, l), _mm256_mul_pd(err, h));
    const __m256d ok = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(h, lo, _CMP_GE_OQ), _mm256_cmp_pd(h, hi, _CMP_LE_OQ)),
                                     _mm256_cmp_pd(slack, half, _CMP_LT_OQ));
    _mm256_storeu_pd(out + i, (p & 1) ? _mm256_xor_pd(h, _mm256_and_pd(sign, b)) : h);
    const int mask = _mm256_movemask_pd(ok);
    if (mask != 0xf) {
      alignas(32) double bs[4];
      _mm256_store_pd(bs, b);
      for (int j = 0; j < 4; ++j)
        if (!(mask >> j & 1)) out[i + j] = pow_int_exact(bs[j], p);
    }
  };
  // m sets of 4 values from out + i.
  auto block = [&](std::size_t i, auto m) __attribute__((target("avx2,fma"))) {
    constexpr std::size_t M = decltype(m)::value;
    __m256d b[M], a[M], h[M], l[M];
    for (std::size_t j = 0; j < M; ++j) {
      b[j] = _mm256_add_pd(_mm256_mul_pd(g, _mm256_loadu_pd(out + i + 4 * j)), c);
      a[j] = h[j] = _mm256_andnot_pd(sign, b[j]);
      l[j] = _mm256_setzero_pd();
    }
    for (int k = 1; k < p; ++k)
      for (std::size_t j = 0; j < M; ++j) mul_dd(h[j], l[j], a[j]);
    for (std::size_t j = 0; j < M; ++j) finish(i + 4 * j, b[j], h[j], l[j]);
  };
  std::size_t i = 0;
  for (; i + 4 * K <= n; i += 4 * K) block(i, std::integral_constant<std::size_t, K>{});
  for (; i + 4 <= n; i += 4) block(i, std::integral_constant<std::size_t, 1>{});
  for (; i < n; ++i) out[i] = pow_scalar(gamma * out[i] + coef0, p);
}

// mul_dd on 8 lanes: the scalar mul_dd's operations in its order.
__attribute__((target("avx512f"))) inline void mul_dd(__m512d& h, __m512d& l, __m512d a) {
  const __m512d p1 = _mm512_mul_pd(h, a);
  const __m512d t = _mm512_fmadd_pd(l, a, _mm512_fmsub_pd(h, a, p1));
  h = _mm512_add_pd(p1, t);
  l = _mm512_sub_pd(t, _mm512_sub_pd(h, p1));
}

// AVX-512 (F alone, what simd_best checks; hence the integer and/xor, the _pd forms need DQ):
// kChains register sets of 8 values per step. A mul_dd step is ~17 cycles of latency on one chain
// but ~1.5 cycles of issue, so the more chains in flight the better until the 32 registers run out
// (Zen 5, p = 7: 2 chains 1.0 ns a value, 4: 0.9, 8: 0.7, 12: 0.9; chain after chain, as row_avx2
// too, not each operation across the chains: 0.79). The k-masks make the tail
// (< 8 kChains values) one more masked block.
__attribute__((target("avx512f"))) void row_avx512(double gamma, double coef0, int p, double* out, std::size_t n) {
  if (p <= 1) return row_scalar(gamma, coef0, p, out, n);
  constexpr std::size_t kChains = 8;
  const __m512d g = _mm512_set1_pd(gamma), c = _mm512_set1_pd(coef0), lo = _mm512_set1_pd(kPowLo),
                hi = _mm512_set1_pd(kPowHi), err = _mm512_set1_pd(static_cast<double>(p) * 0x1p-103),
                h53 = _mm512_set1_pd(0x1p-53), h54 = _mm512_set1_pd(0x1p-54);
  const __m512i sign = _mm512_set1_epi64(INT64_MIN), expo = _mm512_set1_epi64(0x7ff0000000000000ll),
                mant = _mm512_set1_epi64(0x000fffffffffffffll);
  // m values (<= 8 kChains) from out + i.
  auto block = [&](std::size_t i, std::size_t m) __attribute__((target("avx512f"))) {
    __mmask8 live[kChains];
    __m512d b[kChains], a[kChains], h[kChains], l[kChains];
    for (std::size_t j = 0; j < kChains; ++j) {
      const std::size_t r = m > 8 * j ? std::min<std::size_t>(m - 8 * j, 8) : 0;
      live[j] = static_cast<__mmask8>((1u << r) - 1);
      b[j] = _mm512_add_pd(_mm512_mul_pd(g, _mm512_maskz_loadu_pd(live[j], out + i + 8 * j)), c);
      a[j] = h[j] = _mm512_abs_pd(b[j]);
      l[j] = _mm512_setzero_pd();
    }
    for (int k = 1; k < p; ++k)
      for (std::size_t j = 0; j < kChains; ++j) mul_dd(h[j], l[j], a[j]);
    for (std::size_t j = 0; j < kChains; ++j) {  // certain() per lane, as in row_avx2
      const __m512i hb = _mm512_castpd_si512(h[j]);
      const __m512d half = _mm512_mul_pd(_mm512_castsi512_pd(_mm512_and_si512(hb, expo)),
                                         _mm512_mask_blend_pd(_mm512_testn_epi64_mask(hb, mant), h53, h54));
      const __m512d slack = _mm512_add_pd(_mm512_abs_pd(l[j]), _mm512_mul_pd(err, h[j]));
      const __mmask8 ok = _mm512_cmp_pd_mask(h[j], lo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(h[j], hi, _CMP_LE_OQ) &
                          _mm512_cmp_pd_mask(slack, half, _CMP_LT_OQ);
      const __m512i bsign = _mm512_and_si512(_mm512_castpd_si512(b[j]), sign);
      _mm512_mask_storeu_pd(out + i + 8 * j, live[j], (p & 1) ? _mm512_castsi512_pd(_mm512_xor_si512(hb, bsign)) : h[j]);
      if (const unsigned redo = live[j] & ~ok) {
        alignas(64) double bs[8];
        _mm512_store_pd(bs, b[j]);
        for (unsigned q = 0; q < 8; ++q)
          if (redo >> q & 1) out[i + 8 * j + q] = pow_int_exact(bs[q], p);
      }
    }
  };
  std::size_t i = 0;
  for (; i + 8 * kChains <= n; i += 8 * kChains) block(i, 8 * kChains);
  if (i < n) block(i, n - i);
}

void run_on(Simd isa, double gamma, double coef0, int p, double* out, std::size_t n) {
  switch (isa) {
    case Simd::avx512: return row_avx512(gamma, coef0, p, out, n);
    case Simd::avx2: return row_avx2<4>(gamma, coef0, p, out, n);
    default: return row_scalar(gamma, coef0, p, out, n);
  }
}

}  // namespace

double pow_int(double b, int p) {
  if (p < 0) throw std::invalid_argument("pow_int: the degree must be >= 0");
  return pow_scalar(b, p);
}

// b = M 2^E with M an odd integer < 2^53; b^p = M^p 2^(E p), M^p held exactly in 64-bit limbs, then
// rounded to 53 bits (or to the subnormal grid 2^-1074) to nearest, ties to even.
double pow_int_exact(double b, int p) {
  if (p < 0) throw std::invalid_argument("pow_int_exact: the degree must be >= 0");
  if (p == 0) return 1.0;
  if (std::isnan(b) || std::isinf(b) || b == 0.0) return std::pow(b, p);  // exact by IEEE 754 rules
  const bool negative = b < 0.0 && (p & 1);
  int e;
  const double f = std::frexp(std::fabs(b), &e);
  uint64_t M = static_cast<uint64_t>(std::ldexp(f, 53));
  int64_t E = e - 53;
  while ((M & 1) == 0) { M >>= 1; ++E; }
  std::vector<uint64_t> N{1};  // little-endian limbs
  for (int k = 0; k < p; ++k) {
    u128 carry = 0;
    for (auto& limb : N) {
      const u128 v = static_cast<u128>(limb) * M + carry;
      limb = static_cast<uint64_t>(v);
      carry = v >> 64;
    }
    if (carry) N.push_back(static_cast<uint64_t>(carry));
  }
  const int64_t EE = E * p;
  const int64_t bits = static_cast<int64_t>(64 * N.size()) - __builtin_clzll(N.back());
  auto bit = [&](int64_t i) { return i >= 0 && i < bits && ((N[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1); };
  int64_t s = bits - 53;              // low bits to drop
  if (EE + s < -1074) s = -1074 - EE;  // the subnormal grid
  uint64_t q = 0;
  if (s <= 0) {
    q = N[0];  // fits in 53 bits: exact
  } else {
    for (int64_t i = std::min<int64_t>(bits - 1, s + 63); i >= s; --i) q = (q << 1) | (bit(i) ? 1 : 0);
    bool below = false;  // any bit under the half bit
    for (int64_t i = 0; i < s - 1 && i < bits && !below; ++i) below = bit(i);
    if (bit(s - 1) && (below || (q & 1))) ++q;
  }
  const int64_t scale = std::max<int64_t>(s, 0) + EE;
  const double r = scale > 2100 ? std::numeric_limits<double>::infinity()
                                : std::ldexp(static_cast<double>(q), static_cast<int>(scale));
  return negative ? -r : r;
}

void poly_from_dots(double gamma, double coef0, int p, double* out, std::size_t n) {
  static const Simd isa = simd_path();
  run_on(isa, gamma, coef0, p, out, n);
}

void poly_from_dots_on(const std::string& isa, double gamma, double coef0, int p, double* out, std::size_t n) {
  const Simd s = simd_parse(isa);
  if (s > simd_best()) throw std::invalid_argument("this CPU has no " + isa + " path");
  run_on(s, gamma, coef0, p, out, n);
}

}  // namespace plab
