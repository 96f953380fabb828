// The AVX-512 part of FourierFeatures::map_rows (numerics/fourier_features.hpp): the chains u_i.x
// in eight lanes a vector rather than four. Each lane is the same multiply, then add, as the
// four-lane chains, so the bits do not depend on the path; the width is what the FMA units of an
// AVX-512 core take (the four-lane chains used half of them: a fifth of a FOGD pass).
#include <immintrin.h>

#include "numerics/fourier_features.hpp"

namespace plab::detail {

__attribute__((target("avx512f"))) std::size_t fourier_chains_avx512(const double* const* cols,
                                                                     const std::size_t* starts, const Example* xs,
                                                                     std::size_t n, std::size_t D, double* d) {
  constexpr std::size_t W = 8, kBlock = 8 * W;  // 8 accumulators of 8 lanes: 64 chains a block
  std::size_t i0 = 0;
  for (; i0 + kBlock <= D; i0 += kBlock)
    for (std::size_t r = 0; r < n; ++r) {
      __m512d acc[W];
      for (std::size_t w = 0; w < W; ++w) acc[w] = _mm512_setzero_pd();
      const double* val = xs[r].val.data();
      for (std::size_t k = 0, nk = starts[r + 1] - starts[r]; k < nk; ++k) {
        const __m512d v = _mm512_set1_pd(val[k]);
        const double* u = cols[starts[r] + k] + i0;
        for (std::size_t w = 0; w < W; ++w) acc[w] = _mm512_add_pd(acc[w], _mm512_mul_pd(v, _mm512_loadu_pd(u + 8 * w)));
      }
      for (std::size_t w = 0; w < W; ++w) _mm512_storeu_pd(d + r * D + i0 + 8 * w, acc[w]);
    }
  return i0;
}

}  // namespace plab::detail
