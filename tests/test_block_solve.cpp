// The Projectron's block solve (numerics/panel_solve.hpp, projectron.hpp): the claims that make
// its speed safe. Every check is an exact (bitwise) comparison between two computations of the
// same quantity, or a comparison with a brute-force recomputation; seeds are printed and
// PLAB_TEST_SEED overrides them.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "numerics/column_solve.hpp"
#include "numerics/panel_solve.hpp"
#include "algorithms/registry.hpp"
#include "numerics/simd.hpp"
#include "algorithms/projectron.hpp"
#include "core/random.hpp"
#include "experiments/run/run.hpp"

using namespace plab;

namespace {

// Sparse rows shaped like a9a (dim 60, ~8 active features), labels from a random halfspace with
// 10% flips: many margin errors, projections and additions. Values are real by default (0/1 rows
// have integer dot products, exact in any summation order, which would hide order changes);
// `binary` gives a9a's 0/1 rows, which have exact score ties.
Dataset sparse_rows(std::size_t n, uint64_t seed, bool binary = false) {
  Rng rng(seed);
  const std::size_t dim = 60;
  std::vector<double> w(dim);
  for (auto& v : w) v = rng.normal();
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<uint32_t> ix;
    std::vector<double> vx;
    double s = 0.0;
    for (uint32_t j = 0; j < dim; ++j)
      if (rng.uniform() < 8.0 / dim) {
        const double v = binary ? 1.0 : 0.5 + rng.uniform();
        ix.push_back(j);
        vx.push_back(v);
        s += w[j] * v;
      }
    double y = s > 0 ? 1.0 : -1.0;
    if (rng.uniform() < 0.1) y = -y;
    d.push_back(ix, vx, y);
  }
  d.dim = dim;
  return d;
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void expect_same_records(const std::vector<RoundRecord>& a, const std::vector<RoundRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const RoundRecord &p = a[i], &q = b[i];
    ASSERT_TRUE(same(p.score, q.score) && same(p.pk2, q.pk2) && same(p.delta_norm, q.delta_norm) &&
                same(p.tau, q.tau) && same(p.f_norm2, q.f_norm2) && p.update == q.update &&
                p.support_size == q.support_size && p.mistake == q.mistake)
        << "round " << i + 1 << ": score " << p.score << " vs " << q.score;
  }
}

LearnerOptions a9a_like_options(std::size_t dim, EtaConvention c, double eta, Kernel k = Kernel::rbf(0.1)) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = dim;
  o.own["eta"] = eta;
  o.own["eta_convention"] = c;
  return o;
}

// Lower-triangular factor of a random Gaussian Gram matrix, packed row by row.
std::vector<double> random_factor(std::size_t n, Rng& rng) {
  std::vector<std::vector<double>> x(n, std::vector<double>(5));
  for (auto& p : x)
    for (auto& v : p) v = rng.normal();
  Eigen::MatrixXd K(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (std::size_t k = 0; k < 5; ++k) s += (x[i][k] - x[j][k]) * (x[i][k] - x[j][k]);
      K(i, j) = std::exp(-0.3 * s) + (i == j ? 1e-3 : 0.0);
    }
  const Eigen::MatrixXd L = K.llt().matrixL();
  std::vector<double> p;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) p.push_back(L(i, j));
  return p;
}

}  // namespace

// learn() round by round, run_online's blocks and blocks of awkward sizes give the same records,
// bit for bit (z does not depend on the blocking; adds inside a block extend the later rounds).
TEST(BlockSolve, LearnBlockEqualsLearnBitForBit) {
  const uint64_t seed = test_util::test_seed(3);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Dataset d = sparse_rows(1500, seed);
  struct Case { Kernel k; EtaConvention conv; double eta; };
  // rbf: paper ||delta|| <= 0.7, dogma ||delta||^2 <= 0.3; linear (dim 60: S fills the space, then
  // every update projects); poly: dogma ||delta||^2 <= 2 (k(x,x) ~ 7 here). All add and project.
  const Case cases[] = {{Kernel::rbf(0.1), EtaConvention::paper, 0.7},
                        {Kernel::rbf(0.1), EtaConvention::dogma, 0.3},
                        {Kernel::linear(), EtaConvention::paper, 0.5},
                        {Kernel::poly(0.2, 1.0, 2), EtaConvention::dogma, 2.0}};
  for (const std::string algo : {"projectron", "projectron++"})
    for (const Case& cs : cases) {
      const EtaConvention conv = cs.conv;
      SCOPED_TRACE(algo + " " + cs.k.describe() + (conv == EtaConvention::paper ? " paper" : " dogma"));
      const LearnerOptions o = a9a_like_options(d.dim, conv, cs.eta, cs.k);
      auto one = test_util::configured_learner(algo, o);
      std::vector<RoundRecord> a;
      for (std::size_t t = 0; t < d.size(); ++t) a.push_back(one->learn(d[t], static_cast<int64_t>(t + 1)));
      auto blk = test_util::configured_learner(algo, o);
      const RunResult r = run_online(*blk, d, make_order(d.size(), std::nullopt));
      expect_same_records(a, r.rounds);
      std::size_t adds = 0, projections = 0;
      for (const auto& x : a) {
        adds += x.update == UpdateKind::add;
        projections += x.update == UpdateKind::project || x.update == UpdateKind::margin_project;
      }
      // Many additions inside blocks (the extension path is exercised) and many projections; the
      // bounds sit well below what any seed gives (about 45 projections at the fewest, in 1500 rounds).
      EXPECT_GT(adds, 50u);
      EXPECT_GT(projections, 25u);
      // Odd block sizes (1, 7, 23, 24, 25, 100) in a repeating pattern.
      auto odd = test_util::configured_learner(algo, o);
      std::vector<RoundRecord> c(d.size());
      const std::size_t sizes[] = {1, 7, 23, 24, 25, 100};
      std::vector<Example> xs;
      for (std::size_t t = 0, k = 0; t < d.size(); ++k) {
        const std::size_t n = std::min(sizes[k % 6], d.size() - t);
        xs.clear();
        for (std::size_t i = 0; i < n; ++i) xs.push_back(d[t + i]);
        odd->learn_block(xs.data(), n, static_cast<int64_t>(t + 1), c.data() + t);
        t += n;
      }
      expect_same_records(a, c);
      // alpha formed from beta (sync) carries the running ||f||^2.
      EXPECT_NEAR(one->norm2(), one->norm2_exact(), 1e-9 * one->norm2_exact());
    }
}

namespace {

// The recurrence of panel_solve.hpp written out (chunk totals at absolute multiples of
// kPanelChunk; n = 203 crosses three boundaries): the scalar path `ref` is it, bit for bit.
void expect_scalar_path_is_the_recurrence(const std::vector<double>& L, const std::vector<double>& K,
                                          const std::vector<double>& ref, std::size_t n) {
  const std::size_t W = kPanelLanes;
  for (std::size_t l : {std::size_t{0}, std::size_t{7}}) {
    std::vector<double> z(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double* r = L.data() + i * (i + 1) / 2;
      double acc = 0.0, part = 0.0;
      for (std::size_t j = 0; j < i; ++j) {
        part = std::fma(r[j], z[j], part);
        if ((j + 1) % kPanelChunk == 0) { acc += part; part = 0.0; }
      }
      z[i] = (K[i * W + l] - (acc + part)) / r[i];
      ASSERT_EQ(z[i], ref[i * W + l]) << "lane " << l << " row " << i;
    }
  }
}

// And lane l of `ref` is the solve: L z = k to rounding, against Eigen's triangular solve.
void expect_lane_solves(const std::vector<double>& L, const std::vector<double>& K, const std::vector<double>& ref,
                        std::size_t n, std::size_t l) {
  const std::size_t W = kPanelLanes;
  Eigen::MatrixXd Ld = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t i = 0, p = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) Ld(i, j) = L[p++];
  Eigen::VectorXd k(n), z(n);
  for (std::size_t j = 0; j < n; ++j) { k(j) = K[j * W + l]; z(j) = ref[j * W + l]; }
  const Eigen::VectorXd ze = Ld.triangularView<Eigen::Lower>().solve(k);
  EXPECT_LT((z - ze).norm(), 1e-10 * ze.norm());
}

}  // namespace

// Every available instruction-set path, stride 1 and 24, and any split of the rows into calls
// compute the same bits (the recurrence of panel_solve.hpp), and it solves L z = k (Eigen).
TEST(BlockSolve, PanelPathsAgreeBitForBit) {
  const uint64_t seed = test_util::test_seed(5);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  const std::size_t n = 203, W = kPanelLanes;
  const std::vector<double> L = random_factor(n, rng);
  std::vector<double> K(n * W);
  for (auto& v : K) v = rng.normal();
  std::vector<double> ref = K;
  forward_panel_on("scalar", L.data(), 0, n, ref.data(), W);
  for (const std::string isa : {"avx2", "avx512"}) {
    std::vector<double> Z = K;
    try {
      forward_panel_on(isa, L.data(), 0, n, Z.data(), W);
    } catch (const std::invalid_argument&) {
      std::printf("%s: not on this CPU, skipped\n", isa.c_str());
      continue;
    }
    EXPECT_EQ(0, std::memcmp(Z.data(), ref.data(), n * W * sizeof(double))) << isa;
    std::vector<double> S = K;  // rows in three calls: 0..50, 50..51, 51..n
    forward_panel_on(isa, L.data(), 0, 50, S.data(), W);
    forward_panel_on(isa, L.data(), 50, 51, S.data(), W);
    forward_panel_on(isa, L.data(), 51, n, S.data(), W);
    EXPECT_EQ(0, std::memcmp(S.data(), ref.data(), n * W * sizeof(double))) << isa << " split";
  }
  expect_scalar_path_is_the_recurrence(L, K, ref, n);
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {  // calls split across a chunk boundary
    if (simd_parse(isa) > simd_best()) continue;
    std::vector<double> S = K;
    forward_panel_on(isa, L.data(), 0, kPanelChunk - 1, S.data(), W);
    forward_panel_on(isa, L.data(), kPanelChunk - 1, kPanelChunk + 2, S.data(), W);
    forward_panel_on(isa, L.data(), kPanelChunk + 2, n, S.data(), W);
    EXPECT_EQ(0, std::memcmp(S.data(), ref.data(), n * W * sizeof(double))) << isa << " split at the chunk";
  }
  for (std::size_t l : {std::size_t{0}, std::size_t{13}, W - 1}) {  // stride 1 = one lane of 24
    std::vector<double> z(n);
    for (std::size_t j = 0; j < n; ++j) z[j] = K[j * W + l];
    forward_panel(L.data(), 0, n, z.data(), 1);
    for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(z[j], ref[j * W + l]) << "lane " << l << " row " << j;
  }
  expect_lane_solves(L, K, ref, n, 3);
}

// The factor kept by columns solves one right-hand side with forward_panel's bits (stride 1, the
// recurrence checked above) on every path, at sizes around its blocks of rows (32) and the chunks
// (64), whether grown row by row or assigned whole.
TEST(BlockSolve, ColumnSolveHasThePanelsBits) {
  const uint64_t seed = test_util::test_seed(11);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Rng rng(seed);
  const std::size_t N = 203;
  const std::vector<double> L = random_factor(N, rng);
  FactorColumns grown;
  for (std::size_t n = 1; n <= N; ++n) {
    grown.append(L.data() + (n - 1) * n / 2);
    ASSERT_EQ(grown(n - 1, 0), L[(n - 1) * n / 2]);
    if (n > 40 && n % 16 > 1 && n % 16 < 15 && n != N) continue;  // the sizes near 16 k, and N
    FactorColumns whole;
    whole.assign(L.data(), n);
    std::vector<double> k(n);
    for (auto& v : k) v = rng.normal();
    std::vector<double> ref = k;
    forward_panel_on("scalar", L.data(), 0, n, ref.data(), 1);
    for (const std::string isa : {"scalar", "avx2", "avx512"}) {
      if (simd_parse(isa) > simd_best()) continue;
      for (const FactorColumns* F : {&grown, &whole}) {
        std::vector<double> z = k;
        forward_columns_on(isa, *F, z.data());
        ASSERT_EQ(0, std::memcmp(z.data(), ref.data(), n * sizeof(double)))
            << isa << " n " << n << (F == &grown ? " grown" : " assigned");
      }
    }
  }
}

// kernel_one(x, i) is kernel_row(x)[i] bit for bit at every slot (tails included), for the three
// kernels: the extension of pending rounds relies on it.
TEST(BlockSolve, KernelOneEqualsKernelRowEntry) {
  const uint64_t seed = test_util::test_seed(9);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Dataset d = sparse_rows(90, seed);
  Rng rng(seed + 1);
  for (const Kernel k : {Kernel::rbf(0.07), Kernel::linear(), Kernel::poly(0.5, 1.0, 3)}) {
    SupportSet s(d.dim);
    for (std::size_t i = 0; i < 37; ++i) s.add(d[i], static_cast<int64_t>(i));
    std::vector<double> row(s.size());
    for (std::size_t q = 37; q < d.size(); ++q) {
      s.kernel_row(k, d[q], row.data());
      for (std::size_t i = 0; i < s.size(); ++i) {
        ASSERT_EQ(row[i], s.kernel_one(k, d[q], i)) << k.describe() << " slot " << i;
        ASSERT_NEAR(row[i], k(s.row(i), d[q]), 1e-13 * (1.0 + std::abs(row[i])));  // and it is k
      }
    }
  }
}

// The averaged hypothesis kept in beta coordinates equals (1/T) sum_t f_t built by brute force
// from alpha_t = L^{-T} beta_t read after every round.
TEST(BlockSolve, AveragedHypothesisMatchesBruteForce) {
  const uint64_t seed = test_util::test_seed(4);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Dataset d = sparse_rows(400, seed);
  const LearnerOptions o = a9a_like_options(d.dim, EtaConvention::dogma, 0.3);
  ProjectronPP p(o);
  std::vector<double> sum_alpha;  // sum_t alpha_t (padded with zeros)
  for (std::size_t t = 0; t < d.size(); ++t) {
    p.learn(d[t], static_cast<int64_t>(t + 1));
    const auto& a = p.expansion()->alpha;
    sum_alpha.resize(a.size(), 0.0);
    for (std::size_t j = 0; j < a.size(); ++j) sum_alpha[j] += a[j];
  }
  const Dataset test = sparse_rows(50, seed + 7);
  const double T = static_cast<double>(d.size());
  for (std::size_t q = 0; q < test.size(); ++q) {
    double want = 0.0;
    for (std::size_t j = 0; j < sum_alpha.size(); ++j)
      want += sum_alpha[j] / T * o.kernel(p.supports().row(j), test[q]);
    EXPECT_NEAR(p.score_as("averaged", test[q]), want, 1e-9 * (1.0 + std::abs(want))) << "point " << q;
  }
}

// sign(0) is a mistake (docs/conventions.md#mistake): an exact tie must stay exactly 0.
// f = k(0,.) - k(2,.) scores x = 1 as k(0,1) - k(2,1) = 0 exactly (the two kernel values are the same double);
// in beta coordinates the same score carries rounding, so until a first projection the Projectron
// scores with alpha . k_t (projectron.hpp).
TEST(BlockSolve, ExactTieStaysZeroAndIsAMistake) {
  Dataset d;
  const double xs[] = {0.0, 2.0, 1.0, 1.0};
  const double ys[] = {1.0, -1.0, -1.0, 1.0};
  for (int i = 0; i < 4; ++i) d.push_dense(std::vector<double>{xs[i]}, ys[i]);
  d.dim = 1;
  LearnerOptions o;
  o.kernel = Kernel::rbf(0.3);
  o.dim = 1;
  o.own["eta"] = 0.0;
  for (const std::string algo : {"projectron", "projectron++"}) {
    auto l = test_util::configured_learner(algo, o);
    const RunResult r = run_online(*l, d, make_order(d.size(), std::nullopt));
    EXPECT_EQ(r.rounds[2].score, 0.0) << algo;
    EXPECT_TRUE(r.rounds[2].mistake) << algo;
    EXPECT_EQ(r.rounds[2].update, UpdateKind::add) << algo;  // general position: ||delta|| > 0
  }
}

// A zero example first (k(x,x) = 0 with a kernel without offset) is "projected" onto the empty S:
// f does not change, so the scores must stay alpha . k_t, as the kernel Perceptron's. On 0/1 rows
// with poly(1, 0, 2) every score is an integer sum, so any rounding (beta . z_t) shows bitwise;
// the rows are in general position in the 1830-dim feature space, so eta = 0 only adds.
TEST(BlockSolve, NoOpProjectionKeepsExactScores) {
  const uint64_t seed = test_util::test_seed(21);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Dataset rows = sparse_rows(400, seed, true);
  Dataset d;
  d.push_dense(std::vector<double>(rows.dim, 0.0), 1.0);  // the zero example (an empty row)
  for (std::size_t i = 0; i < rows.size(); ++i) d.push_back(rows[i].idx, rows[i].val, rows[i].y);
  d.dim = rows.dim;
  LearnerOptions o;
  o.kernel = Kernel::poly(1.0, 0.0, 2);
  o.dim = d.dim;
  o.own["eta"] = 0.0;
  for (const std::string algo : {"projectron", "projectron++"}) {
    auto p = test_util::configured_learner(algo, o);
    auto kp = test_util::configured_learner("kernel-perceptron", o);
    const RunResult a = run_online(*p, d, make_order(d.size(), std::nullopt));
    const RunResult b = run_online(*kp, d, make_order(d.size(), std::nullopt));
    EXPECT_EQ(a.rounds[0].update, UpdateKind::project) << algo;  // the guard: nothing to add
    std::size_t ties = 0;
    for (std::size_t t = 0; t < d.size(); ++t) {
      ASSERT_EQ(a.rounds[t].score, b.rounds[t].score) << algo << " round " << t + 1;
      ASSERT_EQ(a.rounds[t].mistake, b.rounds[t].mistake) << algo << " round " << t + 1;
      ties += t > 0 && a.rounds[t].score == 0.0;
    }
    EXPECT_GT(ties, 2u) << algo;  // exact ties occur: the comparison has teeth (about 5 at the fewest)
  }
}
