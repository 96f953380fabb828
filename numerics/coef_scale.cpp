#include "numerics/coef_scale.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "numerics/simd.hpp"

#include <immintrin.h>

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

// removal_probabilities, LANES at a time, FMA the fused multiply-add of V (the quotient a / b from
// z = RN(1/b): q = a z, r = a - b q exact, q + r z).
#define PLAB_PROBS(NAME, ATTR, LANES, FMA, FNMA)                                                         \
  ATTR void NAME(double* w, double* g, std::size_t n, double sum, double c, bool markstein) {             \
    using V = double __attribute__((vector_size(8 * LANES)));                                            \
    const double d = static_cast<double>(n - 1);                                                         \
    V vs, zs, vd, zd, cv, one;                                                                           \
    for (int l = 0; l < LANES; ++l) vs[l] = sum, zs[l] = 1.0 / sum, vd[l] = d, zd[l] = 1.0 / d, cv[l] = c, one[l] = 1.0; \
    const auto quotient = [&](V a, V b, V z) ATTR {                                                      \
      if (!markstein) return a / b;                                                                      \
      const V q = a * z;                                                                                 \
      return FMA(FNMA(b, q, a), z, q);                                                                   \
    };                                                                                                   \
    std::size_t i = 0;                                                                                   \
    for (; i + LANES <= n; i += LANES) {                                                                 \
      V x;                                                                                               \
      __builtin_memcpy(&x, w + i, sizeof x);                                                             \
      x = quotient(one - quotient(x, vs, zs), vd, zd);                                                   \
      __builtin_memcpy(w + i, &x, sizeof x);                                                             \
      x = cv / (one - x);                                                                                \
      __builtin_memcpy(g + i, &x, sizeof x);                                                             \
    }                                                                                                    \
    for (; i < n; ++i) w[i] = (1.0 - w[i] / sum) / d, g[i] = c / (1.0 - w[i]);                          \
  }
#define PLAB_FMA512(a, b, c) reinterpret_cast<V>(_mm512_fmadd_pd(reinterpret_cast<__m512d>(a), reinterpret_cast<__m512d>(b), reinterpret_cast<__m512d>(c)))
#define PLAB_FNMA512(a, b, c) reinterpret_cast<V>(_mm512_fnmadd_pd(reinterpret_cast<__m512d>(a), reinterpret_cast<__m512d>(b), reinterpret_cast<__m512d>(c)))
#define PLAB_FMA256(a, b, c) reinterpret_cast<V>(_mm256_fmadd_pd(reinterpret_cast<__m256d>(a), reinterpret_cast<__m256d>(b), reinterpret_cast<__m256d>(c)))
#define PLAB_FNMA256(a, b, c) reinterpret_cast<V>(_mm256_fnmadd_pd(reinterpret_cast<__m256d>(a), reinterpret_cast<__m256d>(b), reinterpret_cast<__m256d>(c)))
PLAB_PROBS(probs_avx512, __attribute__((target("avx512f,fma"))), 8, PLAB_FMA512, PLAB_FNMA512)
PLAB_PROBS(probs_avx2, __attribute__((target("avx2,fma"))), 4, PLAB_FMA256, PLAB_FNMA256)
#undef PLAB_FMA512
#undef PLAB_FNMA512
#undef PLAB_FMA256
#undef PLAB_FNMA256
#undef PLAB_PROBS
// The scalar path: the divisions themselves (the tail of the vector paths).
void probs_scalar(double* w, double* g, std::size_t n, double sum, double c, bool) {
  const double d = static_cast<double>(n - 1);
  for (std::size_t i = 0; i < n; ++i) w[i] = (1.0 - w[i] / sum) / d, g[i] = c / (1.0 - w[i]);
}

void probs_on(Simd path, double* w, double* g, std::size_t n, double sum, double c, bool markstein) {
  if (path == Simd::avx512) return probs_avx512(w, g, n, sum, c, markstein);
  if (path == Simd::avx2) return probs_avx2(w, g, n, sum, c, markstein);
  probs_scalar(w, g, n, sum, c, markstein);
}

// pair_removal_costs, LANES at a time (the neighbour's k_tj gathered lane by lane: vgatherqpd was
// slower on Intel), the least taken as the costs are stored (x < m ? x : m skips NaN).
#define PLAB_PAIR_COSTS(NAME, ATTR, LANES)                                                                 \
  template <bool Unit>                                                                                     \
  ATTR double NAME(const double* a, const double* krr, const double* krt, const double* krj,               \
                   const double* kjj, const int64_t* jj, std::size_t n, double ktt, double singular,       \
                   double* q) {                                                                            \
    using V = double __attribute__((vector_size(8 * LANES)));                                              \
    using I = int64_t __attribute__((vector_size(8 * LANES)));                                             \
    const double inf = std::numeric_limits<double>::infinity();                                            \
    V m0, m1, vt, vs, one, two, zero;                                                                      \
    for (int l = 0; l < LANES; ++l)                                                                        \
      m0[l] = m1[l] = inf, vt[l] = ktt, vs[l] = singular, one[l] = 1.0, two[l] = 2.0, zero[l] = 0.0;        \
    const auto cost = [&](std::size_t i) ATTR {                                                            \
      V va, vrr, vrt, vrj, vjj, vtj;                                                                       \
      I vj;                                                                                                \
      __builtin_memcpy(&va, a + i, sizeof va);                                                             \
      __builtin_memcpy(&vrr, krr + i, sizeof vrr);                                                         \
      __builtin_memcpy(&vrt, krt + i, sizeof vrt);                                                         \
      __builtin_memcpy(&vrj, krj + i, sizeof vrj);                                                         \
      __builtin_memcpy(&vjj, kjj + i, sizeof vjj);                                                         \
      __builtin_memcpy(&vj, jj + i, sizeof vj);                                                            \
      const I has_j = vj >= 0;                                                                             \
      for (int l = 0; l < LANES; ++l) vtj[l] = krt[vj[l] & has_j[l]];                                      \
      vtj = has_j ? vtj : zero;                                                                            \
      const V det = vt * vjj - vtj * vtj;                                                                  \
      const I pair = has_j & (det > vs * vt * vjj);                                                        \
      const V on_pair = va * va * (vrr - (vjj * vrt * vrt - two * vtj * vrt * vrj + vt * vrj * vrj) / (pair ? det : one)); \
      const V on_self = Unit ? va * va * (vrr - vrt * vrt) : va * va * (vrr - vrt * vrt / vt);             \
      return pair ? on_pair : on_self;                                                                     \
    };                                                                                                     \
    std::size_t i = 0;                                                                                     \
    for (; i + 2 * LANES <= n; i += 2 * LANES) {                                                           \
      const V x = cost(i), y = cost(i + LANES);                                                            \
      __builtin_memcpy(q + i, &x, sizeof x);                                                               \
      __builtin_memcpy(q + i + LANES, &y, sizeof y);                                                       \
      m0 = x < m0 ? x : m0;                                                                                \
      m1 = y < m1 ? y : m1;                                                                                \
    }                                                                                                      \
    double m = inf;                                                                                        \
    for (int l = 0; l < LANES; ++l) m = m0[l] < m ? m0[l] : m, m = m1[l] < m ? m1[l] : m;                  \
    for (; i < n; ++i) {                                                                                   \
      const bool has = jj[i] >= 0;                                                                         \
      const double tj = has ? krt[jj[i]] : 0.0, det = ktt * kjj[i] - tj * tj;                              \
      const bool pair = has && det > singular * ktt * kjj[i];                                              \
      const double x =                                                                                     \
          pair ? a[i] * a[i] * (krr[i] - (kjj[i] * krt[i] * krt[i] - 2.0 * tj * krt[i] * krj[i] + ktt * krj[i] * krj[i]) / det) \
          : Unit ? a[i] * a[i] * (krr[i] - krt[i] * krt[i])                                                \
                 : a[i] * a[i] * (krr[i] - krt[i] * krt[i] / ktt);                                         \
      q[i] = x;                                                                                            \
      m = x < m ? x : m;                                                                                   \
    }                                                                                                      \
    return m;                                                                                              \
  }
PLAB_PAIR_COSTS(pair_costs_avx512, __attribute__((target("avx512f"))), 8)
PLAB_PAIR_COSTS(pair_costs_avx2, __attribute__((target("avx2"))), 4)
PLAB_PAIR_COSTS(pair_costs_scalar, , 1)
#undef PLAB_PAIR_COSTS

double pair_costs_on(Simd path, const double* a, const double* krr, const double* krt, const double* krj,
                     const double* kjj, const int64_t* jj, std::size_t n, double ktt, double singular, double* q) {
  const auto run = [&](auto unit) {
    constexpr bool U = decltype(unit)::value;
    if (path == Simd::avx512) return pair_costs_avx512<U>(a, krr, krt, krj, kjj, jj, n, ktt, singular, q);
    if (path == Simd::avx2) return pair_costs_avx2<U>(a, krr, krt, krj, kjj, jj, n, ktt, singular, q);
    return pair_costs_scalar<U>(a, krr, krt, krj, kjj, jj, n, ktt, singular, q);
  };
  return ktt == 1.0 ? run(std::true_type{}) : run(std::false_type{});  // k_tt = 1: krt^2 / ktt is krt^2
}

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
void removal_probabilities(double* w, double* g, std::size_t n, double sum, double c, bool markstein) {
  static const Simd path = simd_path();
  probs_on(path, w, g, n, sum, c, markstein);
}
void removal_probabilities_on(const std::string& isa, double* w, double* g, std::size_t n, double sum, double c,
                              bool markstein) {
  probs_on(scale_path_named(isa), w, g, n, sum, c, markstein);
}
double pair_removal_costs(const double* a, const double* krr, const double* krt, const double* krj, const double* kjj,
                          const int64_t* jj, std::size_t n, double ktt, double singular, double* q) {
  static const Simd path = simd_path();
  return pair_costs_on(path, a, krr, krt, krj, kjj, jj, n, ktt, singular, q);
}
double pair_removal_costs_on(const std::string& isa, const double* a, const double* krr, const double* krt,
                             const double* krj, const double* kjj, const int64_t* jj, std::size_t n, double ktt,
                             double singular, double* q) {
  return pair_costs_on(scale_path_named(isa), a, krr, krt, krj, kjj, jj, n, ktt, singular, q);
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
