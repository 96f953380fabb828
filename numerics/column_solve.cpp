#include "numerics/column_solve.hpp"

#include "numerics/panel_solve.hpp"
#include "numerics/simd.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace plab {

void FactorColumns::append(const double* row) {
  const std::size_t R = kBlockRows, b = n_ / R, m = n_ % R;
  if (m == 0) {  // a new block, zero above the diagonal and in the rows to come
    const std::size_t need = offset(b + 1);
    if (need > c_.capacity()) c_.reserve(std::max(need, 2 * c_.capacity()));
    c_.resize(need, 0.0);
  }
  double* blk = c_.data() + offset(b);
  for (std::size_t j = 0; j <= n_; ++j) blk[j * R + m] = row[j];
  ++n_;
}

void FactorColumns::assign(const double* packed, std::size_t n) {
  c_.clear();
  n_ = 0;
  for (std::size_t i = 0; i < n; ++i) append(packed + i * (i + 1) / 2);
}

namespace {

// Lane m of vector v is row i0 + W v + m of the block at i0 (R = W V = kBlockRows rows). The
// main part streams the block's columns j < i0 in j order, with the chunk totals of panel_solve.hpp
// at the same absolute columns (kept in memory: touched once per kPanelChunk columns). The diagonal
// block then finishes row i0 + c (its division) and adds column i0 + c to every lane; above the
// diagonal and past the last row the block holds zeros, so lanes already finished or past the end
// only add 0 z.
#define PLAB_COLUMN_KERNEL(NAME, TARGET, VEC, W, ZERO, LOAD, STORE, SET1, FMA, ADD)                   \
  __attribute__((target(TARGET))) void NAME(const FactorColumns& L, double* z) {                    \
    constexpr std::size_t R = FactorColumns::kBlockRows, V = R / (W);                               \
    const std::size_t n = L.size();                                                                 \
    alignas(64) double part[R], acc[R];                                                             \
    for (std::size_t i0 = 0; i0 < n; i0 += R) {                                                     \
      const double* blk = L.block(i0 / R);                                                          \
      VEC a[V];                                                                                     \
      for (std::size_t v = 0; v < V; ++v) { a[v] = ZERO(); STORE(acc + (W) * v, ZERO()); }          \
      for (std::size_t jb = 0; jb < i0; jb += kPanelChunk) {                                        \
        const std::size_t je = std::min(i0, jb + kPanelChunk);                                      \
        for (std::size_t j = jb; j < je; ++j) {                                                     \
          const VEC zj = SET1(z[j]);                                                                \
          const double* col = blk + j * R;                                                          \
          for (std::size_t v = 0; v < V; ++v) a[v] = FMA(LOAD(col + (W) * v), zj, a[v]);            \
        }                                                                                           \
        if (je % kPanelChunk == 0)                                                                  \
          for (std::size_t v = 0; v < V; ++v) {                                                     \
            STORE(acc + (W) * v, ADD(LOAD(acc + (W) * v), a[v]));                                   \
            a[v] = ZERO();                                                                          \
          }                                                                                         \
      }                                                                                             \
      for (std::size_t v = 0; v < V; ++v) STORE(part + (W) * v, a[v]);                              \
      const std::size_t rows = std::min(R, n - i0);                                                 \
      for (std::size_t c = 0; c < rows; ++c) {                                                      \
        const std::size_t i = i0 + c;                                                               \
        const double* col = blk + i * R;                                                            \
        const double zi = (z[i] - (acc[c] + part[c])) / col[c];                                     \
        z[i] = zi;                                                                                  \
        const VEC zv = SET1(zi);                                                                    \
        for (std::size_t v = 0; v < V; ++v)                                                         \
          STORE(part + (W) * v, FMA(LOAD(col + (W) * v), zv, LOAD(part + (W) * v)));                \
        if ((i + 1) % kPanelChunk == 0)                                                             \
          for (std::size_t v = 0; v < V; ++v) {                                                     \
            STORE(acc + (W) * v, ADD(LOAD(acc + (W) * v), LOAD(part + (W) * v)));                   \
            STORE(part + (W) * v, ZERO());                                                          \
          }                                                                                         \
      }                                                                                             \
    }                                                                                               \
  }

PLAB_COLUMN_KERNEL(columns_avx2, "avx2,fma", __m256d, 4, _mm256_setzero_pd, _mm256_loadu_pd, _mm256_store_pd,
                   _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd)
PLAB_COLUMN_KERNEL(columns_avx512, "avx512f,fma", __m512d, 8, _mm512_setzero_pd, _mm512_loadu_pd,
                   _mm512_store_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd)
#undef PLAB_COLUMN_KERNEL

// The recurrence row by row (panel_solve.hpp's, one lane), for CPUs without AVX2.
void columns_scalar(const FactorColumns& L, double* z) {
  for (std::size_t i = 0; i < L.size(); ++i) {
    double acc = 0.0, part = 0.0;
    for (std::size_t j = 0; j < i; ++j) {
      part = std::fma(L(i, j), z[j], part);
      if ((j + 1) % kPanelChunk == 0) { acc += part; part = 0.0; }
    }
    z[i] = (z[i] - (acc + part)) / L(i, i);
  }
}

void columns_on(Simd isa, const FactorColumns& L, double* z) {
  switch (isa) {
    case Simd::avx512: return columns_avx512(L, z);
    case Simd::avx2: return columns_avx2(L, z);
    default: return columns_scalar(L, z);
  }
}

}  // namespace

void forward_columns(const FactorColumns& L, double* z) { columns_on(simd_path(), L, z); }

void forward_columns_on(const std::string& isa, const FactorColumns& L, double* z) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("SIMD path '" + isa + "' is not available here");
  columns_on(want, L, z);
}

}  // namespace plab
