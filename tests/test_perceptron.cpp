// Primal and kernel Perceptron: exact equivalence on real data, MR Lemma 1, tie convention.
#include <gtest/gtest.h>

#include "algorithms/perceptron.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/run.hpp"

using namespace plab;

namespace {
std::optional<Dataset> try_load(const std::string& name) {
  try { return load_dataset(name); } catch (const DataError& e) { return std::nullopt; }
}

// MR Lemma 1 (docs/bounds.md#lemma1): ||w_{T+1}||^2 = sum_{t in I} (k(x_t,x_t) + 2 y_t s_t).
double lemma1_sum(const RunResult& r) {
  double s = 0.0;
  for (const auto& rec : r.rounds)
    if (changed(rec.update)) s += rec.kxx + 2.0 * rec.y * rec.score;
  return s;
}
}  // namespace

TEST(Perceptron, KernelLinearEqualsPrimalOnA9aFirst5000Rounds) {
  auto data = try_load("a9a");
  if (!data) GTEST_SKIP() << "a9a not found on the data search path";
  LearnerOptions o;
  o.dim = data->dim;
  PrimalPerceptron primal(o);
  KernelPerceptron dual(o);  // default kernel: linear
  const auto order = make_order(data->size(), std::nullopt, 5000);
  const RunResult a = run_online(primal, *data, order), b = run_online(dual, *data, order);
  ASSERT_EQ(a.rounds.size(), 5000u);
  for (std::size_t t = 0; t < 5000; ++t) {
    ASSERT_EQ(a.rounds[t].mistake, b.rounds[t].mistake) << "round " << t + 1;
    // a9a is binary: both scores are sums of small integers, so they agree exactly.
    ASSERT_EQ(a.rounds[t].score, b.rounds[t].score) << "round " << t + 1;
  }
  EXPECT_EQ(a.mistakes, b.mistakes);
  EXPECT_GT(a.mistakes, 500u);  // a9a is far from separable: the test compares many updates
  EXPECT_EQ(b.support_size, b.mistakes);
}

TEST(Perceptron, Lemma1IdentityHoldsAtEndOfRuns) {
  // Random noisy data in 5 dimensions, linear (primal and dual) and Gaussian kernels.
  Rng rng(20261122);
  Dataset d;
  for (int i = 0; i < 3000; ++i) {
    double x[5];
    for (double& v : x) v = rng.normal();
    d.push_dense(x, (x[0] + 0.5 * x[1] + 0.3 * rng.normal() > 0) ? 1.0 : -1.0);
  }
  const auto order = make_order(d.size(), 7);
  for (const Kernel& k : {Kernel::linear(), Kernel::rbf(0.5), Kernel::poly(0.5, 1.0, 3)}) {
    LearnerOptions o;
    o.dim = d.dim;
    o.kernel = k;
    KernelPerceptron kp(o);
    const RunResult r = run_online(kp, d, order);
    const double exact = kp.norm2_exact();
    EXPECT_NEAR(lemma1_sum(r), exact, 1e-9 * std::max(1.0, exact)) << k.describe();
    EXPECT_NEAR(kp.norm2(), exact, 1e-9 * std::max(1.0, exact)) << k.describe();
    double s_i2 = 0.0;  // S_I^2 = Tr K_I bounds ||f_T||^2 (Lemma 1 inequality)
    for (const auto& rec : r.rounds) if (changed(rec.update)) s_i2 += rec.kxx;
    EXPECT_LE(exact, s_i2 * (1 + 1e-12)) << k.describe();
  }
  LearnerOptions o;
  o.dim = d.dim;
  PrimalPerceptron p(o);
  const RunResult r = run_online(p, d, order);
  EXPECT_NEAR(lemma1_sum(r), p.norm2_exact(), 1e-9 * p.norm2_exact());
}

TEST(Perceptron, ZeroScoreIsAMistakeSoRoundOneAlwaysUpdates) {
  Dataset d;
  const double x1[2] = {1, 0}, x2[2] = {0, 1};
  d.push_dense(x1, 1.0);
  d.push_dense(x2, -1.0);  // orthogonal to the first support: score exactly 0
  LearnerOptions o;
  o.dim = 2;
  KernelPerceptron kp(o);
  const RunResult r = run_online(kp, d, make_order(2, std::nullopt));
  EXPECT_EQ(r.rounds[0].score, 0.0);
  EXPECT_TRUE(r.rounds[0].mistake);
  EXPECT_EQ(r.rounds[1].score, 0.0);
  EXPECT_TRUE(r.rounds[1].mistake);
  EXPECT_EQ(r.support_size, 2u);
}
