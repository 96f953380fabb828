// The least value (sixteen lanes at a time) and its first slot (eight a compare), the first of a
// given id (eight a compare) and the slots a test holds for (four a test).
#pragma once
#if defined(__AVX__)
#include <immintrin.h>
#endif
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace plab {

namespace detail {
// The least of value4(i) (four values at a time, sixteen lanes in four accumulators) and value(i)
// (the slots after the last whole vector) that is not NaN (+inf when none), each vector handed to
// seen4(i, x) and each value to seen(i, x) as it is taken: x < m ? x : m skips NaN, and a minimum
// is exact in any order (of -0 and +0 either).
template <class Value4, class Value, class Seen4, class Seen>
inline double least_of(std::size_t n, Value4 value4, Value value, Seen4 seen4, Seen seen) {
  using V4 = double __attribute__((vector_size(32)));
  constexpr int kAcc = 4;
  const double inf = std::numeric_limits<double>::infinity();
  V4 acc[kAcc];
  for (auto& a : acc) a = V4{inf, inf, inf, inf};
  std::size_t i = 0;
  for (; i + 4 * kAcc <= n; i += 4 * kAcc)
    for (int a = 0; a < kAcc; ++a) {
      const V4 x = value4(i + 4 * a);
      seen4(i + 4 * a, x);
      acc[a] = x < acc[a] ? x : acc[a];
    }
  for (; i + 4 <= n; i += 4) {
    const V4 x = value4(i);
    seen4(i, x);
    acc[0] = x < acc[0] ? x : acc[0];
  }
  double m = inf;
  for (const auto& a : acc)
    for (int l = 0; l < 4; ++l) m = a[l] < m ? a[l] : m;
  for (; i < n; ++i) {
    const double x = value(i);
    seen(i, x);
    m = x < m ? x : m;
  }
  return m;
}
}  // namespace detail

// The least of v[0..n) that is not NaN (+inf when none; n = 0 included): detail::least_of.
inline double least_value(const double* v, std::size_t n) {
  using V4 = double __attribute__((vector_size(32)));
  return detail::least_of(
      n,
      [v](std::size_t i) {
        V4 x;
        std::memcpy(&x, v + i, sizeof x);
        return x;
      },
      [v](std::size_t i) { return v[i]; }, [](std::size_t, const V4&) {}, [](std::size_t, double) {});
}

// The first slot i < n with v[i] == x (n when none; T int64_t or double): eight slots compared at
// a time, one vptest for the eight (NORMA's truncation finds its oldest term's slot by its id;
// four slots a compare and their lanes OR'd one by one cost a tenth of an a9a NORMA pass).
template <class T>
inline std::size_t first_equal(const T* v, std::size_t n, std::type_identity_t<T> x) {
  using D4 = double __attribute__((vector_size(32)));
  using I4 = int64_t __attribute__((vector_size(32)));
  using V4 = std::conditional_t<std::is_same_v<T, double>, D4, I4>;  // (vector_size on T itself is ignored)
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, int64_t>);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    V4 a, b;
    std::memcpy(&a, v + i, sizeof a);
    std::memcpy(&b, v + i + 4, sizeof b);
    const I4 hit = (a == x) | (b == x);
#if defined(__AVX__)
    if (!_mm256_testz_si256(reinterpret_cast<__m256i>(hit), reinterpret_cast<__m256i>(hit))) break;
#else
    if (hit[0] | hit[1] | hit[2] | hit[3]) break;
#endif
  }
  for (; i < n; ++i)
    if (v[i] == x) return i;
  return n;
}

// Represents: the serial scan `best = 0, m = +inf; for i < n: if v[i] < m: m = v[i], best = i`,
// i.e. the first slot of the least value (NaN never taken; 0 when no value is below +inf).
// Two passes: the least value m (least_value), then the first slot equal to m (first_equal). The
// serial scan takes that slot too: nothing before it is below m or equal to it (-0 and +0 compare
// equal, and either is "the first of the least"). One pass carrying each lane's slot took five
// operations a vector where these take one and a quarter (a ninth of a BPA-NN pass).
inline std::size_t first_min(const double* v, std::size_t n, double m) {
  return m < std::numeric_limits<double>::infinity() ? first_equal(v, n, m) : 0;
}
inline std::size_t first_min(const double* v, std::size_t n) { return first_min(v, n, least_value(v, n)); }

// v[i] = value4(i) for every i in steps of four (a vector of four doubles; value(i) for the last
// n mod 4 slots), returning least_value(v, n): the values' minimum taken as they are stored, one
// pass where storing them and least_value took two.
template <class Value4, class Value>
inline double store_least(double* v, std::size_t n, Value4 value4, Value value) {
  using V4 = double __attribute__((vector_size(32)));
  return detail::least_of(
      n, value4, value, [v](std::size_t i, const V4& x) { std::memcpy(v + i, &x, sizeof x); },
      [v](std::size_t i, double x) { v[i] = x; });
}

// Whether any lane of a mask of four int64_t lanes (0 or -1) is set: one vptest.
inline bool any_lane(const int64_t __attribute__((vector_size(32))) & m) {
#if defined(__AVX__)
  return !_mm256_testz_si256(reinterpret_cast<__m256i>(m), reinterpret_cast<__m256i>(m));
#else
  return (m[0] | m[1] | m[2] | m[3]) != 0;
#endif
}

// visit(i) for every slot i < n where hit(i) holds, in slot order, testing four slots at a time
// by hit4(i, mask) (their lane mask, int64_t lanes of 0 or -1): the hits are few, and scalar loops'
// compares and branches were most of a BPA-NN round's own time.
template <class Hit4, class Hit, class Visit>
void visit_hits(std::size_t n, Hit4 hit4, Hit hit, Visit visit) {
  using I4 = int64_t __attribute__((vector_size(32)));
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    I4 m;
    hit4(i, m);
    if (any_lane(m))
      for (std::size_t l = 0; l < 4; ++l)
        if (m[l]) visit(i + l);
  }
  for (; i < n; ++i)
    if (hit(i)) visit(i);
}

}  // namespace plab
