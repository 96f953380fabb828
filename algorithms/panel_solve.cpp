#include "algorithms/panel_solve.hpp"

#include <immintrin.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace plab {
namespace {

inline const double* row(const double* p, std::size_t i) { return p + i * (i + 1) / 2; }

// Rows [i, i + R) of lane l: the chains over j < i are done (acc[m]); finish the R x R diagonal
// block in j order, exactly the recurrence of the header (the SIMD paths do the same per lane).
inline void finish_rows(const double* p, std::size_t i, std::size_t R, double* acc, double* Z,
                        std::size_t stride, std::size_t l) {
  for (std::size_t m = 0; m < R; ++m) {
    const double* r = row(p, i + m);
    for (std::size_t c = 0; c < m; ++c) acc[m] = std::fma(r[i + c], Z[(i + c) * stride + l], acc[m]);
    double& z = Z[(i + m) * stride + l];
    z = (z - acc[m]) / r[i + m];
  }
}

// Scalar path: lane by lane, four rows at a time for four independent chains.
void panel_scalar(const double* p, std::size_t b, std::size_t e, double* Z, std::size_t stride) {
  for (std::size_t l = 0; l < stride; ++l) {
    std::size_t i = b;
    for (; i + 4 <= e; i += 4) {
      const double *r0 = row(p, i), *r1 = row(p, i + 1), *r2 = row(p, i + 2), *r3 = row(p, i + 3);
      double acc[4] = {0.0, 0.0, 0.0, 0.0};
      for (std::size_t j = 0; j < i; ++j) {
        const double z = Z[j * stride + l];
        acc[0] = std::fma(r0[j], z, acc[0]);
        acc[1] = std::fma(r1[j], z, acc[1]);
        acc[2] = std::fma(r2[j], z, acc[2]);
        acc[3] = std::fma(r3[j], z, acc[3]);
      }
      finish_rows(p, i, 4, acc, Z, stride, l);
    }
    for (; i < e; ++i) {
      const double* r = row(p, i);
      double acc = 0.0;
      for (std::size_t j = 0; j < i; ++j) acc = std::fma(r[j], Z[j * stride + l], acc);
      finish_rows(p, i, 1, &acc, Z, stride, l);
    }
  }
}

// AVX2: 2 rows x 24 lanes = 12 accumulators of 4 lanes.
__attribute__((target("avx2,fma"))) void panel_avx2(const double* p, std::size_t b, std::size_t e,
                                                    double* Z) {
  constexpr std::size_t S = kPanelLanes, V = S / 4;
  std::size_t i = b;
  for (; i + 2 <= e; i += 2) {
    const double *r0 = row(p, i), *r1 = row(p, i + 1);
    __m256d a[2][V];
    for (std::size_t m = 0; m < 2; ++m)
      for (std::size_t v = 0; v < V; ++v) a[m][v] = _mm256_setzero_pd();
    for (std::size_t j = 0; j < i; ++j) {
      const double* zj = Z + j * S;
      const __m256d l0 = _mm256_broadcast_sd(r0 + j), l1 = _mm256_broadcast_sd(r1 + j);
      for (std::size_t v = 0; v < V; ++v) {
        const __m256d z = _mm256_loadu_pd(zj + 4 * v);
        a[0][v] = _mm256_fmadd_pd(l0, z, a[0][v]);
        a[1][v] = _mm256_fmadd_pd(l1, z, a[1][v]);
      }
    }
    for (std::size_t m = 0; m < 2; ++m) {
      const double* r = row(p, i + m);
      for (std::size_t c = 0; c < m; ++c)
        for (std::size_t v = 0; v < V; ++v)
          a[m][v] = _mm256_fmadd_pd(_mm256_set1_pd(r[i + c]), _mm256_loadu_pd(Z + (i + c) * S + 4 * v), a[m][v]);
      const __m256d d = _mm256_set1_pd(r[i + m]);
      for (std::size_t v = 0; v < V; ++v) {
        double* z = Z + (i + m) * S + 4 * v;
        _mm256_storeu_pd(z, _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(z), a[m][v]), d));
      }
    }
  }
  if (i < e) panel_scalar(p, i, e, Z, S);
}

// AVX-512: 4 rows x 24 lanes = 12 accumulators of 8 lanes.
__attribute__((target("avx512f,fma"))) void panel_avx512(const double* p, std::size_t b, std::size_t e,
                                                         double* Z) {
  constexpr std::size_t S = kPanelLanes, V = S / 8;
  std::size_t i = b;
  for (; i + 4 <= e; i += 4) {
    const double* r[4] = {row(p, i), row(p, i + 1), row(p, i + 2), row(p, i + 3)};
    __m512d a[4][V];
    for (std::size_t m = 0; m < 4; ++m)
      for (std::size_t v = 0; v < V; ++v) a[m][v] = _mm512_setzero_pd();
    for (std::size_t j = 0; j < i; ++j) {
      const double* zj = Z + j * S;
      const __m512d z0 = _mm512_loadu_pd(zj), z1 = _mm512_loadu_pd(zj + 8), z2 = _mm512_loadu_pd(zj + 16);
      for (std::size_t m = 0; m < 4; ++m) {
        const __m512d l = _mm512_set1_pd(r[m][j]);
        a[m][0] = _mm512_fmadd_pd(l, z0, a[m][0]);
        a[m][1] = _mm512_fmadd_pd(l, z1, a[m][1]);
        a[m][2] = _mm512_fmadd_pd(l, z2, a[m][2]);
      }
    }
    for (std::size_t m = 0; m < 4; ++m) {
      for (std::size_t c = 0; c < m; ++c)
        for (std::size_t v = 0; v < V; ++v)
          a[m][v] = _mm512_fmadd_pd(_mm512_set1_pd(r[m][i + c]), _mm512_loadu_pd(Z + (i + c) * S + 8 * v), a[m][v]);
      const __m512d d = _mm512_set1_pd(r[m][i + m]);
      for (std::size_t v = 0; v < V; ++v) {
        double* z = Z + (i + m) * S + 8 * v;
        _mm512_storeu_pd(z, _mm512_div_pd(_mm512_sub_pd(_mm512_loadu_pd(z), a[m][v]), d));
      }
    }
  }
  if (i < e) panel_scalar(p, i, e, Z, S);
}

enum Isa { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

int best_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return kAvx2;
  return kScalar;
}

int isa_from_name(const std::string& s) {
  return s == "scalar" ? kScalar : s == "avx2" ? kAvx2 : s == "avx512" ? kAvx512 : -1;
}

int chosen_isa() {
  static const int isa = [] {
    int i = best_isa();
    if (const char* env = std::getenv("PLAB_SIMD")) {
      const int want = isa_from_name(env);
      if (want < 0) throw std::invalid_argument(std::string("PLAB_SIMD must be scalar, avx2 or avx512, not '") + env + "'");
      if (want < i) i = want;  // only ever a lower path than the CPU has
    }
    return i;
  }();
  return isa;
}

}  // namespace

namespace {
void run_on(int isa, const double* packed, std::size_t b, std::size_t e, double* Z, std::size_t stride) {
  if (stride != kPanelLanes) return panel_scalar(packed, b, e, Z, stride);
  switch (isa) {
    case kAvx512: return panel_avx512(packed, b, e, Z);
    case kAvx2: return panel_avx2(packed, b, e, Z);
    default: return panel_scalar(packed, b, e, Z, stride);
  }
}
}  // namespace

void forward_panel(const double* packed, std::size_t b, std::size_t e, double* Z, std::size_t stride) {
  run_on(chosen_isa(), packed, b, e, Z, stride);
}

void forward_panel_on(const std::string& isa, const double* packed, std::size_t b, std::size_t e,
                      double* Z, std::size_t stride) {
  const int want = isa_from_name(isa);
  if (want < 0 || want > best_isa()) throw std::invalid_argument("SIMD path '" + isa + "' is not available here");
  run_on(want, packed, b, e, Z, stride);
}

std::string panel_isa() {
  switch (chosen_isa()) {
    case kAvx512: return "avx512";
    case kAvx2: return "avx2";
    default: return "scalar";
  }
}

}  // namespace plab
