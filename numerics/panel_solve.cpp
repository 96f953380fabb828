#include "numerics/panel_solve.hpp"

#include "numerics/simd.hpp"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace plab {
namespace {

inline const double* row(const double* p, std::size_t i) { return p + i * (i + 1) / 2; }

// Rows [i, i + R) of lane l: the chains over j < i are done (totals acc[m], open chunks part[m]);
// finish the R x R diagonal block in j order, exactly the recurrence of the header (the SIMD
// paths do the same per lane).
inline void finish_rows(const double* p, std::size_t i, std::size_t R, double* acc, double* part, double* Z,
                        std::size_t stride, std::size_t l) {
  for (std::size_t m = 0; m < R; ++m) {
    const double* r = row(p, i + m);
    for (std::size_t c = 0; c < m; ++c) {
      part[m] = std::fma(r[i + c], Z[(i + c) * stride + l], part[m]);
      if ((i + c + 1) % kPanelChunk == 0) { acc[m] += part[m]; part[m] = 0.0; }
    }
    double& z = Z[(i + m) * stride + l];
    z = (z - (acc[m] + part[m])) / r[i + m];
  }
}

// Scalar path, lane by lane: R rows at a time (R independent chains), chunk by chunk over j < i.
template <std::size_t R>
void scalar_rows(const double* p, std::size_t i, double* Z, std::size_t stride, std::size_t l) {
  const double* r[R];
  double acc[R], part[R];
  for (std::size_t m = 0; m < R; ++m) { r[m] = row(p, i + m); acc[m] = part[m] = 0.0; }
  for (std::size_t jb = 0; jb < i; jb += kPanelChunk) {
    const std::size_t je = std::min(i, jb + kPanelChunk);
    for (std::size_t j = jb; j < je; ++j) {
      const double z = Z[j * stride + l];
      for (std::size_t m = 0; m < R; ++m) part[m] = std::fma(r[m][j], z, part[m]);
    }
    if (je % kPanelChunk == 0)
      for (std::size_t m = 0; m < R; ++m) { acc[m] += part[m]; part[m] = 0.0; }
  }
  finish_rows(p, i, R, acc, part, Z, stride, l);
}

void panel_scalar(const double* p, std::size_t b, std::size_t e, double* Z, std::size_t stride) {
  for (std::size_t l = 0; l < stride; ++l) {
    std::size_t i = b;
    for (; i + 4 <= e; i += 4) scalar_rows<4>(p, i, Z, stride, l);
    for (; i < e; ++i) scalar_rows<1>(p, i, Z, stride, l);
  }
}

// R rows x V vectors of W lanes, lanes o .. o + V W of the 24: one open-chunk accumulator per
// (row, vector) in registers, the chunk totals beside it (touched once per kPanelChunk columns).
// The chains over j < i run in j order for every lane, then the R x R diagonal block in j order
// (the recurrence of the header), so any R, V or o gives the same bits as the scalar path.
#define PLAB_ROWS_KERNEL(NAME, TARGET, VEC, W, ZERO, LOAD, STORE, SET1, FMA, ADD, SUB, DIV)        \
  template <std::size_t R, std::size_t V>                                                        \
  __attribute__((target(TARGET))) inline void NAME(const double* p, std::size_t i, double* Z,     \
                                                   std::size_t o) {                              \
    constexpr std::size_t S = kPanelLanes;                                                       \
    const double* r[R];                                                                          \
    VEC a[R][V], acc[R][V];                                                                      \
    for (std::size_t m = 0; m < R; ++m) {                                                        \
      r[m] = row(p, i + m);                                                                      \
      for (std::size_t v = 0; v < V; ++v) a[m][v] = acc[m][v] = ZERO();                          \
    }                                                                                            \
    for (std::size_t jb = 0; jb < i; jb += kPanelChunk) {                                        \
      const std::size_t je = std::min(i, jb + kPanelChunk);                                      \
      for (std::size_t j = jb; j < je; ++j) {                                                    \
        VEC z[V];                                                                                \
        for (std::size_t v = 0; v < V; ++v) z[v] = LOAD(Z + j * S + o + (W) * v);                   \
        for (std::size_t m = 0; m < R; ++m) {                                                    \
          const VEC l = SET1(r[m][j]);                                                           \
          for (std::size_t v = 0; v < V; ++v) a[m][v] = FMA(l, z[v], a[m][v]);                   \
        }                                                                                        \
      }                                                                                          \
      if (je % kPanelChunk == 0)                                                                 \
        for (std::size_t m = 0; m < R; ++m)                                                      \
          for (std::size_t v = 0; v < V; ++v) {                                                  \
            acc[m][v] = ADD(acc[m][v], a[m][v]);                                                 \
            a[m][v] = ZERO();                                                                    \
          }                                                                                      \
    }                                                                                            \
    for (std::size_t m = 0; m < R; ++m) {                                                        \
      for (std::size_t c = 0; c < m; ++c) {                                                      \
        for (std::size_t v = 0; v < V; ++v)                                                      \
          a[m][v] = FMA(SET1(r[m][i + c]), LOAD(Z + (i + c) * S + o + (W) * v), a[m][v]);            \
        if ((i + c + 1) % kPanelChunk == 0)                                                      \
          for (std::size_t v = 0; v < V; ++v) {                                                  \
            acc[m][v] = ADD(acc[m][v], a[m][v]);                                                 \
            a[m][v] = ZERO();                                                                    \
          }                                                                                      \
      }                                                                                          \
      const VEC d = SET1(r[m][i + m]);                                                           \
      for (std::size_t v = 0; v < V; ++v) {                                                      \
        double* z = Z + (i + m) * S + o + (W) * v;                                                 \
        STORE(z, DIV(SUB(LOAD(z), ADD(acc[m][v], a[m][v])), d));                                 \
      }                                                                                          \
    }                                                                                            \
  }

// AVX-512: 6 rows x 3 vectors of 8 = 18 of its 32 registers (a broadcast of L and the 3 vectors of
// Z serve more fmas than with 4 rows); AVX2 below (rows_halves_avx2).
PLAB_ROWS_KERNEL(rows_avx512, "avx512f,fma", __m512d, 8, _mm512_setzero_pd, _mm512_loadu_pd,
                 _mm512_storeu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, _mm512_sub_pd, _mm512_div_pd)
#undef PLAB_ROWS_KERNEL

// AVX2: 4 rows x 3 vectors of 4 = 12 open accumulators, the 3 vectors of Z and L's broadcast (16
// registers), over lanes 0-11 and then 12-23: Z's rows are loaded for 4 rows of L, not 2 (2 rows
// x 6 vectors read 16 bytes of Z an fma from L2; now 8). The two halves run chunk by chunk, so a
// chunk of L's rows comes from memory once and from L1 the second time (half by half over all of
// j, L's rows, megabytes past a few hundred supports, were streamed twice: BM_PanelForward/800
// took an eighth longer). Per lane the same chains: full chunks (their totals in acc), then the
// partial chunk and the diagonal block as PLAB_ROWS_KERNEL runs them.
template <std::size_t R>
__attribute__((target("avx2,fma"))) inline void rows_halves_avx2(const double* p, std::size_t i, double* Z) {
  constexpr std::size_t S = kPanelLanes, V = 3, H = 12;
  static_assert(S == 2 * H && H == 4 * V, "two halves of 3 vectors of 4 lanes");
  const double* r[R];
  __m256d acc[2][R][V], a[R][V];
  for (std::size_t m = 0; m < R; ++m) {
    r[m] = row(p, i + m);
    for (std::size_t h = 0; h < 2; ++h)
      for (std::size_t v = 0; v < V; ++v) acc[h][m][v] = _mm256_setzero_pd();
  }
  const auto fmas = [&](std::size_t jb, std::size_t je, std::size_t o) __attribute__((target("avx2,fma"), always_inline)) {
    for (std::size_t j = jb; j < je; ++j) {
      __m256d z[V];
      for (std::size_t v = 0; v < V; ++v) z[v] = _mm256_loadu_pd(Z + j * S + o + 4 * v);
      for (std::size_t m = 0; m < R; ++m) {
        const __m256d l = _mm256_set1_pd(r[m][j]);
        for (std::size_t v = 0; v < V; ++v) a[m][v] = _mm256_fmadd_pd(l, z[v], a[m][v]);
      }
    }
  };
  const auto zero = [&]() __attribute__((target("avx2"), always_inline)) {
    for (std::size_t m = 0; m < R; ++m)
      for (std::size_t v = 0; v < V; ++v) a[m][v] = _mm256_setzero_pd();
  };
  const auto total = [&](std::size_t h) __attribute__((target("avx2"), always_inline)) {
    for (std::size_t m = 0; m < R; ++m)
      for (std::size_t v = 0; v < V; ++v) acc[h][m][v] = _mm256_add_pd(acc[h][m][v], a[m][v]);
  };
  std::size_t jb = 0;
  for (; jb + kPanelChunk <= i; jb += kPanelChunk)
    for (std::size_t h = 0; h < 2; ++h) {
      zero();
      fmas(jb, jb + kPanelChunk, H * h);
      total(h);
    }
  for (std::size_t h = 0; h < 2; ++h) {
    const std::size_t o = H * h;
    zero();
    fmas(jb, i, o);
    for (std::size_t m = 0; m < R; ++m) {
      for (std::size_t c = 0; c < m; ++c) {
        for (std::size_t v = 0; v < V; ++v)
          a[m][v] = _mm256_fmadd_pd(_mm256_set1_pd(r[m][i + c]), _mm256_loadu_pd(Z + (i + c) * S + o + 4 * v), a[m][v]);
        if ((i + c + 1) % kPanelChunk == 0)
          for (std::size_t v = 0; v < V; ++v) {
            acc[h][m][v] = _mm256_add_pd(acc[h][m][v], a[m][v]);
            a[m][v] = _mm256_setzero_pd();
          }
      }
      const __m256d d = _mm256_set1_pd(r[m][i + m]);
      for (std::size_t v = 0; v < V; ++v) {
        double* z = Z + (i + m) * S + o + 4 * v;
        _mm256_storeu_pd(z, _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(z), _mm256_add_pd(acc[h][m][v], a[m][v])), d));
      }
    }
  }
}

constexpr std::size_t kRowsAvx2 = 4, kRowsAvx512 = 6;  // 8 rows on AVX-512: no faster (BM_PanelForward/800)

// Rows [b, e) in passes of R rows, then one pass of the rows left (fewer than R).
template <std::size_t R, typename Rows>
inline void rows_in_passes(std::size_t b, std::size_t e, Rows rows) {
  std::size_t i = b;
  for (; i + R <= e; i += R) rows.template operator()<R>(i);
  [&]<std::size_t... k>(std::index_sequence<k...>) {
    ((e - i == k + 1 ? rows.template operator()<k + 1>(i) : void()), ...);
  }(std::make_index_sequence<R - 1>{});
}

__attribute__((target("avx2,fma"))) void panel_avx2(const double* p, std::size_t b, std::size_t e,
                                                    double* Z) {
  rows_in_passes<kRowsAvx2>(b, e, [&]<std::size_t R>(std::size_t i) __attribute__((target("avx2,fma"))) {
    rows_halves_avx2<R>(p, i, Z);
  });
}

__attribute__((target("avx512f,fma"))) void panel_avx512(const double* p, std::size_t b, std::size_t e,
                                                         double* Z) {
  rows_in_passes<kRowsAvx512>(b, e, [&]<std::size_t R>(std::size_t i) __attribute__((target("avx512f,fma"))) {
    rows_avx512<R, 3>(p, i, Z, 0);
  });
}

}  // namespace

namespace {
void run_on(Simd isa, const double* packed, std::size_t b, std::size_t e, double* Z, std::size_t stride) {
  if (stride != kPanelLanes) return panel_scalar(packed, b, e, Z, stride);
  switch (isa) {
    case Simd::avx512: return panel_avx512(packed, b, e, Z);
    case Simd::avx2: return panel_avx2(packed, b, e, Z);
    default: return panel_scalar(packed, b, e, Z, stride);
  }
}
}  // namespace

void forward_panel(const double* packed, std::size_t b, std::size_t e, double* Z, std::size_t stride) {
  run_on(simd_path(), packed, b, e, Z, stride);
}

void forward_panel_on(const std::string& isa, const double* packed, std::size_t b, std::size_t e,
                      double* Z, std::size_t stride) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("SIMD path '" + isa + "' is not available here");
  run_on(want, packed, b, e, Z, stride);
}

namespace {
// out rows r0..r3 <- the columns of in rows a0..a3 (4 x 4 doubles).
__attribute__((target("avx2"))) inline void transpose4(const double* a0, const double* a1, const double* a2,
                                                       const double* a3, double* o0, double* o1, double* o2,
                                                       double* o3) {
  const __m256d x0 = _mm256_loadu_pd(a0), x1 = _mm256_loadu_pd(a1), x2 = _mm256_loadu_pd(a2),
                x3 = _mm256_loadu_pd(a3);
  const __m256d u0 = _mm256_unpacklo_pd(x0, x1), u1 = _mm256_unpackhi_pd(x0, x1),
                u2 = _mm256_unpacklo_pd(x2, x3), u3 = _mm256_unpackhi_pd(x2, x3);
  _mm256_storeu_pd(o0, _mm256_permute2f128_pd(u0, u2, 0x20));
  _mm256_storeu_pd(o1, _mm256_permute2f128_pd(u1, u3, 0x20));
  _mm256_storeu_pd(o2, _mm256_permute2f128_pd(u0, u2, 0x31));
  _mm256_storeu_pd(o3, _mm256_permute2f128_pd(u1, u3, 0x31));
}

// dst[c * dld + r] = src[r * sld + c] for r < nr, c < nc: 4 x 4 blocks, the edges element-wise.
__attribute__((target("avx2"))) void transpose_avx2(const double* src, std::size_t sld, std::size_t nr,
                                                    std::size_t nc, double* dst, std::size_t dld) {
  std::size_t r = 0;
  for (; r + 4 <= nr; r += 4) {
    std::size_t c = 0;
    for (; c + 4 <= nc; c += 4) {
      const double* s = src + r * sld + c;
      double* d = dst + c * dld + r;
      transpose4(s, s + sld, s + 2 * sld, s + 3 * sld, d, d + dld, d + 2 * dld, d + 3 * dld);
    }
    for (; c < nc; ++c)
      for (std::size_t q = r; q < r + 4; ++q) dst[c * dld + q] = src[q * sld + c];
  }
  for (; r < nr; ++r)
    for (std::size_t c = 0; c < nc; ++c) dst[c * dld + r] = src[r * sld + c];
}

void transpose_scalar(const double* src, std::size_t sld, std::size_t nr, std::size_t nc, double* dst,
                      std::size_t dld) {
  for (std::size_t r = 0; r < nr; ++r)
    for (std::size_t c = 0; c < nc; ++c) dst[c * dld + r] = src[r * sld + c];
}

void transpose(const double* src, std::size_t sld, std::size_t nr, std::size_t nc, double* dst, std::size_t dld) {
  if (simd_path() >= Simd::avx2) return transpose_avx2(src, sld, nr, nc, dst, dld);
  transpose_scalar(src, sld, nr, nc, dst, dld);
}
}  // namespace

void to_panel(const double* src, std::size_t ld, std::size_t m, std::size_t rows, double* Z, std::size_t stride) {
  transpose(src, ld, m, rows, Z, stride);  // lanes l < m
  for (std::size_t j = 0; j < rows; ++j)
    for (std::size_t l = m; l < stride; ++l) Z[j * stride + l] = 0.0;
}

void from_panel(const double* Z, std::size_t stride, std::size_t m, std::size_t rows, double* dst, std::size_t ld) {
  transpose(Z, stride, rows, m, dst, ld);
}

std::string panel_isa() { return simd_name(simd_path()); }

}  // namespace plab
