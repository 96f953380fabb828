// NORMA (docs/learners.md#norma): Perceptron limit and tie convention, nu identity and fixture
// (docs/bounds.md#nu-identity, docs/bounds.md#fixture-norma-nu), truncation bounds
// (docs/bounds.md#norma-truncation), the OGD fixture (docs/bounds.md#fixture-norma-ogd), regression
// convergence, USPS novelty, running norm, option validation. Fixture numbers are those of
// docs/bounds.md#fixtures, re-checked with an independent python3 script (/tmp, not committed);
// none comes from this code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "algorithms/learner.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/norma.hpp"
#include "algorithms/perceptron.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"

namespace plab {
namespace {

Dataset line_data(const std::vector<std::pair<double, double>>& seq) { return test_util::seq1d(seq); }

// Gaussian blobs in R^dim with labels +-1 and a fraction `noise` of flipped labels.
Dataset blobs(std::size_t n, std::size_t dim, double noise, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  std::vector<double> x(dim);
  for (std::size_t t = 0; t < n; ++t) {
    const double y = rng.uniform() < 0.5 ? 1.0 : -1.0;
    for (double& v : x) v = 0.7 * y + rng.normal();
    d.push_dense(x, rng.uniform() < noise ? -y : y);
  }
  d.dim = dim;
  return d;
}

LearnerOptions base(Kernel k, std::size_t dim) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = dim;
  return o;
}

std::vector<RoundRecord> run(Learner& l, const Dataset& d) { return test_util::records(l, d); }

// Coefficients in insertion (id) order.
std::vector<double> coefs_by_id(const KernelExpansion& f) {
  std::vector<std::pair<int64_t, double>> v;
  for (std::size_t i = 0; i < f.size(); ++i) v.push_back({f.sv.id(i), f.alpha[i]});
  std::sort(v.begin(), v.end());
  std::vector<double> a;
  for (const auto& p : v) a.push_back(p.second);
  return a;
}

// ---- Perceptron limit (docs/learners.md#norma: lambda = 0, rho = 0) and the tie convention ----

TEST(Norma, InclusiveTiesMatchKernelPerceptronEveryRound) {
  // Random streams plus a stream of orthogonal points (exact ties y f = 0 mid-sequence).
  std::vector<Dataset> streams = {blobs(400, 3, 0.1, 7), blobs(400, 2, 0.2, 8)};
  Dataset ortho;
  for (int j = 0; j < 6; ++j) {
    std::vector<double> x(6, 0.0);
    x[j] = 1.0 + 0.5 * j;
    ortho.push_dense(x, j % 2 ? -1.0 : 1.0);
  }
  ortho.dim = 6;
  streams.push_back(ortho);
  const std::vector<Kernel> kernels = {Kernel::linear(), Kernel::rbf(0.5), Kernel::linear()};
  for (std::size_t s = 0; s < streams.size(); ++s) {
    LearnerOptions o = base(kernels[s], streams[s].dim);
    Norma::Options no;
    no.learning_rate = 1.0; no.lambda = 0.0; no.rho = 0.0; no.inclusive_ties = true;
    Norma n(o, no);
    KernelPerceptron p(o);
    int64_t ties = 0;
    for (std::size_t t = 0; t < streams[s].size(); ++t) {
      const RoundRecord a = n.learn(streams[s][t], static_cast<int64_t>(t + 1));
      const RoundRecord b = p.learn(streams[s][t], static_cast<int64_t>(t + 1));
      ties += a.y * a.score == 0.0;
      ASSERT_EQ(a.score, b.score) << "stream " << s << " round " << t + 1;
      ASSERT_EQ(a.mistake, b.mistake);
      ASSERT_EQ(a.update, b.update);
      ASSERT_EQ(a.margin_error, b.mistake);  // rho = 0, inclusive: sigma_t = [y f <= 0]
      ASSERT_EQ(a.coef, b.update == UpdateKind::add ? a.y : 0.0);
      ASSERT_NEAR(a.f_norm2, b.f_norm2, 1e-12 * (1.0 + b.f_norm2));
    }
    EXPECT_EQ(coefs_by_id(*n.expansion()), coefs_by_id(*p.expansion()));
    if (s == 2) { EXPECT_EQ(ties, 6); }  // every orthogonal point is a tie, and both update on it
  }
}

TEST(Norma, StrictTiesFollowTheSlidesAtExactTies) {
  // Slides: alpha_t = Lambda y_t iff y_t f(x_t) < 0. Round 1 has f = 0: a tie, so no update, and
  // with rho = 0 and no bias f stays 0, so every round is a tie; the Perceptron updates on round 1.
  const Dataset d = blobs(50, 2, 0.0, 3);
  LearnerOptions o = base(Kernel::rbf(0.5), 2);
  Norma n(o, {});  // defaults: lambda 0, rho 0, Lambda 1, strict ties
  KernelPerceptron p(o);
  const RoundRecord a = n.learn(d[0], 1), b = p.learn(d[0], 1);
  EXPECT_EQ(a.score, 0.0);
  EXPECT_TRUE(a.mistake);          // y f <= 0 counts as a mistake in the record (docs/conventions.md#mistake)
  EXPECT_FALSE(a.margin_error);    // ... but is no violation of y f < 0
  EXPECT_EQ(a.update, UpdateKind::none);
  EXPECT_EQ(b.update, UpdateKind::add);
  for (std::size_t t = 1; t < d.size(); ++t) {
    const RoundRecord r = n.learn(d[t], static_cast<int64_t>(t + 1));
    EXPECT_EQ(r.update, UpdateKind::none);
  }
  EXPECT_EQ(n.support_size(), 0u);

  // A margin tie y f = rho: x = 1, y = +1 twice, linear kernel, Lambda = 1, rho = 1.
  const Dataset twice = line_data({{1.0, 1.0}, {1.0, 1.0}});
  for (bool inclusive : {false, true}) {
    LearnerOptions q = base(Kernel::linear(), 1);
    Norma::Options nq;
    nq.rho = 1.0; nq.inclusive_ties = inclusive;
    Norma m(q, nq);
    const auto rec = run(m, twice);
    EXPECT_EQ(rec[1].score, 1.0);
    EXPECT_EQ(rec[1].margin_error, inclusive);
    EXPECT_EQ(rec[1].coef, inclusive ? 1.0 : 0.0);
  }
}

TEST(Norma, StrictAndInclusiveAgreeWithoutExactTies) {
  // With rho > 0 and continuous data exact ties have probability zero: identical runs.
  const Dataset d = blobs(500, 3, 0.15, 11);
  LearnerOptions o = base(Kernel::rbf(0.5), 3);
  Norma::Options no;
  no.rho = 0.5; no.lambda = 0.01; no.learning_rate = 0.3; no.truncate = 100;
  Norma s(o, no);
  no.inclusive_ties = true;
  Norma i(o, no);
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord a = s.learn(d[t], static_cast<int64_t>(t + 1));
    const RoundRecord b = i.learn(d[t], static_cast<int64_t>(t + 1));
    ASSERT_NE(a.y * a.score, a.rho);
    ASSERT_EQ(a.score, b.score);
    ASSERT_EQ(a.coef, b.coef);
  }
}

// ---- nu-trick (docs/learners.md#norma, docs/bounds.md#nu-identity) ----

TEST(Norma, NuIdentityHoldsOnRandomStreams) {
  struct Case { std::string task, loss; bool bias; double eta, lambda, nu; };
  const std::vector<Case> cases = {{"classification", "hinge", false, 0.2, 0.01, 0.3},
                                   {"classification", "hinge", true, 0.5, 0.1, 0.1},
                                   {"novelty", "hinge", false, 0.1, 0.05, 0.2},
                                   {"novelty", "hinge", true, 0.3, 0.2, 0.6},
                                   {"regression", "eps", false, 0.05, 0.01, 0.4}};
  for (const Case& c : cases) {
    Dataset d = blobs(1500, 2, 0.1, 21);
    if (c.task == "regression")
      for (std::size_t t = 0; t < d.size(); ++t) d.y[t] = d[t].val.empty() ? 0.0 : 2.0 * d[t].val[0];
    LearnerOptions o = base(Kernel::rbf(0.5), 2);
    Norma::Options no;
    no.task = c.task; no.loss = c.loss; no.bias = c.bias; no.learning_rate = c.eta;
    no.lambda = c.lambda; no.nu = c.nu; no.rho = 0.3; no.epsilon = 0.3;
    Norma n(o, no);
    const auto rec = run(n, d);
    double sig = 0.0;
    for (const auto& r : rec) sig += r.margin_error;
    const double T = static_cast<double>(rec.size());
    const double drift = (n.threshold() - 0.3) / (c.eta * T);
    // rho_{T+1} - rho_1 = eta sum (nu - sigma); eps moves the other way (docs/learners.md#norma).
    const double expect = c.task == "regression" ? c.nu + drift : c.nu - drift;
    EXPECT_NEAR(sig / T, expect, 1e-12) << c.task;
    for (std::size_t t = 1; t < rec.size(); ++t)  // the threshold recorded is rho_t
      ASSERT_NEAR(rec[t].rho - rec[t - 1].rho,
                  c.task == "regression" ? c.eta * (rec[t - 1].margin_error - c.nu)
                                         : c.eta * (c.nu - rec[t - 1].margin_error), 1e-14);
  }
}

TEST(Norma, NuFixtureOfTheory83) {
  const std::vector<double> xs = {0.0, 0.1, -0.2, 0.05, 3.0, 0.0, 0.12, -0.1, 0.2, -3.0, 0.03, 0.0};
  std::vector<std::pair<double, double>> seq;
  for (double x : xs) seq.push_back({x, 1.0});
  const Dataset d = line_data(seq);
  for (double nu : {0.3, 0.25}) {
    LearnerOptions o = base(Kernel::rbf(0.5), 1);  // Gaussian sigma = 1
    Norma::Options no;
    no.task = "novelty"; no.learning_rate = 0.2; no.lambda = 0.05; no.nu = nu; no.rho = 0.0;
    Norma n(o, no);
    const auto rec = run(n, d);
    std::vector<int64_t> novel;
    for (const auto& r : rec)
      if (r.margin_error) novel.push_back(r.t);
    if (nu == 0.3) {
      EXPECT_EQ(novel, (std::vector<int64_t>{2, 5, 10}));
      EXPECT_NEAR(n.threshold(), 0.12, 1e-12);
      EXPECT_NEAR(novel.size() / 12.0, 0.3 - n.threshold() / (0.2 * 12), 1e-12);
    } else {
      EXPECT_EQ(novel, (std::vector<int64_t>{2, 9, 10}));  // rounds from the python check
      EXPECT_NEAR(n.threshold(), 0.0, 1e-12);
    }
  }
}

// ---- truncation (docs/bounds.md#norma-truncation) ----

TEST(Norma, TruncationBoundFixture) {
  EXPECT_NEAR(norma_truncation_term_bound(0.1, 0.5, 1.0, 1.0, 10), 0.05987369, 5e-9);
  EXPECT_NEAR(norma_truncation_tail_bound(0.1, 0.5, 1.0, 1.0, 10), 1.19747388, 5e-9);
  LearnerOptions o = base(Kernel::rbf(1.0), 2);
  Norma::Options no;
  no.learning_rate = 0.1; no.lambda = 0.5; no.truncate = 10; no.rho = 1.0;
  EXPECT_NEAR(Norma(o, no).truncation_total_bound(), 1.19747388, 5e-9);
}

TEST(Norma, TruncatedNormNeverExceedsTheBound) {
  struct Case { double eta, lambda; std::size_t tau; bool decay; std::string task; };
  const std::vector<Case> cases = {{0.1, 0.5, 10, false, "classification"},
                                   {0.5, 0.02, 50, false, "classification"},
                                   {1.0, 0.1, 20, true, "classification"},
                                   {0.2, 0.05, 30, false, "novelty"}};
  for (const Case& c : cases) {
    const Dataset d = blobs(3000, 2, 0.2, 5);
    LearnerOptions o = base(Kernel::rbf(0.5), 2);  // kappa = 1; hinge: C = 1
    Norma::Options no;
    no.task = c.task; no.learning_rate = c.eta; no.lambda = c.lambda; no.truncate = c.tau;
    no.decay_rate = c.decay; no.rho = 1.0; no.nu = c.task == "novelty" ? 0.2 : -1.0; no.bias = true;
    Norma n(o, no);
    const double per_term = norma_truncation_term_bound(c.eta, c.lambda, 1.0, 1.0, c.tau);
    int drops = 0;
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = n.learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_LE(n.support_size(), c.tau);
      ASSERT_LE(r.trunc_norm, r.trunc_bound * (1.0 + 1e-12));
      if (r.removed >= 0) {
        ++drops;
        ASSERT_EQ(r.removed, r.t - static_cast<int64_t>(c.tau));
        if (!c.decay) { ASSERT_NEAR(r.trunc_bound, per_term, 1e-12 * per_term); }
      }
    }
    EXPECT_GT(drops, 100);
    EXPECT_NEAR(n.norm2(), n.norm2_exact(), 1e-8 * n.norm2_exact());
  }
}

TEST(Norma, TailOfAnUntruncatedRunIsWithinTheGeometricBound) {
  // ||sum of terms of age >= tau|| <= C kappa (1 - eta lambda)^tau / lambda
  // (docs/bounds.md#norma-truncation).
  const Dataset d = blobs(1500, 2, 0.2, 9);
  LearnerOptions o = base(Kernel::rbf(0.5), 2);
  Norma::Options no;
  no.learning_rate = 0.2; no.lambda = 0.05; no.rho = 1.0;
  Norma n(o, no);
  for (std::size_t t = 0; t < d.size(); ++t) {
    n.learn(d[t], static_cast<int64_t>(t + 1));
    if ((t + 1) % 500 != 0) continue;
    const KernelExpansion& f = *n.expansion();
    for (std::size_t tau : {5u, 20u, 60u}) {
      const int64_t T = static_cast<int64_t>(t + 1);
      double s = 0.0;
      for (std::size_t i = 0; i < f.size(); ++i)
        for (std::size_t j = 0; j < f.size(); ++j)
          if (T - f.sv.id(i) >= static_cast<int64_t>(tau) && T - f.sv.id(j) >= static_cast<int64_t>(tau))
            s += f.alpha[i] * f.alpha[j] * f.kernel(f.sv.row(i), f.sv.row(j));
      EXPECT_LE(std::sqrt(s), norma_truncation_tail_bound(0.2, 0.05, 1.0, 1.0, tau));
    }
  }
}

// ---- OGD fixture (docs/bounds.md#norma_ogd, docs/bounds.md#fixture-norma-ogd) ----

TEST(Norma, OgdFixtureOfTheory84) {
  const Dataset d = line_data({{0.0, 1}, {0.3, -1}, {2.0, 1}, {0.15, 1}, {1.0, -1},
                               {0.2, 1}, {2.1, 1}, {0.35, -1}, {0.0, 1}, {1.1, -1}});
  LearnerOptions o = base(Kernel::rbf(0.5), 1);
  Norma::Options no;
  no.learning_rate = 0.5; no.lambda = 0.1; no.rho = 1.0;
  Norma n(o, no);
  const auto rec = run(n, d);
  int M = 0;
  double grad2 = 0.0, left = 0.0, prev = 0.0;  // prev = ||f_t||^2 before round t
  for (const auto& r : rec) {
    M += r.mistake;
    const double sg = r.margin_error ? 1.0 : 0.0;
    grad2 += 0.01 * prev - 2.0 * 0.1 * sg * r.y * r.score + sg * r.kxx;  // ||grad_t||^2, docs/bounds.md#norma_ogd
    left += std::max(0.0, 1.0 - r.y * r.score) + 0.05 * prev;
    prev = r.f_norm2;
  }
  EXPECT_EQ(M, 6);
  EXPECT_NEAR(grad2, 10.347680, 1e-6);
  EXPECT_NEAR(left, 11.738400, 1e-6);
  const std::vector<double> want = {0.315125, -0.331710, 0.349169, 0.367546, -0.386890,
                                    0.407253, 0.428687, -0.451250, 0.475000, -0.500000};
  const auto got = coefs_by_id(*n.expansion());
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6);
  EXPECT_NEAR(n.norm2(), n.norm2_exact(), 1e-12);
}

// ---- regression ----

TEST(Norma, SquaredLossLearnsANoiselessLinearTarget) {
  // LMS on x ~ N(0, I_5): E||w_{t+1} - w*||^2 = (1 - 2 eta + eta^2 (d + 2)) E||w_t - w*||^2
  // = 0.9175 per round at Lambda = 0.05 (stable for Lambda < 2/(d+2)), so after 1800 rounds
  // the error is ~1e-67 in expectation: the 1e-8 threshold only allows for rounding.
  for (bool bias : {false, true}) {
    Rng rng(42);
    Dataset d;
    const std::vector<double> w = {1.0, -2.0, 0.5, 0.0, 3.0};
    std::vector<double> x(5);
    for (int t = 0; t < 2000; ++t) {
      double y = bias ? 3.0 : 0.0;
      for (std::size_t j = 0; j < 5; ++j) { x[j] = rng.normal(); y += w[j] * x[j]; }
      d.push_dense(x, y);
    }
    d.dim = 5;
    LearnerOptions o = base(Kernel::linear(), 5);
    Norma::Options no;
    no.task = "regression"; no.loss = "squared"; no.learning_rate = 0.05; no.bias = bias;
    Norma n(o, no);
    const auto rec = run(n, d);
    double mse = 0.0;
    for (std::size_t t = 1800; t < 2000; ++t) mse += std::pow(rec[t].y - rec[t].score, 2) / 200.0;
    EXPECT_LT(mse, 1e-8) << "bias " << bias;
    if (bias) { EXPECT_NEAR(n.bias(), 3.0, 1e-6); }
    EXPECT_NEAR(n.norm2(), n.norm2_exact(), 1e-8 * n.norm2_exact());
  }
}

// ---- novelty detection on one USPS digit ----

// The training rows of one USPS digit (zip.train via the registry, checksum-verified).
Dataset usps_digit(const std::string& digit) {
  const Dataset all = load_dataset("usps", LabelMap::one_vs_rest(digit));
  Dataset d;
  for (std::size_t t = 0; t < all.size(); ++t)
    if (all.y[t] > 0) d.push_back(all[t].idx, all[t].val, 1.0);
  d.dim = all.dim;
  return d;
}

TEST(Norma, UspsNoveltyFlagsAboutAFractionNu) {
  Dataset d;
  try { d = usps_digit("0"); } catch (const DataError& e) { GTEST_SKIP() << e.what(); }
  ASSERT_EQ(d.size(), 1194u);  // digit 0 rows in zip.train
  for (double nu : {0.05, 0.1, 0.3}) {
    LearnerOptions o = base(Kernel::rbf(0.01), d.dim);
    Norma::Options no;
    no.task = "novelty"; no.learning_rate = 0.1; no.lambda = 0.01; no.nu = nu; no.truncate = 1000;
    Norma n(o, no);
    const auto rec = run(n, d);
    double flagged = 0.0;
    for (const auto& r : rec) flagged += r.margin_error;
    // Stated tolerance: |fraction - nu| < 0.05 (equals |rho_{T+1} - rho_1| / (eta T),
    // docs/bounds.md#nu-identity).
    EXPECT_LT(std::abs(flagged / d.size() - nu), 0.05) << "nu " << nu;
    EXPECT_NEAR(n.norm2(), n.norm2_exact(), 1e-8 * n.norm2_exact());
  }
}

// ---- running norm and validation ----

TEST(Norma, RunningNormMatchesExactNorm) {
  struct Case { std::string task, loss; bool bias; double lambda; std::size_t tau; };
  const std::vector<Case> cases = {{"classification", "hinge", true, 0.05, 0},
                                   {"classification", "hinge", false, 0.01, 40},
                                   {"novelty", "hinge", false, 0.1, 25},
                                   {"regression", "squared", true, 0.02, 60},
                                   {"regression", "eps", false, 0.0, 0}};
  for (const Case& c : cases) {
    Dataset d = blobs(1200, 3, 0.1, 33);
    if (c.task == "regression")
      for (std::size_t t = 0; t < d.size(); ++t) d.y[t] = d[t].val.empty() ? 0.0 : std::sin(d[t].val[0]);
    LearnerOptions o = base(Kernel::rbf(0.3), 3);
    o.own = {{"task", c.task}, {"loss", c.loss}, {"bias", c.bias}, {"lambda", c.lambda}, {"truncate", c.tau},
             {"learning_rate", 0.3}, {"rho", 1.0}, {"epsilon", 0.1}};
    auto l = test_util::configured_learner("norma", o);
    run(*l, d);
    EXPECT_NEAR(l->norm2(), l->norm2_exact(), 1e-8 * l->norm2_exact()) << c.task << " " << c.tau;
  }
}

TEST(Norma, BadOptionsThrowNamingTheOption) {
  auto expect_throw = [](LearnerOptions o, const std::string& opt) {
    try {
      test_util::configured_learner("norma", o);  // ranges: the declarations (Norma::Options::rows()); the rest: validate()
      ADD_FAILURE() << "no throw for " << opt;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(opt), std::string::npos) << e.what();
    }
  };
  const LearnerOptions ok = base(Kernel::rbf(1.0), 2);
  const auto with = [&](nlohmann::json own) {  // ok with NORMA's own options `own`
    LearnerOptions o = ok;
    o.own = std::move(own);
    return o;
  };
  expect_throw(with({{"learning_rate", 0.0}}), "--learning-rate");
  expect_throw(with({{"lambda", -0.1}}), "--lambda");
  expect_throw(with({{"nu", 1.5}}), "--nu");
  expect_throw(with({{"task", "ranking"}}), "--task");
  expect_throw(with({{"loss", "squared"}}), "--loss");
  expect_throw(with({{"task", "regression"}}), "--loss");  // default "hinge" is not a regression loss
  expect_throw(with({{"task", "regression"}, {"loss", "squared"}, {"nu", 0.2}}), "--nu");
  expect_throw(with({{"truncate", 5}, {"learning_rate", 2.0}, {"lambda", 0.5}}), "--truncate");
  expect_throw(with({{"rho", -1.0}}), "--rho");
  expect_throw(with({{"epsilon", -0.1}}), "--epsilon");
  EXPECT_NO_THROW(Norma(ok, {.nu = -1.0}));
  EXPECT_NO_THROW(Norma(ok, {.nu = 0.0}));
  EXPECT_NE(test_util::configured_learner("norma", ok), nullptr);
}

}  // namespace
}  // namespace plab
