#include "numerics/coef_scale.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "numerics/simd.hpp"

namespace plab {
namespace {

// y_i = a_i + c1 a_i (g null) or a_i + (g_i - 1) a_i, LANES at a time, then the scalar tail: Store
// writes y_i to a_i, Max returns max(m, max_i |y_i|) (two accumulators: one waited on each max's
// latency; |y| is one AND; a maximum is exact in any order).
#define PLAB_SCALE_STEP(ACC, AT)                                                    \
  {                                                                                 \
    V x, f = cv;                                                                    \
    __builtin_memcpy(&x, a + (AT), sizeof x);                                       \
    if (g) __builtin_memcpy(&f, g + (AT), sizeof f), f -= one;                      \
    x += f * x;                                                                     \
    if (Store) __builtin_memcpy(a + (AT), &x, sizeof x);                            \
    if (Max) {                                                                      \
      const V y = reinterpret_cast<V>(reinterpret_cast<I>(x) & magnitude);          \
      ACC = ACC > y ? ACC : y;                                                      \
    }                                                                               \
  }
#define PLAB_SCALE(NAME, ATTR, LANES)                                                                       \
  template <bool Store, bool Max>                                                                           \
  ATTR double NAME(double* a, const double* g, std::size_t n, double c1, double m) {                        \
    using V = double __attribute__((vector_size(8 * LANES)));                                               \
    using I = int64_t __attribute__((vector_size(8 * LANES)));                                              \
    V cv, one, m0, m1;                                                                                      \
    I magnitude;                                                                                            \
    for (int l = 0; l < LANES; ++l) cv[l] = c1, one[l] = 1.0, m0[l] = m1[l] = m, magnitude[l] = INT64_MAX;  \
    std::size_t i = 0;                                                                                      \
    for (; i + 2 * LANES <= n; i += 2 * LANES) {                                                            \
      PLAB_SCALE_STEP(m0, i)                                                                                \
      PLAB_SCALE_STEP(m1, i + LANES)                                                                        \
    }                                                                                                       \
    for (; i + LANES <= n; i += LANES) PLAB_SCALE_STEP(m0, i)                                               \
    if (Max)                                                                                                \
      for (int l = 0; l < LANES; ++l) m = std::max(m, std::max(m0[l], m1[l]));                              \
    for (; i < n; ++i) {                                                                                    \
      const double y = a[i] + (g ? g[i] - 1.0 : c1) * a[i];                                                 \
      if (Store) a[i] = y;                                                                                  \
      if (Max) m = std::max(m, std::abs(y));                                                                \
    }                                                                                                       \
    return m;                                                                                               \
  }
PLAB_SCALE(scale_avx512, __attribute__((target("avx512f"))), 8)
PLAB_SCALE(scale_avx2, __attribute__((target("avx2"))), 4)
PLAB_SCALE(scale_scalar, , 1)
#undef PLAB_SCALE
#undef PLAB_SCALE_STEP

template <bool Store, bool Max>
double scale_on(Simd path, double* a, const double* g, std::size_t n, double c1, double m) {
  if (path == Simd::avx512) return scale_avx512<Store, Max>(a, g, n, c1, m);
  if (path == Simd::avx2) return scale_avx2<Store, Max>(a, g, n, c1, m);
  return scale_scalar<Store, Max>(a, g, n, c1, m);
}

Simd scale_path_named(const std::string& isa) {
  const Simd want = simd_parse(isa);
  if (want > simd_best()) throw std::invalid_argument("scale_coefficients path '" + isa + "' is not available here");
  return want;
}

}  // namespace

void scale_coefficients(double* a, std::size_t n, double c1) {
  static const Simd path = simd_path();
  scale_on<true, false>(path, a, nullptr, n, c1, 0.0);
}
void scale_coefficients_each(double* a, const double* g, std::size_t n) {
  static const Simd path = simd_path();
  scale_on<true, false>(path, a, g, n, 0.0, 0.0);
}
double scaled_max_abs(double* a, const double* g, std::size_t n, double c1, double m, bool store) {
  static const Simd path = simd_path();
  return store ? scale_on<true, true>(path, a, g, n, c1, m) : scale_on<false, true>(path, a, g, n, c1, m);
}
void scale_coefficients_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1) {
  scale_on<true, false>(scale_path_named(isa), a, g, n, c1, 0.0);
}
double scaled_max_abs_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1, double m,
                         bool store) {
  const Simd path = scale_path_named(isa);
  return store ? scale_on<true, true>(path, a, g, n, c1, m) : scale_on<false, true>(path, a, g, n, c1, m);
}

}  // namespace plab
