// The fixed-operation exp (numerics/fast_exp.cpp): accuracy against long double expl, the same
// bits on every vector path, and whole runs that do not depend on the path (PLAB_SIMD). Seeds are
// printed and PLAB_TEST_SEED overrides them.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "datasets/registry.hpp"
#include "numerics/fast_exp.hpp"
#include "numerics/simd.hpp"
#include "core/random.hpp"

using namespace plab;

namespace {

// Error of v against the long double reference, in units of the double spacing at the reference
// (subnormal spacing 2^-1074 below the normal range). A reference that rounds to 0 (x < -745.13)
// has that spacing too: ilogb(0) is FP_ILOGB0 (INT_MIN), and INT_MIN - 52 would overflow.
double ulp_error(double v, long double ref) {
  const double r = static_cast<double>(ref);
  const int exponent = r == 0.0 ? -1022 : std::max(std::ilogb(r), -1022);
  const long double spacing = std::ldexp(1.0L, exponent - 52);
  return static_cast<double>(std::fabs(static_cast<long double>(v) - ref) / spacing);
}

// Inputs over the whole useful range, dense near 0 (where the Gaussian kernel lives), the
// subnormal and overflow edges, and the special values.
std::vector<double> inputs(uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x;
  for (int i = 0; i < 200000; ++i) x.push_back(-745.0 * rng.uniform());
  for (int i = 0; i < 200000; ++i) x.push_back(-2.0 * rng.uniform());
  for (int i = 0; i < 50000; ++i) x.push_back(709.0 * rng.uniform());
  for (int i = 0; i < 50000; ++i) x.push_back(-708.0 - 37.0 * rng.uniform());  // subnormal results
  for (int i = 0; i < 20000; ++i) x.push_back(1e-12 * (rng.uniform() - 0.5));
  for (double v : {0.0, -0.0, 1e-300, -1e-300, 5e-324, -745.13321910194110842, -745.2, -746.0, -708.39641853226410622,
                   709.78271289338397, 709.8, 710.0, -1e6, 1e6, std::log(2.0), -std::log(2.0), 0.5 * std::log(2.0)})
    x.push_back(v);
  return x;
}

TEST(FastExp, WithinOneUlpOfLongDoubleExp) {
  const uint64_t seed = test_util::test_seed(17);
  SCOPED_TRACE("seed " + std::to_string(seed));
  double worst = 0.0, at = 0.0;
  for (double x : inputs(seed)) {
    const long double ref = std::exp(static_cast<long double>(x));
    const double v = exp_fixed(x);
    if (std::isinf(static_cast<double>(ref))) {
      EXPECT_TRUE(std::isinf(v) && v > 0) << x;
      continue;
    }
    const double e = ulp_error(v, ref);
    if (e > worst) { worst = e; at = x; }
  }
  std::printf("max error %.3f ulp at x = %.17g\n", worst, at);
  EXPECT_LE(worst, 1.0) << "at x = " << at;
}

// The measuring stick itself, by hand: one spacing at 1 is 2^-52, below the normal range and at a
// reference of 0 it is 2^-1074 (the reference of exp(x) for x < -745.13 rounds to 0).
TEST(FastExp, UlpErrorAtNormalSubnormalAndZeroReferences) {
  EXPECT_EQ(ulp_error(1.0 + 0x1p-52, 1.0L), 1.0);
  EXPECT_EQ(ulp_error(0x1p-1074, 0.0L), 1.0);
  EXPECT_EQ(ulp_error(0.0, 0x1p-1075L), 0.5);
  EXPECT_EQ(ulp_error(0x1p-1073, 0x1p-1074L), 1.0);
  EXPECT_EQ(ulp_error(0.0, 0.0L), 0.0);
}

TEST(FastExp, SpecialValues) {
  EXPECT_EQ(exp_fixed(0.0), 1.0);
  EXPECT_EQ(exp_fixed(-0.0), 1.0);
  EXPECT_EQ(exp_fixed(-746.0), 0.0);
  EXPECT_EQ(exp_fixed(-std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_TRUE(std::isinf(exp_fixed(std::numeric_limits<double>::infinity())));
  EXPECT_TRUE(std::isnan(exp_fixed(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_GT(exp_fixed(-745.0), 0.0);  // the smallest subnormals are reached
  EXPECT_EQ(exp_fixed(1.0), std::exp(1.0));
}

TEST(FastExp, EveryPathGivesTheSameBits) {
  const uint64_t seed = test_util::test_seed(19);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::vector<double> x = inputs(seed);
  x.push_back(std::numeric_limits<double>::quiet_NaN());
  x.push_back(-std::numeric_limits<double>::infinity());
  x.push_back(std::numeric_limits<double>::infinity());
  x.push_back(-3.0);  // an odd length: every path has a tail
  std::vector<double> ref(x.size());
  exp_fixed_on("scalar", x.data(), ref.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double s = exp_fixed(x[i]);
    ASSERT_EQ(0, std::memcmp(&s, &ref[i], sizeof s)) << "x = " << x[i];
  }
  for (const std::string isa : {"avx2", "avx512"}) {
    std::vector<double> v(x.size());
    try {
      exp_fixed_on(isa, x.data(), v.data(), x.size());
    } catch (const std::invalid_argument&) {
      std::printf("%s: not on this CPU, skipped\n", isa.c_str());
      continue;
    }
    for (std::size_t i = 0; i < x.size(); ++i)
      ASSERT_EQ(0, std::memcmp(&v[i], &ref[i], sizeof v[i])) << isa << " x = " << x[i];
  }
}

// The Gaussian row against exp of the same argument (the row only adds the argument's arithmetic).
TEST(FastExp, GaussianRowIsExpOfItsArgument) {
  Rng rng(test_util::test_seed(23));
  const std::size_t n = 103;
  std::vector<double> sq(n), dot(n), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    sq[i] = 10.0 * rng.uniform();
    dot[i] = (rng.uniform() - 0.3) * 5.0;
  }
  const double gamma = 0.37, xs = 4.25;
  out = dot;
  rbf_from_dots(gamma, xs, sq.data(), out.data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    const double d2 = (sq[i] + xs) - 2.0 * dot[i];
    EXPECT_EQ(out[i], exp_fixed(-gamma * (d2 > 0.0 ? d2 : 0.0))) << i;
  }
}

// Every path and every length across its blocks of vectors (AVX2: 4 vectors of 4, AVX-512: 4 of 8)
// and its tail: each element is exp_fixed of its argument, bit for bit, wherever it sits.
TEST(FastExp, GaussianRowOnEveryPathAndLength) {
  Rng rng(test_util::test_seed(29));
  const double gamma = 1.7, xs = 2.5;
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {
    if (simd_parse(isa) > simd_best()) continue;
    for (std::size_t n = 0; n <= 70; ++n) {
      std::vector<double> sq(n), dot(n), out(n);
      for (std::size_t i = 0; i < n; ++i) {
        sq[i] = 3.0 * rng.uniform();
        dot[i] = (rng.uniform() - 0.2) * 2.0;
      }
      out = dot;
      rbf_from_dots_on(isa, gamma, xs, sq.data(), out.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        const double d2 = (sq[i] + xs) - 2.0 * dot[i];
        const double want = exp_fixed(-gamma * (d2 > 0.0 ? d2 : 0.0));
        ASSERT_EQ(0, std::memcmp(&out[i], &want, sizeof want)) << isa << " n = " << n << " i = " << i;
      }
    }
  }
}

std::string run_plab(const std::string& env, const std::string& args) {
  const char* bin = std::getenv("PLAB_BIN");
  if (!bin) bin = PLAB_BIN_PATH;
  const std::string cmd = env + " " + bin + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  std::string out;
  std::size_t k;
  while ((k = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), k);
  if (pclose(p) != 0) throw std::runtime_error("plab failed: " + cmd + "\n" + out);
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Whole runs (Gaussian kernel rows, block solves, transposes) write byte-identical traces on every
// vector path the CPU has: results do not depend on the machine's vector width.
TEST(FastExp, RunsAreIdenticalOnEveryPath) {
  const auto dir = std::filesystem::temp_directory_path() / ("plab_simd_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const std::string algo : {"projectron++", "kernel-perceptron"}) {
    std::string first;
    for (const std::string isa : {"scalar", "avx2", "avx512"}) {
      const std::string trace = (dir / (isa + ".csv")).string();
      run_plab("PLAB_SIMD=" + isa, "run --algo " + algo + " --data synthetic:dekel:n=1500 --kernel rbf --gamma 1 " +
                                       (algo == "projectron++" ? "--eta 0.1 --eta-convention dogma " : "") + "--no-bounds --trace " + trace);
      const std::string t = slurp(trace);
      ASSERT_GT(t.size(), 1000u);
      if (first.empty()) first = t;
      else EXPECT_TRUE(t == first) << algo << ": the " << isa << " trace differs from the scalar one";
    }
  }
  std::filesystem::remove_all(dir);
}

// The same for binary rows (a1a: popcount dot products, numerics/bit_dots.cpp, AVX2's byte
// columns, and kernel values by table), Gaussian and polynomial; budget learners too, whose
// removals move the columns (the Forgetron scores fused, BPA-NN by kernel rows).
TEST(FastExp, BinaryRunsAreIdenticalOnEveryPath) {
  const plab::DatasetInfo* a1a = plab::find_dataset_info("a1a");
  if (!a1a || plab::dataset_status(*a1a, false).root.empty()) GTEST_SKIP() << "a1a not found on the data search path";
  const auto dir = std::filesystem::temp_directory_path() / ("plab_simd_bits_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const std::string run : {"kernel-perceptron --kernel rbf --gamma 0.04",
                                 "kernel-perceptron --kernel poly --degree 3 --gamma 0.1 --coef0 1",
                                 "forgetron --budget 60 --kernel rbf --gamma 0.04", "bpa-nn --budget 60 --kernel rbf --gamma 0.04"}) {
    std::string first;
    for (const std::string isa : {"scalar", "avx2", "avx512"}) {
      const std::string trace = (dir / (isa + ".csv")).string();
      run_plab("PLAB_SIMD=" + isa, "run --algo " + run + " --data a1a --no-bounds --trace " + trace);
      const std::string t = slurp(trace);
      ASSERT_GT(t.size(), 1000u);
      if (first.empty()) first = t;
      else EXPECT_TRUE(t == first) << run << ": the " << isa << " trace differs from the scalar one";
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
