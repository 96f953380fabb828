// Represents: a sum of products a_i b_i held in kSumLanes interleaved partial sums (term i goes to
// lane i mod kSumLanes, each lane in term order), finished by halving pairwise in a fixed order
// (docs/learners.md#lane-sums).
// Ensures: the same IEEE operations whatever vector width the compiler picks (a rounded product, a
// rounded sum: -ffp-contract=off), so the same bits on every SIMD path; the lanes' adds do not wait
// on each other, where one chain waits the add latency (3 cycles on Zen 4) on every term.
#pragma once
#include <cstddef>

namespace plab {

inline constexpr std::size_t kSumLanes = 16;

struct LaneSum {
  double acc[kSumLanes];

  // Zeros by four vector stores: `acc[16] = {}` became a `rep stos`, dearer than the rest of a
  // budget learner's round outside its kernel row.
  LaneSum() {
    using V4 = double __attribute__((vector_size(32)));
    const V4 z = {};
    for (std::size_t q = 0; q < kSumLanes / 4; ++q) __builtin_memcpy(acc + 4 * q, &z, sizeof z);
  }

  // Terms first .. first + n - 1: a[i] b[i] is term first + i.
  void add(const double* a, const double* b, std::size_t n, std::size_t first = 0) {
    double s[kSumLanes];  // a local copy: stores to acc could alias a and b, these cannot
    __builtin_memcpy(s, acc, sizeof s);
    std::size_t i = 0;
    for (; i < n && (first + i) % kSumLanes != 0; ++i) s[(first + i) % kSumLanes] += a[i] * b[i];
    if (i + kSumLanes <= n) {
      // Four vectors of four lanes (GCC vector types: element-wise IEEE operations, whatever
      // instructions carry them); a plain loop over s[16] was vectorised with shuffles and spills.
      using V4 = double __attribute__((vector_size(32)));
      V4 v[4];
      __builtin_memcpy(v, s, sizeof v);
      for (; i + kSumLanes <= n; i += kSumLanes)
        for (int q = 0; q < 4; ++q) {
          V4 x, y;
          __builtin_memcpy(&x, a + i + 4 * q, sizeof x);
          __builtin_memcpy(&y, b + i + 4 * q, sizeof y);
          v[q] += x * y;
        }
      __builtin_memcpy(s, v, sizeof v);
    }
    for (; i < n; ++i) s[(first + i) % kSumLanes] += a[i] * b[i];
    __builtin_memcpy(acc, s, sizeof s);
  }
  // One term, number `index`.
  void add_term(std::size_t index, double a, double b) { acc[index % kSumLanes] += a * b; }
  // Halving: lane l += lane l + h for h = 8, 4, 2, 1. In vector registers: a loop over a copy of
  // acc went through the stack in 16-byte stores read back as 32-byte loads, which store
  // forwarding cannot serve (a stall a round).
  double total() const {
    static_assert(kSumLanes == 16);
    using V4 = double __attribute__((vector_size(32)));
    using V2 = double __attribute__((vector_size(16)));
    V4 a, b, c, d;
    __builtin_memcpy(&a, acc, sizeof a);
    __builtin_memcpy(&b, acc + 4, sizeof b);
    __builtin_memcpy(&c, acc + 8, sizeof c);
    __builtin_memcpy(&d, acc + 12, sizeof d);
    a += c;  // h = 8
    b += d;
    a += b;  // h = 4
    V2 lo = {a[0], a[1]};
    const V2 hi = {a[2], a[3]};
    lo += hi;  // h = 2
    return lo[0] + lo[1];
  }
};

// sum_i a[i], i < n, as a LaneSum's terms a[i] (term i): the same lanes and halving, no products.
inline double lane_total(const double* a, std::size_t n) {
  using V4 = double __attribute__((vector_size(32)));
  V4 v[4] = {};
  std::size_t i = 0;
  for (; i + kSumLanes <= n; i += kSumLanes)
    for (int q = 0; q < 4; ++q) {
      V4 x;
      __builtin_memcpy(&x, a + i + 4 * q, sizeof x);
      v[q] += x;
    }
  LaneSum s;
  __builtin_memcpy(s.acc, v, sizeof v);
  for (; i < n; ++i) s.acc[i % kSumLanes] += a[i];
  return s.total();
}

// sum_i a[i] b[i], i < n, as a LaneSum.
inline double lane_dot(const double* a, const double* b, std::size_t n) {
  LaneSum s;
  s.add(a, b, n);
  return s.total();
}

}  // namespace plab

namespace plab {

// lane_dot(a0, b, n) and lane_dot(a1, b, n), the same bits, computed side by side: the two rows'
// eight vector sums hide the add latency that one row's four wait on, and b is loaded once (NOGD's
// map M k, 20 rows against one kernel row a round).
inline void lane_dot2(const double* a0, const double* a1, const double* b, std::size_t n, double& d0, double& d1) {
  using V4 = double __attribute__((vector_size(32)));
  V4 u[4] = {}, v[4] = {};
  std::size_t i = 0;
  for (; i + kSumLanes <= n; i += kSumLanes)
    for (int q = 0; q < 4; ++q) {
      V4 x0, x1, y;
      __builtin_memcpy(&x0, a0 + i + 4 * q, sizeof x0);
      __builtin_memcpy(&x1, a1 + i + 4 * q, sizeof x1);
      __builtin_memcpy(&y, b + i + 4 * q, sizeof y);
      asm("" : "+v"(y));  // y held in a register for both rows (GCC otherwise loads it again for the second)
      u[q] += x0 * y;
      v[q] += x1 * y;
    }
  LaneSum s0, s1;
  __builtin_memcpy(s0.acc, u, sizeof u);
  __builtin_memcpy(s1.acc, v, sizeof v);
  for (; i < n; ++i) {
    s0.add_term(i, a0[i], b[i]);
    s1.add_term(i, a1[i], b[i]);
  }
  d0 = s0.total();
  d1 = s1.total();
}

}  // namespace plab
