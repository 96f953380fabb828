#include "numerics/lane_dots.hpp"

#include "numerics/lane_sum.hpp"
#include "numerics/simd.hpp"

namespace plab {
namespace {

// The four lane sums a_r . b_s (r, s in {0, 1}) in one pass: each a and each b row is loaded once
// for two products, so a pass loads 4 vectors for 8 products where lane_dot2 loads 3 for 4. Each
// sum's lanes and finish are lane_dot's: the same bits.
[[gnu::always_inline]] inline void dots2x2(const double* a0, const double* a1, const double* b0, const double* b1,
                                           std::size_t n, double* d) {
  using V4 = double __attribute__((vector_size(32)));
  V4 s00[4] = {}, s01[4] = {}, s10[4] = {}, s11[4] = {};
  std::size_t i = 0;
  for (; i + kSumLanes <= n; i += kSumLanes)
    for (int q = 0; q < 4; ++q) {
      V4 x0, x1, y0, y1;
      __builtin_memcpy(&x0, a0 + i + 4 * q, sizeof x0);
      __builtin_memcpy(&x1, a1 + i + 4 * q, sizeof x1);
      __builtin_memcpy(&y0, b0 + i + 4 * q, sizeof y0);
      __builtin_memcpy(&y1, b1 + i + 4 * q, sizeof y1);
      // Held in registers: left to itself GCC folded a load into every multiply, 8 loads for 4 products.
      asm("" : "+v"(x0), "+v"(x1), "+v"(y0), "+v"(y1));
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

// 16 accumulators and 4 loads want more than AVX2's 16 vector registers: AVX-512's 32 hold them.
__attribute__((target("avx512f,avx512vl"))) void dots2x2_avx512(const double* a0, const double* a1, const double* b0,
                                                               const double* b1, std::size_t n, double* d) {
  dots2x2(a0, a1, b0, b1, n, d);
}

}  // namespace

void lane_dot2x2(const double* a0, const double* a1, const double* b0, const double* b1, std::size_t n, double* d) {
  static const bool wide = simd_path() == Simd::avx512;
  if (wide) return dots2x2_avx512(a0, a1, b0, b1, n, d);
  lane_dot2(a0, a1, b0, n, d[0], d[2]);  // AVX2: two rows against one b at a time, no spills
  lane_dot2(a0, a1, b1, n, d[1], d[3]);
}

}  // namespace plab
