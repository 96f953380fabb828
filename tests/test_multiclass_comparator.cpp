// The multiclass comparator (bounds/multiclass_comparator.hpp): the Crammer-Singer SVM against an
// analytic solution and an independent brute force, its KKT conditions and duality gap recomputed
// here with Kernel::operator(), margins against a direct evaluation, determinism, "zero", errors.
// Random problems use PLAB_TEST_SEED (printed) or a fixed seed. PLAB_LONG_TESTS=1 also times the
// comparator on USPS and the full MNIST (data from the data search path, datasets/registry.hpp).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "bounds/multiclass_comparator.hpp"
#include "core/random.hpp"
#include "datasets/readers.hpp"
#include "datasets/registry.hpp"

namespace plab {
namespace {

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> o(n);
  std::iota(o.begin(), o.end(), 0);
  return o;
}

// Points drawn near m class centres in R^d (overlapping clouds: a soft-margin problem).
Dataset random_problem(std::size_t n, std::size_t d, std::size_t m, double spread, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<double>> centre(m, std::vector<double>(d));
  for (auto& c : centre)
    for (double& v : c) v = rng.normal();
  Dataset data;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t y = rng.below(m);
    std::vector<double> x(d);
    for (std::size_t j = 0; j < d; ++j) x[j] = centre[y][j] + spread * rng.normal();
    data.push_dense(x, static_cast<double>(y));
  }
  return data;
}

// u_r(x) = sum_i alpha_ir k(x_i, x) with Kernel::operator(), and m(U) on x.
std::vector<double> direct_scores(const MulticlassSvmFit& fit, const Dataset& data, const Kernel& k, const Example& x) {
  const std::size_t m = fit.num_classes;
  std::vector<double> s(m, 0.0);
  for (std::size_t i = 0; i < fit.rows.size(); ++i) {
    const double kv = k(data[fit.rows[i]], x);
    for (std::size_t r = 0; r < m; ++r) s[r] += fit.alpha[i * m + r] * kv;
  }
  return s;
}
double direct_margin(const std::vector<double>& s, std::size_t y) {
  double other = -INFINITY;
  for (std::size_t r = 0; r < s.size(); ++r)
    if (r != y) other = std::max(other, s[r]);
  return s[y] - other;
}

// ---------------------------------------------------------------------------------------------
// (1a) Analytic: class c at p_c and 2 p_c, p_c unit vectors 120 degrees apart. The problem is
// invariant under the rotation that cycles the classes and the reflection that swaps 1 and 2,
// and the primal is strictly convex in U, so u_c = a p_c. Then m(p_c) = 1.5a, m(2p_c) = 3a,
// ||U||^2 = 3a^2 and J(a) = 1.5a^2 + 3C(1-1.5a)_+ + 3C(1-3a)_+, minimised at
// a = 4.5C (C < 2/27), 1/3 (2/27 <= C < 2/9), 1.5C (2/9 <= C < 4/9), 2/3 (C >= 4/9).
Dataset triangle() {
  Dataset d;
  for (double scale : {1.0, 2.0})
    for (int c = 0; c < 3; ++c) {
      const double th = 2.0 * M_PI * c / 3.0;
      d.push_dense(std::vector<double>{scale * std::cos(th), scale * std::sin(th)}, c);
    }
  d.dim = 2;
  return d;
}

double triangle_a(double C) {
  if (C < 2.0 / 27.0) return 4.5 * C;
  if (C < 2.0 / 9.0) return 1.0 / 3.0;
  if (C < 4.0 / 9.0) return 1.5 * C;
  return 2.0 / 3.0;
}

TEST(MulticlassComparatorToy, TriangleMatchesTheAnalyticSolution) {
  const Dataset d = triangle();
  const auto order = iota(d.size());
  for (double C : {0.05, 0.1, 0.3, 1.0, 10.0}) {
    SCOPED_TRACE("C = " + std::to_string(C));
    const double a = triangle_a(C);
    MulticlassSvmOptions opt;
    opt.C = C;
    opt.eps = 1e-12;
    const MulticlassSvmFit fit = fit_multiclass_svm(d, order, Kernel::linear(), 3, opt, 7);
    ASSERT_TRUE(fit.converged);
    const auto margins = multiclass_margins(fit, d, order, Kernel::linear());
    EXPECT_NEAR(std::sqrt(fit.norm2), a * std::sqrt(3.0), 1e-9);
    for (std::size_t t = 0; t < 6; ++t) EXPECT_NEAR(margins[t], (t < 3 ? 1.5 : 3.0) * a, 1e-9) << "t = " << t;
    // The public entry point (default stopping rule, eps = 1e-3) agrees to the tolerance.
    const MulticlassComparator c = make_multiclass_comparator("svm", d, order, Kernel::linear(), 3, C, 7);
    EXPECT_EQ(c.name, "svm");
    EXPECT_NEAR(c.norm, a * std::sqrt(3.0), 1e-3);
    for (std::size_t t = 0; t < 6; ++t) EXPECT_NEAR(c.margins[t], (t < 3 ? 1.5 : 3.0) * a, 2e-3);
  }
}

// (1b) Brute force on an asymmetric separable toy: the hard-margin solution min ||U||^2 s.t.
// (u_y - u_r).x_i >= 1 is the min-norm solution of its active constraints taken as equalities,
// so the smallest feasible min-norm solution over every subset of <= 6 (= dim U) constraints is
// the optimum. Our SVM with a C above every optimal alpha is the same problem.
struct Constraint {
  std::size_t i, r;
};

Eigen::VectorXd brute_force_hard_margin(const Dataset& d, std::size_t m) {
  const std::size_t dim = d.dim, nu = m * dim;
  std::vector<Eigen::VectorXd> rows;  // a . U = (u_y - u_r) . x_i
  for (std::size_t i = 0; i < d.size(); ++i)
    for (std::size_t r = 0; r < m; ++r) {
      const auto y = static_cast<std::size_t>(d.y[i]);
      if (r == y) continue;
      Eigen::VectorXd a = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(nu));
      for (std::size_t j = 0; j < dim; ++j) {
        const double xj = d[i].val[j];  // dense rows (no zero coordinates in this fixture)
        a[static_cast<Eigen::Index>(y * dim + j)] += xj;
        a[static_cast<Eigen::Index>(r * dim + j)] -= xj;
      }
      rows.push_back(a);
    }
  const std::size_t nc = rows.size();
  Eigen::VectorXd best;
  double best_n = INFINITY;
  for (uint32_t mask = 1; mask < (1u << nc); ++mask) {
    const int sz = __builtin_popcount(mask);
    if (sz > static_cast<int>(nu)) continue;
    Eigen::MatrixXd A(sz, static_cast<Eigen::Index>(nu));
    int q = 0;
    for (std::size_t c = 0; c < nc; ++c)
      if (mask >> c & 1u) A.row(q++) = rows[c].transpose();
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(sz);
    const Eigen::VectorXd U = A.completeOrthogonalDecomposition().solve(ones);
    if ((A * U - ones).norm() > 1e-9) continue;  // inconsistent equalities
    bool feasible = true;
    for (const auto& a : rows) feasible = feasible && a.dot(U) >= 1.0 - 1e-9;
    if (feasible && U.norm() < best_n) { best_n = U.norm(); best = U; }
  }
  return best;
}

TEST(MulticlassComparatorToy, AsymmetricToyMatchesBruteForce) {
  Dataset d;
  const double pts[6][2] = {{2.0, 0.3}, {1.5, -0.5}, {-0.5, 2.0}, {0.3, 1.6}, {-1.2, -1.5}, {0.2, -2.0}};
  for (int i = 0; i < 6; ++i) d.push_dense(std::vector<double>{pts[i][0], pts[i][1]}, i / 2);
  d.dim = 2;
  const Eigen::VectorXd U = brute_force_hard_margin(d, 3);
  ASSERT_EQ(U.size(), 6) << "fixture must be separable";
  MulticlassSvmOptions opt;
  opt.C = 100.0;
  opt.eps = 1e-12;
  const auto order = iota(d.size());
  const MulticlassSvmFit fit = fit_multiclass_svm(d, order, Kernel::linear(), 3, opt, 3);
  ASSERT_TRUE(fit.converged);
  for (double a : fit.alpha) EXPECT_LT(a, opt.C);  // no alpha at C: the hard-margin regime
  const auto margins = multiclass_margins(fit, d, order, Kernel::linear());
  EXPECT_NEAR(std::sqrt(fit.norm2), U.norm(), 1e-8);
  for (std::size_t i = 0; i < d.size(); ++i) {
    std::vector<double> s(3);
    for (std::size_t r = 0; r < 3; ++r) s[r] = U[static_cast<Eigen::Index>(2 * r)] * pts[i][0] + U[static_cast<Eigen::Index>(2 * r + 1)] * pts[i][1];
    EXPECT_NEAR(margins[i], direct_margin(s, static_cast<std::size_t>(d.y[i])), 1e-8) << "i = " << i;
  }
}

// ---------------------------------------------------------------------------------------------
// (2) KKT and duality gap on random soft-margin problems, everything recomputed here: the Gram
// matrix by Kernel::operator(), P(U) = ||U||^2/2 + C sum (1 - m_i)_+, D = sum alpha_iy - ||U||^2/2.
struct Recomputed {
  double norm2 = 0, primal = 0, dual = 0, max_v = 0, gap_bound = 0;
};

Recomputed recompute(const MulticlassSvmFit& fit, const Dataset& d, const Kernel& k, double C) {
  const std::size_t n = fit.rows.size(), m = fit.num_classes;
  std::vector<std::vector<double>> S(n);
  for (std::size_t i = 0; i < n; ++i) S[i] = direct_scores(fit, d, k, d[fit.rows[i]]);
  Recomputed out;
  double hinge = 0, lin = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto y = static_cast<std::size_t>(d.y[fit.rows[i]]);
    for (std::size_t r = 0; r < m; ++r) out.norm2 += fit.alpha[i * m + r] * S[i][r];
    hinge += std::max(0.0, 1.0 - direct_margin(S[i], y));
    lin += fit.alpha[i * m + y];
    // KKT: with g_r = u_r(x_i) + [r != y], no mass move r -> q (a_q < C_q) may lower the dual.
    double gmax = -INFINITY, gmin_free = INFINITY;
    for (std::size_t r = 0; r < m; ++r) {
      const double g = S[i][r] + (r == y ? 0.0 : 1.0);
      gmax = std::max(gmax, g);
      if (fit.alpha[i * m + r] < (r == y ? C : 0.0)) gmin_free = std::min(gmin_free, g);
    }
    out.max_v = std::max(out.max_v, gmax - gmin_free);
    out.gap_bound += (C + fit.alpha[i * m + y]) * (gmax - gmin_free);
  }
  out.primal = 0.5 * out.norm2 + C * hinge;
  out.dual = lin - 0.5 * out.norm2;
  return out;
}

void expect_dual_feasible(const MulticlassSvmFit& fit, const Dataset& d, double C) {
  const std::size_t m = fit.num_classes;
  for (std::size_t i = 0; i < fit.rows.size(); ++i) {
    const auto y = static_cast<std::size_t>(d.y[fit.rows[i]]);
    double sum = 0;
    for (std::size_t r = 0; r < m; ++r) {
      const double a = fit.alpha[i * m + r];
      sum += a;
      if (r == y) {
        EXPECT_GE(a, 0.0);
        EXPECT_LE(a, C);
      } else {
        EXPECT_LE(a, 0.0);
      }
    }
    EXPECT_NEAR(sum, 0.0, 1e-12 * C);
  }
}

TEST(MulticlassComparatorKkt, GapAndViolationSmallOnRandomProblems) {
  const uint64_t seed = test_util::test_seed(20261123);
  const Dataset d = random_problem(240, 5, 4, 0.9, seed);
  const auto order = Rng(seed + 1).permutation(d.size());
  const std::vector<std::pair<std::string, Kernel>> kernels = {
      {"linear", Kernel::linear()}, {"rbf", Kernel::rbf(0.3)}, {"poly", Kernel::poly(0.1, 1.0, 3)}};
  for (const auto& [kname, k] : kernels)
    for (double C : {0.1, 1.0, 10.0}) {
      SCOPED_TRACE(kname + " C = " + std::to_string(C));
      for (double eps : {1e-3, 1e-7}) {
        MulticlassSvmOptions opt;
        opt.C = C;
        opt.eps = eps;
        opt.max_epochs = 1000000;
        const MulticlassSvmFit fit = fit_multiclass_svm(d, order, k, 4, opt, seed);
        std::printf("%s C %g eps %g: %d epochs, P %.6g, gap %.3g\n", kname.c_str(), C, eps, fit.epochs, fit.primal, fit.primal - fit.dual);
        ASSERT_TRUE(fit.converged) << "eps " << eps << " epochs " << fit.epochs;
        expect_dual_feasible(fit, d, C);
        const Recomputed rc = recompute(fit, d, k, C);
        const double scale = std::max(1.0, rc.primal);
        EXPECT_NEAR(fit.norm2, rc.norm2, 1e-9 * std::max(1.0, rc.norm2));
        EXPECT_NEAR(fit.primal, rc.primal, 1e-9 * scale);
        EXPECT_NEAR(fit.dual, rc.dual, 1e-9 * scale);
        EXPECT_LT(rc.max_v, eps * (1 + 1e-6) + 1e-9);
        EXPECT_GE(rc.primal - rc.dual, -1e-9 * scale);  // weak duality
        // P - D <= sum_i (C + alpha_iy) v_i <= 2 C sum_i v_i (docs/multiclass_comparator.md, gap
        // certificate): the stopping rule bounds the gap.
        EXPECT_LE(rc.primal - rc.dual, rc.gap_bound + 1e-9 * scale);
        if (eps < 1e-5) {
          EXPECT_LE((rc.primal - rc.dual) / scale, 1e-6);  // measured <= 5e-8 (seed 20261123)
        }
      }
    }
}

// ---------------------------------------------------------------------------------------------
// (3) Margins equal sum_i alpha_ic k(x_i, x_t) by Kernel::operator(), on a run longer than the
// subsample (3000 of 3300 rounds; the rounds outside the subsample included).
TEST(MulticlassComparatorMargins, EqualDirectEvaluationBeyondTheSubsample) {
  const uint64_t seed = test_util::test_seed(20261123);
  const Dataset d = random_problem(3400, 6, 5, 0.8, seed + 2);
  std::vector<std::size_t> order = Rng(seed + 3).permutation(d.size());
  order.resize(3300);  // a run over part of the data
  const Kernel k = Kernel::poly(1.0 / 16, 0.5, 3);  // k(x,x) ~ 3 here: converges in the epoch cap
  const MulticlassSvmFit fit = fit_multiclass_svm(d, order, k, 5, MulticlassSvmOptions{}, seed);
  std::printf("3000 of 3300 rounds, poly 3: %d epochs, gap %.3g of P %.6g\n", fit.epochs, fit.primal - fit.dual, fit.primal);
  ASSERT_EQ(fit.rows.size(), kSvmSubsample);
  EXPECT_TRUE(std::is_sorted(fit.rows.begin(), fit.rows.end()));
  EXPECT_EQ(std::adjacent_find(fit.rows.begin(), fit.rows.end()), fit.rows.end());
  std::vector<std::size_t> sorted_order = order;
  std::sort(sorted_order.begin(), sorted_order.end());
  EXPECT_TRUE(std::includes(sorted_order.begin(), sorted_order.end(), fit.rows.begin(), fit.rows.end()));

  const MulticlassComparator c = make_multiclass_comparator("svm", d, order, k, 5, 1.0, seed);
  ASSERT_EQ(c.margins.size(), order.size());
  // The same fit, its norm raised and its margins lowered by their rounding bounds
  // (docs/bounds.md#comparator-rounding): 3000 supports x 5 classes bound them near 1e-9 relative.
  EXPECT_GE(c.norm, std::sqrt(fit.norm2));
  EXPECT_LT(c.norm, std::sqrt(fit.norm2) * (1 + 1e-8));
  double worst = 0;
  for (std::size_t t = 0; t < order.size(); ++t) {
    const Example x = d[order[t]];
    const double want = direct_margin(direct_scores(fit, d, k, x), static_cast<std::size_t>(x.y));
    EXPECT_LE(c.margins[t], want) << "t = " << t;
    worst = std::max(worst, std::abs(c.margins[t] - want) / std::max(1.0, std::abs(want)));
  }
  EXPECT_LT(worst, 1e-8);
  const Recomputed rc = recompute(fit, d, k, 1.0);
  EXPECT_GE(c.norm * c.norm, rc.norm2);
  EXPECT_NEAR(c.norm * c.norm, rc.norm2, 1e-8 * rc.norm2);
}

// Ties: equal competitor scores (identical competing classes) give the same margin whichever
// attains the max. Classes 1 and 2 never occur, so u_1 = u_2 and both tie on every round.
TEST(MulticlassComparatorMargins, TiedCompetitorsGiveTheCommonValue) {
  Dataset d;
  d.push_dense(std::vector<double>{1.0, 0.0}, 0);
  d.push_dense(std::vector<double>{0.0, 1.0}, 3);
  d.dim = 2;
  const auto order = iota(2);
  MulticlassSvmOptions opt;
  opt.eps = 1e-12;
  const MulticlassSvmFit fit = fit_multiclass_svm(d, order, Kernel::linear(), 4, opt, 1);
  const auto margins = multiclass_margins(fit, d, order, Kernel::linear());
  for (std::size_t t = 0; t < 2; ++t) {
    const auto s = direct_scores(fit, d, Kernel::linear(), d[t]);
    EXPECT_EQ(s[1], s[2]);
    EXPECT_NEAR(margins[t], direct_margin(s, static_cast<std::size_t>(d.y[t])), 1e-12);
    EXPECT_NEAR(margins[t], 1.0, 1e-9);
  }
  // Per coordinate j: u_{own}[j] = a, the other three a - 1, a^2 + 3(a-1)^2 least at a = 3/4,
  // with multipliers 1/4 < C: ||U||^2 = 2 (9/16 + 3/16) = 3/2 and both margins 1.
  EXPECT_NEAR(fit.norm2, 1.5, 1e-9);
}

// ---------------------------------------------------------------------------------------------
// (4) Determinism: the same seed gives the same bits; another seed another subsample.
TEST(MulticlassComparatorDeterminism, SameSeedSameBits) {
  const uint64_t seed = test_util::test_seed(20261123);
  const Dataset d = random_problem(3100, 4, 3, 1.0, seed + 4);
  const auto order = Rng(seed + 5).permutation(d.size());
  const Kernel k = Kernel::rbf(0.5);
  const MulticlassComparator a = make_multiclass_comparator("svm", d, order, k, 3, 1.0, 11);
  const MulticlassComparator b = make_multiclass_comparator("svm", d, order, k, 3, 1.0, 11);
  ASSERT_EQ(a.margins.size(), b.margins.size());
  EXPECT_EQ(std::memcmp(&a.norm, &b.norm, sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(a.margins.data(), b.margins.data(), a.margins.size() * sizeof(double)), 0);
  const MulticlassSvmFit f11 = fit_multiclass_svm(d, order, k, 3, MulticlassSvmOptions{}, 11);
  std::printf("determinism problem: %d epochs\n", f11.epochs);
  const MulticlassSvmFit f12 = fit_multiclass_svm(d, order, k, 3, MulticlassSvmOptions{}, 12);
  EXPECT_NE(f11.rows, f12.rows);
}

// (5) "zero": U = 0.
TEST(MulticlassComparatorZero, NormAndMarginsAreZero) {
  const Dataset d = random_problem(50, 3, 3, 1.0, test_util::test_seed(20261123));
  const auto order = iota(d.size());
  const MulticlassComparator c = make_multiclass_comparator("zero", d, order, Kernel::rbf(1.0), 3);
  EXPECT_EQ(c.name, "zero");
  EXPECT_EQ(c.norm, 0.0);
  ASSERT_EQ(c.margins.size(), order.size());
  for (double v : c.margins) EXPECT_EQ(v, 0.0);
}

// Degenerate row: x = 0 under the linear kernel has k(x,.) = 0; its hinge is 1 whatever U, the
// dual reaches it with alpha_y = C, and the gap stays closed.
TEST(MulticlassComparatorKkt, ZeroRowUnderLinearKernel) {
  Dataset d;
  d.push_dense(std::vector<double>{1.0, 0.0}, 0);
  d.push_dense(std::vector<double>{0.0, 0.0}, 1);
  d.push_dense(std::vector<double>{0.0, 1.0}, 2);
  d.dim = 2;
  MulticlassSvmOptions opt;
  opt.eps = 1e-12;
  const MulticlassSvmFit fit = fit_multiclass_svm(d, iota(3), Kernel::linear(), 3, opt, 1);
  EXPECT_TRUE(fit.converged);
  const Recomputed rc = recompute(fit, d, Kernel::linear(), 1.0);
  EXPECT_NEAR(rc.primal - rc.dual, 0.0, 1e-9);
  const auto margins = multiclass_margins(fit, d, iota(3), Kernel::linear());
  EXPECT_EQ(margins[1], 0.0);
}

// (6) Errors name what is wrong.
TEST(MulticlassComparatorErrors, UnknownKindAndBadInput) {
  const Dataset d = random_problem(20, 2, 3, 1.0, 1);
  const auto order = iota(d.size());
  try {
    make_multiclass_comparator("multipass", d, order, Kernel::linear(), 3);
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'multipass'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("svm"), std::string::npos) << msg;
    EXPECT_NE(msg.find("zero"), std::string::npos) << msg;
  }
  auto message = [&](const Dataset& data, std::vector<std::size_t> o, std::size_t m, double C) {
    try {
      make_multiclass_comparator("svm", data, o, Kernel::linear(), m, C);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no throw");
  };
  EXPECT_NE(message(d, order, 1, 1.0).find("num_classes must be >= 2"), std::string::npos);
  EXPECT_NE(message(d, order, 3, 0.0).find("C must be"), std::string::npos);
  EXPECT_NE(message(d, {0, 99}, 3, 1.0).find("out of range"), std::string::npos);
  Dataset bad = d;
  bad.y[4] = 3.0;
  EXPECT_NE(message(bad, order, 3, 1.0).find("row 4 has label 3"), std::string::npos);
  bad.y[4] = 0.5;
  EXPECT_NE(message(bad, order, 3, 1.0).find("expected a class index in 0..2"), std::string::npos);
  bad.y[4] = -1.0;  // a binary ±1 label passed by mistake
  EXPECT_NE(message(bad, order, 3, 1.0).find("class index"), std::string::npos);
  // Empty run: nothing to fit, U = 0.
  const MulticlassComparator e = make_multiclass_comparator("svm", d, {}, Kernel::linear(), 3);
  EXPECT_EQ(e.norm, 0.0);
  EXPECT_TRUE(e.margins.empty());
}

// ---------------------------------------------------------------------------------------------
// Timing on the real digits (PLAB_LONG_TESTS=1): rows scaled to unit norm, so
// k = ((<x,x'> + 1)/2)^p lies in [0, 1] (k(x,x) = 1).
Dataset unit_rows(const Dataset& in) {
  Dataset out;
  out.name = in.name;
  for (std::size_t t = 0; t < in.size(); ++t) {
    const Example x = in[t];
    const double s = x.sqnorm > 0 ? 1.0 / std::sqrt(x.sqnorm) : 0.0;
    std::vector<double> v(x.val.begin(), x.val.end());
    for (double& q : v) q *= s;
    out.push_back(x.idx, v, x.y);
  }
  out.dim = in.dim;
  return out;
}

// The first directory of the data search path that holds `file` ("" when none does).
std::string data_root_with(const std::string& file) {
  for (const auto& r : data_search_path())
    if (std::filesystem::exists(r + "/" + file)) return r;
  return "";
}

void time_comparator(const std::string& name, const Dataset& d, int degree) {
  const auto order = Rng(1).permutation(d.size());
  const Kernel k = Kernel::poly(0.5, 0.5, degree);
  using clk = std::chrono::steady_clock;
  const auto t0 = clk::now();
  const std::clock_t c0 = std::clock();  // CPU time: the machine is shared, wall time is not ours alone
  const MulticlassSvmFit fit = fit_multiclass_svm(d, order, k, 10, MulticlassSvmOptions{}, 1);
  const auto t1 = clk::now();
  const std::clock_t c1 = std::clock();
  const auto margins = multiclass_margins(fit, d, order, k);
  const auto t2 = clk::now();
  const std::clock_t c2 = std::clock();
  std::size_t nsv = 0, neg = 0;
  for (std::size_t i = 0; i < fit.rows.size(); ++i) nsv += fit.alpha[i * 10 + static_cast<std::size_t>(d.y[fit.rows[i]])] > 0;
  for (double v : margins) neg += v <= 0;
  const double s_fit = std::chrono::duration<double>(t1 - t0).count(), s_m = std::chrono::duration<double>(t2 - t1).count();
  const double cpu_fit = static_cast<double>(c1 - c0) / CLOCKS_PER_SEC, cpu_m = static_cast<double>(c2 - c1) / CLOCKS_PER_SEC;
  std::printf("%s (T = %zu, poly %d): fit %.2f s wall / %.2f s CPU (%d epochs, max violation %.2e), margins %.2f s "
              "wall / %.2f s CPU, %zu supports; ||U|| %.4f, P %.6g, D %.6g, gap %.3g (rel %.2e); m_t <= 0 on %zu rounds\n",
              name.c_str(), d.size(), degree, s_fit, cpu_fit, fit.epochs, fit.max_violation, s_m, cpu_m, nsv, std::sqrt(fit.norm2),
              fit.primal, fit.dual, fit.primal - fit.dual, (fit.primal - fit.dual) / fit.primal, neg);
  EXPECT_TRUE(fit.converged);
  EXPECT_LE((fit.primal - fit.dual) / fit.primal, 1e-2);
}

TEST(MulticlassComparatorTiming, UspsAndFullMnist) {
  const char* env = std::getenv("PLAB_LONG_TESTS");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "set PLAB_LONG_TESTS=1";
  LabelMap digits;
  digits.regression = true;  // keep the digit: class index 0..9
  std::string root = data_root_with("usps/zip.train.gz");
  if (root.empty()) GTEST_SKIP() << "no USPS on the data search path";
  time_comparator("usps", unit_rows(load_usps(root + "/usps/zip.train.gz", digits)), 13);
  root = data_root_with("mnist/train-images-idx3-ubyte.gz");
  if (root.empty()) GTEST_SKIP() << "no MNIST on the data search path";
  time_comparator("mnist", unit_rows(load_idx(root + "/mnist/train-images-idx3-ubyte.gz",
                                              root + "/mnist/train-labels-idx1-ubyte.gz", digits)), 7);
}

}  // namespace
}  // namespace plab
