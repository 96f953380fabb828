// Bookkeeping for the bounds only (docs/learners.md#bookkeeping): a learner built with
// record_norms off makes the same rounds, bit for bit (scores, mistakes, updates, supports,
// removals, coefficients), and its norm columns are NaN where it skips them; BOGD's running
// ||f||^2, updated in O(B) at a removal, stays within 1e-12 of alpha^T K alpha by the double sum.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "core/state_archive.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

using test_util::noisy_sequence;
using test_util::same_bits;

LearnerOptions budget_options(const std::string& algo, std::size_t B, uint64_t seed) {
  LearnerOptions o;
  o.kernel = Kernel::rbf(0.3);
  o.dim = 6;
  o.own["budget"] = B;
  o.own["seed"] = seed;
  if (algo == "fogd") o.own["features"] = 40;
  if (algo == "nogd") o.own["rank"] = 5;
  if (algo == "norma") {  // truncating (its norm update then costs a kernel row) except at B = 1
    o.own["lambda"] = 0.01;
    o.own["truncate"] = std::size_t{B == 1 ? 0u : 20 * B};
  }
  return o;
}

TEST(Bookkeeping, SameRoundsWithoutTheNorms) {
  const uint64_t seed = test_util::test_seed(20261128);
  Rng rng(seed);
  const Dataset data = noisy_sequence(rng, 600, 6, 0.1);
  for (const std::string algo : {"rbp", "bpa-s", "bpa-nn", "bogd", "bogd++", "fogd", "nogd", "forgetron", "pa1", "norma"}) {
    for (const std::size_t B : {1u, 2u, 25u}) {
      LearnerOptions on = budget_options(algo, B, seed), off = on;
      off.record_norms = false;
      for (const char* name : {"budget", "seed"})
        if (!find_learner(algo)->uses(name)) {
          on.own.erase(name);
          off.own.erase(name);
        }
      const auto a = test_util::configured_learner(algo, on), b = test_util::configured_learner(algo, off);
      bool skips = false;
      for (std::size_t t = 0; t < data.size(); ++t) {
        const RoundRecord ra = a->learn(data[t], static_cast<int64_t>(t + 1));
        const RoundRecord rb = b->learn(data[t], static_cast<int64_t>(t + 1));
        ASSERT_TRUE(same_bits(ra.score, rb.score)) << algo << " B " << B << " round " << t + 1;
        ASSERT_EQ(ra.mistake, rb.mistake);
        ASSERT_EQ(ra.update, rb.update) << algo << " B " << B << " round " << t + 1;
        ASSERT_EQ(ra.support_size, rb.support_size);
        ASSERT_EQ(ra.removed, rb.removed);
        ASSERT_TRUE(same_bits(ra.coef, rb.coef) || (std::isnan(ra.coef) && std::isnan(rb.coef)));
        ASSERT_FALSE(std::isnan(ra.f_norm2)) << algo << ": the norm is kept with record_norms on";
        skips = skips || std::isnan(rb.f_norm2);
      }
      // The learners whose norm costs more than O(1) a round skip it; the others keep it.
      const bool expensive = algo == "rbp" || algo == "bpa-s" || algo == "bpa-nn" || algo == "bogd" || algo == "bogd++" ||
                             algo == "fogd" || (algo == "norma" && B > 1);
      EXPECT_EQ(skips, expensive) << algo;
      EXPECT_EQ(std::isnan(b->norm2()), expensive) << algo;
      // A model written without the running norm holds ||f||^2 all the same.
      if (a->expansion() && B > 1) {
        const double exact = b->norm2_exact();
        EXPECT_NEAR(a->norm2(), exact, 1e-9 * std::max(1.0, std::abs(exact))) << algo;
      }
    }
  }
}

// The multiclass learners the same way: MRBP (both evictions) skips the running norm, whose update
// at a removal costs a kernel row of the removed support; the others keep it (O(m) a round). A
// model written without it holds ||f||^2 all the same.
TEST(Bookkeeping, MulticlassSameRoundsWithoutTheNorms) {
  const uint64_t seed = test_util::test_seed(20261202);
  Rng rng(seed);
  const std::size_t m = 4, dim = 5;
  Dataset data;
  std::vector<double> x(dim);
  for (std::size_t t = 0; t < 500; ++t) {  // labels from the sign pattern of two coordinates, 10% noise
    for (double& v : x) v = rng.normal();
    std::size_t y = (x[0] > 0 ? 1 : 0) + (x[1] > 0 ? 2 : 0);
    if (rng.uniform() < 0.1) y = rng.below(m);
    data.push_dense(x, static_cast<double>(y));
  }
  data.dim = dim;
  for (const std::string eviction : {"", "dogma", "overwrite"})
    for (const std::string algo : {"multiclass-perceptron", "multiclass-pa1", "multiclass-projectron++", "mrbp"}) {
      if ((algo == "mrbp") != !eviction.empty()) continue;
      LearnerOptions on;
      on.kernel = Kernel::rbf(0.3);
      on.dim = dim;
      on.classes = m;
      if (algo == "mrbp") {
        on.own["budget"] = std::size_t{20};
        on.own["seed"] = seed;
        on.own["eviction"] = eviction;
      }
      LearnerOptions off = on;
      off.record_norms = false;
      const auto a = test_util::configured_learner(algo, on), b = test_util::configured_learner(algo, off);
      bool skips = false;
      int evictions = 0;
      for (std::size_t t = 0; t < data.size(); ++t) {
        const RoundRecord ra = a->learn(data[t], static_cast<int64_t>(t + 1));
        const RoundRecord rb = b->learn(data[t], static_cast<int64_t>(t + 1));
        ASSERT_TRUE(same_bits(ra.score, rb.score)) << algo << " " << eviction << " round " << t + 1;
        ASSERT_EQ(ra.mistake, rb.mistake);
        ASSERT_EQ(ra.update, rb.update);
        ASSERT_EQ(ra.pred, rb.pred);
        ASSERT_EQ(ra.competitor, rb.competitor);
        ASSERT_EQ(ra.support_size, rb.support_size);
        ASSERT_EQ(ra.removed, rb.removed);
        ASSERT_FALSE(std::isnan(ra.f_norm2)) << algo << ": the norm is kept with record_norms on";
        skips = skips || std::isnan(rb.f_norm2);
        evictions += rb.update == UpdateKind::evict;
      }
      const bool expensive = algo == "mrbp";
      EXPECT_EQ(skips, expensive) << algo;
      EXPECT_EQ(std::isnan(b->norm2()), expensive) << algo;
      EXPECT_EQ(b->keeps_norm(), !expensive) << algo;
      if (expensive) {
        EXPECT_GT(evictions, 20) << "the budget is reached early";
      }
      StateWriter w;
      b->save_state(w);
      const double held = StateReader(w.arrays()).get_one<double>("norm2"), kept = a->norm2();
      EXPECT_NEAR(held, kept, 1e-9 * std::max(1.0, std::abs(kept))) << algo << " " << eviction;
      EXPECT_NEAR(a->norm2_exact(), kept, 1e-9 * std::max(1.0, std::abs(kept))) << algo << " " << eviction;
    }
}

// sum_ij a_i a_j k(x_i, x_j) in long double, from the supports.
long double double_sum(const KernelExpansion& f) {
  long double q = 0;
  for (std::size_t i = 0; i < f.size(); ++i)
    for (std::size_t j = 0; j < f.size(); ++j)
      q += static_cast<long double>(f.alpha[i]) * f.alpha[j] * f.kernel(f.sv.row(i), f.sv.row(j));
  return q;
}

TEST(Bookkeeping, BogdRunningNormStaysExact) {
  const uint64_t seed = test_util::test_seed(20261128);
  Rng rng(seed);
  const Dataset data = noisy_sequence(rng, 1500, 6, 0.2);
  for (const std::size_t B : {2u, 5u, 25u, 60u}) {
    LearnerOptions o = budget_options("bogd", B, seed);
    o.own["lambda"] = 0.01;
    const auto L = test_util::configured_learner("bogd", o);
    double worst = 0.0;
    for (std::size_t t = 0; t < data.size(); ++t) {
      const RoundRecord r = L->learn(data[t], static_cast<int64_t>(t + 1));
      if (r.update != UpdateKind::evict) continue;
      const long double want = double_sum(*L->expansion());
      worst = std::max(worst, static_cast<double>(std::abs(r.f_norm2 - want) / want));
    }
    std::printf("BOGD B = %zu: largest relative error of the running ||f||^2 at a removal %.3g\n", B, worst);
    EXPECT_LT(worst, 1e-12) << "B = " << B;
  }
}

}  // namespace
}  // namespace plab
