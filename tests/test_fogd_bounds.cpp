// FOGD's bounds in its random-feature space (docs/bounds.md#fogd-comparator): the mapped
// comparator against an independent double sum of cosines over frequencies drawn here from the
// documented rule; the hard rows hold on random runs and the all-T row is the formula
// (eta D_1(u) + ||u|| ||w_{T+1}||)/eta written out again.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "algorithms/perceptron.hpp"
#include "algorithms/registry.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "core/random.hpp"
#include "numerics/fourier_features.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace fogd_bounds_test {

using test_util::noisy_sequence;

// The frequencies by the documented rule (learners.md#fogd): u_i[j] = sqrt(2 gamma) times the
// i-th normal of Rng(derive_seed(seed, j)).
std::vector<std::vector<double>> frequencies(double gamma, std::size_t D, std::size_t dim, uint64_t seed) {
  std::vector<std::vector<double>> U(D, std::vector<double>(dim));
  for (std::size_t j = 0; j < dim; ++j) {
    Rng rng(derive_seed(seed, j));
    for (std::size_t i = 0; i < D; ++i) U[i][j] = std::sqrt(2.0 * gamma) * rng.normal();
  }
  return U;
}

// (1/D) sum_i cos(u_i.(a - b)) for dense rows a, b: z(a).z(b)/D by cos(p - q) = cos p cos q + sin p sin q.
long double feature_kernel(const std::vector<std::vector<double>>& U, const std::vector<double>& a,
                           const std::vector<double>& b) {
  long double s = 0;
  for (const auto& u : U) {
    long double p = 0;
    for (std::size_t j = 0; j < a.size(); ++j) p += static_cast<long double>(u[j]) * (a[j] - b[j]);
    s += std::cos(p);
  }
  return s / static_cast<long double>(U.size());
}

std::vector<double> dense(const Example& x, std::size_t dim) {
  std::vector<double> v(dim, 0.0);
  for (std::size_t k = 0; k < x.idx.size(); ++k) v[x.idx[k]] = x.val[k];
  return v;
}

// The multipass comparator's expansion, by its definition: 5 kernel Perceptron passes in row order.
KernelExpansion multipass_expansion(const Dataset& data, const Kernel& k) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = data.dim;
  KernelPerceptron p(o);
  for (int e = 0; e < 5; ++e)
    for (std::size_t t = 0; t < data.size(); ++t) p.learn(data[t], static_cast<int64_t>(t + 1));
  return *p.expansion();
}

// The multipass comparator mapped: u0 = sum_i beta_i z(s_i)/D, so u0.z(x) = sum_i beta_i z(s_i).z(x)/D
// and ||u0||^2 = sum_ik beta_i beta_k z(s_i).z(s_k)/D^2, each z.z/D a sum of cosines.
TEST(FogdBounds, FeatureComparatorIsTheMappedExpansion) {
  for (uint64_t seed : {3u, 17u, 40u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    const Dataset data = noisy_sequence(rng, 40, 3, 0.2);
    const Kernel k = Kernel::rbf(0.7);
    const std::size_t D = 25;
    std::vector<std::size_t> order(data.size());
    std::iota(order.begin(), order.end(), 0);
    const FourierFeatures z(k.gamma, D, seed);
    const Comparator c = make_feature_comparator("multipass", data, order, k, z);
    EXPECT_EQ(c.name, "multipass in FOGD's features");
    const KernelExpansion f = multipass_expansion(data, k);
    ASSERT_GT(f.size(), 0u);
    const auto U = frequencies(k.gamma, D, data.dim, seed);
    std::vector<std::vector<double>> S;
    for (std::size_t i = 0; i < f.size(); ++i) S.push_back(dense(f.sv.row(i), data.dim));
    long double n2 = 0, scale = 0;
    for (std::size_t i = 0; i < S.size(); ++i)
      for (std::size_t j = 0; j < S.size(); ++j) {
        const long double v = static_cast<long double>(f.alpha[i]) * f.alpha[j] * feature_kernel(U, S[i], S[j]) / D;
        n2 += v;
        scale += std::abs(v);
      }
    EXPECT_NEAR(c.norm, std::sqrt(static_cast<double>(n2)), 1e-9 * (1 + std::sqrt(static_cast<double>(scale))));
    ASSERT_EQ(c.scores.size(), data.size());
    for (std::size_t t = 0; t < data.size(); ++t) {
      const auto x = dense(data[t], data.dim);
      long double s = 0, a = 0;
      for (std::size_t i = 0; i < S.size(); ++i) {
        const long double v = f.alpha[i] * feature_kernel(U, S[i], x);
        s += v;
        a += std::abs(v);
      }
      EXPECT_NEAR(c.scores[t], static_cast<double>(s), 1e-9 * (1 + static_cast<double>(a))) << "round " << t + 1;
    }
  }
}

// With many frequencies the mapped comparator follows the kernel one (z.z/D -> k): a sanity check of
// the scaling, not a bound input. D = 20000: the deviation of each z.z/D is about 1/sqrt(2D) = 0.005.
TEST(FogdBounds, FeatureComparatorFollowsTheKernelComparatorAsDGrows) {
  Rng rng(5);
  const Dataset data = noisy_sequence(rng, 30, 2, 0.1);
  const Kernel k = Kernel::rbf(1.0);
  std::vector<std::size_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  const Comparator g = make_comparator("multipass", data, order, k);
  const FourierFeatures z(k.gamma, 20000, 9);
  const Comparator u = make_feature_comparator("multipass", data, order, k, z);
  double beta1 = 0;  // sum |beta|, what the deviation is scaled by
  for (double a : multipass_expansion(data, k).alpha) beta1 += std::abs(a);
  for (std::size_t t = 0; t < data.size(); ++t) EXPECT_NEAR(u.scores[t], g.scores[t], 0.05 * beta1);
  EXPECT_NEAR(u.norm, g.norm, 0.05 * beta1);
}

TEST(FogdBounds, RefusesComparatorsOutsideTheGaussianKernelSpace) {
  Rng rng(1);
  const Dataset data = noisy_sequence(rng, 10, 2, 0.0);
  std::vector<std::size_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  const FourierFeatures z(1.0, 4, 1);
  EXPECT_THROW(make_feature_comparator("truth", data, order, Kernel::rbf(1.0), z), std::invalid_argument);
  EXPECT_THROW(make_feature_comparator("svm", data, order, Kernel::linear(), z), std::invalid_argument);
  const Comparator zero = make_feature_comparator("zero", data, order, Kernel::rbf(1.0), z);
  EXPECT_EQ(zero.norm, 0.0);
}

// Every hard row holds on random FOGD runs, and budget_ogd_all_t is (eta D_1(s) + s ||w_{T+1}||)/eta
// at its reported c (a_t = eta on every step, delta_t = 0) and no higher than on a grid of s.
RC_GTEST_PROP(FogdBounds, RowsHoldInTheFeatureSpace, ()) {
  Rng rng(*rc::gen::arbitrary<uint64_t>());
  const int T = *rc::gen::inRange(10, 80), d = *rc::gen::inRange(1, 4);
  const Dataset data = noisy_sequence(rng, T, d, *rc::gen::inRange(0, 30) / 100.0);
  LearnerOptions o;
  o.dim = data.dim;
  o.kernel = Kernel::rbf(*rc::gen::inRange(2, 40) / 10.0);
  const auto D = static_cast<std::size_t>(*rc::gen::inRange(1, 40));
  const double eta = *rc::gen::inRange(5, 150) / 100.0;
  o.own = {{"features", D}, {"eta", eta}};
  const uint64_t seed = rng.bits();
  o.own["seed"] = seed;
  std::vector<std::size_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  const FourierFeatures z(o.kernel.gamma, D, seed);
  const Comparator cmp = make_feature_comparator(*rc::gen::element<std::string>("svm", "multipass"), data, order,
                                                 o.kernel, z, 1.0, 7);
  const auto L = test_util::configured_learner("fogd", o);
  std::vector<RoundRecord> R;
  std::size_t M = 0;
  for (std::size_t t = 0; t < data.size(); ++t) {
    RoundRecord r = L->learn(data[t], static_cast<int64_t>(t + 1));
    r.g = cmp.scores[t];
    RC_ASSERT(std::isnan(r.tau) == !(r.y * r.score < 1.0));  // a step exactly on the hinge-loss rounds
    if (!std::isnan(r.tau)) RC_ASSERT(r.tau == eta && r.delta_norm == 0.0);
    M += r.mistake;
    R.push_back(r);
  }
  RunFacts f;
  f.algo = "fogd"; f.options = o; f.comparator = cmp.name; f.g_norm = cmp.norm;
  f.f_norm2_exact = L->norm2_exact();
  const auto res = evaluate_bounds(R, f);
  const BoundResult* all_t = nullptr;
  for (const auto& b : res) {
    if (b.applicable && b.hard && !b.holds) RC_FAIL("hard bound violated: " + b.id + " " + b.note);
    if (b.id == "budget_ogd_all_t") all_t = &b;
  }
  RC_ASSERT(all_t != nullptr);
  if (M == 0) return;
  RC_ASSERT(all_t->applicable);
  const double w = std::sqrt(L->norm2_exact());
  const auto bound = [&](double s) {
    long double l = 0;
    for (const auto& r : R) {
      const double m = cmp.norm > 0 ? r.y * r.g / cmp.norm : 0.0;
      l += std::max(0.0L, 1.0L - static_cast<long double>(m) * s);
    }
    return (eta * l + s * static_cast<long double>(w)) / eta;
  };
  const long double ref = bound(cmp.norm > 0 ? all_t->param * cmp.norm : 0.0);
  RC_ASSERT(std::abs(static_cast<long double>(all_t->value) - ref) <= 1e-9L * (1 + ref));
  for (int i = 0; i <= 400; ++i) {
    const double s = 1e-4 * std::pow(1e6, i / 400.0);
    RC_ASSERT(all_t->value <= bound(s) * (1 + 1e-9L) + 1e-9L);
  }
}

}  // namespace fogd_bounds_test
}  // namespace plab
