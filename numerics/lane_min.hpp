// The first slot of the least value, four lanes at a time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace plab {

// Represents: the serial scan `best = 0, m = +inf; for i < n: if v[i] < m: m = v[i], best = i`,
// i.e. the first slot of the least value (NaN never taken; 0 when no value is below +inf).
// Lane l keeps the first least of the slots l, l + 4, ...; the lanes then meet by (value, slot),
// which is the same slot the serial scan finds: a minimum is exact in any order.
inline std::size_t first_min(const double* v, std::size_t n) {
  using V4 = double __attribute__((vector_size(32)));
  using I4 = int64_t __attribute__((vector_size(32)));
  const double inf = std::numeric_limits<double>::infinity();
  V4 bv = {inf, inf, inf, inf};
  I4 bslot = {0, 0, 0, 0}, slot = {0, 1, 2, 3};
  const I4 four = {4, 4, 4, 4};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4, slot += four) {
    V4 x;
    std::memcpy(&x, v + i, sizeof x);
    const I4 take = x < bv;
    bv = take ? x : bv;
    bslot = take ? slot : bslot;
  }
  double m = inf;
  std::size_t best = 0;
  for (int l = 0; l < 4; ++l) {
    const auto s = static_cast<std::size_t>(bslot[l]);
    if (bv[l] < m || (bv[l] == m && bv[l] != inf && s < best)) m = bv[l], best = s;
  }
  for (; i < n; ++i)
    if (v[i] < m) m = v[i], best = i;
  return best;
}

}  // namespace plab
