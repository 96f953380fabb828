#include "numerics/coef_scale.hpp"

#include <stdexcept>

#include "numerics/simd.hpp"

namespace plab {
namespace {

// a_i += c1 a_i (g null) or a_i += (g_i - 1) a_i, LANES at a time, then the scalar tail.
#define PLAB_SCALE(NAME, TARGET, LANES)                                                         \
  __attribute__((target(TARGET))) void NAME(double* a, const double* g, std::size_t n, double c1) { \
    using V = double __attribute__((vector_size(8 * LANES)));                                   \
    V cv, one;                                                                                  \
    for (int l = 0; l < LANES; ++l) cv[l] = c1, one[l] = 1.0;                                   \
    std::size_t i = 0;                                                                          \
    for (; i + LANES <= n; i += LANES) {                                                        \
      V x, f = cv;                                                                              \
      __builtin_memcpy(&x, a + i, sizeof x);                                                    \
      if (g) __builtin_memcpy(&f, g + i, sizeof f), f -= one;                                   \
      x += f * x;                                                                               \
      __builtin_memcpy(a + i, &x, sizeof x);                                                    \
    }                                                                                           \
    for (; i < n; ++i) a[i] += (g ? g[i] - 1.0 : c1) * a[i];                                    \
  }
PLAB_SCALE(scale_avx512, "avx512f", 8)
PLAB_SCALE(scale_avx2, "avx2", 4)
#undef PLAB_SCALE

void scale_scalar(double* a, const double* g, std::size_t n, double c1) {
  for (std::size_t i = 0; i < n; ++i) a[i] += (g ? g[i] - 1.0 : c1) * a[i];
}

void scale_on(Simd path, double* a, const double* g, std::size_t n, double c1) {
  if (path == Simd::avx512) return scale_avx512(a, g, n, c1);
  if (path == Simd::avx2) return scale_avx2(a, g, n, c1);
  scale_scalar(a, g, n, c1);
}

}  // namespace

void scale_coefficients(double* a, std::size_t n, double c1) {
  static const Simd path = simd_path();
  scale_on(path, a, nullptr, n, c1);
}
void scale_coefficients_each(double* a, const double* g, std::size_t n) {
  static const Simd path = simd_path();
  scale_on(path, a, g, n, 0.0);
}
void scale_coefficients_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("scale_coefficients path '" + isa + "' is not available here");
  scale_on(want, a, g, n, c1);
}

}  // namespace plab
