#include "numerics/lane_dots.hpp"

#include "numerics/lane_sum.hpp"
#include "numerics/simd.hpp"

#include <stdexcept>

namespace plab {
namespace {

// The four lane sums a_r . b_s (r, s in {0, 1}) in one pass: each a and each b row is loaded once
// for two products, so a pass loads 4 vectors for 8 products where lane_dot2 loads 3 for 4.
// The 16 lanes of each sum in two 8-lane vectors: lane l adds the same terms in the same order as
// lane_dot's (the same bits). 8 accumulators and 4 loads a step fit AVX-512's 32 registers (not
// AVX2's 16, whose path takes lane_dot2 twice).
__attribute__((target("avx512f,avx512vl"))) void dots2x2_avx512(const double* a0, const double* a1, const double* b0,
                                                               const double* b1, std::size_t n, double* d) {
  using V8 = double __attribute__((vector_size(64)));
  static_assert(kSumLanes == 16, "two 8-lane vectors a sum");
  V8 s00[2] = {}, s01[2] = {}, s10[2] = {}, s11[2] = {};
  std::size_t i = 0;
  for (; i + kSumLanes <= n; i += kSumLanes)
    for (int q = 0; q < 2; ++q) {
      V8 x0, x1, y0, y1;
      __builtin_memcpy(&x0, a0 + i + 8 * q, sizeof x0);
      __builtin_memcpy(&x1, a1 + i + 8 * q, sizeof x1);
      __builtin_memcpy(&y0, b0 + i + 8 * q, sizeof y0);
      __builtin_memcpy(&y1, b1 + i + 8 * q, sizeof y1);
      asm("" : "+v"(x0), "+v"(x1), "+v"(y0), "+v"(y1));  // as dots2x2: one load a row
      s00[q] += x0 * y0;
      s01[q] += x0 * y1;
      s10[q] += x1 * y0;
      s11[q] += x1 * y1;
    }
  LaneSum s[4];
  __builtin_memcpy(s[0].acc, s00, sizeof s00);
  __builtin_memcpy(s[1].acc, s01, sizeof s01);
  __builtin_memcpy(s[2].acc, s10, sizeof s10);
  __builtin_memcpy(s[3].acc, s11, sizeof s11);
  for (; i < n; ++i) {
    s[0].add_term(i, a0[i], b0[i]);
    s[1].add_term(i, a0[i], b1[i]);
    s[2].add_term(i, a1[i], b0[i]);
    s[3].add_term(i, a1[i], b1[i]);
  }
  for (int k = 0; k < 4; ++k) d[k] = s[k].total();
}

// The same four sums on AVX2 in two passes, lanes 0-7 then 8-15: a pass holds the 2 x 2 sums' two
// 4-lane vectors each (8 accumulators) and loads each row's vector once for two products, 4 loads
// for 4 products where lane_dot2 loads 3 for 2 (its 16 registers cannot hold all 16 lanes of four
// sums). Lane l adds the same terms in the same order as lane_dot's (the same bits).
__attribute__((target("avx2,fma"))) void dots2x2_avx2(const double* a0, const double* a1, const double* b0,
                                                      const double* b1, std::size_t n, double* d) {
  using V4 = double __attribute__((vector_size(32)));
  const std::size_t full = n - n % kSumLanes;
  LaneSum s[4];
  for (std::size_t half = 0; half < kSumLanes; half += 8) {
    V4 s00[2] = {}, s01[2] = {}, s10[2] = {}, s11[2] = {};
    for (std::size_t i = half; i < full; i += kSumLanes)
      for (int q = 0; q < 2; ++q) {
        V4 x0, x1, y0, y1;
        __builtin_memcpy(&x0, a0 + i + 4 * q, sizeof x0);
        __builtin_memcpy(&x1, a1 + i + 4 * q, sizeof x1);
        __builtin_memcpy(&y0, b0 + i + 4 * q, sizeof y0);
        __builtin_memcpy(&y1, b1 + i + 4 * q, sizeof y1);
        asm("" : "+v"(x0), "+v"(x1), "+v"(y0), "+v"(y1));  // one load a row
        s00[q] += x0 * y0;
        s01[q] += x0 * y1;
        s10[q] += x1 * y0;
        s11[q] += x1 * y1;
      }
    __builtin_memcpy(s[0].acc + half, s00, sizeof s00);
    __builtin_memcpy(s[1].acc + half, s01, sizeof s01);
    __builtin_memcpy(s[2].acc + half, s10, sizeof s10);
    __builtin_memcpy(s[3].acc + half, s11, sizeof s11);
  }
  for (std::size_t i = full; i < n; ++i) {
    s[0].add_term(i, a0[i], b0[i]);
    s[1].add_term(i, a0[i], b1[i]);
    s[2].add_term(i, a1[i], b0[i]);
    s[3].add_term(i, a1[i], b1[i]);
  }
  for (int k = 0; k < 4; ++k) d[k] = s[k].total();
}

}  // namespace

namespace {
void dots2x2_on(Simd path, const double* a0, const double* a1, const double* b0, const double* b1, std::size_t n,
                double* d) {
  if (path == Simd::avx512) return dots2x2_avx512(a0, a1, b0, b1, n, d);
  if (path == Simd::avx2) return dots2x2_avx2(a0, a1, b0, b1, n, d);
  lane_dot2(a0, a1, b0, n, d[0], d[2]);
  lane_dot2(a0, a1, b1, n, d[1], d[3]);
}
}  // namespace

void lane_dot2x2(const double* a0, const double* a1, const double* b0, const double* b1, std::size_t n, double* d) {
  static const Simd path = simd_path();
  dots2x2_on(path, a0, a1, b0, b1, n, d);
}

void lane_dot2x2_on(const std::string& isa, const double* a0, const double* a1, const double* b0, const double* b1,
                    std::size_t n, double* d) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("lane_dot2x2 path '" + isa + "' is not available here");
  dots2x2_on(want, a0, a1, b0, b1, n, d);
}

}  // namespace plab
