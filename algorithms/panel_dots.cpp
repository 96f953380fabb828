#include "algorithms/panel_dots.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "algorithms/simd.hpp"

namespace plab {
namespace {

// One round's features q0..q1 against the panel, the kPanelSupports sums in registers (o in/out).
void run_scalar(const double* panel, const uint32_t* idx, const double* val, std::size_t q0, std::size_t q1,
                double* o) {
  double acc[kPanelSupports];
  std::copy_n(o, kPanelSupports, acc);
  for (std::size_t q = q0; q < q1; ++q) {
    const double v = val[q], *s = panel + static_cast<std::size_t>(idx[q]) * kPanelSupports;
    for (std::size_t i = 0; i < kPanelSupports; ++i) acc[i] = std::fma(v, s[i], acc[i]);
  }
  std::copy_n(acc, kPanelSupports, o);
}

#define PLAB_DOTS_RUN(NAME, TARGET, VEC, W, LOAD, STORE, SET1, FMA)                                        \
  __attribute__((target(TARGET))) void NAME(const double* panel, const uint32_t* idx, const double* val,  \
                                            std::size_t q0, std::size_t q1, double* o) {                  \
    constexpr std::size_t V = kPanelSupports / (W);                                                     \
    VEC acc[V];                                                                                          \
    for (std::size_t v = 0; v < V; ++v) acc[v] = LOAD(o + (W) * v);                                      \
    for (std::size_t q = q0; q < q1; ++q) {                                                              \
      const VEC x = SET1(val[q]);                                                                        \
      const double* s = panel + static_cast<std::size_t>(idx[q]) * kPanelSupports;                       \
      for (std::size_t v = 0; v < V; ++v) acc[v] = FMA(x, LOAD(s + (W) * v), acc[v]);                   \
    }                                                                                                    \
    for (std::size_t v = 0; v < V; ++v) STORE(o + (W) * v, acc[v]);                                      \
  }
PLAB_DOTS_RUN(run_avx2, "avx2,fma", __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_fmadd_pd)
PLAB_DOTS_RUN(run_avx512, "avx512f,fma", __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd,
              _mm512_fmadd_pd)
#undef PLAB_DOTS_RUN

using RunFn = void (*)(const double*, const uint32_t*, const double*, std::size_t, std::size_t, double*);

// Every round against chunk c before chunk c + 1, whose lines are prefetched meanwhile (a round
// touches only its features' rows, too sparse for the hardware prefetcher).
void blocked(RunFn run, const double* panel, std::size_t rows, const Example* xs, std::size_t m, const uint32_t* cut,
             std::size_t C, double* out, std::size_t ld) {
  constexpr std::size_t kChunkValues = kDotChunk * kPanelSupports;
  for (std::size_t c = 0; c < C; ++c) {
    const std::size_t next = (c + 1) * kChunkValues, stop = std::min(next + kChunkValues, rows * kPanelSupports);
    for (std::size_t v = next; v < stop; v += 8) __builtin_prefetch(panel + v);
    for (std::size_t l = 0; l < m; ++l) {
      const uint32_t* k = cut + l * (C + 1) + c;
      if (k[0] != k[1]) run(panel, xs[l].idx.data(), xs[l].val.data(), k[0], k[1], out + l * ld);
    }
  }
}

RunFn fn(Simd isa) {
  switch (isa) {
    case Simd::avx512: return run_avx512;
    case Simd::avx2: return run_avx2;
    default: return run_scalar;
  }
}

}  // namespace

void panel_dots(const double* panel, std::size_t rows, const Example* xs, std::size_t m, const uint32_t* cut,
                std::size_t C, double* out, std::size_t ld) {
  static const RunFn run = fn(simd_path());
  blocked(run, panel, rows, xs, m, cut, C, out, ld);
}

void panel_dots_on(const std::string& isa, const double* panel, std::size_t rows, const Example* xs, std::size_t m,
                   const uint32_t* cut, std::size_t C, double* out, std::size_t ld) {
  const Simd s = simd_parse(isa);
  if (s > simd_best()) throw std::invalid_argument("this CPU has no " + isa + " path");
  blocked(fn(s), panel, rows, xs, m, cut, C, out, ld);
}

}  // namespace plab
