// The first slot of the least value (sixteen lanes at a time), the first of a given id (eight a
// compare) and the slots a test holds for (four a test).
#pragma once
#if defined(__AVX__)
#include <immintrin.h>
#endif
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace plab {

// Represents: the serial scan `best = 0, m = +inf; for i < n: if v[i] < m: m = v[i], best = i`,
// i.e. the first slot of the least value (NaN never taken; 0 when no value is below +inf).
// Lane l of accumulator a keeps the first least of the slots 4a + l, 4a + l + 16, ...; the 16 lanes
// then meet by (value, slot), which is the same slot the serial scan finds: a minimum is exact in
// any order. Four accumulators, not one: one waited on its compare and blend every four slots (the
// latency chain was two fifths of a BPA-S removal).
inline std::size_t first_min(const double* v, std::size_t n) {
  using V4 = double __attribute__((vector_size(32)));
  using I4 = int64_t __attribute__((vector_size(32)));
  constexpr int kAcc = 4;
  const double inf = std::numeric_limits<double>::infinity();
  V4 bv[kAcc];
  I4 bslot[kAcc], slot[kAcc];
  for (int a = 0; a < kAcc; ++a) {
    bv[a] = V4{inf, inf, inf, inf};
    bslot[a] = I4{0, 0, 0, 0};
    slot[a] = I4{4 * a, 4 * a + 1, 4 * a + 2, 4 * a + 3};
  }
  const I4 step = {4 * kAcc, 4 * kAcc, 4 * kAcc, 4 * kAcc};
  std::size_t i = 0;
  for (; i + 4 * kAcc <= n; i += 4 * kAcc) {
    for (int a = 0; a < kAcc; ++a) {
      V4 x;
      std::memcpy(&x, v + i + 4 * a, sizeof x);
      const I4 take = x < bv[a];
      bv[a] = take ? x : bv[a];
      bslot[a] = take ? slot[a] : bslot[a];
      slot[a] += step;
    }
  }
  double m = inf;
  std::size_t best = 0;
  for (int a = 0; a < kAcc; ++a)
    for (int l = 0; l < 4; ++l) {
      const auto s = static_cast<std::size_t>(bslot[a][l]);
      if (bv[a][l] < m || (bv[a][l] == m && bv[a][l] != inf && s < best)) m = bv[a][l], best = s;
    }
  for (; i < n; ++i)
    if (v[i] < m) m = v[i], best = i;
  return best;
}

// The first slot i < n with v[i] == x (n when none): eight slots compared at a time, one vptest
// for the eight (NORMA's truncation finds its oldest term's slot by its id; four slots a compare
// and their lanes OR'd one by one cost a tenth of an a9a NORMA pass).
inline std::size_t first_equal(const int64_t* v, std::size_t n, int64_t x) {
  using I4 = int64_t __attribute__((vector_size(32)));
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    I4 a, b;
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
#if defined(__AVX__)
    if (!_mm256_testz_si256(reinterpret_cast<__m256i>(m), reinterpret_cast<__m256i>(m)))  // one vptest
#else
    if (m[0] | m[1] | m[2] | m[3])
#endif
      for (std::size_t l = 0; l < 4; ++l)
        if (m[l]) visit(i + l);
  }
  for (; i < n; ++i)
    if (hit(i)) visit(i);
}

}  // namespace plab
