// The fixed-operation cos and sin (numerics/fast_trig.cpp): accuracy against long double cosl and
// sinl, the same bits on every vector path (tails and fallback lanes included), the special values,
// the random Fourier map built on it, and FOGD runs that do not depend on the path (PLAB_SIMD).
// Seeds are printed and PLAB_TEST_SEED overrides them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "numerics/fast_trig.hpp"
#include "numerics/fourier_features.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace fast_trig_test {

using test_util::same_bits;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The bound stated in fast_trig.hpp (largest seen: 0.669 ulp).
constexpr double kUlpBound = 0.7;

// Error of v against the long double reference in units of the double spacing at the reference.
double ulp_error(double v, long double ref) {
  const double r = static_cast<double>(ref);
  const int exponent = r == 0.0 ? -1022 : std::max(std::ilogb(r), -1022);
  return static_cast<double>(std::fabs(static_cast<long double>(v) - ref) / std::ldexp(1.0L, exponent - 52));
}

// Inputs over every magnitude of the reduced range, dense where FOGD's u.x lives (|x| up to
// hundreds), and the doubles next to multiples of pi/2 (the largest cancellation of the reduction).
std::vector<double> inputs(uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x;
  for (int e = -40; e <= 20; ++e)
    for (int i = 0; i < 20000; ++i) x.push_back(std::ldexp(2.0 * rng.uniform() - 1.0, e));
  for (int i = 0; i < 400000; ++i) x.push_back(600.0 * (2.0 * rng.uniform() - 1.0));
  for (int i = 0; i < 100000; ++i) {
    const double k = std::floor(rng.uniform() * (i % 2 ? 400.0 : 667000.0)) + 1.0;
    double v = k * 1.57079632679489661923 * (i % 4 < 2 ? 1.0 : -1.0);
    for (int step = 0; step < 3; ++step) v = std::nextafter(v, i % 3 ? kInf : -kInf);
    for (int step = 0; step < 7; ++step, v = std::nextafter(v, i % 3 ? -kInf : kInf)) x.push_back(v);
  }
  for (double v : {5e-324, -5e-324, 1e-300, 0x1p-26, 0.5, 0.78539816339744830962, 0.78539816339744831,
                   1.57079632679489661923, 3.14159265358979323846, kTrigReducedMax, -kTrigReducedMax})
    x.push_back(v);
  return x;
}

TEST(FastTrig, WithinStatedUlpOfLongDouble) {
  const uint64_t seed = test_util::test_seed(29);
  const std::vector<double> x = inputs(seed);
  std::vector<double> c(x.size()), s(x.size());
  sincos_array_on("scalar", x.data(), x.size(), c.data(), s.data());
  double worst_c = 0.0, worst_s = 0.0, at_c = 0.0, at_s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double X = x[i];
    const double ec = ulp_error(c[i], std::cos(X)), es = ulp_error(s[i], std::sin(X));
    if (ec > worst_c) { worst_c = ec; at_c = x[i]; }
    if (es > worst_s) { worst_s = es; at_s = x[i]; }
  }
  std::printf("cos: max error %.3f ulp at x = %.17g; sin: %.3f ulp at x = %.17g (%zu inputs)\n", worst_c, at_c,
              worst_s, at_s, x.size());
  EXPECT_LE(worst_c, kUlpBound) << "cos at x = " << at_c;
  EXPECT_LE(worst_s, kUlpBound) << "sin at x = " << at_s;
}

// ±0, subnormals, Inf, NaN and what lies beyond the reduced range, in every lane position of every path.
TEST(FastTrig, SpecialValues) {
  double c, s;
  sincos_fixed(0.0, c, s);
  EXPECT_TRUE(same_bits(c, 1.0) && same_bits(s, 0.0));
  sincos_fixed(-0.0, c, s);
  EXPECT_TRUE(same_bits(c, 1.0) && same_bits(s, -0.0));
  sincos_fixed(5e-324, c, s);
  EXPECT_TRUE(same_bits(c, 1.0) && same_bits(s, 5e-324));
  for (double v : {kNaN, -kNaN, kInf, -kInf}) {
    sincos_fixed(v, c, s);
    EXPECT_TRUE(std::isnan(c) && std::isnan(s)) << v;
  }
  for (double v : {std::nextafter(kTrigReducedMax, kInf), -3e6, 1e22, -1e300, 1.7976931348623157e308}) {
    sincos_fixed(v, c, s);  // beyond the reduced range: libm's cos and sin
    EXPECT_TRUE(same_bits(c, std::cos(v)) && same_bits(s, std::sin(v))) << v;
  }
  const std::vector<double> special = {0.0, -0.0, kNaN, kInf, -kInf, 1e22, -1e300, 5e-324, 3.0};
  for (const std::string isa : {"scalar", "avx2", "avx512"})
    for (std::size_t lane = 0; lane < 9; ++lane) {
      std::vector<double> x(17, 0.25);
      for (std::size_t k = 0; k < special.size(); ++k) x[(lane + k) % x.size()] = special[k];
      std::vector<double> cv(x.size()), sv(x.size());
      try {
        sincos_array_on(isa, x.data(), x.size(), cv.data(), sv.data());
      } catch (const std::invalid_argument&) {
        break;
      }
      for (std::size_t i = 0; i < x.size(); ++i) {
        sincos_fixed(x[i], c, s);
        if (std::isnan(x[i]) || std::isinf(x[i])) {
          EXPECT_TRUE(std::isnan(cv[i]) && std::isnan(sv[i])) << isa << " x = " << x[i];
          continue;
        }
        EXPECT_TRUE(same_bits(cv[i], c) && same_bits(sv[i], s)) << isa << " lane " << i << " x = " << x[i];
      }
    }
}

TEST(FastTrig, EveryPathGivesTheSameBits) {
  const uint64_t seed = test_util::test_seed(31);
  Rng rng(seed);
  std::vector<double> x = inputs(seed);
  for (double v : {0.0, -0.0, kInf, -kInf, 1e22, -4e6}) x.push_back(v);
  x.push_back(2.5);  // odd length: every path has a tail
  std::vector<double> c0(x.size()), s0(x.size());
  sincos_array_on("scalar", x.data(), x.size(), c0.data(), s0.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    double c, s;
    sincos_fixed(x[i], c, s);
    ASSERT_TRUE(same_bits(c, c0[i]) && same_bits(s, s0[i])) << "x = " << x[i];
  }
  for (const std::string isa : {"avx2", "avx512"}) {
    std::vector<double> c(x.size()), s(x.size());
    try {
      sincos_array_on(isa, x.data(), x.size(), c.data(), s.data());
    } catch (const std::invalid_argument&) {
      std::printf("%s: not on this CPU, skipped\n", isa.c_str());
      continue;
    }
    for (std::size_t i = 0; i < x.size(); ++i)
      ASSERT_TRUE(same_bits(c[i], c0[i]) && same_bits(s[i], s0[i])) << isa << " x = " << x[i];
    // Short arrays of every length up to 40 (blocks of 2 vectors and single vectors, tails of
    // every size), at random offsets.
    for (std::size_t n = 1; n <= 401; n += n < 40 ? 1 : 361) {
      const std::size_t off = static_cast<std::size_t>(rng.uniform() * 1000.0);
      std::vector<double> cn(n), sn(n);
      sincos_array_on(isa, x.data() + off, n, cn.data(), sn.data());
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_TRUE(same_bits(cn[i], c0[off + i]) && same_bits(sn[i], s0[off + i])) << isa << " n = " << n;
    }
  }
}

// The map is (cos, sin) of the chains u_i.x by sincos_fixed (docs/learners.md#fogd), and a second
// map from the same (gamma, D, seed) gives the same bits (the comparator's). Some rows have values
// 1, all or some of them: rows of all 1s add the frequencies without the product; in other rows
// 1 u = u.
TEST(FastTrig, FourierMapIsSincosOfTheChains) {
  Rng rng(test_util::test_seed(37));
  const std::size_t D = 203;
  const Dataset data = test_util::noisy_sequence(rng, 50, 13, 0.1);
  const FourierFeatures a(0.7, D, 5), b(0.7, D, 5);
  std::vector<double> za, zb;
  for (std::size_t t = 0; t < data.size(); ++t) {
    std::vector<double> val(data[t].val.begin(), data[t].val.end());
    for (std::size_t k = 0; k < val.size(); ++k)
      if (t % 5 == 0 || (t % 2 == 0 && k % 3 == 0)) val[k] = 1.0;
    Example x = data[t];
    x.val = val;
    a.map(x, za);
    b.map(x, zb);
    ASSERT_EQ(za.size(), 2 * D);
    ASSERT_EQ(0, std::memcmp(za.data(), zb.data(), za.size() * sizeof(double)));
    for (std::size_t i = 0; i < D; i += 17) {
      double d = 0.0;
      for (std::size_t k = 0; k < x.idx.size(); ++k) {
        Rng col(derive_seed(5, x.idx[k]));
        double u = 0.0;
        for (std::size_t j = 0; j <= i; ++j) u = std::sqrt(2.0 * 0.7) * col.normal();
        d += x.val[k] * u;
      }
      double c, s;
      sincos_fixed(d, c, s);
      ASSERT_TRUE(same_bits(za[i], c) && same_bits(za[D + i], s)) << "t = " << t << " i = " << i;
    }
  }
}

// Whole FOGD runs write byte-identical traces on every vector path (PLAB_SIMD set but empty: the
// CPU's best path, as unset). Odd D, so every path has a scalar tail, and remainders of 1 to 7
// vectors past the blocks of 32 chains (203, 117, 61: AVX-512 1, 2, 3 vectors; AVX2 2, 5, 7).
TEST(FastTrig, FogdRunsAreIdenticalOnEveryPath) {
  const test_util::TempDir dir("fogd_simd");
  for (const int D : {203, 117, 61}) {
    std::string first;
    for (const std::string isa : {"scalar", "avx2", "avx512", ""}) {
      const std::string trace = (dir.p / ((isa.empty() ? "empty" : isa) + ".csv")).string();
      const auto r = test_util::run_shell("PLAB_SIMD=" + isa + " " + test_util::plab_bin() +
                                          " run --algo fogd --data synthetic:dekel:n=1500 --kernel rbf --gamma 1"
                                          " --features " + std::to_string(D) + " --no-bounds --trace " + trace + " 2>&1");
      ASSERT_EQ(r.status, 0) << r.output;
      const std::string t = test_util::read_text(trace);
      ASSERT_GT(t.size(), 1000u);
      if (first.empty()) first = t;
      else EXPECT_TRUE(t == first) << "D = " << D << ": the " << isa << " trace differs from the scalar one";
    }
  }
}

// dir/rows.svm: n rows, each a random label of test seed `seed`'s draws, then what row(f, rng, t)
// writes (its features), then a newline; returns its path.
template <class Row>
std::string write_rows(const test_util::TempDir& dir, uint64_t seed, int n, Row row) {
  const std::string data = (dir.p / "rows.svm").string();
  std::ofstream f(data);
  Rng rng(test_util::test_seed(seed));
  for (int t = 0; t < n; ++t) {
    f << (rng.uniform() < 0.5 ? "-1" : "+1");
    row(f, rng, t);
    f << "\n";
  }
  return data;
}

// A FOGD run on the LIBSVM file `data` (options `args`) writes the same trace on the scalar, AVX2
// and AVX-512 paths.
void expect_fogd_trace_on_every_path(const test_util::TempDir& dir, const std::string& data, const std::string& args) {
  std::string first;
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {
    const std::string trace = (dir.p / (isa + ".csv")).string();
    const auto r = test_util::run_shell("PLAB_SIMD=" + isa + " " + test_util::plab_bin() + " run --algo fogd --data " + data +
                                        " --format libsvm --kernel rbf " + args + " --no-bounds --trace " + trace + " 2>&1");
    ASSERT_EQ(r.status, 0) << r.output;
    const std::string t = test_util::read_text(trace);
    ASSERT_GT(t.size(), 1000u);
    if (first.empty()) first = t;
    else EXPECT_TRUE(t == first) << "the " << isa << " trace differs from the scalar one";
  }
}

// The lanes the vector paths hand to the fallback (a chain of 0: a row without features; beyond
// 2^20: a huge value) inside the fused map of numerics/fourier_chains.cpp, among ordinary ones,
// and rows whose bound on the chains (numerics/fourier_features.hpp: the range test skipped below
// 2^19) lies on either side of it, their chains near 2^20: the same traces on every path.
TEST(FastTrig, FogdFallbackLanesAreIdenticalOnEveryPath) {
  const test_util::TempDir dir("fogd_fallback");
  const std::string data = write_rows(dir, 41, 300, [](std::ostream& f, Rng& rng, int t) {
    if (t % 7 == 3) {  // no features: every chain 0
    } else if (t % 11 == 5) {  // chains far beyond 2^20
      f << " 1:" << 4e8 * (rng.uniform() + 0.5) << " 3:" << -3e8;
    } else if (t % 5 == 1) {  // |u| up to ~4 at gamma 1: bounds from 2^18 to 2^22, chains near 2^20
      f << " 2:" << 6e5 * (rng.uniform() + 0.1) << " 4:" << 5e4 * (rng.uniform() - 0.5);
    } else {
      for (int j = 1; j <= 5; ++j) f << " " << j << ":" << rng.uniform() - 0.5;
    }
  });
  expect_fogd_trace_on_every_path(dir, data, "--gamma 1 --features 61");
}

// The fused map sums a short row's chains between the previous row's cos and sin, a long row's
// (more than 32 features) all at once, and on the AVX2 path only blocks of short rows of 1s the
// first way (others are summed into a scratch first): rows of every kind in turn (1s and other
// values, short and long, one feature), after 160 short rows of 1s (whole blocks of 16 rounds of
// the first way), give the same traces on every path.
TEST(FastTrig, FogdRowsOfEveryKindAreIdenticalOnEveryPath) {
  const test_util::TempDir dir("fogd_rows");
  const std::string data = write_rows(dir, 43, 400, [](std::ostream& f, Rng& rng, int t) {
    const int kind = t < 160 ? 0 : static_cast<int>(rng.uniform() * 5);
    const int nk = kind == 0 ? 14 : kind == 1 ? 13 : kind == 2 ? 40 : kind == 3 ? 70 : 1;
    const bool ones = kind == 0 || kind == 2 || (kind == 4 && t % 2 == 0);
    int j = 0;
    for (int k = 0; k < nk; ++k) {
      j += 1 + static_cast<int>(rng.uniform() * 3);
      f << " " << j << ":";
      if (ones) f << 1;
      else f << rng.uniform() - 0.5;
    }
  });
  expect_fogd_trace_on_every_path(dir, data, "--gamma 0.05 --features 203");
}

}  // namespace fast_trig_test
}  // namespace plab
