// The theory-figure mechanisms (experiments/report/theory_figures.hpp, experiments/run/online_to_batch_eval.hpp):
// the O(T|S|) online-to-batch selection against a brute-force o2b_select over explicit hypotheses
// h_1..h_T, dataset_param, and the "rho_profile" analysis against a python fixture
// (tests/tools/theory_profile_reference.py). Random data sets use a seed printed by SCOPED_TRACE;
// set PLAB_TEST_SEED=<n> to replay one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "algorithms/perceptron.hpp"
#include "bounds/formulas.hpp"
#include "bounds/online_to_batch.hpp"
#include "bounds/profile.hpp"
#include "datasets/synthetic.hpp"
#include "experiments/run/online_to_batch_eval.hpp"
#include "experiments/run/run.hpp"
#include "experiments/cell/analyses.hpp"
#include "experiments/report/group_metrics.hpp"
#include "experiments/report/theory_figures.hpp"

using namespace plab;
using nlohmann::json;

namespace {

uint64_t base_seed() {
  static const uint64_t s = [] {
    if (const char* e = std::getenv("PLAB_TEST_SEED")) return static_cast<uint64_t>(std::strtoull(e, nullptr, 10));
    return (static_cast<uint64_t>(std::random_device{}()) << 20) ^ std::random_device{}();
  }();
  return s;
}

// sum_{z in rows} y_z k(z, x): a hypothesis given by the data rows of its supports, in order added.
double h_score(const std::vector<std::size_t>& rows, const Dataset& d, const Kernel& k, const Example& x) {
  double s = 0.0;
  for (std::size_t r : rows) s += d[r].y * k(d[r], x);
  return s;
}

// Kernel Perceptron on `d` in `order`; compares o2b_kernel_perceptron with o2b_select over explicit
// h_i = f_{i-1} (docs/bounds.md#online-to-batch, 0-1 loss 1[y h(x) <= 0]). Returns rounds with a
// zero score.
std::size_t check_o2b(const Dataset& d, const Kernel& k, const std::vector<std::size_t>& order, const Dataset& test) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = d.dim;
  KernelPerceptron p(o);
  const RunResult res = run_online(p, d, order);
  const std::size_t T = res.rounds.size();
  // H[i] = supports of h_i: the rows of the mistakes at rounds < i (docs/learners.md#perceptron,
  // dual form).
  std::vector<std::vector<std::size_t>> H(T + 1);
  std::vector<std::size_t> mrows;
  std::size_t zeros = 0;
  for (std::size_t t = 1; t <= T; ++t) {
    H[t] = mrows;
    const Example x = d[order[t - 1]];
    const double s = h_score(H[t], d, k, x);
    // h_t is the hypothesis that predicted round t: same score, same mistake decision as the record.
    EXPECT_NEAR(s, res.rounds[t - 1].score, 1e-9 * (1.0 + std::fabs(s))) << "round " << t;
    EXPECT_EQ(x.y * s <= 0.0, res.rounds[t - 1].mistake) << "round " << t;
    zeros += s == 0.0;
    if (res.rounds[t - 1].mistake) mrows.push_back(order[t - 1]);
  }
  EXPECT_GT(mrows.size(), 3u);  // a non-trivial sequence of hypotheses
  for (double delta : {0.05, 0.5}) {
    SCOPED_TRACE("delta=" + std::to_string(delta));
    const auto loss = [&](std::size_t i, std::size_t t) {
      const Example x = d[order[t - 1]];
      return x.y * h_score(H[i], d, k, x) <= 0.0 ? 1.0 : 0.0;
    };
    const bounds::O2BSelection sel = bounds::o2b_select(T, delta, loss);
    const O2BEvaluation e = o2b_kernel_perceptron(d, order, res.rounds, k, delta);
    EXPECT_EQ(e.T, T);
    EXPECT_EQ(e.index, sel.index);
    EXPECT_EQ(e.supports, H[sel.index].size());
    EXPECT_NEAR(e.criterion, sel.criterion, 1e-12);
    EXPECT_NEAR(e.empirical, sel.empirical, 1e-12);
    EXPECT_EQ(e.mistake_rows, mrows);
    const double M = static_cast<double>(mrows.size()), Td = static_cast<double>(T);
    EXPECT_DOUBLE_EQ(e.online_average, M / Td);
    // docs/bounds.md#online-to-batch: M/T + 6 sqrt(ln(2(T+1)/delta)/T)
    EXPECT_NEAR(e.risk_bound, M / Td + 6.0 * std::sqrt(std::log(2.0 * (Td + 1.0) / delta) / Td), 1e-12);
    // h_hat = h_{i*}: same scores and same test error (zero score = error) as the explicit expansion.
    std::size_t err = 0;
    for (std::size_t j = 0; j < test.size(); ++j) {
      const double s = h_score(H[sel.index], d, k, test[j]);
      EXPECT_NEAR(o2b_score(e, d, k, test[j]), s, 1e-12 * (1.0 + std::fabs(s))) << "test row " << j;
      err += test[j].y * s <= 0.0;
    }
    EXPECT_DOUBLE_EQ(o2b_test_error(e, d, k, test), static_cast<double>(err) / static_cast<double>(test.size()));
  }
  return zeros;
}

// n points on the integer grid {-2..2}^2, labels sign(x1 + x2) with 1/3 random: linear scores are integers,
// so y s = 0 (a tie, counted as a mistake / an error) happens often.
Dataset integer_grid(std::size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    const double x[2] = {static_cast<double>(static_cast<int>(g() % 5) - 2), static_cast<double>(static_cast<int>(g() % 5) - 2)};
    d.push_dense(x, g() % 3 ? (x[0] + x[1] >= 0 ? 1.0 : -1.0) : (g() % 2 ? 1.0 : -1.0));
  }
  d.dim = 2;
  return d;
}

}  // namespace

// o2b_kernel_perceptron = brute-force CCG selection (docs/bounds.md#online-to-batch) on random
// RBF / linear runs.
TEST(TheoryFiguresO2B, MatchesBruteForceSelectionOnRandomData) {
  for (int rep = 0; rep < 2; ++rep) {
    const uint64_t seed = base_seed() + static_cast<uint64_t>(rep);
    SCOPED_TRACE("PLAB_TEST_SEED=" + std::to_string(base_seed()) + " rep=" + std::to_string(rep));
    const std::string s = std::to_string(seed % 1000000);
    const Dataset dek = make_synthetic("synthetic:dekel:n=300,flip=0.1,seed=" + s);
    const Dataset dek_test = make_synthetic("synthetic:dekel:n=100,flip=0.1,seed=" + std::to_string(seed % 1000000 + 7));
    const Dataset xr = make_synthetic("synthetic:xor:n=250,flip=0.05,seed=" + s);
    const auto order = [&](const Dataset& d) { return make_order(d.size(), seed ^ 0x5eed); };
    { SCOPED_TRACE("dekel rbf"); check_o2b(dek, Kernel::rbf(1.0), order(dek), dek_test); }
    { SCOPED_TRACE("dekel linear"); check_o2b(dek, Kernel::linear(), order(dek), dek_test); }
    { SCOPED_TRACE("xor rbf"); check_o2b(xr, Kernel::rbf(4.0), order(xr), dek_test); }
  }
}

// Zero scores (ties) must count as 0-1 errors in the selection and in o2b_test_error, as in the online run.
TEST(TheoryFiguresO2B, TiesCountAsErrors) {
  SCOPED_TRACE("PLAB_TEST_SEED=" + std::to_string(base_seed()));
  const Dataset d = integer_grid(300, base_seed());
  Dataset test = integer_grid(60, base_seed() + 1);
  const double origin[2] = {0.0, 0.0};
  test.push_dense(origin, 1.0);  // score 0 under every linear hypothesis: always an error
  const std::size_t zeros = check_o2b(d, Kernel::linear(), make_order(d.size(), base_seed()), test);
  EXPECT_GT(zeros, 5u);  // the tie path was exercised (round 1 alone gives one zero)
  LearnerOptions o;
  o.dim = 2;
  KernelPerceptron p(o);
  const auto ord = make_order(d.size(), base_seed());
  const RunResult res = run_online(p, d, ord);
  const O2BEvaluation e = o2b_kernel_perceptron(d, ord, res.rounds, Kernel::linear(), 0.05);
  EXPECT_EQ(o2b_score(e, d, Kernel::linear(), test[test.size() - 1]), 0.0);
  Dataset only_origin;
  only_origin.push_dense(origin, 1.0);
  EXPECT_EQ(o2b_test_error(e, d, Kernel::linear(), only_origin), 1.0);
}

// Hand-derived selection (docs/bounds.md#online-to-batch) on a 1-d linear sequence whose two
// mistakes are both ties.
TEST(TheoryFiguresO2B, HandSequenceWithTies) {
  // Rounds 1 (x=1, s=0) and 2 (x=0, s=0) are tie mistakes; afterwards f(x) = x classifies every
  // round. T = 10, delta = 0.05, L = ln(T(T+1)/delta) = ln 2200; candidate criteria:
  //   i=1: h=0 errs 10/10 -> 1 + sqrt(L/20) = 1.620;   i=2: h=x errs at t=2 only -> 1/9 + sqrt(L/18) = 0.765;
  //   i=3: h=x, no error -> 0 + sqrt(L/16) = 0.694 (the minimum; later i only add penalty).
  const std::vector<double> xs = {1, 0, 2, -1, 0.5, -2, 3, -0.5, 1.5, -3};
  Dataset d;
  for (double x : xs) d.push_dense(std::vector<double>{x}, x >= 0 ? 1.0 : -1.0);
  d.dim = 1;
  LearnerOptions o;
  o.dim = 1;
  KernelPerceptron p(o);
  const auto ord = make_order(d.size(), std::nullopt);
  const RunResult res = run_online(p, d, ord);
  ASSERT_EQ(res.mistakes, 2u);
  const O2BEvaluation e = o2b_kernel_perceptron(d, ord, res.rounds, Kernel::linear(), 0.05);
  EXPECT_EQ(e.index, 3u);
  EXPECT_EQ(e.supports, 2u);
  EXPECT_EQ(e.empirical, 0.0);
  EXPECT_NEAR(e.criterion, std::sqrt(std::log(2200.0) / 16.0), 1e-14);
  EXPECT_EQ(e.mistake_rows, (std::vector<std::size_t>{0, 1}));
  EXPECT_DOUBLE_EQ(o2b_score(e, d, Kernel::linear(), d[6]), 3.0);  // h_hat(x) = x
  EXPECT_DOUBLE_EQ(o2b_test_error(e, d, Kernel::linear(), d), 0.1);  // only x = 0 (a tie) errs
}

// Records that are not a conservative Perceptron (mistake without an add) and empty runs are rejected.
TEST(TheoryFiguresO2B, RejectsNonPerceptronRecords) {
  const Dataset d = make_synthetic("synthetic:dekel:n=50,seed=3");
  LearnerOptions o;
  o.dim = d.dim;
  KernelPerceptron p(o);
  const auto ord = make_order(d.size(), std::nullopt);
  RunResult res = run_online(p, d, ord);
  EXPECT_NO_THROW(o2b_kernel_perceptron(d, ord, res.rounds, Kernel::linear(), 0.05));
  res.rounds[0].update = UpdateKind::none;  // round 1 is always a mistake (f_0 = 0)
  EXPECT_THROW(o2b_kernel_perceptron(d, ord, res.rounds, Kernel::linear(), 0.05), std::invalid_argument);
  EXPECT_THROW(o2b_kernel_perceptron(d, ord, {}, Kernel::linear(), 0.05), std::invalid_argument);
}

// dataset_param reads k=v of "synthetic:NAME:k=v,..." by exact key (not prefix); absent -> NaN.
TEST(TheoryFigures, DatasetParam) {
  const std::string spec = "synthetic:margins:noise=0.25,n=500,nn=7,flip=1e-2";
  EXPECT_DOUBLE_EQ(dataset_param(spec, "n"), 500.0);
  EXPECT_DOUBLE_EQ(dataset_param(spec, "noise"), 0.25);
  EXPECT_DOUBLE_EQ(dataset_param(spec, "nn"), 7.0);
  EXPECT_DOUBLE_EQ(dataset_param(spec, "flip"), 0.01);
  EXPECT_TRUE(std::isnan(dataset_param(spec, "no")));     // prefix of "noise", not a key
  EXPECT_TRUE(std::isnan(dataset_param(spec, "noise=")));
  EXPECT_TRUE(std::isnan(dataset_param(spec, "seed")));
  EXPECT_TRUE(std::isnan(dataset_param("synthetic:dekel", "n")));  // no parameter list
  EXPECT_TRUE(std::isnan(dataset_param("a9a", "n")));               // not a generator spec
  EXPECT_TRUE(std::isnan(dataset_param("synthetic:dekel:n=", "n")));  // empty value
  EXPECT_DOUBLE_EQ(dataset_param("synthetic:dekel:n=300,seed=3", "seed"), 3.0);  // last item
  EXPECT_TRUE(std::isnan(dataset_param("synthetic:dekel:n=3abc", "n")));  // whole token or nothing
}

namespace {

// Fixture B (docs/bounds.md#fixture-b); its "truth" is u = (4,1), deliberately unnormalised (the
// analysis divides).
Dataset fixture_b() {
  Dataset d;
  const double x[5][2] = {{1, 0}, {0, 1}, {-0.5, 1}, {1, 1}, {0.6, -0.2}};
  const double y[5] = {1, 1, -1, 1, -1};
  for (int t = 0; t < 5; ++t) d.push_dense(x[t], y[t]);
  d.dim = 2;
  d.truth = {4.0, 1.0};
  return d;
}

RunResult perceptron_run(const Dataset& d, const std::vector<std::size_t>& order) {
  LearnerOptions o;
  o.dim = d.dim;  // linear kernel
  KernelPerceptron p(o);
  return run_online(p, d, order);
}

json analyse(const Dataset& d, const std::vector<std::size_t>& order, const json& cfg, const RunResult& res) {
  LearnerOptions o;
  o.dim = d.dim;
  Cell c;
  c.analysis = {{"rho_profile", cfg}};
  CellData cd;
  cd.train = std::make_shared<const Dataset>(d);
  return run_analyses(c, res, cd, order, o);
}

const char* const kProfiles[4] = {"MR (4) all-T", "MR (8) all-T", "MR (4) I", "MR (8) I"};

}  // namespace

// MR (4)/(8) all-T and on I (docs/bounds.md#mr4_all_t, docs/bounds.md#mr8_i) = python reference;
// each >= M at every rho.
TEST(TheoryFiguresRhoProfile, MatchesPythonReferenceOnFixtureB) {
  // python3 tests/tools/theory_profile_reference.py -> mistakes {1,2,3,5}, M = 4, r = sqrt 2,
  // r_I = sqrt 1.25. At rho = 0.5, 1 these agree with the table of docs/bounds.md#fixture-b for B
  // to 6 digits.
  const std::vector<double> rhos = {0.242536, 0.5, 1.0, 2.0};
  const double want[4][4] = {{40.144817792552, 81.557867871459, 27.274491366916, 60.992377821014},
                             {13.482631996178, 25.201427539753, 10.259102971829, 19.604909812446},
                             {6.753571018717, 10.791956809712, 5.762146007398, 8.933713371109},
                             {5.607245448982, 6.741000300742, 4.758639035103, 5.792614524926}};
  const Dataset d = fixture_b();
  const std::vector<std::size_t> order = {0, 1, 2, 3, 4};
  const json cfg = {{"comparator", "truth"}, {"rho", rhos}, {"at", 0.5}};
  RunResult res = perceptron_run(d, order);
  const json out = analyse(d, order, cfg, res);
  ASSERT_EQ(res.mistakes, 4u);
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(kProfiles[k]);
    const json& p = out["profiles"][kProfiles[k]];
    ASSERT_EQ(p["x"].get<std::vector<double>>(), rhos);
    ASSERT_EQ(p["y"].size(), rhos.size());
    for (std::size_t j = 0; j < rhos.size(); ++j) {
      EXPECT_NEAR(p["y"][j].get<double>(), want[j][k], 1e-9 * want[j][k]) << "rho " << rhos[j];
      EXPECT_GE(p["y"][j].get<double>(), 4.0) << "rho " << rhos[j];  // a theorem at every rho
    }
  }
  const json& r = out["results"];
  EXPECT_NEAR(r["mr4_all_at"].get<double>(), want[1][0], 1e-9 * want[1][0]);
  EXPECT_NEAR(r["mr8_all_at"].get<double>(), want[1][1], 1e-9 * want[1][1]);
  EXPECT_NEAR(r["mr4_I_at"].get<double>(), want[1][2], 1e-9 * want[1][2]);
  EXPECT_NEAR(r["mr8_I_at"].get<double>(), want[1][3], 1e-9 * want[1][3]);
  EXPECT_EQ(r["profile_violations"].get<std::size_t>(), 0u);
  res.mistakes = 100;  // a (fake) M above every value: all 4 x (4 grid + 1 "at") pairs are violations
  EXPECT_EQ(analyse(d, order, cfg, res)["results"]["profile_violations"].get<std::size_t>(), 20u);
}

// On random noisy runs every profile value is >= M (theorems at every rho) and violations = 0;
// the I forms are <= the all-T forms at the same rho (docs/bounds.md#predictive-vs-check: I subset
// of T, r_I <= r).
TEST(TheoryFiguresRhoProfile, BoundsHoldAtEveryRhoOnRandomData) {
  SCOPED_TRACE("PLAB_TEST_SEED=" + std::to_string(base_seed()));
  const Dataset d = make_synthetic("synthetic:dekel:n=400,flip=0.15,seed=" + std::to_string(base_seed() % 1000000));
  std::vector<double> rhos;
  for (int j = 0; j <= 40; ++j) rhos.push_back(0.01 * std::pow(1000.0, j / 40.0));
  const auto order = make_order(d.size(), base_seed());
  const RunResult res = perceptron_run(d, order);
  const json out = analyse(d, order, {{"rho", rhos}, {"at", 0.3}}, res);
  const double M = static_cast<double>(res.mistakes);
  EXPECT_EQ(out["results"]["profile_violations"].get<std::size_t>(), 0u);
  for (int k = 0; k < 4; ++k)
    for (std::size_t j = 0; j < rhos.size(); ++j) {
      const double v = out["profiles"][kProfiles[k]]["y"][j].get<double>();
      EXPECT_TRUE(bounds::within(M, v)) << kProfiles[k] << " rho " << rhos[j] << ": " << v << " < " << M;
      if (k >= 2) {
        EXPECT_LE(v, out["profiles"][kProfiles[k - 2]]["y"][j].get<double>() * (1 + 1e-12));
      }
    }
}

// [D] inf_rho (4) <= inf_rho (8) in the same form (all-T or I): with s = 1/rho, a = r s, b = ||L(s)||_2,
// lambda = 1 + b/(2a+b): l(lambda s) = max(0, lambda l(s) - (lambda-1)) <= lambda^2 l(s)^2 / (4(lambda-1)),
// so ||L(lambda s)||_1 <= lambda^2 b^2/(4(lambda-1)) and x = a + b satisfies x^2 - lambda a x - ||L||_1 >= 0,
// i.e. (4)(lambda s) <= (a + b)^2 = (8)(s). Checked pointwise (no claim that (4) <= (8) at one rho).
TEST(TheoryFiguresRhoProfile, Mr4AtScaledRhoIsBelowMr8) {
  SCOPED_TRACE("PLAB_TEST_SEED=" + std::to_string(base_seed()));
  std::mt19937_64 g(base_seed());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int rep = 0; rep < 50; ++rep) {
    std::vector<double> m(1 + g() % 40);
    for (double& v : m) v = rep % 2 ? u(g) : 0.5 + 0.5 * u(g);  // noisy / nearly separable
    const double r = 1.0 + 0.5 * (u(g) + 1.0);
    const bounds::MarginProfile P(m);
    for (double s = 0.0; s <= 20.0; s += 0.05) {
      const double a = r * s, b = P.l2(s), lam = b > 0 ? 1.0 + b / (2.0 * a + b) : 1.0;
      EXPECT_LE(bounds::mr4(P.l1(lam * s), r, lam * s), bounds::mr8(b, r, s) * (1 + 1e-12) + 1e-12) << "s " << s;
    }
  }
}
