// Budget learners and baselines: Forgetron (self-tuned, basic), RBP, Stoptron, CKS, PA-I,
// voted / averaged Perceptron, BPA-S, BPA-NN, BOGD, BOGD++, FOGD, NOGD. Fixture numbers come from docs/bounds.md#fixture-f or from the
// stdlib-only python scripts in tests/tools/ (never from this code).
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "tests/test_util.hpp"
#include "algorithms/averaged.hpp"
#include "algorithms/bogd.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/cks.hpp"
#include "algorithms/forgetron.hpp"
#include "algorithms/pa.hpp"
#include "algorithms/perceptron.hpp"
#include "core/random.hpp"
#include "core/scratch_vector.hpp"
#include "algorithms/rbp.hpp"
#include "algorithms/stoptron.hpp"
#include "config/given_options.hpp"
#include "datasets/readers.hpp"

namespace plab {
namespace {

// Fixture F's sequence (docs/bounds.md#fixture-f); the first 8 are fixture P's
// (docs/bounds.md#fixture-p).
const std::vector<std::pair<double, double>> kSeqF = {
    {0.0, 1}, {0.3, -1}, {2.0, 1}, {0.15, 1}, {1.0, -1}, {0.2, 1}, {2.1, 1}, {0.35, -1}, {0.0, 1}, {1.1, -1}};

using test_util::seq1d;

// Noisy linear target in dimension dim with inputs ~ N(0, I) (10% label noise).
Dataset noisy(std::size_t n, std::size_t dim, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> w(dim);
  for (auto& v : w) v = rng.normal();
  Dataset d;
  std::vector<double> x(dim);
  for (std::size_t t = 0; t < n; ++t) {
    double m = 0.0;
    for (std::size_t j = 0; j < dim; ++j) { x[j] = rng.normal(); m += w[j] * x[j]; }
    double y = m >= 0.0 ? 1.0 : -1.0;
    if (rng.uniform() < 0.1) y = -y;
    d.push_dense(x, y);
  }
  d.dim = dim;
  return d;
}

LearnerOptions opts(Kernel k, std::size_t dim, std::size_t B = 0) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = dim;
  o.own["budget"] = B;
  return o;
}

std::vector<RoundRecord> run(Learner& L, const Dataset& d) { return test_util::records(L, d); }

constexpr double kQ = 15.0 / 32.0;

// ---------------------------------------------------------------- Forgetron
TEST(Forgetron, FixtureF) {  // docs/bounds.md#fixture-f (6 printed decimals -> 1e-6)
  const double phi[] = {1, 1, 0.591090, 0.314276, 0.895386, 1, 0.298028, 0.548506, 1, 0.611528};
  const double psi[] = {0, 0, 1.406250, 0.468750, 0.468750, 0.272652, 0.664848, 0.468750, 0.302955, 0.634545};
  const double Q[] = {0, 0, 1.406250, 1.875000, 2.343750, 2.616402, 3.281250, 3.750000, 4.052955, 4.687500};
  const double s[] = {0, 0.955997, -0.100411, -0.477703, 0.331662, -0.369137, -0.324473, 0.359147, -0.497895, 0.132040};
  const Dataset d = seq1d(kSeqF);
  auto L = test_util::configured_learner("forgetron", opts(Kernel::rbf(0.5), 1, 2));
  const auto rec = run(*L, d);
  for (int i = 0; i < 10; ++i) {
    SCOPED_TRACE(i + 1);
    const RoundRecord& r = rec[i];
    EXPECT_TRUE(r.mistake);
    EXPECT_NEAR(r.score, s[i], 1e-6);
    EXPECT_NEAR(r.phi, phi[i], 1e-6);
    EXPECT_NEAR(r.psi, psi[i], 1e-6);
    EXPECT_NEAR(r.Q, Q[i], 1e-6);
    EXPECT_EQ(r.support_size, std::min(i + 1, 2));
    if (i >= 2) {  // FIFO: round t removes round t-2
      EXPECT_EQ(r.update, UpdateKind::shrink);
      EXPECT_EQ(r.removed, i - 1);
      EXPECT_GT(r.sigma_r, 0.0);
      EXPECT_LE(r.sigma_r, 1.0);
    } else {
      EXPECT_EQ(r.update, UpdateKind::add);
      EXPECT_EQ(r.removed, -1);
    }
  }
  // Full-precision values from tests/tools/forgetron_reference.py.
  EXPECT_NEAR(rec[2].phi, 0.591089762138568, 1e-12);
  EXPECT_NEAR(rec[9].psi, 0.634545000597934, 1e-12);
  EXPECT_NEAR(rec[8].Q, 4.052954999402066, 1e-12);
  const KernelExpansion* f = L->expansion();
  ASSERT_EQ(f->size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const double y = f->sv.id(i) == 9 ? 1.0 : -1.0;
    EXPECT_TRUE(f->sv.id(i) == 9 || f->sv.id(i) == 10);
    EXPECT_NEAR(f->alpha[i], y * 0.611528, 1e-6);
  }
  EXPECT_NEAR(L->norm2(), L->norm2_exact(), 1e-12);
}

TEST(Forgetron, BasicFixture) {  // tests/tools/forgetron_reference.py, basic = True, B = 2
  const double ref[][4] = {  // s, phi, psi, Q
      {0.000000000000000, 1.000000000000000, 0.000000000000000, 0.000000000000000},
      {0.955997481833100, 1.000000000000000, 0.000000000000000, 0.000000000000000},
      {-0.100410793319251, 0.438603097067446, 1.000579485092575, 1.000579485092575},
      {-0.354467265413327, 0.540082572249202, 0.697116737425827, 1.697696222518402},
      {0.520008243830052, 0.694341139285194, 0.418152940609475, 2.115849163127877},
      {-0.129662060256732, 0.413009553914697, 0.219894158374991, 2.335743321502868},
      {-0.088667981564402, 0.434631938031522, 0.325400711067331, 2.661144032570199},
      {0.271494753032508, 0.492439582164124, 0.248841234360630, 2.909985266930829},
      {-0.439585876292770, 0.685170144185782, 0.271034376102061, 3.181019643032890},
      {0.119467313578474, 0.433194422885795, 0.256983189903623, 3.438002832936513}};
  auto L = test_util::configured_learner("forgetron-basic", opts(Kernel::rbf(0.5), 1, 2));
  const auto rec = run(*L, seq1d(kSeqF));
  for (int i = 0; i < 10; ++i) {
    SCOPED_TRACE(i + 1);
    EXPECT_NEAR(rec[i].score, ref[i][0], 1e-12);
    EXPECT_NEAR(rec[i].phi, ref[i][1], 1e-12);
    EXPECT_NEAR(rec[i].psi, ref[i][2], 1e-12);
    EXPECT_NEAR(rec[i].Q, ref[i][3], 1e-12);
  }
  const KernelExpansion* f = L->expansion();
  ASSERT_EQ(f->size(), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_NEAR(f->alpha[i], f->sv.id(i) == 9 ? 0.2968118851891369 : -0.43319442288579507, 1e-12);
}

TEST(Forgetron, BasicConstants) {  // docs/bounds.md#forgetron-constants (6 decimals) and forgetron_reference.py
  EXPECT_NEAR(forgetron_basic_U(83), 1.088523, 1e-6);
  EXPECT_NEAR(forgetron_basic_cap(83), 0.973971, 1e-6);
  EXPECT_NEAR(forgetron_basic_U(84), 1.093524, 1e-6);
  EXPECT_NEAR(forgetron_basic_cap(84), 0.974205275233689, 1e-12);
  EXPECT_NEAR(forgetron_basic_U(100), 1.169524, 1e-6);
  EXPECT_NEAR(forgetron_basic_cap(100), 0.977412, 1e-6);
  EXPECT_NEAR(forgetron_basic_U(1000), 3.009242, 1e-6);
  EXPECT_NEAR(forgetron_basic_cap(1000), 0.996555, 1e-6);
  EXPECT_NEAR(forgetron_basic_U(83), 1.0885233633716391, 1e-12);
}

TEST(Forgetron, PhiMatchesAppendixBranches) {  // the python appendix's forgetron_phi, by hand
  // A > 0: sigma=1, p=0 -> A=1, b=2, c=Q-15/32 M; Q=0, M=1: phi = (-2+sqrt(4+15/8))/2
  EXPECT_NEAR(forgetron_phi(1.0, 0.0, 0.0, 1.0), (-2.0 + std::sqrt(4.0 + 4.0 * kQ)) / 2.0, 1e-15);
  // A == 0: sigma=1, p=0.5 -> phi = min(1, -c/b) = (15/32)/2
  EXPECT_DOUBLE_EQ(forgetron_phi(1.0, 0.5, 0.0, 1.0), kQ / 2.0);
  // A < 0 with a large negative c: the larger root is > 1 -> 1; plenty of slack -> 1
  EXPECT_EQ(forgetron_phi(1.0, 2.0, 0.0, 100.0), 1.0);
  EXPECT_EQ(forgetron_phi(0.5, 0.0, 0.0, 100.0), 1.0);
}

TEST(Forgetron, QInvariantLongRun) {  // docs/learners.md#forgetron-self-tuned: Q_t <= 15/32 M_t; equality when phi < 1
  for (uint64_t seed : {1u, 2u, 3u}) {
    const Dataset d = noisy(4000, 5, seed);
    Forgetron L(opts(Kernel::rbf(0.3), 5, 7 * seed));
    int64_t M = 0, shrunk = 0, below1 = 0;
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = L.learn(d[t], static_cast<int64_t>(t + 1));
      if (!r.mistake) continue;
      ++M;
      ASSERT_EQ(L.mistakes(), M);
      ASSERT_LE(r.Q, kQ * M * (1 + 1e-12) + 1e-12) << "t=" << r.t;
      if (r.update == UpdateKind::shrink) ++shrunk;
      if (r.phi < 1.0) {
        ++below1;
        ASSERT_NEAR(r.Q, kQ * M, 1e-9 * M) << "t=" << r.t;
      }
    }
    EXPECT_GT(shrunk, 100);
    EXPECT_GT(below1, 10);
  }
}

TEST(Forgetron, RemovesOldestAndKeepsWeightsPositive) {
  const Dataset d = noisy(2000, 4, 9);
  for (auto rule : {Forgetron::Rule::self_tuned, Forgetron::Rule::basic}) {
    Forgetron L(opts(Kernel::rbf(0.5), 4, 5), rule);
    for (std::size_t t = 0; t < d.size(); ++t) {
      const KernelExpansion& f = *L.expansion();
      int64_t oldest = INT64_MAX;
      for (std::size_t i = 0; i < f.size(); ++i) oldest = std::min(oldest, f.sv.id(i));
      const RoundRecord r = L.learn(d[t], static_cast<int64_t>(t + 1));
      if (r.update == UpdateKind::shrink) {
        ASSERT_EQ(r.removed, oldest);
        // f_r = f'_t(x_r): y_r f_r and sigma_r recorded before shrinking
        ASSERT_GT(r.phi, 0.0);
        ASSERT_LE(r.phi, 1.0);
      }
      for (std::size_t i = 0; i < f.size(); ++i) {  // alpha_i = sigma_i y_i, 0 < sigma_i <= 1
        const double y = d[static_cast<std::size_t>(f.sv.id(i) - 1)].y;
        ASSERT_GT(y * f.alpha[i], 0.0);
        ASSERT_LE(y * f.alpha[i], 1.0);
      }
    }
  }
}

// ---------------------------------------------------------------- shared properties
// The learners with a budget, from the registry.
std::vector<std::string> budget_learners() {
  std::vector<std::string> v;
  for (const auto& l : learners())
    if (l.uses("budget") && !l.multiclass) v.push_back(l.name);  // mrbp: test_multiclass.cpp
  return v;
}

TEST(Budget, EqualsKernelPerceptronWhenBudgetIsLarge) {
  for (uint64_t seed : {4u, 5u}) {
    const Dataset d = noisy(1500, 3, seed);
    const LearnerOptions base = opts(Kernel::rbf(0.7), 3);
    KernelPerceptron P(base);
    const auto ref = run(P, d);
    const std::size_t M = P.support_size();
    ASSERT_GT(M, 50u);
    for (const char* name : {"forgetron", "forgetron-basic", "rbp", "stoptron"}) {
      for (std::size_t B : {M, M + 10}) {
        SCOPED_TRACE(std::string(name) + " B=" + std::to_string(B));
        auto L = test_util::configured_learner(name, opts(Kernel::rbf(0.7), 3, B));
        for (std::size_t t = 0; t < d.size(); ++t) {
          const RoundRecord r = L->learn(d[t], static_cast<int64_t>(t + 1));
          ASSERT_NEAR(r.score, ref[t].score, 1e-12) << "t=" << t + 1;
          ASSERT_EQ(r.support_size, ref[t].support_size) << "t=" << t + 1;
          ASSERT_EQ(r.removed, -1);
        }
      }
    }
  }
}

TEST(Budget, SupportNeverExceedsBudget) {
  const Dataset d = noisy(5000, 6, 11);
  for (const std::string& name : budget_learners()) {
    for (std::size_t B : {1u, 3u, 40u}) {
      SCOPED_TRACE(name + " B=" + std::to_string(B));
      LearnerOptions o = opts(Kernel::rbf(0.2), 6, B);
      if (name == "cks") o.own["beta"] = 0.5;
      auto L = test_util::configured_learner(name, o);
      int64_t evictions = 0;
      for (std::size_t t = 0; t < d.size(); ++t) {
        const RoundRecord r = L->learn(d[t], static_cast<int64_t>(t + 1));
        ASSERT_LE(r.support_size, static_cast<int64_t>(B)) << "t=" << t + 1;
        ASSERT_EQ(static_cast<std::size_t>(r.support_size), L->support_size());
        evictions += r.removed >= 0;
      }
      if (name != "stoptron" && name != "nogd") { EXPECT_GT(evictions, 0); }  // nogd keeps its B for the Nystrom map
      EXPECT_EQ(L->support_size(), B);  // every learner fills its budget on noisy data
    }
  }
}

void expect_norm(const Learner& L, const std::string& what) {
  const double ex = L.norm2_exact();
  EXPECT_NEAR(L.norm2(), ex, 1e-8 * std::max(1.0, std::abs(ex))) << what;
}

// Every registered learner, on three kernels: every round for the budget learners (O(B^2) per
// check); the unbounded ones (|S| grows with t, O(|S|^2) per check) every round up to t = 500,
// then every 50th.
TEST(Budget, RunningNormMatchesExact) {
  const Dataset d = noisy(3000, 5, 12);
  for (const Kernel& k : {Kernel::rbf(0.3), Kernel::poly(0.5, 1.0, 2), Kernel::linear()}) {
    for (const auto& info : learners()) {
      if (!info.takes(k)) continue;  // the registry's kernels: the primal Perceptron linear, FOGD rbf
      if (info.multiclass) continue;  // ±1 labels here; the contract test checks their norms on class data
      const std::string name = info.name;
      LearnerOptions o = opts(k, 5, 25);
      if (name == "cks") o.own["beta"] = 0.3;
      auto L = test_util::configured_learner(name, o);
      const bool bounded = info.uses("budget");
      for (std::size_t t = 0; t < d.size(); ++t) {
        L->learn(d[t], static_cast<int64_t>(t + 1));
        if (bounded || t < 500 || (t + 1) % 50 == 0) expect_norm(*L, std::string(name) + " " + k.describe() + " t=" + std::to_string(t + 1));
        if (::testing::Test::HasFailure()) return;  // one report, not thousands
      }
    }
    CKSPerceptron c(opts(k, 5, 25), {.budget = 25}, /*insert_first=*/true);
    for (std::size_t t = 0; t < d.size(); ++t) {
      c.learn(d[t], static_cast<int64_t>(t + 1));
      expect_norm(c, "cks insert-first " + k.describe() + " t=" + std::to_string(t + 1));
    }
  }
}

TEST(Budget, Validation) {
  auto msg = [](const char* name, LearnerOptions o) -> std::string {
    try {
      test_util::configured_learner(name, o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  for (const std::string& name : budget_learners())
    EXPECT_NE(msg(name.c_str(), opts(Kernel::rbf(1), 2, 0)).find("--budget"), std::string::npos) << name;
  LearnerOptions o = opts(Kernel::rbf(1), 2, 5);
  o.own["C"] = 0.0;
  EXPECT_NE(msg("pa1", o).find("--C"), std::string::npos);
  o.own["C"] = -1.0;
  EXPECT_NE(msg("pa1", o).find("--C"), std::string::npos);
  o.own["C"] = 1.0;
  LearnerOptions c = o;
  c.own["beta"] = -0.1;
  EXPECT_NE(msg("cks", c).find("--beta"), std::string::npos);
  c.own["beta"] = 0.0;
  EXPECT_EQ(msg("cks", c), "");
  for (const char* name : {"forgetron", "forgetron-basic", "rbp", "stoptron", "cks", "pa1",
                           "averaged-perceptron", "voted-perceptron"}) {
    EXPECT_NE(test_util::configured_learner(name, o), nullptr) << name;
  }
}

// ---------------------------------------------------------------- RBP / Stoptron
TEST(RBP, SeedDeterminism) {
  const Dataset d = noisy(3000, 4, 13);
  auto trace = [&](uint64_t seed) {
    LearnerOptions o = opts(Kernel::rbf(0.5), 4, 20);
    o.own["seed"] = seed;
    auto L = test_util::configured_learner("rbp", o);
    std::vector<double> v;
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = L->learn(d[t], static_cast<int64_t>(t + 1));
      v.push_back(r.score);
      v.push_back(static_cast<double>(r.removed));
      if (r.update == UpdateKind::evict) { EXPECT_TRUE(r.mistake); }
    }
    return v;
  };
  const auto a = trace(7), b = trace(7), c = trace(8);
  EXPECT_EQ(a, b);  // bit-identical
  EXPECT_NE(a, c);
}

TEST(RBP, EvictsUniformly) {  // B = 4: each old support is hit with probability 1/4
  const Dataset d = noisy(20000, 3, 14);
  LearnerOptions o = opts(Kernel::rbf(1.0), 3, 4);
  RandomizedBudgetPerceptron L(o);
  int64_t ev = 0, oldest_hits = 0;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const KernelExpansion& f = *L.expansion();
    int64_t oldest = INT64_MAX;
    for (std::size_t i = 0; i < f.size(); ++i) oldest = std::min(oldest, f.sv.id(i));
    const RoundRecord r = L.learn(d[t], static_cast<int64_t>(t + 1));
    if (r.update == UpdateKind::evict) { ++ev; oldest_hits += r.removed == oldest; }
  }
  ASSERT_GT(ev, 2000);
  const double p = static_cast<double>(oldest_hits) / static_cast<double>(ev);
  EXPECT_NEAR(p, 0.25, 5.0 * std::sqrt(0.25 * 0.75 / static_cast<double>(ev)));
}

TEST(Stoptron, FreezesAfterBudget) {
  const Dataset d = noisy(2000, 3, 15);
  KernelPerceptron P(opts(Kernel::rbf(0.5), 3));
  const auto ref = run(P, d);
  Stoptron S(opts(Kernel::rbf(0.5), 3, 10));
  std::size_t frozen_at = 0;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord r = S.learn(d[t], static_cast<int64_t>(t + 1));
    if (!frozen_at) {
      ASSERT_EQ(r.score, ref[t].score);  // kernel Perceptron on the prefix
      if (r.support_size == 10) frozen_at = t + 1;
    } else {
      ASSERT_EQ(r.update, UpdateKind::none);
      ASSERT_EQ(r.support_size, 10);
    }
  }
  EXPECT_GT(frozen_at, 0u);
  EXPECT_DOUBLE_EQ(S.norm2(), ref[frozen_at - 1].f_norm2);
}

// ---------------------------------------------------------------- CKS
struct CksRow { int t; double s; UpdateKind k; int64_t removed; int64_t n; };

void check_cks(bool insert_first, const std::vector<CksRow>& ref, const std::vector<int64_t>& ids) {
  CKSPerceptron L(opts(Kernel::rbf(0.5), 1, 3), {.budget = 3, .beta = 0.5}, insert_first);
  const auto rec = run(L, seq1d(kSeqF));
  for (std::size_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE(i + 1);
    EXPECT_NEAR(rec[i].score, ref[i].s, 1e-12);
    EXPECT_EQ(rec[i].update, ref[i].k);
    EXPECT_EQ(rec[i].removed, ref[i].removed);
    EXPECT_EQ(rec[i].support_size, ref[i].n);
  }
  std::vector<int64_t> got;
  for (std::size_t i = 0; i < L.support_size(); ++i) got.push_back(L.expansion()->sv.id(i));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, ids);
}

TEST(CKS, FixtureRemoveThenInsert) {  // tests/tools/cks_reference.py, N = 3, beta = 0.5
  const auto A = UpdateKind::add, E = UpdateKind::evict;
  check_cks(false, {{1, 0.000000000000000, A, -1, 1}, {2, 0.955997481833100, A, -1, 2},
                    {3, -0.100410793319251, A, -1, 3}, {4, 0.180639851618894, E, 3, 3},
                    {5, 0.520630896966800, E, 1, 3}, {6, -0.722410735341792, E, 5, 3},
                    {7, 0.115957532743958, E, 4, 3}, {8, 0.206327430516539, E, 7, 3},
                    {9, -0.916386871890687, E, 8, 3}, {10, 0.486902200424493, E, 9, 3}},
            {2, 6, 10});
}

TEST(CKS, FixtureInsertThenRemove) {  // same script, insert_first = True
  const auto A = UpdateKind::add, E = UpdateKind::evict, N = UpdateKind::none;
  check_cks(true, {{1, 0.000000000000000, A, -1, 1}, {2, 0.955997481833100, A, -1, 2},
                   {3, -0.100410793319251, A, -1, 3}, {4, 0.180639851618894, E, 4, 3},
                   {5, 0.430356781183399, E, 2, 3}, {6, 0.451948335316679, E, 1, 3},
                   {7, 0.613412509130128, N, -1, 3}, {8, 0.435581547358420, E, 8, 3},
                   {9, 0.509003296830735, N, -1, 3}, {10, 0.338941142524266, E, 5, 3}},
           {3, 6, 10});
}

TEST(CKS, IncrementalSupportScores) {  // F_i = f(x_i) kept incrementally vs recomputed
  const Dataset d = noisy(4000, 5, 16);
  for (bool ins : {false, true}) {
    CKSPerceptron L(opts(Kernel::rbf(0.3), 5, 30), {.budget = 30, .beta = 1.0}, ins);
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = L.learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_EQ(r.update != UpdateKind::none, d[t].y * r.score <= 1.0);
      if ((t + 1) % 500) continue;
      const KernelExpansion& f = *L.expansion();
      for (std::size_t i = 0; i < f.size(); ++i)
        ASSERT_NEAR(L.support_scores()[i], f.score(f.sv.row(i)), 1e-9);
    }
  }
}

// The removal is the support of the largest y_i (F_i - alpha_i k_ii), ties to the smallest id,
// computed here from the state before each round. Inputs drawn from four points (random labels)
// make many supports equal, so the largest value is shared across the search's blocks of 16.
TEST(CKS, RemovesTheLargestValueTiesToTheSmallestId) {
  const uint64_t seed = test_util::test_seed(20261130);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  const double pool[4][2] = {{0.0, 1.0}, {1.0, 0.5}, {-0.5, -1.0}, {2.0, -0.3}};
  Dataset d;
  for (int t = 0; t < 3000; ++t) {
    const double* p = pool[rng.below(4)];
    const std::vector<double> x = {p[0], p[1]};
    d.push_dense(x, rng.uniform() < 0.5 ? 1.0 : -1.0);
  }
  d.dim = 2;
  CKSPerceptron L(opts(Kernel::rbf(0.5), 2, 40), {.budget = 40, .beta = 0.5});
  std::size_t removals = 0, tied = 0;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const KernelExpansion& f = *L.expansion();
    const std::vector<double> F = L.support_scores();
    int64_t want = -1;
    double best = -std::numeric_limits<double>::infinity();
    std::size_t at_best = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      const double a = f.alpha[i], v = (a >= 0.0 ? 1.0 : -1.0) * (F[i] - a * 1.0);  // k_ii = 1
      const int64_t id = f.sv.id(i);
      if (v > best || (v == best && id < want)) best = v, want = id;
    }
    for (std::size_t i = 0; i < f.size(); ++i)
      at_best += (f.alpha[i] >= 0.0 ? 1.0 : -1.0) * (F[i] - f.alpha[i] * 1.0) == best;
    const RoundRecord r = L.learn(d[t], static_cast<int64_t>(t + 1));
    if (r.removed < 0) continue;
    ++removals;
    tied += at_best > 1;
    ASSERT_EQ(r.removed, want) << "round " << t + 1;
  }
  EXPECT_GT(removals, 100u);
  EXPECT_GT(tied, 50u);  // the ties the rule decides
}

// ---------------------------------------------------------------- PA-I
struct PaRow { double s; double coef; int64_t n; double norm2; };

TEST(PA1, GaussianFixture) {  // tests/tools/pa_reference.py, C = 0.7
  const std::vector<PaRow> ref = {
      {0.000000000000000, 0.700000000000000, 1, 0.490000000000000},
      {0.669198237283170, -0.700000000000000, 2, 0.043122467803562},
      {-0.070287555323476, 0.700000000000000, 3, 0.434719890350696},
      {0.126447896133226, 0.700000000000000, 4, 1.101746944937212},
      {0.789013089675603, -0.700000000000000, 5, 0.487128619391367},
      {0.318980645934004, 0.681019354065996, 6, 1.385379966910893},
      {0.469480445995513, 0.530519554004487, 7, 2.164968077738747},
      {1.046296841732063, -0.700000000000000, 8, 1.190152499313859},
      {0.460746812921448, 0.539253187078552, 9, 1.977864873696588},
      {0.632190080466369, -0.700000000000000, 10, 1.582798761043672}};
  LearnerOptions o = opts(Kernel::rbf(0.5), 1);
  o.own["C"] = 0.7;
  PassiveAggressive1 L(o);
  const auto rec = run(L, seq1d(kSeqF));
  for (std::size_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE(i + 1);
    EXPECT_NEAR(rec[i].score, ref[i].s, 1e-12);
    EXPECT_NEAR(rec[i].coef, ref[i].coef, 1e-12);
    EXPECT_EQ(rec[i].support_size, ref[i].n);
    EXPECT_NEAR(rec[i].f_norm2, ref[i].norm2, 1e-12);
  }
}

TEST(PA1, DogmaAddsZeroCoefficientAtMarginOne) {  // pa_reference.py, linear kernel, C = 1
  const Dataset d = seq1d({{1.0, 1}, {1.0, 1}, {-2.0, -1}, {0.5, 1}, {3.0, -1}});
  const double s[] = {0, 1, -2, 0.5, 4.5};
  const double coef_paper[] = {1, kNone, kNone, 1, -0.611111111111111};
  const int64_t n_paper[] = {1, 1, 1, 2, 3}, n_dogma[] = {1, 2, 2, 3, 4};
  for (bool dogma : {false, true}) {
    LearnerOptions o = opts(Kernel::linear(), 1);
    if (dogma) o.own["eta_convention"] = EtaConvention::dogma;
    auto L = test_util::configured_learner("pa1", o);
    const auto rec = run(*L, d);
    for (int i = 0; i < 5; ++i) {
      SCOPED_TRACE(std::to_string(dogma) + " t=" + std::to_string(i + 1));
      EXPECT_NEAR(rec[i].score, s[i], 1e-12);
      EXPECT_EQ(rec[i].support_size, dogma ? n_dogma[i] : n_paper[i]);
      if (dogma && i == 1) {
        EXPECT_EQ(rec[i].coef, 0.0);
        EXPECT_EQ(rec[i].update, UpdateKind::add);
      } else if (std::isnan(coef_paper[i])) {
        EXPECT_TRUE(std::isnan(rec[i].coef));
        EXPECT_EQ(rec[i].update, UpdateKind::none);
      } else {
        EXPECT_NEAR(rec[i].coef, coef_paper[i], 1e-12);
      }
    }
    EXPECT_NEAR(L->norm2(), 0.111111111111111, 1e-12);
    expect_norm(*L, "pa1 linear");
  }
}

// ---------------------------------------------------------------- voted / averaged
TEST(Voted, MatchesPythonReference) {  // tests/tools/voted_reference.py (unnormalised sums, T = 12)
  auto seq = kSeqF;
  seq.push_back({-1.0, 1});
  seq.push_back({3.0, 1});
  const Dataset d = seq1d(seq);
  for (const char* name : {"averaged-perceptron", "voted-perceptron"}) {
    VotedPerceptron L(opts(Kernel::rbf(0.5), 1), std::string(name) == "voted-perceptron");
    EXPECT_EQ(L.default_hypothesis(), std::string(name) == "voted-perceptron" ? "voted" : "averaged");
    KernelPerceptron P(opts(Kernel::rbf(0.5), 1));
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = L.learn(d[t], static_cast<int64_t>(t + 1));
      const RoundRecord p = P.learn(d[t], static_cast<int64_t>(t + 1));
      EXPECT_EQ(r.score, p.score);  // training is the kernel Perceptron's
      EXPECT_EQ(r.mistake, p.mistake);
    }
    EXPECT_EQ(L.survival(), (std::vector<int64_t>{0, 1, 1, 2, 1, 2, 1, 4}));
    EXPECT_EQ(L.hypotheses(), (std::vector<std::string>{"last", "averaged", "voted"}));
    const double ref[][4] = {  // z, sum c<v,z>, sum c sign<v,z>, <v_last,z>
        {-0.5, 5.969368521123108, 8.0, 0.844028997106391},
        {0.0, 4.143585650826537, 8.0, 0.612417751633292},
        {0.25, 2.661601084346585, 6.0, 0.404879554600886},
        {0.7, 0.491124530329946, 6.0, 0.057761445694993},
        {1.5, 2.031031605090789, 6.0, 0.075904363021970},
        {2.5, 5.953953646524148, 10.0, 0.528664786242564}};
    const Dataset zs = seq1d({{-0.5, 1}, {0.0, 1}, {0.25, 1}, {0.7, 1}, {1.5, 1}, {2.5, 1}});
    for (std::size_t i = 0; i < 6; ++i) {
      SCOPED_TRACE(ref[i][0]);
      EXPECT_NEAR(L.score_as("averaged", zs[i]), ref[i][1] / 12.0, 1e-12);
      EXPECT_NEAR(L.score_as("voted", zs[i]), ref[i][2] / 12.0, 1e-12);
      EXPECT_NEAR(L.score_as("last", zs[i]), ref[i][3], 1e-12);
      EXPECT_NEAR(L.score(zs[i]), ref[i][3], 1e-12);
      // The prefix-sum average equals the base class's (1/T) sum_t f_t kept through wsum.
      EXPECT_NEAR(L.score_as("averaged", zs[i]), L.expansion()->score_averaged(zs[i], 12), 1e-12);
    }
  }
}

TEST(Voted, LongRunAveragedAgreesWithWeightedSum) {
  const Dataset d = noisy(3000, 4, 17);
  VotedPerceptron L(opts(Kernel::rbf(0.4), 4));
  run(L, d);
  int64_t sum = 0;
  for (int64_t c : L.survival()) sum += c;
  EXPECT_EQ(sum, 3000);
  EXPECT_EQ(L.survival().size(), L.support_size() + 1);
  const Dataset z = noisy(50, 4, 18);
  for (std::size_t i = 0; i < z.size(); ++i) {
    EXPECT_NEAR(L.score_as("averaged", z[i]), L.expansion()->score_averaged(z[i], 3000), 1e-9);
    const double v = L.score_as("voted", z[i]);
    EXPECT_LE(std::abs(v), 1.0);
  }
}

// ---------------------------------------------------------------- BPA-S, BOGD, BOGD++, FOGD, NOGD
// Fixture numbers from tests/tools/budget_ogd_reference.py (stdlib only, every f and ||f||^2
// recomputed from the coefficients, BPA-S's removal by the full objective, its own mt19937_64 and
// Jacobi eigensolver), never from this code. Fixture F's sequence, Gaussian gamma = 0.5.
struct Round {
  double s;
  int64_t removed;
  double norm2;
};

std::unique_ptr<Learner> make_1d(const std::string& algo, LearnerOptions o) {
  o.kernel = Kernel::rbf(0.5);
  o.dim = 1;
  return test_util::configured_learner(algo, o);
}

// Scores, removed ids and the running ||f||^2 of every round, then the final (id, alpha) pairs.
void expect_run(Learner& L, const std::vector<Round>& want, const std::vector<std::pair<int64_t, double>>& alpha) {
  const auto rec = test_util::records(L, test_util::seq1d(kSeqF));
  ASSERT_EQ(rec.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i + 1);
    EXPECT_NEAR(rec[i].score, want[i].s, 1e-12);
    EXPECT_EQ(rec[i].removed, want[i].removed);
    EXPECT_NEAR(rec[i].f_norm2, want[i].norm2, 1e-12);
  }
  EXPECT_NEAR(L.norm2(), want.back().norm2, 1e-12);
  const KernelExpansion* f = L.expansion();
  ASSERT_EQ(f->size(), alpha.size());
  for (const auto& [id, a] : alpha)
    for (std::size_t i = 0; i < f->size(); ++i)
      if (f->sv.id(i) == id) { EXPECT_NEAR(f->alpha[i], a, 1e-12) << "support " << id; }
}

TEST(BudgetPA, SimpleFixture) {  // budget_ogd_reference.py: bpa-s B=2 C=1, then C=0.3
  LearnerOptions o;
  o.own["budget"] = 2;
  auto L = make_1d("bpa-s", o);
  expect_run(*L,
             {{0.0, -1, 1.0}, {0.955997481833100, -1, 0.088005036333800}, {-0.100410793319251, 2, 1.790945101887766},
              {1.126867759941339, -1, 1.790945101887766}, {1.070074096087174, 3, 0.637030937770992},
              {0.590651256198267, 1, 1.136038454480942}, {-0.064400154081774, 5, 2.753956253308090},
              {1.526913934173676, 6, 0.754182897119008}, {0.429735554621101, 8, 1.493849780036359},
              {0.932356606400526, 7, 0.601227508375946}},
             {{9, 0.922046838027424}, {10, -0.571149592010256}});
  o.own["C"] = 0.3;
  L = make_1d("bpa-s", o);
  expect_run(*L,
             {{0.0, -1, 0.09}, {0.286799244549930, -1, 0.007920453270042}, {-0.030123237995775, 2, 0.161185059169899},
              {0.338060327982402, 1, 0.457973228101749}, {0.554807359028537, 3, 0.248067403231750},
              {0.479034349292992, 4, 0.619137978281640}, {0.059468868057224, 5, 0.910139383786314},
              {0.931749593649867, 6, 0.441996563355109}, {0.574454106137438, 8, 0.809116463943897},
              {0.593401678559986, 7, 0.594412192304563}},
             {{9, 0.851068157545665}, {10, -0.171344877603077}});
}

// ---------------------------------------------------------------- BPA-NN (docs/learners.md#bpa-nn)
// The problem of a round at |S| = B solved by brute force, without the learner's closed form: for
// every r, nn(r) by the kernel distance (ties: the smaller id), then
//   J_r = min_beta 1/2 ||f_new - f||^2 + C max(0, 1 - y f_new(x_t))
// as the least J over the stationary points of the two hinge branches and of the kink (the
// minimiser of a convex piecewise quadratic is one of them), each solved as a linear system by a
// complete orthogonal decomposition (minimum-norm least squares: singular K_V too). Kernel values
// are the test's own, from dense copies of the points.
struct DensePoint {
  std::vector<double> x;
  double a;
  int64_t id;
};
double kernel_of(const Kernel& k, const std::vector<double>& u, const std::vector<double>& v) {
  double dot = 0.0, d2 = 0.0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    dot += u[i] * v[i];
    d2 += (u[i] - v[i]) * (u[i] - v[i]);
  }
  return k.type == Kernel::Type::rbf ? std::exp(-k.gamma * d2) : dot;  // rbf or linear only
}
std::vector<double> dense_of(const Example& e, std::size_t dim) {
  std::vector<double> x(dim, 0.0);
  for (std::size_t q = 0; q < e.idx.size(); ++q) x[e.idx[q]] = e.val[q];
  return x;
}
std::vector<DensePoint> points_of(const KernelExpansion& f, std::size_t dim) {
  std::vector<DensePoint> p;
  for (std::size_t i = 0; i < f.size(); ++i) p.push_back({dense_of(f.sv.row(i), dim), f.alpha[i], f.sv.id(i)});
  return p;
}
double norm2_of(const Kernel& k, const std::vector<DensePoint>& f) {
  double q = 0.0;
  for (const auto& u : f)
    for (const auto& v : f) q += u.a * v.a * kernel_of(k, u.x, v.x);
  return q;
}
// f - g as one list of terms.
std::vector<DensePoint> minus(std::vector<DensePoint> f, const std::vector<DensePoint>& g) {
  for (auto v : g) { v.a = -v.a; f.push_back(v); }
  return f;
}
double score_of(const Kernel& k, const std::vector<DensePoint>& f, const std::vector<double>& x) {
  double s = 0.0;
  for (const auto& v : f) s += v.a * kernel_of(k, v.x, x);
  return s;
}

struct BruteRound {
  std::size_t r = 0;                // the slot removed
  double J = 0.0, gap = 0.0;        // the least objective, and the next r's minus it
  bool regular = false;             // K_V of r well conditioned and k_tt > 0 (beta unique)
  std::vector<DensePoint> f_new;    // the new function (the new support with id t)
};
BruteRound brute_force(const Kernel& k, const std::vector<DensePoint>& S, const std::vector<double>& xt, double y,
                       int64_t t, double C) {
  using Eigen::MatrixXd, Eigen::VectorXd;
  const double s = score_of(k, S, xt), ktt = kernel_of(k, xt, xt);
  std::vector<double> J(S.size());
  std::vector<std::vector<DensePoint>> fn(S.size());
  std::vector<bool> regular(S.size());
  for (std::size_t r = 0; r < S.size(); ++r) {
    const DensePoint& R = S[r];
    std::vector<std::vector<double>> V = {xt};
    std::size_t nn = S.size();
    for (std::size_t j = 0; j < S.size(); ++j) {
      if (j == r) continue;
      const auto d = [&](std::size_t i) {
        return kernel_of(k, R.x, R.x) - 2.0 * kernel_of(k, R.x, S[i].x) + kernel_of(k, S[i].x, S[i].x);
      };
      if (nn == S.size() || d(j) < d(nn) || (d(j) == d(nn) && S[j].id < S[nn].id)) nn = j;
    }
    if (nn < S.size()) V.push_back(S[nn].x);
    const auto m = static_cast<Eigen::Index>(V.size());
    MatrixXd H(m, m);
    VectorXd p(m), q(m);
    for (Eigen::Index a = 0; a < m; ++a) {
      p(a) = kernel_of(k, R.x, V[a]);
      q(a) = kernel_of(k, xt, V[a]);
      for (Eigen::Index b = 0; b < m; ++b) H(a, b) = kernel_of(k, V[a], V[b]);
    }
    const double h0 = 1.0 - y * (s - R.a * p(0));  // hinge of f - a_r k_r at x_t
    const auto objective = [&](const VectorXd& b) {
      return 0.5 * (R.a * R.a * kernel_of(k, R.x, R.x) - 2.0 * R.a * b.dot(p) + b.dot(H * b)) +
             C * std::max(0.0, h0 - y * b.dot(q));
    };
    MatrixXd kkt = MatrixXd::Zero(m + 1, m + 1);  // on the kink: H b - lambda y q = a p, y q^T b = h0
    kkt.topLeftCorner(m, m) = H;
    kkt.topRightCorner(m, 1) = -y * q;
    kkt.bottomLeftCorner(1, m) = y * q.transpose();
    VectorXd rhs(m + 1);
    rhs << R.a * p, h0;
    const Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(H);
    const std::vector<VectorXd> cands = {cod.solve(VectorXd(R.a * p)), cod.solve(VectorXd(R.a * p + C * y * q)),
                                         Eigen::CompleteOrthogonalDecomposition<MatrixXd>(kkt).solve(rhs).head(m)};
    VectorXd b = cands[0];
    for (const auto& c : cands)
      if (objective(c) < objective(b)) b = c;
    J[r] = objective(b);
    regular[r] = ktt > 0.0 && (m == 1 || H.determinant() > 1e-6 * H(0, 0) * H(1, 1));
    for (std::size_t i = 0; i < S.size(); ++i)
      if (i != r) fn[r].push_back(S[i]);
    if (nn < S.size())
      for (auto& v : fn[r])
        if (v.id == S[nn].id) v.a += b(1);
    fn[r].push_back({xt, b(0), t});
  }
  BruteRound out;
  for (std::size_t r = 1; r < S.size(); ++r)
    if (J[r] < J[out.r]) out.r = r;
  out.J = J[out.r];
  out.gap = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < S.size(); ++r)
    if (r != out.r) out.gap = std::min(out.gap, J[r] - out.J);
  out.regular = regular[out.r];
  out.f_new = fn[out.r];
  return out;
}

// Random rounds of bpa-nn against the brute force: the removed support, the new function and the
// coefficients (beta on x_t and on nn(r)) to 1e-9. Cases: Gaussian kernel; linear kernel with a
// zero x_t every 7th round (k_tt = 0: K_V singular); Gaussian kernel with x_t a copy of a support
// every 5th round (x_t = nn(r) for some r: K_V singular, and zero-cost removals that tie, where
// only the objective's optimality is checked).
TEST(BudgetPANearest, BruteForceRounds) {
  const uint64_t seed = test_util::test_seed(2010);
  Rng rng(seed);
  int checked = 0, regular = 0;
  for (int kase = 0; kase < 3; ++kase)
    for (std::size_t B : {1u, 2u, 5u})
      for (double C : {1.0, 0.3}) {
        const std::size_t dim = 3;
        LearnerOptions o = opts(kase == 1 ? Kernel::linear() : Kernel::rbf(0.8), dim, B);
        o.own["C"] = C;
        auto L = test_util::configured_learner("bpa-nn", o);
        for (int64_t t = 1; t <= 80; ++t) {
          SCOPED_TRACE("case " + std::to_string(kase) + " B=" + std::to_string(B) + " C=" + std::to_string(C) +
                       " t=" + std::to_string(t));
          const auto S = points_of(*L->expansion(), dim);
          std::vector<double> x(dim);
          for (double& v : x) v = rng.normal();
          if (kase == 1 && t % 7 == 0) std::fill(x.begin(), x.end(), 0.0);
          if (kase == 2 && t % 5 == 0 && !S.empty()) x = S[rng.below(S.size())].x;
          const double y = rng.uniform() < 0.5 ? -1.0 : 1.0;
          Dataset d;
          d.push_dense(x, y);
          d.dim = dim;
          const RoundRecord rec = L->learn(d[0], t);
          if (rec.update != UpdateKind::evict) {
            ASSERT_TRUE(S.size() < B || !(y * score_of(o.kernel, S, x) < 1.0));
            continue;
          }
          const BruteRound want = brute_force(o.kernel, S, x, y, t, C);
          const auto got = points_of(*L->expansion(), dim);
          // The learner's f_new is a feasible point: its objective is the least one.
          const double J = 0.5 * norm2_of(o.kernel, minus(got, S)) + C * std::max(0.0, 1.0 - y * score_of(o.kernel, got, x));
          ASSERT_NEAR(J, want.J, 1e-9 * (1.0 + std::abs(want.J)));
          ASSERT_LE(got.size(), B);
          if (!(want.gap > 1e-9 * (1.0 + std::abs(want.J)))) continue;  // tied removals
          ++checked;
          ASSERT_EQ(rec.removed, S[want.r].id);
          for (const auto& z : minus(got, want.f_new))  // the new f, at its points and the old ones
            ASSERT_NEAR(score_of(o.kernel, got, z.x), score_of(o.kernel, want.f_new, z.x), 1e-9);
          for (const auto& z : S) ASSERT_NEAR(score_of(o.kernel, got, z.x), score_of(o.kernel, want.f_new, z.x), 1e-9);
          if (!want.regular) continue;
          ++regular;
          for (const auto& w : want.f_new) {
            const auto g = std::find_if(got.begin(), got.end(), [&](const DensePoint& v) { return v.id == w.id; });
            ASSERT_NE(g, got.end()) << "support " << w.id;
            ASSERT_NEAR(g->a, w.a, 1e-9) << "support " << w.id;
          }
        }
      }
  EXPECT_GT(checked, 300);
  EXPECT_GT(regular, 200);
}

// With B >= T nothing is removed: the rounds are PA-I's, bit for bit.
TEST(BudgetPANearest, IsPaIWithinTheBudget) {
  const Dataset d = noisy(400, 4, 21);
  for (const Kernel& k : {Kernel::rbf(0.5), Kernel::linear()}) {
    LearnerOptions o = opts(k, 4, d.size());
    o.own["C"] = 0.7;
    auto L = test_util::configured_learner("bpa-nn", o);
    auto P = test_util::configured_learner("pa1", o);
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord a = L->learn(d[t], static_cast<int64_t>(t + 1)), b = P->learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_TRUE(test_util::same_bits(a.score, b.score)) << "t=" << t + 1;
      ASSERT_EQ(a.support_size, b.support_size);
      ASSERT_EQ(a.removed, -1);
      ASSERT_NEAR(a.f_norm2, b.f_norm2, 1e-12 * std::max(1.0, b.f_norm2));
    }
  }
}

LearnerOptions bogd_options() {
  LearnerOptions o;
  o.own["budget"] = 3;
  o.own.update(nlohmann::json{{"eta", 0.5}, {"lambda", 0.1}, {"cap", 0.0}});  // budget_ogd_reference.py's rule: no cap (the cap is checked against the authors' code)
  o.own["seed"] = 7;
  return o;
}

TEST(Bogd, UniformRemovalFixture) {  // budget_ogd_reference.py: bogd B=3 eta=0.5 lambda=0.1 seed=7
  auto L = make_1d("bogd", bogd_options());
  expect_run(*L,
             {{0.0, -1, 0.25}, {0.477998740916550, -1, 0.021526196129278}, {-0.053588778740541, -1, 0.218518052203159},
              {0.066835615999930, 1, 0.447830938896764}, {0.250762348470804, 3, 0.587385679642777},
              {-0.611200764519386, 4, 2.294875282161945}, {-0.578848465461139, 5, 1.546345006871910},
              {-1.143524358643522, -1, 1.395576368701898}, {-1.062984826755485, 2, 2.873347229888477},
              {1.326913052223851, 6, 0.865438707174571}},
             {{9, 0.7125}, {7, 0.964546875}, {10, -0.5}});
}

TEST(Bogd, WeightedRemovalFixture) {  // budget_ogd_reference.py: bogd++ B=3 eta=0.5 lambda=0.1 seed=7
  auto L = make_1d("bogd++", bogd_options());
  expect_run(*L,
             {{0.0, -1, 0.25}, {0.477998740916550, -1, 0.021526196129278}, {-0.053588778740541, -1, 0.218518052203159},
              {0.066835615999930, 2, 2.064072468430929}, {1.170078601406436, 3, 1.927136703771297},
              {1.281999049125462, -1, 1.739240875153596}, {-0.057269304482185, 1, 0.518926559367202},
              {0.498370843956251, 5, 1.432646246180663}, {0.916859850855585, 7, 1.937140790546457},
              {0.728241111453052, 4, 0.965086153238004}},
             {{8, -1.191957750065238}, {9, 0.812526058896352}, {10, -0.5}});
}

// BOGD++'s draw (rejection from the uniform slot, bogd.hpp draw()) against its probabilities p_j:
// B = 5 supports of unequal coefficients, 200000 draws, each slot's frequency within 5 standard
// deviations of p_j, and p_j itself (1 - |a_j| / sum |a_i|)/(B - 1) from the coefficients here.
TEST(Bogd, WeightedDrawFollowsItsProbabilities) {
  const Dataset d = noisy(400, 3, 31);
  LearnerOptions o = opts(Kernel::rbf(0.7), 3, 5);
  BoundedOnlineGradientDescent L(o, {.budget = 5, .seed = 3, .eta = 0.5, .lambda = 0.01, .cap = 0.0},
                                 BoundedOnlineGradientDescent::Removal::weighted);
  for (std::size_t t = 0; t < d.size(); ++t) L.learn(d[t], static_cast<int64_t>(t + 1));
  const KernelExpansion& f = *L.expansion();
  ASSERT_EQ(f.size(), 5u);
  double sum = 0.0;
  for (std::size_t i = 0; i < 5; ++i) sum += std::abs(f.alpha[i]);
  ScratchVector<double> p;
  std::vector<double> want(5);
  for (std::size_t i = 0; i < 5; ++i) want[i] = (1.0 - std::abs(f.alpha[i]) / sum) / 4.0;
  ASSERT_GT(*std::max_element(want.begin(), want.end()) - *std::min_element(want.begin(), want.end()), 0.02)
      << "the coefficients differ enough for the draw to be told from the uniform";
  std::vector<int64_t> hits(5, 0);
  const int64_t draws = 200000;
  for (int64_t k = 0; k < draws; ++k) ++hits[L.draw(p, 1.0)];
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(p[i], want[i], 1e-12) << "slot " << i;
    const double sd = std::sqrt(want[i] * (1.0 - want[i]) / static_cast<double>(draws));
    EXPECT_NEAR(static_cast<double>(hits[i]) / static_cast<double>(draws), want[i], 5.0 * sd) << "slot " << i;
  }
}

// BOGD's packed Gram sweep (bogd.hpp, form()) at every support count mod 4 (its chains put the
// trailing n mod 4 columns in chain 0): the running ||f||^2 it recomputes on each removal against
// ||f||^2 from fresh kernel rows (norm2_exact).
TEST(Bogd, PackedNormMatchesExactAtEveryBudgetMod4) {
  const Dataset d = noisy(600, 4, 21);
  for (const char* name : {"bogd", "bogd++"})
    for (std::size_t B : {5u, 6u, 7u, 8u, 9u}) {
      auto L = test_util::configured_learner(name, opts(Kernel::rbf(0.4), 4, B));
      int64_t removals = 0;
      for (std::size_t t = 0; t < d.size(); ++t) {
        removals += L->learn(d[t], static_cast<int64_t>(t + 1)).removed >= 0;
        expect_norm(*L, std::string(name) + " B=" + std::to_string(B) + " t=" + std::to_string(t + 1));
        if (::testing::Test::HasFailure()) return;
      }
      EXPECT_GT(removals, 100) << name << " B=" << B;
    }
}

TEST(Fogd, FourierFeaturesFixture) {  // budget_ogd_reference.py: fogd D=3 eta=0.5 seed=11
  LearnerOptions o;
  o.own["features"] = 3;
  o.own["seed"] = 11;
  auto L = make_1d("fogd", o);
  const double s[] = {0.0, 1.391475021225616, 0.079290240456589, 0.166266686372466, 1.020585600677268,
                      0.759990764229993, 1.502317942683746, 1.884068408889858, 1.296494800244842, -0.648147221100738};
  const auto rec = test_util::records(*L, test_util::seq1d(kSeqF));
  for (std::size_t i = 0; i < 10; ++i) EXPECT_NEAR(rec[i].score, s[i], 1e-12) << "t=" << i + 1;
  EXPECT_NEAR(L->norm2(), 3.357565881367046, 1e-12);
  EXPECT_EQ(L->support_size(), 0u);
  EXPECT_EQ(L->expansion(), nullptr);
}

// The kernels a learner takes are its registry entry's; the configuration step refuses another.
TEST(Fogd, RefusesOtherKernels) {
  try {
    configure_learner("fogd", given_from_json({{"kernel", "linear"}}));
    FAIL() << "accepted a linear kernel";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "kernel linear is not a kernel of fogd (it takes rbf)");
  }
}

// The configuration step refuses such a kernel first, spelt as the front end writes it.
TEST(Fogd, TheKernelItRefusesIsSpeltByTheFrontEnd) {
  const auto given = test_util::run_cli("run --algo fogd --data synthetic:separable:n=20 --kernel linear --quiet");
  EXPECT_EQ(given.status, 2);
  EXPECT_NE(given.output.find("--kernel linear is not a kernel of fogd (it takes rbf)"), std::string::npos) << given.output;
  const auto dflt = test_util::run_cli("run --algo fogd --data synthetic:separable:n=20 --quiet");
  EXPECT_EQ(dflt.status, 2);
  EXPECT_NE(dflt.output.find("--kernel linear (the default) is not a kernel of fogd"), std::string::npos) << dflt.output;
  const auto primal = test_util::run_cli("run --algo perceptron --data synthetic:separable:n=20 --kernel rbf --quiet");
  EXPECT_EQ(primal.status, 2);
  EXPECT_NE(primal.output.find("--kernel rbf is not a kernel of perceptron (it takes linear)"), std::string::npos)
      << primal.output;
  GivenOptions keywords = given_from_json({{"kernel", "linear"}});
  keywords.spell = [](const std::string& k, const std::string& v) { return v.empty() ? k : k + "=" + v; };
  try {
    configure_learner("fogd", keywords);
    FAIL() << "accepted a linear kernel";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "kernel=linear is not a kernel of fogd (it takes rbf)");
  }
}

TEST(Nogd, NystromFixture) {  // budget_ogd_reference.py: nogd B=3 eta=0.5 k=2
  LearnerOptions o;
  o.own["budget"] = 3;
  o.own["rank"] = 2;
  auto L = make_1d("nogd", o);
  const double s[] = {0.0, 0.477998740916550, -0.050205396659625, 0.090319925809447, 0.629745808991371,
                      0.244919940714206, 0.307132789336704, 0.856612558136768, 0.292105347351360, 0.879689167470741};
  const auto rec = test_util::records(*L, test_util::seq1d(kSeqF));
  for (std::size_t i = 0; i < 10; ++i) EXPECT_NEAR(rec[i].score, s[i], 1e-12) << "t=" << i + 1;
  const KernelExpansion* f = L->expansion();
  ASSERT_EQ(f->size(), 3u);
  const double beta[] = {0.205584728996825, 0.238251585389763, 0.344054491536666};  // supports 1, 2, 3
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(f->alpha[i], beta[f->sv.id(i) - 1], 1e-12);
  EXPECT_NEAR(L->norm2(), 0.368847699664529, 1e-12);
  EXPECT_NEAR(L->norm2_exact(), L->norm2(), 1e-12);
}

// The options each takes, and the refusal of the others'.
TEST(BudgetOgd, OptionsAreOwned) {
  LearnerOptions o;
  o.kernel = Kernel::rbf(0.5);
  o.dim = 2;
  o.own["budget"] = 5;
  auto refuses = [&](const std::string& algo, const std::string& opt) {
    try {
      test_util::configured_learner(algo, o, {opt});
      ADD_FAILURE() << algo << " took " << opt;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("is not an option of " + algo), std::string::npos) << e.what();
    }
  };
  refuses("bpa-s", "eta");
  refuses("bpa-s", "ogd_eta");  // the earlier name of the online gradient learners' eta
  refuses("bogd", "C");
  refuses("fogd", "budget");
  refuses("nogd", "seed");
  refuses("pa1", "rank");
  EXPECT_NO_THROW(test_util::configured_learner("fogd", o, {"features", "eta", "seed"}));
  EXPECT_NO_THROW(test_util::configured_learner("nogd", o, {"rank", "budget", "ogd_eta"}));
  o.own.update(nlohmann::json{{"eta", 20.0}, {"lambda", 0.1}});
  EXPECT_THROW(test_util::configured_learner("bogd", o), std::invalid_argument);  // eta lambda >= 1: no shrink
}

}  // namespace
}  // namespace plab
