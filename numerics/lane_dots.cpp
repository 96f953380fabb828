#include "numerics/lane_dots.hpp"

#include "numerics/lane_sum.hpp"
#include "numerics/simd.hpp"

#include <stdexcept>

namespace plab {
namespace {

// The four lane sums a_r . b_s (r, s in {0, 1}): each a and each b row is loaded once for two
// products, 4 loads for 4 products where lane_dot2 loads 3 for 2. A pass holds two LANES-wide
// vectors of each sum (8 accumulators, 4 loads a step: AVX2's 16 registers hold them, not all 16
// lanes of four sums), so AVX-512 takes one pass over the 16 lanes and AVX2 two (lanes 0-7, then
// 8-15). Lane l adds the same terms in the same order as lane_dot's (the same bits).
#define PLAB_DOTS2X2(NAME, TARGET, LANES)                                                                    \
  __attribute__((target(TARGET))) void NAME(const double* a0, const double* a1, const double* b0,            \
                                            const double* b1, std::size_t n, double* d) {                    \
    using V = double __attribute__((vector_size(8 * LANES)));                                                \
    const std::size_t full = n - n % kSumLanes;                                                              \
    LaneSum s[4];                                                                                            \
    for (std::size_t part = 0; part < kSumLanes; part += 2 * LANES) {                                        \
      V s00[2] = {}, s01[2] = {}, s10[2] = {}, s11[2] = {};                                                  \
      for (std::size_t i = part; i < full; i += kSumLanes)                                                   \
        for (int q = 0; q < 2; ++q) {                                                                        \
          V x0, x1, y0, y1;                                                                                  \
          __builtin_memcpy(&x0, a0 + i + LANES * q, sizeof x0);                                              \
          __builtin_memcpy(&x1, a1 + i + LANES * q, sizeof x1);                                              \
          __builtin_memcpy(&y0, b0 + i + LANES * q, sizeof y0);                                              \
          __builtin_memcpy(&y1, b1 + i + LANES * q, sizeof y1);                                              \
          asm("" : "+v"(x0), "+v"(x1), "+v"(y0), "+v"(y1)); /* one load a row */                             \
          s00[q] += x0 * y0;                                                                                 \
          s01[q] += x0 * y1;                                                                                 \
          s10[q] += x1 * y0;                                                                                 \
          s11[q] += x1 * y1;                                                                                 \
        }                                                                                                    \
      __builtin_memcpy(s[0].acc + part, s00, sizeof s00);                                                    \
      __builtin_memcpy(s[1].acc + part, s01, sizeof s01);                                                    \
      __builtin_memcpy(s[2].acc + part, s10, sizeof s10);                                                    \
      __builtin_memcpy(s[3].acc + part, s11, sizeof s11);                                                    \
    }                                                                                                        \
    for (std::size_t i = full; i < n; ++i) {                                                                 \
      s[0].add_term(i, a0[i], b0[i]);                                                                        \
      s[1].add_term(i, a0[i], b1[i]);                                                                        \
      s[2].add_term(i, a1[i], b0[i]);                                                                        \
      s[3].add_term(i, a1[i], b1[i]);                                                                        \
    }                                                                                                        \
    for (int k = 0; k < 4; ++k) d[k] = s[k].total();                                                         \
  }

static_assert(kSumLanes % 16 == 0, "whole passes of two 8-lane or 4-lane vectors");
PLAB_DOTS2X2(dots2x2_avx512, "avx512f,avx512vl", 8)
PLAB_DOTS2X2(dots2x2_avx2, "avx2,fma", 4)
#undef PLAB_DOTS2X2

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
