// Lane sums (numerics/lane_sum.hpp, docs/learners.md#lane-sums) against the rule written out
// plainly: term i into lane i mod 16, each lane in term order, then halved pairwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/random.hpp"
#include "tests/test_util.hpp"
#include "numerics/coef_scale.hpp"
#include "numerics/common_divisor.hpp"
#include "numerics/lane_dots.hpp"
#include "numerics/lane_min.hpp"
#include "numerics/lane_sum.hpp"
#include "numerics/simd.hpp"

using namespace plab;

namespace {

double rule(const std::vector<double>& a, const std::vector<double>& b, std::size_t n) {
  double lane[16] = {};
  for (std::size_t i = 0; i < n; ++i) {
    const double p = a[i] * b[i];
    lane[i % 16] = lane[i % 16] + p;
  }
  for (std::size_t h = 8; h > 0; h /= 2)
    for (std::size_t l = 0; l < h; ++l) lane[l] = lane[l] + lane[l + h];
  return lane[0];
}

uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }

}  // namespace

TEST(LaneSum, DotAndPairOfDotsFollowTheRule) {
  const uint64_t seed = 20261129;
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  for (std::size_t n = 0; n < 140; ++n) {
    std::vector<double> a0(n), a1(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {  // magnitudes far apart, so the order shows in the bits
      a0[i] = rng.normal() * static_cast<double>(1u << (i % 23));
      a1[i] = rng.normal() / static_cast<double>(1u << (i % 17));
      b[i] = rng.normal();
    }
    const double r0 = rule(a0, b, n), r1 = rule(a1, b, n);
    EXPECT_EQ(bits(lane_dot(a0.data(), b.data(), n)), bits(r0)) << "n=" << n;
    double d0 = -1.0, d1 = -1.0;
    lane_dot2(a0.data(), a1.data(), b.data(), n, d0, d1);
    EXPECT_EQ(bits(d0), bits(r0)) << "n=" << n;
    EXPECT_EQ(bits(d1), bits(r1)) << "n=" << n;
  }
}

// lane_total (BOGD++'s sum of weights): the rule's sum of the values themselves (products by 1 are exact).
TEST(LaneSum, TotalFollowsTheRule) {
  const uint64_t seed = 20261202;
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  for (std::size_t n = 0; n < 140; ++n) {
    std::vector<double> a(n), one(n, 1.0);
    for (std::size_t i = 0; i < n; ++i) a[i] = rng.normal() * static_cast<double>(1u << (i % 23));
    EXPECT_EQ(bits(lane_total(a.data(), n)), bits(rule(a, one, n))) << "n=" << n;
  }
}

// Two rows against two rows (NOGD's block maps): each of the four sums is the rule's, on every path
// the CPU has (AVX-512 one pass, AVX2 two passes of 8 lanes, scalar lane_dot2).
TEST(LaneSum, TwoByTwoDotsFollowTheRule) {
  const uint64_t seed = 20261201;
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {
    if (simd_parse(isa) > simd_best()) continue;
    SCOPED_TRACE("seed " + std::to_string(seed) + ", path " + isa);
    Rng rng(seed);
    for (std::size_t n = 0; n < 140; ++n) {
      std::vector<double> a0(n), a1(n), b0(n), b1(n);
      for (std::size_t i = 0; i < n; ++i) {
        a0[i] = rng.normal() * static_cast<double>(1u << (i % 23));
        a1[i] = rng.normal() / static_cast<double>(1u << (i % 17));
        b0[i] = rng.normal();
        b1[i] = rng.normal() * static_cast<double>(1u << (i % 11));
      }
      double d[4] = {-1.0, -1.0, -1.0, -1.0};
      lane_dot2x2_on(isa, a0.data(), a1.data(), b0.data(), b1.data(), n, d);
      EXPECT_EQ(bits(d[0]), bits(rule(a0, b0, n))) << "n=" << n;
      EXPECT_EQ(bits(d[1]), bits(rule(a0, b1, n))) << "n=" << n;
      EXPECT_EQ(bits(d[2]), bits(rule(a1, b0, n))) << "n=" << n;
      EXPECT_EQ(bits(d[3]), bits(rule(a1, b1, n))) << "n=" << n;
    }
  }
}

// first_min and least_value against the serial scan they stand for, on values drawn from a few
// (ties in every lane), with +-inf and NaN among them.
TEST(LaneMin, FirstSlotOfTheLeastAsTheSerialScan) {
  const uint64_t seed = test_util::test_seed(20261130);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double pool[] = {-1.5, 0.0, -0.0, 2.0, 3.25, inf, -inf, nan};
  for (int trial = 0; trial < 4000; ++trial) {
    const std::size_t n = static_cast<std::size_t>(trial % 101);  // past the 16-slot blocks and their tail
    const std::size_t kinds = 1 + static_cast<std::size_t>(rng.uniform() * 8.0);  // how much of the pool
    std::vector<double> v(n);
    for (double& x : v) x = pool[std::min<std::size_t>(7, static_cast<std::size_t>(rng.uniform() * kinds))];
    std::size_t best = 0;
    double m = inf;
    for (std::size_t i = 0; i < n; ++i)
      if (v[i] < m) m = v[i], best = i;
    ASSERT_EQ(first_min(v.data(), n), best) << "n " << n << " trial " << trial;
    ASSERT_TRUE(least_value(v.data(), n) == m) << "n " << n << " trial " << trial;  // -0 == +0: either
    // store_least: the same values stored slot for slot (vectors of four, then the last ones), and
    // the same least, so first_min from it takes the same slot.
    using V4 = double __attribute__((vector_size(32)));
    std::vector<double> w(n, 7.0);
    const double ms = store_least(
        w.data(), n, [&](std::size_t i) { return V4{v[i], v[i + 1], v[i + 2], v[i + 3]}; },
        [&](std::size_t i) { return v[i]; });
    for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(test_util::same_bits(w[i], v[i])) << "slot " << i << " trial " << trial;
    ASSERT_TRUE(ms == m) << "n " << n << " trial " << trial;
    ASSERT_EQ(first_min(w.data(), n, ms), best) << "n " << n << " trial " << trial;
  }
}

// The coefficient scaling on every path the CPU has against the serial multiply-then-add of each
// element, bit for bit, past the vector blocks and their tails; and the run's own path. The same
// for scaled_max_abs: the largest |y_i| of the values the scaling stores (and m when larger), the
// coefficients untouched without store and scaled as scale_coefficients with it.
TEST(CoefScale, EachElementAsTheSerialMultiplyThenAdd) {
  const uint64_t seed = test_util::test_seed(20261130);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = static_cast<std::size_t>(trial % 41) + (trial % 3 ? 793 : 0);
    std::vector<double> a(n), g(n), one(n), each(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = rng.normal() * std::ldexp(1.0, static_cast<int>(rng.below(40)) - 20);
      g[i] = 1.0 + 0.1 * rng.normal();
    }
    const double c1 = 0.002 * rng.uniform() - 0.001;
    // m below, between or above the values: the maximum must take it where it is the largest
    const double m0 = trial % 4 == 0 ? 0.0 : std::ldexp(rng.uniform(), static_cast<int>(rng.below(44)) - 22);
    double max_one = m0, max_each = m0;
    for (std::size_t i = 0; i < n; ++i) {
      volatile double p = c1 * a[i], q = (g[i] - 1.0) * a[i];  // each product rounded on its own
      one[i] = a[i] + p;
      each[i] = a[i] + q;
      max_one = std::fabs(one[i]) > max_one ? std::fabs(one[i]) : max_one;
      max_each = std::fabs(each[i]) > max_each ? std::fabs(each[i]) : max_each;
    }
    const auto same = [&](const std::vector<double>& x, const std::vector<double>& want, const std::string& what) {
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(bits(x[i]), bits(want[i])) << what << " n " << n << " slot " << i;
    };
    for (const std::string isa : {"scalar", "avx2", "avx512", "run"}) {
      if (isa != "run" && simd_parse(isa) > simd_best()) continue;
      const bool run = isa == "run";
      std::vector<double> x = a, y = a;
      if (run) {
        scale_coefficients(x.data(), n, c1);
        scale_coefficients_each(y.data(), g.data(), n);
      } else {
        scale_coefficients_on(isa, x.data(), nullptr, n, c1);
        scale_coefficients_on(isa, y.data(), g.data(), n, 0.0);
      }
      same(x, one, isa);
      same(y, each, isa);
      for (const bool store : {false, true}) {
        x = a, y = a;
        const double mx = run ? scaled_max_abs(x.data(), nullptr, n, c1, m0, store)
                              : scaled_max_abs_on(isa, x.data(), nullptr, n, c1, m0, store);
        const double my = run ? scaled_max_abs(y.data(), g.data(), n, 0.0, m0, store)
                              : scaled_max_abs_on(isa, y.data(), g.data(), n, 0.0, m0, store);
        ASSERT_EQ(bits(mx), bits(max_one)) << isa << " store " << store << " n " << n;
        ASSERT_EQ(bits(my), bits(max_each)) << isa << " store " << store << " n " << n;
        same(x, store ? one : a, isa + " max");
        same(y, store ? each : a, isa + " max");
      }
    }
  }
}

// first_equal against the serial scan, ids drawn from a few (repeats in every block of eight).
TEST(LaneMin, FirstEqualAsTheSerialScan) {
  const uint64_t seed = test_util::test_seed(20261130);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = static_cast<std::size_t>(trial % 41);
    std::vector<int64_t> v(n);
    for (auto& x : v) x = static_cast<int64_t>(rng.below(12)) - 2;
    const int64_t x = static_cast<int64_t>(rng.below(14)) - 2;
    std::size_t want = n;
    for (std::size_t i = 0; i < n && want == n; ++i)
      if (v[i] == x) want = i;
    ASSERT_EQ(first_equal(v.data(), n, x), want) << "n " << n << " trial " << trial;
  }
}

// CommonDivisor's product and two fmas against the division itself, bit for bit: divisors with every
// mantissa (all ones among them, the reciprocal's hard case), whole numbers, and out of its range;
// dividends across the exponent range, at its edges, zeros of both signs, subnormals, infinities, NaN.
TEST(CommonDivisor, EveryQuotientIsTheDivisions) {
  const uint64_t seed = test_util::test_seed(20261201);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  const auto any = [&](int emin, int emax) {  // a random double of exponent in [emin, emax], either sign
    const uint64_t e = static_cast<uint64_t>(emin + 1023 + static_cast<int>(rng.below(static_cast<uint64_t>(emax - emin + 1))));
    const uint64_t b = (e << 52) | (rng.below(uint64_t{1} << 52)) | (rng.below(2) << 63);
    return std::bit_cast<double>(b);
  };
  const double inf = std::numeric_limits<double>::infinity();
  const double edge[] = {0.0, -0.0, 0x1p-900, 0x1p900, std::nextafter(0x1p-900, 0.0), std::nextafter(0x1p900, inf),
                         0x1p-1074, 0x1p-1030, -inf, inf, std::numeric_limits<double>::quiet_NaN(), 1.0, 3.0};
  long fast = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    double b = trial % 4 == 0   ? static_cast<double>(rng.below(100000) + 1)
               : trial % 4 == 1 ? any(-40, 40)
               : trial % 4 == 2 ? std::bit_cast<double>(std::bit_cast<uint64_t>(any(-40, 40)) | ((uint64_t{1} << 52) - 1))
                                : any(-1000, 1000);
    if (trial % 997 == 0) b = edge[rng.below(std::size(edge))];
    const CommonDivisor by(b);
    for (int k = 0; k < 200; ++k) {
      CommonDivisor::V4 a;
      for (int l = 0; l < 4; ++l)
        a[l] = k % 50 == 0 ? edge[rng.below(std::size(edge))] : k % 2 ? any(-60, 60) : any(-1022, 1023);
      if (k % 3) a = CommonDivisor::V4{a[0], a[0] * 0.5, -a[0], std::nextafter(a[0], 0.0)};  // one vector in range
      const CommonDivisor::V4 q = by(a);
      for (int l = 0; l < 4; ++l) {
        const double want = a[l] / b;
        ASSERT_EQ(std::bit_cast<uint64_t>(by(a[l])), std::bit_cast<uint64_t>(want)) << a[l] << " / " << b;
        ASSERT_EQ(std::bit_cast<uint64_t>(q[l]), std::bit_cast<uint64_t>(want)) << a[l] << " / " << b << " lane " << l;
        fast += std::abs(a[l]) >= 0x1p-900 && std::abs(a[l]) <= 0x1p900 && std::abs(b) >= 0x1p-40 && std::abs(b) <= 0x1p40;
      }
    }
  }
  EXPECT_GT(fast, 4000000);  // most quotients took the product and fmas, not the division
}

// BOGD++'s probabilities and factors on every path the CPU has, with the product and two fmas where
// CommonDivisor::covers says they may run (weights +0 or in [lo, hi]) and with the divisions: the
// bits of (1 - w / sum) / (n - 1) and c / (1 - p) by divisions. covers refuses a bound out of range,
// b <= 0 and b out of range.
TEST(CommonDivisor, RemovalProbabilitiesAreTheDivisions) {
  EXPECT_FALSE(CommonDivisor(3.0).covers(0.0, 1.0));
  EXPECT_FALSE(CommonDivisor(3.0).covers(std::nextafter(0x1p-900, 0.0), 1.0));
  EXPECT_FALSE(CommonDivisor(3.0).covers(1.0, std::nextafter(0x1p900, INFINITY)));
  EXPECT_FALSE(CommonDivisor(-3.0).covers(1.0, 2.0));
  EXPECT_FALSE(CommonDivisor(0x1p41).covers(1.0, 2.0));
  const uint64_t seed = test_util::test_seed(20261202);
  long checked = 0, fast = 0;
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {
    if (simd_parse(isa) > simd_best()) continue;
    SCOPED_TRACE("seed " + std::to_string(seed) + ", path " + isa);
    Rng rng(seed);
    for (int trial = 0; trial < 3000; ++trial) {
      const std::size_t n = 2 + rng.below(trial % 10 ? 40 : 900);
      const double lo = trial % 7 ? std::exp2(-50.0 + 70.0 * rng.uniform()) : std::exp2(-880.0 + 1700.0 * rng.uniform()),
                   span = std::exp2(30.0 * rng.uniform());  // sums mostly in the divisor's range, some far out
      std::vector<double> w(n), g(n, -1.0), want_p(n), want_g(n);
      for (std::size_t i = 0; i < n; ++i)  // log-uniform in [lo, lo span], a zero now and then
        w[i] = rng.below(30) == 0 ? 0.0 : std::min(lo * std::exp2(rng.uniform() * std::log2(span)), 0x1p890);
      const double sum = lane_total(w.data(), n), least = *std::min_element(w.begin(), w.end());
      if (!(sum > 0.0)) continue;
      const double c = 1.0 - 0.5 * rng.uniform();
      for (std::size_t i = 0; i < n; ++i) {
        want_p[i] = (1.0 - w[i] / sum) / static_cast<double>(n - 1);
        want_g[i] = c / (1.0 - want_p[i]);
      }
      // Zeros are +0, which covers allows: the least non-zero weight is the lower bound.
      double nonzero = sum;
      for (double x : w) nonzero = x > 0.0 ? std::min(nonzero, x) : nonzero;
      const bool markstein = CommonDivisor(sum).covers(least > 0.0 ? least : nonzero, sum) &&
                             CommonDivisor(static_cast<double>(n - 1)).covers(0x1p-53, 1.0);
      fast += markstein;
      for (const bool m : {false, markstein}) {
        std::vector<double> p = w;
        removal_probabilities_on(isa, p.data(), g.data(), n, sum, c, m);
        for (std::size_t i = 0; i < n; ++i, ++checked) {
          ASSERT_EQ(bits(p[i]), bits(want_p[i])) << "n " << n << " slot " << i << " markstein " << m;
          ASSERT_EQ(bits(g[i]), bits(want_g[i])) << "n " << n << " slot " << i << " markstein " << m;
        }
      }
    }
  }
  EXPECT_GT(fast, 2000);  // most trials took the fmas
  EXPECT_GT(checked, 100000);
}

// BPA-NN's removal costs on every path the CPU has against the expression written out here, slot by
// slot, bit for bit, and their least (NaN skipped): candidates without a neighbour, with a singular
// pair (the neighbour's row equal to x_t's), k_tt = 1 and not, a NaN now and then.
TEST(CoefScale, PairRemovalCostsAreTheExpression) {
  const uint64_t seed = test_util::test_seed(20261202);
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {
    if (simd_parse(isa) > simd_best()) continue;
    SCOPED_TRACE("seed " + std::to_string(seed) + ", path " + isa);
    Rng rng(seed);
    for (int trial = 0; trial < 400; ++trial) {
      const std::size_t n = 1 + rng.below(70);
      const double ktt = trial % 2 ? 1.0 : 0.5 + rng.uniform(), singular = 1e-10;
      std::vector<double> a(n), krr(n), krt(n), krj(n), kjj(n), q(n, -1.0);
      std::vector<int64_t> jj(n);
      for (std::size_t i = 0; i < n; ++i) {
        a[i] = rng.normal();
        krr[i] = 0.5 + rng.uniform();
        krt[i] = rng.uniform();
        krj[i] = rng.uniform();
        kjj[i] = 0.5 + rng.uniform();
        jj[i] = rng.below(5) == 0 ? -1 : static_cast<int64_t>(rng.below(n));
        if (jj[i] < 0) kjj[i] = 0.0;
        if (rng.below(40) == 0) a[i] = std::numeric_limits<double>::quiet_NaN();
      }
      if (n > 1 && trial % 3 == 0) {  // a singular pair: k_tj^2 = ktt kjj
        jj[0] = 1;
        kjj[0] = ktt;
        krt[1] = ktt;
      }
      const double m = pair_removal_costs_on(isa, a.data(), krr.data(), krt.data(), krj.data(), kjj.data(), jj.data(), n,
                                             ktt, singular, q.data());
      double least = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n; ++i) {
        const double tj = jj[i] >= 0 ? krt[static_cast<std::size_t>(jj[i])] : 0.0, det = ktt * kjj[i] - tj * tj;
        const bool pair = jj[i] >= 0 && det > singular * ktt * kjj[i];
        const double want = pair ? a[i] * a[i] * (krr[i] - (kjj[i] * krt[i] * krt[i] - 2.0 * tj * krt[i] * krj[i] +
                                                            ktt * krj[i] * krj[i]) / det)
                                 : a[i] * a[i] * (krr[i] - krt[i] * krt[i] / ktt);
        ASSERT_EQ(bits(q[i]), bits(want)) << "n " << n << " slot " << i;
        if (want < least) least = want;
      }
      ASSERT_EQ(bits(m), bits(least)) << "n " << n;
    }
  }
}
