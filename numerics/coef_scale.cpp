#include "numerics/coef_scale.hpp"

#include "numerics/simd.hpp"

namespace plab {
namespace {

// One loop each for the generic build and the AVX-512 target; `g` null: the common c1.
#define PLAB_SCALE(NAME, ATTR)                                                          \
  ATTR void NAME(double* __restrict a, const double* __restrict g, std::size_t n, double c1) { \
    if (!g) {                                                                           \
      for (std::size_t i = 0; i < n; ++i) a[i] += c1 * a[i];                            \
      return;                                                                           \
    }                                                                                   \
    for (std::size_t i = 0; i < n; ++i) a[i] += (g[i] - 1.0) * a[i];                    \
  }
PLAB_SCALE(scale_generic, )
PLAB_SCALE(scale_avx512, __attribute__((target("avx512f,avx512vl,prefer-vector-width=512"))))
#undef PLAB_SCALE

void scale(double* a, const double* g, std::size_t n, double c1) {
  static const bool wide = simd_path() == Simd::avx512;
  (wide ? scale_avx512 : scale_generic)(a, g, n, c1);
}

}  // namespace

void scale_coefficients(double* a, std::size_t n, double c1) { scale(a, nullptr, n, c1); }
void scale_coefficients_each(double* a, const double* g, std::size_t n) { scale(a, g, n, 0.0); }

}  // namespace plab
