// NOGD's switch (docs/learners.md#nogd): the top eigenpairs from Lanczos agree with the full
// solver's; a zero kernel matrix keeps no eigenpair and the learner goes on; beta = M^T w formed
// when read gives the expansion whose scores are the map's.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "numerics/top_eigenpairs.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

// A Gaussian kernel matrix of n random points in [-1,1]^d (column-major, full).
std::vector<double> gaussian_gram(Rng& rng, std::size_t n, std::size_t d, double gamma) {
  std::vector<std::vector<double>> x(n, std::vector<double>(d));
  for (auto& r : x)
    for (double& v : r) v = 2 * rng.uniform() - 1;
  std::vector<double> K(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < d; ++k) s += (x[i][k] - x[j][k]) * (x[i][k] - x[j][k]);
      K[j * n + i] = std::exp(-gamma * s);
    }
  return K;
}

TEST(TopEigenpairs, LanczosAgreesWithTheFullSolver) {
  Rng rng(test_util::test_seed(7));
  for (const std::size_t n : {30u, 90u, 200u}) {
    const std::vector<double> K = gaussian_gram(rng, n, 5, 0.5);
    const Eigenpairs e = top_eigenpairs(K.data(), n, 10);
    EXPECT_EQ(e.partial, n >= 3 * 21) << n;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Eigen::Map<const Eigen::MatrixXd>(K.data(), n, n));
    ASSERT_EQ(e.values.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i) {
      const double want = es.eigenvalues()(static_cast<Eigen::Index>(n - 1 - i));
      EXPECT_NEAR(e.values[i], want, 1e-10 * es.eigenvalues().maxCoeff()) << "n " << n << " pair " << i;
      // K v = lambda v, |v| = 1 (the sign is free)
      Eigen::Map<const Eigen::VectorXd> v(e.vectors[i].data(), static_cast<Eigen::Index>(n));
      EXPECT_NEAR(v.norm(), 1.0, 1e-12);
      const Eigen::VectorXd r = Eigen::Map<const Eigen::MatrixXd>(K.data(), n, n) * v - e.values[i] * v;
      EXPECT_LT(r.norm(), 1e-8 * es.eigenvalues().maxCoeff()) << "n " << n << " pair " << i;
    }
  }
}

TEST(TopEigenpairs, ZeroMatrixHasZeroValues) {
  const std::vector<double> K(100 * 100, 0.0);
  const Eigenpairs e = top_eigenpairs(K.data(), 100, 5);
  ASSERT_EQ(e.values.size(), 5u);
  for (double v : e.values) EXPECT_EQ(v, 0.0);
}

TEST(Nogd, ZeroKernelMatrixGoesOn) {
  Dataset d;  // all-zero rows under the linear kernel: every kernel value is 0
  for (int t = 0; t < 40; ++t) d.push_dense(std::vector<double>{0.0, 0.0}, t % 2 ? 1.0 : -1.0);
  d.dim = 2;
  LearnerOptions o;
  o.dim = 2;
  o.own["budget"] = 5;
  const auto L = test_util::configured_learner("nogd", o);
  const auto R = test_util::records(*L, d);
  for (const auto& r : R) {
    EXPECT_EQ(r.score, 0.0);
    EXPECT_TRUE(r.mistake);
  }
  EXPECT_EQ(L->support_size(), 5u);
  EXPECT_EQ(L->norm2(), 0.0);
}

TEST(Nogd, ExpansionFormedWhenReadScoresAsTheMap) {
  Rng rng(test_util::test_seed(11));
  const Dataset d = test_util::noisy_sequence(rng, 400, 4, 0.1);
  LearnerOptions o;
  o.dim = 4;
  o.kernel = Kernel::rbf(0.5);
  o.own["budget"] = 80;
  o.own["rank"] = 6;
  const auto L = test_util::configured_learner("nogd", o);
  test_util::records(*L, d);
  const KernelExpansion& f = *L->expansion();
  for (std::size_t t = 0; t < 50; ++t) {
    const double map = L->score(d[t]);
    const double expansion = f.score(d[t]);
    EXPECT_NEAR(map, expansion, 1e-9 * (1.0 + std::abs(map))) << "row " << t;
  }
  EXPECT_NEAR(L->norm2_exact(), L->norm2(), 1e-8 * (1.0 + L->norm2()));
}

}  // namespace
}  // namespace plab
