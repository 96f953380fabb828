#include "algorithms/fast_exp.hpp"

#include <immintrin.h>

#include <algorithm>

// glibc's vector exp (libmvec, documented error <= 4 ulp), called directly so that every element
// goes through the same function: a kernel value must not depend on its position in the row.
extern "C" __m256d _ZGVdN4v_exp(__m256d);

// AVX2 by attribute as well as by the Release flags (CMakeLists.txt), so other build types compile.
#define PLAB_AVX2 __attribute__((target("avx2,fma")))

namespace plab {
namespace {
PLAB_AVX2 inline __m256d gaussian4(__m256d neg_gamma, __m256d xs, __m256d sq, __m256d dot) {
  const __m256d d2 = _mm256_sub_pd(_mm256_add_pd(sq, xs), _mm256_mul_pd(_mm256_set1_pd(2.0), dot));
  return _ZGVdN4v_exp(_mm256_mul_pd(neg_gamma, _mm256_max_pd(d2, _mm256_setzero_pd())));  // clamp round-off
}
}  // namespace

PLAB_AVX2 void rbf_from_dots(double gamma, double xs, const double* __restrict sq, double* __restrict out,
                   std::size_t n) {
  const __m256d g = _mm256_set1_pd(-gamma), x = _mm256_set1_pd(xs);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(out + i, gaussian4(g, x, _mm256_loadu_pd(sq + i), _mm256_loadu_pd(out + i)));
  if (i < n) {  // the tail through the same vector function, zero-padded
    alignas(32) double s[4] = {0, 0, 0, 0}, o[4] = {0, 0, 0, 0};
    std::copy(sq + i, sq + n, s);
    std::copy(out + i, out + n, o);
    _mm256_store_pd(o, gaussian4(g, x, _mm256_load_pd(s), _mm256_load_pd(o)));
    std::copy(o, o + (n - i), out + i);
  }
}
}  // namespace plab
