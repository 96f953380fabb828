// The polynomial kernel's power (numerics/poly_pow.hpp): correctly rounded b^p on every path,
// against an independent exact-rational reference (tests/tools/poly_pow_reference.py ->
// tests/data/poly_pow_fixtures.json), and the fast path against the exact one on random inputs.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/kernel.hpp"
#include "numerics/poly_pow.hpp"
#include "numerics/support_set.hpp"
#include "core/random.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using test_util::same_bits;
using test_util::test_seed;

// Which path answered: pow_int_exact holds its integer power in a std::vector (at least one heap
// allocation a call), the fast path and the vector rows allocate nothing, so the allocations
// counted around a call tell whether certain() refused. This program's operator new counts them
// (noinline: GCC 12 inlines a replaced delete and then reports its free() as -Wmismatched-new-delete).
static std::atomic<long> g_allocations{0};
__attribute__((noinline)) void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* q = std::malloc(n ? n : 1)) return q;
  throw std::bad_alloc();
}
__attribute__((noinline)) void operator delete(void* q) noexcept { std::free(q); }
__attribute__((noinline)) void operator delete(void* q, std::size_t) noexcept { std::free(q); }

namespace {

// Heap allocations made by f().
template <class F>
long allocations_in(F&& f) {
  const long before = g_allocations.load(std::memory_order_relaxed);
  f();
  return g_allocations.load(std::memory_order_relaxed) - before;
}

double parse(const std::string& s) {
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  return std::strtod(s.c_str(), nullptr);  // C99 hex floats, exact
}

// <s, x> as SupportSet defines it: fma(x_j, s_j, .) from +0 over x's features in order.
double chain_dot(const Example& x, const Example& s) {
  double acc = 0.0;
  for (std::size_t q = 0; q < x.idx.size(); ++q)
    for (std::size_t k = 0; k < s.idx.size(); ++k)
      if (s.idx[k] == x.idx[q]) acc = std::fma(x.val[q], s.val[k], acc);
  return acc;
}

struct Case {
  double b;
  int p;
  double want;
  bool refuse;  // the fast path must hand it to pow_int_exact (a tie, or a quarter spacing above 2^k)
};

std::vector<Case> fixtures() {
  std::ifstream f(std::string(PLAB_TEST_DATA) + "/poly_pow_fixtures.json");
  if (!f) throw std::runtime_error("tests/data/poly_pow_fixtures.json is missing");
  const auto j = nlohmann::json::parse(f);
  std::vector<Case> out;
  for (const auto& c : j.at("cases"))
    out.push_back({parse(c.at("b").get<std::string>()), c.at("p").get<int>(), parse(c.at("pow").get<std::string>()),
                   c.value("refuse", false)});
  return out;
}

}  // namespace

// Both paths of pow_int equal the reference's correctly rounded power on every fixture: ties
// (also on the subnormal grid), the inputs nearest a rounding boundary, overflow, underflow, signs.
TEST(PolyPow, EqualsTheExactReferenceOnEveryFixture) {
  const auto cases = fixtures();
  ASSERT_GT(cases.size(), 1000u);
  for (const auto& c : cases) {
    EXPECT_TRUE(same_bits(pow_int(c.b, c.p), c.want)) << std::hexfloat << c.b << "^" << c.p << ": " << pow_int(c.b, c.p) << " want " << c.want;
    EXPECT_TRUE(same_bits(pow_int_exact(c.b, c.p), c.want)) << std::hexfloat << "exact path " << c.b << "^" << c.p;
  }
  std::printf("%zu fixtures\n", cases.size());
}

// A whole row on every vector path the CPU has gives the reference's bits (gamma = 1, coef0 = 0
// leave b as it is; the odd length gives every path a tail).
TEST(PolyPow, RowsEqualTheReferenceOnEveryPath) {
  const auto cases = fixtures();
  for (const int p : {0, 1, 2, 3, 7, 13}) {
    std::vector<double> in, want;
    for (const auto& c : cases)
      if (c.p == p) { in.push_back(c.b); want.push_back(c.want); }
    if (in.size() % 2 == 0) { in.pop_back(); want.pop_back(); }
    for (const std::string isa : {"scalar", "avx2", "avx512"}) {
      std::vector<double> out = in;
      try {
        poly_from_dots_on(isa, 1.0, 0.0, p, out.data(), out.size());
      } catch (const std::invalid_argument&) {
        std::printf("%s: not on this CPU, skipped\n", isa.c_str());
        continue;
      }
      for (std::size_t i = 0; i < in.size(); ++i)
        ASSERT_TRUE(same_bits(out[i], want[i])) << isa << " p " << p << std::hexfloat << " b " << in[i];
    }
  }
}

// certain() on every path refuses where the documented test must (docs/learners.md#poly-power):
// exact ties, and powers rounding to h = 2^k that lie a quarter of the spacing above 2^k or more (the
// spacing below 2^k is half the one above, and the test takes the smaller side). The results are
// right either way; this is what tells the half-spacing constants 2^-53 / 2^-54 apart (swapping
// them, or 2^-53 at a power of two too, certifies those). Rows of 8 copies: one full vector step.
TEST(PolyPow, CertaintyTestRefusesTiesAndQuarterSpacingAbovePowersOfTwo) {
  int refused = 0, at_pow2 = 0;
  for (const auto& c : fixtures()) {
    if (!c.refuse) continue;
    ++refused;
    int e;
    at_pow2 += std::frexp(std::fabs(c.want), &e) == 0.5;
    double got = 0.0;
    EXPECT_GE(allocations_in([&] { got = pow_int(c.b, c.p); }), 1) << "pow_int certified " << std::hexfloat << c.b << "^" << c.p;
    EXPECT_TRUE(same_bits(got, c.want));
    for (const std::string isa : {"scalar", "avx2", "avx512"}) {
      std::vector<double> row(8, c.b);
      long n = 0;
      try {
        n = allocations_in([&] { poly_from_dots_on(isa, 1.0, 0.0, c.p, row.data(), row.size()); });
      } catch (const std::invalid_argument&) {
        continue;
      }
      EXPECT_GE(n, 8) << isa << " certified lanes of " << std::hexfloat << c.b << "^" << c.p;
      for (const double v : row) EXPECT_TRUE(same_bits(v, c.want)) << isa;
    }
  }
  EXPECT_GE(refused, 40);
  EXPECT_GE(at_pow2, 4);
  std::printf("%d fixtures refused on every path (%d rounding to a power of two)\n", refused, at_pow2);
}

// ... and it is not stricter than it must be: on ordinary random bases (powers in 2^-900..2^900,
// none near a boundary but by chance ~p 2^-50 ulp) every path answers by the fast path, no
// pow_int_exact (a test taking the quarter spacing at every h refuses about half of them).
TEST(PolyPow, FastPathAnswersOrdinaryInputsOnEveryPath) {
  Rng rng(test_seed(555));
  long fallbacks[4] = {0, 0, 0, 0}, values = 0;  // pow_int, then the rows
  const std::string isas[4] = {"pow_int", "scalar", "avx2", "avx512"};
  for (int p = 2; p <= 15; ++p) {
    std::vector<double> in(1000);
    for (double& d : in)
      d = (rng.below(4) == 0 ? -1.0 : 1.0) * std::ldexp(1.0 + rng.uniform(), static_cast<int>(rng.below(120)) - 60);
    values += static_cast<long>(in.size());
    fallbacks[0] += allocations_in([&] { for (const double b : in) (void)pow_int(b, p); });
    for (int s = 1; s < 4; ++s) {
      std::vector<double> out = in;
      try {
        fallbacks[s] += allocations_in([&] { poly_from_dots_on(isas[s], 1.0, 0.0, p, out.data(), out.size()); });
      } catch (const std::invalid_argument&) {
      }
    }
  }
  for (int s = 0; s < 4; ++s) EXPECT_LE(fallbacks[s], values / 1000) << isas[s] << ": pow_int_exact allocated " << fallbacks[s] << " times";
  std::printf("allocations (pow_int_exact) on %ld ordinary values: pow_int %ld, rows scalar %ld, avx2 %ld, avx512 %ld\n",
              values, fallbacks[0], fallbacks[1], fallbacks[2], fallbacks[3]);
}

// Random rows on every vector path give the scalar row's bits: every degree 0..15, every length
// 0..599 (each path's tail and each of the AVX-512 path's register sets), any gamma and coef0,
// R4-like dots and bases of every magnitude (overflow, underflow, subnormals), zeros, infinities,
// NaN and the fixtures' bases (ties, near-ties: lanes certain() refuses) anywhere in the row.
TEST(PolyPow, RowsOnEveryPathEqualTheScalarRowOnRandomInputs) {
  Rng rng(test_seed(31));
  const auto cases = fixtures();
  const double special[] = {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::max(), -1.0, 1.0};
  std::size_t compared[2] = {0, 0}, odd = 0;  // avx2, avx512; inputs from the fixtures or the specials
  for (int trial = 0; trial < 1000; ++trial) {
    const int p = static_cast<int>(rng.below(16));
    const bool plain = trial % 2 == 0;  // gamma = 1, coef0 = 0: the fixtures' bases reach the power as they are
    const double gamma = plain ? 1.0 : std::ldexp(1.0 + rng.uniform(), static_cast<int>(rng.below(16)) - 8);
    const double coef0 = plain ? 0.0 : rng.uniform() - 0.25;
    std::vector<double> in(rng.below(600));
    for (double& d : in) {
      const uint64_t kind = rng.below(8);
      odd += kind <= 1;
      if (kind == 0) d = cases[rng.below(cases.size())].b;
      else if (kind == 1) d = special[rng.below(std::size(special))];
      else if (kind == 2) d = rng.uniform() * 300.0;  // R4's dots
      else d = (rng.below(4) == 0 ? -1.0 : 1.0) * std::ldexp(1.0 + rng.uniform(), static_cast<int>(rng.below(240)) - 120);
    }
    std::vector<double> want = in;
    poly_from_dots_on("scalar", gamma, coef0, p, want.data(), want.size());
    for (int s = 0; s < 2; ++s) {
      const std::string isa = s == 0 ? "avx2" : "avx512";
      std::vector<double> out = in;
      try {
        poly_from_dots_on(isa, gamma, coef0, p, out.data(), out.size());
      } catch (const std::invalid_argument&) {
        continue;
      }
      for (std::size_t i = 0; i < in.size(); ++i)
        ASSERT_TRUE(same_bits(out[i], want[i])) << isa << " p " << p << " i " << i << std::hexfloat << " d " << in[i]
                                                << " gamma " << gamma << " coef0 " << coef0 << ": " << out[i] << " want " << want[i];
      compared[s] += in.size();
    }
  }
  std::printf("values compared with the scalar row: avx2 %zu, avx512 %zu%s (%zu from the fixtures or specials)\n",
              compared[0], compared[1], compared[1] ? "" : ", no AVX-512 on this CPU", odd);
}

// On random inputs of every magnitude the fast path (when it answers) and the exact path agree
// bit for bit, and both stay within one ulp of libm's pow (which is not always correctly rounded).
TEST(PolyPow, FastPathEqualsExactPathOnRandomInputs) {
  Rng rng(test_seed(4242));
  int differ_from_libm = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const int p = 1 + static_cast<int>(rng.below(16));
    const double b = (rng.below(4) == 0 ? -1.0 : 1.0) * std::ldexp(1.0 + rng.uniform(), static_cast<int>(rng.below(120)) - 60);
    const double fast = pow_int(b, p), exact = pow_int_exact(b, p), libm = std::pow(b, p);
    ASSERT_TRUE(same_bits(fast, exact)) << std::hexfloat << b << "^" << p;
    if (!std::isfinite(libm)) continue;
    const double gap = std::fabs(fast - libm);
    ASSERT_LE(gap, std::fabs(std::nextafter(libm, 0.0) - libm) * 1.0000001) << std::hexfloat << b << "^" << p;
    differ_from_libm += fast != libm;
  }
  std::printf("libm's pow differed in %d of %d cases (by one ulp)\n", differ_from_libm, n);
}

// The support set's poly rows (vectorised, blocked) equal Kernel::from_dot value by value, and the
// kernel is the correctly rounded power of the rounded base.
TEST(PolyPow, SupportRowsEqualTheKernelFormula) {
  Rng rng(test_seed(77));
  const Kernel k = Kernel::poly(0.37, 0.5, 7);
  std::vector<std::vector<uint32_t>> idx(150);
  std::vector<std::vector<double>> val(150);
  std::vector<Example> ex;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    for (uint32_t j = 0; j < 40; ++j)
      if (rng.below(3) == 0) { idx[i].push_back(j); val[i].push_back(rng.uniform() * 2.0 - 0.5); }
    double sq = 0.0;
    for (double v : val[i]) sq += v * v;
    ex.push_back({idx[i], val[i], sq, 0.0});
  }
  SupportSet sv(40);
  for (std::size_t i = 0; i < 100; ++i) sv.add(ex[i], static_cast<int64_t>(i));
  std::vector<double> rows(50 * 100);
  sv.kernel_rows(k, ex.data() + 100, 50, rows.data(), 100);
  for (std::size_t l = 0; l < 50; ++l)
    for (std::size_t i = 0; i < 100; ++i) {
      const double d = chain_dot(ex[100 + l], ex[i]);
      const double want = k.from_dot(d, ex[i].sqnorm, ex[100 + l].sqnorm);
      ASSERT_TRUE(same_bits(rows[l * 100 + i], want)) << l << "," << i;
      ASSERT_TRUE(same_bits(want, pow_int_exact(0.37 * d + 0.5, 7)));
    }
}
