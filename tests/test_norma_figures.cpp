// The per-cell metrics of the NORMA figures N1-N4 (experiments/cell/norma_metrics.hpp): the tail norm
// and pointwise tail against hand/python fixtures and a brute-force double loop, the nu identity
// on the fixture docs/bounds.md#fixture-norma-nu, the flagged fractions, the one-class training
// rows, the drift windows, and run_cell wiring (metric_* params are not learner options).
#include <gtest/gtest.h>

#include <cmath>

#include "algorithms/norma.hpp"
#include "datasets/synthetic.hpp"
#include "experiments/cell/norma_metrics.hpp"
#include "experiments/run/run.hpp"
#include "experiments/cell/cell.hpp"

using namespace plab;
using nlohmann::json;

namespace {

Dataset line(const std::vector<double>& xs, const std::vector<double>& ys) {
  Dataset d;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double v[1] = {xs[i]};
    d.push_dense(v, ys[i]);
  }
  d.dim = 1;
  return d;
}

LearnerOptions base_options(Kernel k, std::size_t dim) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = dim;
  return o;
}

// sqrt(sum_{i,j old} a_i a_j k(s_i,s_j)) with the kernel's scalar operator(): independent of the
// vectorised kernel_row path expansion_tail_norm uses.
double brute_tail_norm(const KernelExpansion& f, int64_t T, std::size_t tau) {
  double s = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i)
    for (std::size_t j = 0; j < f.size(); ++j)
      if (f.sv.id(i) <= T - static_cast<int64_t>(tau) && f.sv.id(j) <= T - static_cast<int64_t>(tau))
        s += f.alpha[i] * f.alpha[j] * f.kernel(f.sv.row(i), f.sv.row(j));
  return std::sqrt(s);
}

// Scores x[0]: a fixed hypothesis for the flagged-fraction arithmetic.
struct IdentityScore final : Learner {
  double score(const Example& x) const override { return x.val.empty() ? 0.0 : x.val[0]; }
  RoundRecord learn(const Example&, int64_t) override { return {}; }
  std::size_t support_size() const override { return 0; }
  double norm2() const override { return 0.0; }
  double norm2_exact() const override { return 0.0; }
};

}  // namespace

// Fixture (python3, exp(-(x-x')^2)): supports 0.0, 0.5, 1.5, -1.0 with ids 1..4 and alphas
// 0.5, -0.3, 0.2, 0.4; at T = 4, tau = 2 the old terms are ids 1, 2.
TEST(NormaFigures, TailNormAndSupMatchPythonFixture) {
  KernelExpansion f(Kernel::rbf(1.0), 1);
  const Dataset d = line({0.0, 0.5, 1.5, -1.0}, {1, 1, 1, 1});
  const double alpha[] = {0.5, -0.3, 0.2, 0.4};
  for (std::size_t i = 0; i < d.size(); ++i) f.add(d[i], static_cast<int64_t>(i + 1), alpha[i]);
  EXPECT_NEAR(expansion_tail_norm(f, 4, 2), 0.32612844874156344, 1e-14);
  EXPECT_NEAR(expansion_tail_norm(f, 4, 0), 0.63675655653153995, 1e-14);  // every term: ||f||
  EXPECT_NEAR(expansion_tail_norm(f, 4, 0), std::sqrt(f.norm2_exact()), 1e-14);
  EXPECT_EQ(expansion_tail_norm(f, 4, 4), 0.0);  // no term is 4 rounds old
  // sup over {0, 1, -2} of |0.5 k(0,x) - 0.3 k(0.5,x)|: attained at x = 0.
  EXPECT_NEAR(expansion_tail_sup(f, 4, 2, line({0.0, 1.0, -2.0}, {1, 1, 1})), 0.26635976507857856, 1e-14);
  EXPECT_NEAR(expansion_tail_sup(f, 4, 2, line({1.0}, {1})), 0.049700514335700274, 1e-14);
}

// On a real untruncated NORMA run the tail norm equals the brute-force double loop and stays
// within the geometric-series bound of docs/bounds.md#norma-truncation,
// C kappa (1 - Lambda lambda)^tau / lambda.
TEST(NormaFigures, TailNormOfNormaRunMatchesBruteForceAndBound) {
  LearnerOptions o = base_options(Kernel::rbf(1.0), 2);
  Norma::Options no;
  no.learning_rate = 0.5; no.lambda = 0.1; no.rho = 1.0;
  Norma n(o, no);
  const Dataset d = make_synthetic("synthetic:dekel:n=300,seed=3");
  const RunResult r = run_online(n, d, make_order(d.size(), std::nullopt));
  const int64_t T = static_cast<int64_t>(r.rounds.size());
  for (std::size_t tau : {1u, 5u, 20u, 60u}) {
    const double got = expansion_tail_norm(*n.expansion(), T, tau);
    EXPECT_NEAR(got, brute_tail_norm(*n.expansion(), T, tau), 1e-12 * (1 + got)) << tau;
    EXPECT_LE(got, norma_truncation_tail_bound(0.5, 0.1, 1.0, 1.0, tau)) << tau;
  }
}

// docs/bounds.md#fixture-norma-nu: novelty, Gaussian sigma = 1 (gamma = 1/2), eta = 0.2,
// lambda = 0.05, nu = 0.3, rho_1 = 0, no bias: novel rounds 2, 5, 10, fraction 0.25, rho_13 = 0.12, identity
// 0.3 - 0.12 / (0.2 * 12) = 0.25.
TEST(NormaFigures, NuIdentityOnTheoryFixture) {
  const Dataset d = line({0.0, 0.1, -0.2, 0.05, 3.0, 0.0, 0.12, -0.1, 0.2, -3.0, 0.03, 0.0},
                         std::vector<double>(12, 1.0));
  LearnerOptions o = base_options(Kernel::rbf(0.5), 1);
  Norma::Options no;
  no.task = "novelty"; no.learning_rate = 0.2; no.lambda = 0.05; no.nu = 0.3; no.rho = 0.0;
  Norma n(o, no);
  const RunResult r = run_online(n, d, make_order(d.size(), std::nullopt));
  EXPECT_NEAR(n.threshold(), 0.12, 1e-12);
  const NuIdentity id = nu_identity(r.rounds, 0.3, n.threshold(), false);
  EXPECT_DOUBLE_EQ(id.fraction, 0.25);
  EXPECT_LT(std::fabs(id.residual), 1e-15);
  // A wrong threshold shows up in the residual: rho off by 0.024 = 0.01 * eta * T.
  EXPECT_NEAR(nu_identity(r.rounds, 0.3, n.threshold() + 0.024, false).residual, 0.01, 1e-12);
}

// With eta_t = Lambda / sqrt(t) the general form sum eta_t (sigma_t - nu) + drift = 0 still holds.
TEST(NormaFigures, NuIdentityWithDecayingRateAndRegression) {
  const Dataset d = make_synthetic("synthetic:dekel:n=400,seed=5");
  LearnerOptions o = base_options(Kernel::rbf(1.0), 2);
  Norma::Options no;
  no.learning_rate = 0.3; no.lambda = 0.01; no.nu = 0.4; no.decay_rate = true;
  Norma n(o, no);
  const RunResult r = run_online(n, d, make_order(d.size(), std::nullopt));
  EXPECT_LT(std::fabs(nu_identity(r.rounds, 0.4, n.threshold(), false).residual), 1e-13);
  LearnerOptions q = base_options(Kernel::rbf(1.0), 2);
  Norma::Options nq;
  nq.task = "regression"; nq.loss = "eps"; nq.learning_rate = 0.1; nq.nu = 0.3; nq.epsilon = 0.2;
  Norma m(q, nq);
  const RunResult rr = run_online(m, d, make_order(d.size(), std::nullopt));
  const NuIdentity id = nu_identity(rr.rounds, 0.3, m.threshold(), true);
  EXPECT_LT(std::fabs(id.residual), 1e-13);
  EXPECT_GT(id.fraction, 0.0);
}

TEST(NormaFigures, FlaggedFractions) {
  const Dataset t = line({-1.0, 0.0, 0.5, 2.0, 0.7}, {+1, +1, -1, -1, +1});
  const IdentityScore h;
  const Flagged s = novelty_flagged(h, 0.5, false, t);  // flagged iff x < 0.5: -1, 0
  EXPECT_EQ(s.npos, 3u);
  EXPECT_EQ(s.nneg, 2u);
  EXPECT_DOUBLE_EQ(s.pos, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.neg, 0.0);
  const Flagged inc = novelty_flagged(h, 0.5, true, t);  // x <= 0.5 also flags 0.5 (a -1 row)
  EXPECT_DOUBLE_EQ(inc.pos, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(inc.neg, 0.5);
  EXPECT_TRUE(std::isnan(novelty_flagged(h, 0.5, false, line({1.0}, {1})).neg));
}

TEST(NormaFigures, NoveltyTrainsOnPositiveRowsOnly) {
  const Dataset d = line({1, 2, 3, 4, 5}, {-1, 1, 1, -1, 1});
  Cell c;
  c.options = {{"task", "novelty"}};
  c.labels = "0:+1,*:-1";
  EXPECT_EQ(cell_training_order(c, d, {4, 0, 1, 3, 2}), (std::vector<std::size_t>{4, 1, 2}));
  c.labels = "";  // no label map: every row
  EXPECT_EQ(cell_training_order(c, d, {0, 1, 2}), (std::vector<std::size_t>{0, 1, 2}));
  c.labels = "0:+1,*:-1";
  c.options = {{"task", "classification"}};
  EXPECT_EQ(cell_training_order(c, d, {0, 1, 2, 3}), (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(NormaFigures, DriftPeriodAndShiftWindows) {
  EXPECT_EQ(drift_period("synthetic:drift:n=100,K=25,seed=3"), 25u);
  EXPECT_EQ(drift_period("synthetic:drift"), 1000u);
  EXPECT_EQ(drift_period("synthetic:dekel:n=100"), 0u);
  EXPECT_EQ(drift_period("usps"), 0u);
  EXPECT_THROW(drift_period("synthetic:drift:K=0"), std::invalid_argument);
  // 20 rounds, K = 8, window 2: shifts after rounds 8 and 16; post windows 9-10 and 17-18;
  // settled windows 7-8, 15-16 and 19-20.
  std::vector<RoundRecord> rr(20);
  for (int t : {9, 10, 17, 7}) rr[t - 1].mistake = true;
  const ShiftErrors e = drift_shift_errors(rr, 8, 2);
  EXPECT_DOUBLE_EQ(e.post, 3.0 / 4.0);
  EXPECT_DOUBLE_EQ(e.settled, 1.0 / 6.0);
}

// run_cell wiring: the metrics reach a cell's results; metric_* params are skipped as options.
TEST(NormaFigures, RunCellAddsMetrics) {
  Cell c;
  c.algo = "norma"; c.data = "synthetic:dekel:n=200,seed=2"; c.test = "synthetic:dekel:n=50,seed=4";
  c.order = "given"; c.kernel = {{"type", "rbf"}, {"gamma", 1.0}};
  c.options = {{"learning_rate", 0.5}, {"lambda", 0.1}, {"rho", 1.0}, {"truncate", 10},
               {"metric_untruncated_tail", true}};
  DataCache cache;
  const json doc = run_cell(c, cache.get(c), nullptr);
  const json& r = doc["results"];
  EXPECT_NEAR(r["max_trunc_ratio"].get<double>(), 1.0, 1e-12);  // hinge + rbf: |alpha| = Lambda, k = 1
  EXPECT_NEAR(r["trunc_term_bound"].get<double>(), 0.5 * std::pow(0.95, 10), 1e-15);
  EXPECT_NEAR(r["trunc_tail_bound"].get<double>(), std::pow(0.95, 10) / 0.1, 1e-13);
  EXPECT_LE(r["untruncated_tail_norm"].get<double>(), r["trunc_tail_bound"].get<double>());
  EXPECT_LE(r["untruncated_tail_sup"].get<double>(), r["trunc_pointwise_bound"].get<double>());
  EXPECT_GT(r["trunc_removed"].get<int>(), 0);
  EXPECT_LE(r["trunc_removed"].get<int>(), 200 - 10);  // a term lives exactly 10 rounds
  c.options.erase("metric_untruncated_tail");
  EXPECT_FALSE(run_cell(c, cache.get(c), nullptr)["results"].contains("untruncated_tail_norm"));

  Cell dr;
  dr.algo = "kernel-perceptron"; dr.data = "synthetic:drift:n=400,d=3,K=100,seed=1"; dr.order = "given";
  dr.kernel = {{"type", "linear"}};
  const json rd = run_cell(dr, cache.get(dr), nullptr)["results"];
  EXPECT_TRUE(rd.contains("post_shift_error"));
  EXPECT_NEAR(rd["shift_jump"].get<double>(), rd["post_shift_error"].get<double>() - rd["settled_error"].get<double>(), 1e-15);
  dr.order = "shuffle";  // shifts are meaningless in a shuffled order
  EXPECT_FALSE(run_cell(dr, cache.get(dr), nullptr)["results"].contains("post_shift_error"));
}
