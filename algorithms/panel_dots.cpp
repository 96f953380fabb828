#include "algorithms/panel_dots.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "algorithms/simd.hpp"

namespace plab {
namespace {

// One call per chunk: every round's features in chunk c against the tile, the kPanelSupports
// sums of a round held in registers across its features (out in/out).
void chunk_scalar(const double* tile, std::size_t stride, const Example* xs, std::size_t m, const uint32_t* cut,
                  std::size_t C, std::size_t c, double* out, std::size_t ld) {
  for (std::size_t l = 0; l < m; ++l) {
    const uint32_t* k = cut + l * (C + 1) + c;
    double acc[kPanelSupports];
    double* o = out + l * ld;
    std::copy_n(o, kPanelSupports, acc);
    for (std::size_t q = k[0]; q < k[1]; ++q) {
      const double v = xs[l].val[q], *s = tile + static_cast<std::size_t>(xs[l].idx[q]) * stride;
      for (std::size_t i = 0; i < kPanelSupports; ++i) acc[i] = std::fma(v, s[i], acc[i]);
    }
    std::copy_n(acc, kPanelSupports, o);
  }
}

// AVX2: the 32 sums in 8 named registers (an array of vectors made GCC 12 bounce them through the
// stack with 16-byte halves at every round: store-forwarding stalls, measured 10-15% slower).
__attribute__((target("avx2,fma"))) void chunk_avx2(const double* tile, std::size_t stride, const Example* xs,
                                                    std::size_t m, const uint32_t* cut, std::size_t C, std::size_t c,
                                                    double* out, std::size_t ld) {
  static_assert(kPanelSupports == 32);
  for (std::size_t l = 0; l < m; ++l) {
    const uint32_t* k = cut + l * (C + 1) + c;
    const std::size_t q0 = k[0], q1 = k[1];
    if (q0 == q1) continue;
    const uint32_t* idx = xs[l].idx.data();
    const double* val = xs[l].val.data();
    double* o = out + l * ld;
    __m256d a0 = _mm256_loadu_pd(o), a1 = _mm256_loadu_pd(o + 4), a2 = _mm256_loadu_pd(o + 8),
            a3 = _mm256_loadu_pd(o + 12), a4 = _mm256_loadu_pd(o + 16), a5 = _mm256_loadu_pd(o + 20),
            a6 = _mm256_loadu_pd(o + 24), a7 = _mm256_loadu_pd(o + 28);
    for (std::size_t q = q0; q < q1; ++q) {
      const __m256d x = _mm256_set1_pd(val[q]);
      const double* s = tile + static_cast<std::size_t>(idx[q]) * stride;
      a0 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s), a0);
      a1 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 4), a1);
      a2 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 8), a2);
      a3 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 12), a3);
      a4 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 16), a4);
      a5 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 20), a5);
      a6 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 24), a6);
      a7 = _mm256_fmadd_pd(x, _mm256_loadu_pd(s + 28), a7);
    }
    _mm256_storeu_pd(o, a0); _mm256_storeu_pd(o + 4, a1); _mm256_storeu_pd(o + 8, a2); _mm256_storeu_pd(o + 12, a3);
    _mm256_storeu_pd(o + 16, a4); _mm256_storeu_pd(o + 20, a5); _mm256_storeu_pd(o + 24, a6); _mm256_storeu_pd(o + 28, a7);
  }
}

using ChunkFn = void (*)(const double*, std::size_t, const Example*, std::size_t, const uint32_t*, std::size_t,
                         std::size_t, double*, std::size_t);

// Every round against chunk c before chunk c + 1, whose rows are prefetched meanwhile (a round
// touches only its own features' rows).
void blocked(ChunkFn run, const double* tile, std::size_t stride, std::size_t rows, const Example* xs, std::size_t m,
             const uint32_t* cut, std::size_t C, double* out, std::size_t ld) {
  for (std::size_t c = 0; c < C; ++c) {
    for (std::size_t j = (c + 1) * kDotChunk; j < std::min((c + 2) * kDotChunk, rows); ++j)
      for (std::size_t i = 0; i < kPanelSupports; i += 8) __builtin_prefetch(tile + j * stride + i);
    run(tile, stride, xs, m, cut, C, c, out, ld);
  }
}

// AVX-512 machines run the AVX2 kernel (the same bits; no 8-wide variant was measured).
ChunkFn fn(Simd isa) { return isa >= Simd::avx2 ? chunk_avx2 : chunk_scalar; }

}  // namespace

void panel_dots(const double* tile, std::size_t stride, std::size_t rows, const Example* xs, std::size_t m,
                const uint32_t* cut, std::size_t C, double* out, std::size_t ld) {
  static const ChunkFn run = fn(simd_path());
  blocked(run, tile, stride, rows, xs, m, cut, C, out, ld);
}

void panel_dots_on(const std::string& isa, const double* tile, std::size_t stride, std::size_t rows,
                   const Example* xs, std::size_t m, const uint32_t* cut, std::size_t C, double* out, std::size_t ld) {
  const Simd s = simd_parse(isa);
  if (s > simd_best()) throw std::invalid_argument("this CPU has no " + isa + " path");
  blocked(fn(s), tile, stride, rows, xs, m, cut, C, out, ld);
}

}  // namespace plab
