#include "numerics/fast_trig.hpp"

#include "numerics/simd.hpp"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (GCC bug 105593), so it
// is off for this file only (as fast_exp.cpp).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "numerics/sincos_simd.hpp"

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
// and NaN for Inf and NaN as libm gives. The sequence is trig::sincos_core (numerics/sincos_simd.hpp);
// the vector paths reach the same bits with three operations fewer where they may, and recompute
// the other lanes with it (the shortcuts and their proof are stated there).
namespace plab {
namespace {

using namespace trig;

// Blocks of kU2 (AVX2) or kU8 (AVX-512) vectors, then single vectors, then the scalar tail. Two
// measured best on both (ns a value, AVX2 / AVX-512, AMD EPYC Zen 4: one 2.05 / 1.02, two 1.87 /
// 0.87, four 2.48 / 1.04: AVX2's 16 registers spill).
constexpr int kU2 = 2, kU8 = 2;

__attribute__((target("avx2,fma"))) void sincos_avx2(const double* x, std::size_t n, double* c, double* s) {
  std::size_t i = 0;
  const auto block = [&]<int U>() __attribute__((target("avx2,fma"))) {
    __m256d v[U];
    for (int j = 0; j < U; ++j) v[j] = _mm256_loadu_pd(x + i + 4 * j);
    trig::sincos_avx2<U>(v, c + i, s + i);
  };
  for (; i + 4 * kU2 <= n; i += 4 * kU2) block.template operator()<kU2>();
  for (; i + 4 <= n; i += 4) block.template operator()<1>();
  for (; i < n; ++i) sincos_exact(x[i], c[i], s[i]);
}

__attribute__((target("avx512f"))) void sincos_avx512(const double* x, std::size_t n, double* c, double* s) {
  std::size_t i = 0;
  const auto block = [&]<int U>() __attribute__((target("avx512f"))) {
    __m512d v[U];
    for (int j = 0; j < U; ++j) v[j] = _mm512_loadu_pd(x + i + 8 * j);
    trig::sincos_avx512<U>(v, c + i, s + i);
  };
  for (; i + 8 * kU8 <= n; i += 8 * kU8) block.template operator()<kU8>();
  for (; i + 8 <= n; i += 8) block.template operator()<1>();
  for (; i < n; ++i) sincos_exact(x[i], c[i], s[i]);
}

void sincos_on(Simd path, const double* x, std::size_t n, double* c, double* s) {
  switch (path) {
    case Simd::avx512: return sincos_avx512(x, n, c, s);
    case Simd::avx2: return sincos_avx2(x, n, c, s);
    default:  // branch-free first, so that the compiler may vectorise it (the same operations)
      for (std::size_t i = 0; i < n; ++i) sincos_core(x[i], c[i], s[i]);
      for (std::size_t i = 0; i < n; ++i)
        if (trig_fallback(x[i])) sincos_exact(x[i], c[i], s[i]);
  }
}

}  // namespace

void sincos_fixed(double x, double& c, double& s) { sincos_exact(x, c, s); }

void sincos_array(const double* x, std::size_t n, double* c, double* s) { sincos_on(simd_path(), x, n, c, s); }

void sincos_array_on(const std::string& isa, const double* x, std::size_t n, double* c, double* s) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("sincos path '" + isa + "' is not available here");
  sincos_on(want, x, n, c, s);
}

}  // namespace plab
