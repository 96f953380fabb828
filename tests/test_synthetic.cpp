// Synthetic generators: determinism, values pinned by an independent Python reimplementation,
// and the exact properties each generator promises (synthetic.hpp, docs/conventions.md#synthetic).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/random.hpp"
#include "datasets/registry.hpp"
#include "datasets/synthetic.hpp"

using namespace plab;

namespace {

std::vector<double> dense(const Dataset& d, std::size_t t, std::size_t dim) {
  std::vector<double> x(dim, 0.0);
  const Example e = d[t];
  for (std::size_t k = 0; k < e.idx.size(); ++k) x[e.idx[k]] = e.val[k];
  return x;
}

bool identical(const Dataset& a, const Dataset& b) {
  return a.rowptr == b.rowptr && a.idx == b.idx && a.val == b.val && a.y == b.y && a.dim == b.dim;
}

struct Row { std::vector<double> x; double y; };

// Relative 1e-12: the reference uses the same libm and no FMA; this leaves room for either.
void expect_rows(const Dataset& d, std::size_t dim, const std::vector<Row>& want, std::size_t first = 0) {
  for (std::size_t t = 0; t < want.size(); ++t) {
    const auto x = dense(d, first + t, dim);
    for (std::size_t k = 0; k < dim; ++k)
      EXPECT_NEAR(x[k], want[t].x[k], 1e-12 * std::max(1.0, std::abs(want[t].x[k]))) << "row " << first + t;
    EXPECT_EQ(d.y[first + t], want[t].y) << "row " << first + t;
  }
}

template <class F>
std::string invalid_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return "";
}

}  // namespace

// ---- pinned values ----
// Every number below was printed by `python3 tests/tools/synthetic_reference.py`, an independent
// standard-library implementation of mt19937_64, plab::Rng's transforms and the documented draw
// order (the script asserts the standard's mt19937_64 check value 9981545732273789042 first).

TEST(SyntheticPinned, Rng) {
  Rng r(42);
  EXPECT_EQ(r.bits(), 13930160852258120406ull);
  EXPECT_DOUBLE_EQ(r.uniform(), 0.6390313938546974);
  EXPECT_NEAR(r.normal(), 0.4945838562352136, 1e-15);
  EXPECT_NEAR(r.normal(), 0.5701215522073741, 1e-15);
  EXPECT_EQ(r.below(10), 1u);
}

TEST(SyntheticPinned, Dekel) {
  expect_rows(make_dekel(100, 0.1, 42), 2,
              {{{-1.2668029150144364, -0.7987894714535836}, -1.0},
               {{-1.5150099918429403, -0.045984864627370614}, -1.0},
               {{-0.4522696248445637, -2.642792610223113}, -1.0}});
}

TEST(SyntheticPinned, Dogma) {
  std::vector<double> w;
  const Dataset d = make_dogma_demo(100, 42, &w);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], -0.481217699801845, 1e-15);
  EXPECT_NEAR(w[1], -0.5745368738983058, 1e-15);
  expect_rows(d, 2,
              {{{0.4945838562352136, 0.5701215522073741}, -1.0},
               {{0.3745542688498138, 0.25135417655083503}, -1.0},
               {{-0.7344560350419193, 0.7542147983814694}, -1.0}});
}

TEST(SyntheticPinned, Separable) {
  std::vector<double> u;
  const Dataset d = make_separable(50, 3, 0.1, 1.0, 42, &u);
  ASSERT_EQ(u.size(), 3u);
  EXPECT_NEAR(u[0], -0.5359196113675206, 1e-14);
  EXPECT_NEAR(u[1], -0.6398467435896042, 1e-14);
  EXPECT_NEAR(u[2], 0.5508051514550902, 1e-14);
  expect_rows(d, 3,
              {{{-0.13513868947745097, -0.3574284752420281, 0.5736880872798463}, 1.0},
               {{-0.5641001587393601, 0.10912611553772383, 0.6151843006645776}, 1.0},
               {{-0.13584011929031417, -0.14691581031184542, -0.04480762571656623}, 1.0}});
  // The reference puts the margin point at j = 31.
  double m = 0.0;
  for (std::size_t k = 0; k < 3; ++k) m += u[k] * dense(d, 31, 3)[k];
  EXPECT_NEAR(d.y[31] * m, 0.1, 1e-12);
}

TEST(SyntheticPinned, Checkerboard) {
  expect_rows(make_checkerboard(20, 4, 0.2, 42), 2,
              {{{0.755155532954539, 0.6390313938546974}, -1.0},
               {{0.13627268363243705, 0.9032689664283783}, 1.0},
               {{0.5745703041082639, 0.37288769945618483}, -1.0}});
}

TEST(SyntheticPinned, Drift) {
  const Dataset d = make_drift(30, 3, 10, 0.1, 42);
  expect_rows(d, 3,
              {{{0.5701215522073741, 0.3745542688498138, 0.25135417655083503}, -1.0},
               {{-0.20991122290633327, 1.3888460085719674, 1.3676476287520198}, -1.0},
               {{0.10662265251349373, -0.5653113634843493, -0.6605331350802126}, -1.0}});
  expect_rows(d, 3, {{{-0.8867999308053678, 0.7923195580176393, -0.7772891718896902}, 1.0}}, 10);
}

TEST(SyntheticPinned, Sparse) {
  const Dataset d = make_sparse(4, 1000, 5, 0.3, 42);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d.dim, 1000u);
  ASSERT_EQ(d.truth.size(), 1000u);
  EXPECT_NEAR(d.truth[0], -0.015536950819425329, 1e-15);
  EXPECT_NEAR(d.truth[999], 0.0592009390383727, 1e-15);
  const std::vector<std::vector<uint32_t>> idx = {
      {195, 413, 441, 554, 798}, {90, 441, 735, 767, 867}, {91, 128, 287, 557, 969}, {88, 233, 634, 758, 787}};
  const std::vector<std::vector<double>> val = {
      {0.46299788909151995, 0.527123929487601, 0.5552846951048961, 0.24152150891776697, 0.37563224804414075},
      {0.467500765436108, 0.4562245112676166, 0.2692476709364094, 0.2658207084755447, 0.6558561368746624},
      {0.16654471057159928, 0.6145877060088096, 0.18571956142026216, 0.7165918196855043, 0.21575268125595673},
      {0.30091900518685033, 0.39767044331585183, 0.3206316089876462, 0.3512436117689407, 0.7246580347583493}};
  const std::vector<double> y = {-1.0, 1.0, 1.0, 1.0};
  for (std::size_t t = 0; t < 4; ++t) {
    const Example x = d[t];
    ASSERT_EQ(std::vector<uint32_t>(x.idx.begin(), x.idx.end()), idx[t]) << "row " << t;
    for (std::size_t k = 0; k < 5; ++k) EXPECT_NEAR(x.val[k], val[t][k], 1e-15) << "row " << t;
    EXPECT_EQ(d.y[t], y[t]) << "row " << t;
  }
}

// ---- determinism ----

TEST(Synthetic, SameSeedSameBytesDifferentSeedDiffers) {
  for (const std::string spec : {"dekel:n=500", "dogma:n=500", "separable:n=300,d=4", "xor:n=300,flip=0.1",
                                  "checkerboard:n=300,cells=5", "drift:n=300,K=50,flip=0.05",
                                  "sparse:n=200,d=5000,nnz=40,flip=0.1"}) {
    const Dataset a = make_synthetic(spec + ",seed=7"), b = make_synthetic(spec + ",seed=7");
    const Dataset c = make_synthetic(spec + ",seed=8");
    EXPECT_TRUE(identical(a, b)) << spec;
    EXPECT_FALSE(identical(a, c)) << spec;
  }
}

// ---- properties ----

TEST(Synthetic, SeparableExactMarginAndRadius) {
  for (const std::size_t d : {1u, 2u, 10u}) {
    std::vector<double> u;
    const double rho = 0.05, r = 2.5;
    const Dataset ds = make_separable(2000, d, rho, r, 123 + d, &u);
    ASSERT_EQ(ds.size(), 2000u);
    double minm = INFINITY, maxr = 0.0;
    for (std::size_t t = 0; t < ds.size(); ++t) {
      const auto x = dense(ds, t, d);
      double m = 0.0;
      for (std::size_t k = 0; k < d; ++k) m += u[k] * x[k];
      minm = std::min(minm, ds.y[t] * m);
      maxr = std::max(maxr, std::sqrt(ds[t].sqnorm));
    }
    EXPECT_NEAR(minm, rho, 1e-12) << "d=" << d;
    EXPECT_LE(maxr, r * (1 + 1e-12)) << "d=" << d;
  }
}

TEST(Synthetic, DogmaFlipsExactlyOneTenth) {
  std::vector<double> w;
  const Dataset d = make_dogma_demo(20000, 5, &w);
  ASSERT_EQ(d.size(), 20000u);
  std::size_t flipped = 0;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const auto x = dense(d, t, 2);
    flipped += (w[0] * x[0] + w[1] * x[1] > 0.0 ? 1.0 : -1.0) != d.y[t];
  }
  EXPECT_EQ(flipped, 2000u);
  EXPECT_EQ(make_synthetic("dogma").size(), 20000u);  // default n
}

TEST(Synthetic, DekelBalanceAndFlipRate) {
  // flip = 0 and flip = 0.1 draw the same random numbers, so they differ exactly on the flips.
  const Dataset clean = make_dekel(10000, 0.0, 9), noisy = make_dekel(10000, 0.1, 9);
  ASSERT_EQ(clean.size(), 10000u);
  EXPECT_EQ(std::count(clean.y.begin(), clean.y.end(), 1.0), 5000);
  EXPECT_EQ(clean.val, noisy.val);
  std::size_t diff = 0;
  double mean_pos = 0.0, var_pos1 = 0.0;
  for (std::size_t t = 0; t < 10000; ++t) {
    diff += clean.y[t] != noisy.y[t];
    if (clean.y[t] > 0) { const auto x = dense(clean, t, 2); mean_pos += x[0]; var_pos1 += (x[1] - 1) * (x[1] - 1); }
  }
  EXPECT_NEAR(diff / 10000.0, 0.1, 0.012);       // ~4 standard deviations (0.003)
  EXPECT_NEAR(mean_pos / 5000, 1.0, 0.03);        // mean (1, 1): sd of the mean sqrt(0.2/5000)
  EXPECT_NEAR(var_pos1 / 5000, 2.0, 0.2);         // variance 2 in the second coordinate
  const Dataset def = make_synthetic("dekel");
  EXPECT_EQ(def.size(), 10000u);
  EXPECT_TRUE(identical(make_synthetic("dekel:n=100,seed=42"), make_dekel(100, 0.1, 42)));
}

TEST(Synthetic, XorAndCheckerboardLabelsFollowCells) {
  const Dataset d = make_synthetic("checkerboard:n=2000,cells=3,seed=4");
  EXPECT_EQ(d.size(), 2000u);
  for (std::size_t t = 0; t < d.size(); ++t) {
    const auto x = dense(d, t, 2);
    const int c = static_cast<int>(std::floor(3 * x[0])) + static_cast<int>(std::floor(3 * x[1]));
    ASSERT_EQ(d.y[t], c % 2 == 0 ? 1.0 : -1.0);
  }
  EXPECT_EQ(make_synthetic("xor").size(), 1000u);
}

TEST(Synthetic, DriftRedrawsTarget) {
  const Dataset d = make_synthetic("drift:n=3000,d=5,K=1000,seed=2");
  EXPECT_EQ(d.size(), 3000u);
  EXPECT_EQ(d.dim, 5u);
}

// Every row has exactly nnz distinct ascending features below d and unit norm; with flip = 0 the
// label is the sign of <truth, x>; flip changes labels only (same draws), at about its rate.
TEST(Synthetic, SparseRowsAndLabels) {
  const Dataset clean = make_synthetic("sparse:n=3000,d=200000,nnz=30,seed=5");
  const Dataset noisy = make_synthetic("sparse:n=3000,d=200000,nnz=30,seed=5,flip=0.2");
  ASSERT_EQ(clean.size(), 3000u);
  EXPECT_EQ(clean.dim, 200000u);
  EXPECT_EQ(clean.idx, noisy.idx);
  EXPECT_EQ(clean.val, noisy.val);
  std::size_t flipped = 0, pos = 0;
  for (std::size_t t = 0; t < clean.size(); ++t) {
    const Example x = clean[t];
    ASSERT_EQ(x.idx.size(), 30u);
    for (std::size_t k = 1; k < x.idx.size(); ++k) ASSERT_LT(x.idx[k - 1], x.idx[k]);
    ASSERT_LT(x.idx.back(), 200000u);
    EXPECT_NEAR(x.sqnorm, 1.0, 1e-14);
    double m = 0.0;
    for (std::size_t k = 0; k < x.idx.size(); ++k) m += clean.truth[x.idx[k]] * x.val[k];
    ASSERT_EQ(clean.y[t], m > 0.0 ? 1.0 : -1.0) << "row " << t;
    flipped += clean.y[t] != noisy.y[t];
    pos += clean.y[t] > 0;
  }
  EXPECT_NEAR(flipped / 3000.0, 0.2, 0.03);  // ~4 standard deviations (0.0073)
  EXPECT_NEAR(pos / 3000.0, 0.5, 0.04);
  // nnz = d: every feature, in order.
  const Dataset full = make_sparse(3, 7, 7, 0.0, 1);
  for (std::size_t t = 0; t < 3; ++t) EXPECT_EQ(full[t].idx.size(), 7u);
}

TEST(Synthetic, BadSpecsNameTheOption) {
  EXPECT_NE(invalid_of([] { make_synthetic("sparse:d=10,nnz=11"); }).find("nnz must be in [1, d]"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("sparse:nnz=0"); }).find("nnz must be in [1, d]"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("sparse:d=0"); }).find("d must be in [1, 2^32]"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("sparse:d=4294967297"); }).find("d must be in"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("sparse:n=100000000,nnz=100"); }).find("n * nnz"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("dekel:d=3"); }).find("unknown key 'd'"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("dekel:n=abc"); }).find("n must be"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("dekel:n=0"); }).find("n must be >= 1"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("dekel:flip=1.5"); }).find("flip must be in [0, 1]"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("separable:rho=2,r=1"); }).find("rho"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("checkerboard:cells=1"); }).find("cells"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("drift:K=0"); }).find("K must be >= 1"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("spiral"); }).find("unknown generator 'spiral'"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("xor:n"); }).find("bad item 'n'"), std::string::npos);
  EXPECT_NE(invalid_of([] { make_synthetic("xor:seed=-1"); }).find("seed must be"), std::string::npos);
}
