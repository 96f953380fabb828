#include "numerics/support_set.hpp"

#include <sys/mman.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <new>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace plab {
namespace {

SupportLayout from_env() {
  const char* env = std::getenv("PLAB_LAYOUT");
  if (!env || !*env) return SupportLayout::automatic;
  const std::string s = env;
  if (s == "dense") return SupportLayout::dense;
  if (s == "sparse") return SupportLayout::sparse;
  if (s == "bits") return SupportLayout::bits;
  if (s == "auto") return SupportLayout::automatic;
  throw std::invalid_argument("PLAB_LAYOUT must be dense, sparse, bits or auto, not '" + s + "'");
}

std::atomic<SupportLayout>& current() {
  static std::atomic<SupportLayout> layout{from_env()};
  return layout;
}

// acc[l] = acc[l] + a[j] * K[l * ld + j] for j < rows and l < kPanelLanes (rows of lanes >= m
// repeat lane m - 1 and are dropped by the caller), each lane in j order: the chain of
// KernelExpansion::dot_alpha (a rounded product, then a rounded sum: -ffp-contract=off). The 24
// chains advance together, so the add latency that bounds a single chain is hidden; with AVX2 the
// lanes are the vector dimension, each vector of 4 lanes x 2 columns gathered from the lane-major
// rows by two 128-bit loads, an insert and an unpack (no transposed copy).
void lane_dots(const double* a, const double* K, std::size_t ld, std::size_t m, std::size_t rows, double* acc) {
  const double* r[kPanelLanes];
  for (std::size_t l = 0; l < kPanelLanes; ++l) r[l] = K + std::min(l, m - 1) * ld;
  std::size_t j = 0;
#if defined(__AVX2__)
  // Two passes of 12 lanes: 3 independent chains of 4 lanes, 12 row pointers (one pass of 24 spills
  // its pointers: the a9a kernel Perceptron pass took 30% longer).
  for (std::size_t h = 0; h < kPanelLanes; h += 12) {
    const double* const* q = r + h;
    __m256d s0 = _mm256_loadu_pd(acc + h), s1 = _mm256_loadu_pd(acc + h + 4), s2 = _mm256_loadu_pd(acc + h + 8);
    for (j = 0; j + 2 <= rows; j += 2) {
      const __m256d a0 = _mm256_set1_pd(a[j]), a1 = _mm256_set1_pd(a[j + 1]);
      // (q0_j, q0_j+1, q2_j, q2_j+1) and (q1_j, q1_j+1, q3_j, q3_j+1) -> columns j and j + 1 of 4 lanes
      const auto cols = [&](const double* const* p, __m256d& s) {
        const __m256d t0 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p[0] + j)), _mm_loadu_pd(p[2] + j), 1);
        const __m256d t1 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p[1] + j)), _mm_loadu_pd(p[3] + j), 1);
        s = _mm256_add_pd(s, _mm256_mul_pd(a0, _mm256_unpacklo_pd(t0, t1)));
        s = _mm256_add_pd(s, _mm256_mul_pd(a1, _mm256_unpackhi_pd(t0, t1)));
      };
      cols(q, s0);
      cols(q + 4, s1);
      cols(q + 8, s2);
    }
    _mm256_storeu_pd(acc + h, s0);
    _mm256_storeu_pd(acc + h + 4, s1);
    _mm256_storeu_pd(acc + h + 8, s2);
  }
#endif
  for (; j < rows; ++j)
    for (std::size_t l = 0; l < kPanelLanes; ++l) acc[l] = acc[l] + a[j] * r[l][j];
}

}  // namespace

void KernelExpansion::scores(const Example* xs, std::size_t m, double* f) const {
  if (m > kPanelLanes) throw std::invalid_argument("KernelExpansion::scores: more rounds than kPanelLanes");
  if (m == 0) return;
  double acc[kPanelLanes] = {};
  const std::size_t n = size(), T = kScoreTile;
  tile_.resize(m * T);
  for (std::size_t b = 0; b < n; b += T) {
    const std::size_t e = std::min(n, b + T);
    sv.kernel_rows_range(kernel, xs, m, b, e, tile_.data(), T);
    lane_dots(alpha.data() + b, tile_.data(), T, m, e - b, acc);
  }
  std::copy_n(acc, m, f);
}

void* huge_allocate(std::size_t bytes) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  if (bytes < 2 * kHuge) {  // 64-byte aligned (rows panel_dots may stream)
    if (void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + (bytes ? 0 : 64))) return p;
    throw std::bad_alloc();
  }
  const std::size_t size = (bytes + kHuge - 1) / kHuge * kHuge;
  void* p = std::aligned_alloc(kHuge, size);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);  // advice only: without huge pages the memory works the same
#endif
  return p;
}

SupportLayout support_layout_default() { return current().load(std::memory_order_relaxed); }
void set_support_layout_default(SupportLayout layout) { current().store(layout, std::memory_order_relaxed); }

}  // namespace plab
