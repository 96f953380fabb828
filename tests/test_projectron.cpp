// Projectron, Projectron++ and the ICML per-round eta_t (algorithms/projectron.hpp).
// Fixed numbers come from docs/bounds.md#fixture-p / docs/bounds.md#fixture-pp (independent
// python3) and from tests/tools/projectron_reference.py (DOGMA convention cases); none from the
// code under test.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <span>
#include <vector>

#include "tests/test_util.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/projectron.hpp"
#include "core/random.hpp"
#include "datasets/readers.hpp"

using namespace plab;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// docs/bounds.md#fixture-p: x in R, sigma = 1 -> k = exp(-(x-x')^2 / 2) = rbf(gamma = 0.5).
Dataset fixture_seq() {
  Dataset d;
  const double xs[] = {0.0, 0.3, 2.0, 0.15, 1.0, 0.2, 2.1, 0.35};
  const double ys[] = {+1, -1, +1, +1, -1, +1, +1, -1};
  for (int i = 0; i < 8; ++i) d.push_dense(std::vector<double>{xs[i]}, ys[i]);
  d.dim = 1;
  return d;
}

LearnerOptions fixture_opts(double eta, EtaConvention c = EtaConvention::paper, double U = 0.0) {
  LearnerOptions o;
  o.kernel = Kernel::rbf(0.5);
  o.dim = 1;
  o.own["eta"] = eta;
  o.own["eta_convention"] = c;
  o.own["U"] = U;
  return o;
}

std::vector<RoundRecord> run(Learner& l, const Dataset& d) { return test_util::records(l, d); }

// One expected trace row; NaN = the field must be unset (NaN) in the record.
struct Row {
  double s;
  UpdateKind kind;
  double dl, pk2, tau;
  int S;
};

void check_trace(const std::vector<RoundRecord>& got, const std::vector<Row>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("round " + std::to_string(i + 1));
    const RoundRecord& r = got[i];
    const Row& w = want[i];
    EXPECT_NEAR(r.score, w.s, tol);
    EXPECT_EQ(to_string(r.update), to_string(w.kind));
    EXPECT_EQ(r.support_size, w.S);
    EXPECT_EQ(r.mistake, r.y * r.score <= 0.0);
    EXPECT_EQ(r.margin_error, r.y * r.score > 0.0 && r.y * r.score < 1.0);
    auto near_or_nan = [&](double a, double b, const char* what) {
      if (std::isnan(b)) {
        EXPECT_TRUE(std::isnan(a)) << what << " should be unset, is " << a;
      } else {
        EXPECT_NEAR(a, b, tol) << what;
      }
    };
    near_or_nan(r.delta_norm, w.dl, "||delta||");
    near_or_nan(r.pk2, w.pk2, "||Pk||^2");
    near_or_nan(r.tau, w.tau, "tau");
    // ||Pk||^2 = k(x,x) - ||delta||^2 (docs/bounds.md#round-log).
    if (!std::isnan(w.dl)) {
      EXPECT_NEAR(r.pk2 + r.delta_norm * r.delta_norm, r.kxx, 1e-12);
    }
  }
}

// Support values of a 1-D expansion (x = 0 is stored as an empty sparse row).
std::vector<double> support_x(const ProjectronBase& p) {
  std::vector<double> v;
  for (std::size_t i = 0; i < p.supports().size(); ++i) {
    const Example e = p.supports().row(i);
    v.push_back(e.idx.empty() ? 0.0 : e.val[0]);
  }
  return v;
}

std::vector<double> dense(const Eigen::MatrixXd& m) {  // row-major copy
  std::vector<double> v;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) v.push_back(m(i, j));
  return v;
}

void expect_vec_near(std::span<const double> a, const std::vector<double>& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol) << "entry " << i;
}

// Dense Gram matrix of the support set with Eigen, then ||K Kinv - I||_F with Kinv formed from
// the learner's Cholesky factor (the Frobenius norm bounds the spectral norm).
double gram_inverse_error(const ProjectronBase& p) {
  const SupportSet& sv = p.supports();
  const Kernel k = p.expansion()->kernel;
  const auto n = static_cast<Eigen::Index>(sv.size());
  Eigen::MatrixXd K(n, n), Ki(n, n);
  std::vector<Example> rows;
  for (Eigen::Index i = 0; i < n; ++i) rows.push_back(sv.row(static_cast<std::size_t>(i)));
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j <= i; ++j) K(i, j) = K(j, i) = k(rows[i], rows[j]);
  EXPECT_EQ(p.chol().size(), sv.size());
  Ki = p.chol().inverse();  // K^{-1} = L^{-T} L^{-1} formed from the learner's factor
  return (K * Ki - Eigen::MatrixXd::Identity(n, n)).norm();
}

// Dense Gram matrix of the support set.
Eigen::MatrixXd gram(const ProjectronBase& p) {
  const SupportSet& sv = p.supports();
  const Kernel k = p.expansion()->kernel;
  const auto n = static_cast<Eigen::Index>(sv.size());
  Eigen::MatrixXd K(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j <= i; ++j)
      K(i, j) = K(j, i) = k(sv.row(static_cast<std::size_t>(i)), sv.row(static_cast<std::size_t>(j)));
  return K;
}

// 2-norm condition number of the support Gram matrix (small sets only).
double gram_condition(const ProjectronBase& p) {
  const Eigen::MatrixXd K = gram(p);
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K, Eigen::EigenvaluesOnly).eigenvalues();
  return ev.maxCoeff() / ev.minCoeff();
}

}  // namespace

// ---------------------------------------------------------------- fixtures (docs/bounds.md#fixtures)

TEST(ProjectronFixture, P_TraceAndFinalState) {  // docs/bounds.md#fixture-p, eta = 0.6 paper convention
  Projectron p(fixture_opts(0.6));
  const auto rec = run(p, fixture_seq());
  using K = UpdateKind;
  check_trace(rec, {{0.000000, K::add, 1.000000, 0.0, 1, 1},
                    {+0.955997, K::project, 0.293375, 0.913931, 1, 1},
                    {+0.005955, K::none, kNaN, kNaN, kNaN, 1},
                    {+0.043510, K::none, kNaN, kNaN, kNaN, 1},
                    {+0.026689, K::add, 0.795060, 0.367879, 1, 2},
                    {-0.683018, K::project, 0.108633, 0.988199, 1, 2},
                    {-0.333370, K::add, 0.790294, 0.375435, 1, 3},
                    {+0.419829, K::project, 0.131609, 0.982679, 1, 3}},
              1e-6);
  EXPECT_TRUE(rec[2].margin_error);  // logged even though the Projectron ignores it
  int M = 0;
  for (const auto& r : rec) M += r.mistake;
  EXPECT_EQ(M, 6);
  expect_vec_near(support_x(p), {0.0, 1.0, 2.1}, 1e-15);
  expect_vec_near(p.expansion()->alpha, {0.225148, -1.253338, 1.109959}, 1e-6);
  EXPECT_NEAR(std::sqrt(p.norm2()), 1.023233, 1e-6);
  EXPECT_NEAR(std::sqrt(p.norm2_exact()), 1.023233, 1e-6);
  expect_vec_near(dense(p.chol().inverse()),
                  {1.777614, -1.383802, 0.559676, -1.383802, 2.502137, -1.213788, 0.559676,
                   -1.213788, 1.601114},
                  1e-6);
  EXPECT_LT(gram_inverse_error(p), 1e-9);
  // docs/bounds.md#projectron_certificate: ||f_T||^2 = sum over mistakes of (||q_t||^2 + 2 y s),
  // q = Pk or k.
  double s = 0.0;
  for (const auto& r : rec)
    if (r.mistake) s += (r.update == UpdateKind::add ? r.kxx : r.pk2) + 2.0 * r.y * r.score;
  EXPECT_NEAR(s, p.norm2_exact(), 1e-12);
}

TEST(ProjectronFixture, PP_TraceAndFinalState) {  // docs/bounds.md#fixture-pp, eta = 0.6 paper convention
  ProjectronPP p(fixture_opts(0.6));
  const auto rec = run(p, fixture_seq());
  using K = UpdateKind;
  check_trace(rec, {{0.000000, K::add, 1.000000, 0.0, 1, 1},
                    {+0.955997, K::project, 0.293375, 0.913931, 1, 1},
                    {+0.005955, K::margin_skip, 0.990800, 0.018316, 0, 1},
                    {+0.043510, K::margin_project, 0.149160, 0.977751, 0.978255, 1},
                    {+0.613393, K::add, 0.795060, 0.367879, 1, 2},
                    {+0.265139, K::margin_project, 0.108633, 0.988199, 0.743637, 2},
                    {-0.280009, K::add, 0.790294, 0.375435, 1, 3},
                    {+1.080549, K::project, 0.131609, 0.982679, 1, 3}},
              1e-6);
  int M = 0;
  double B = 0.0;  // JMLR Thm 4 beta_t = tau (2 l - tau pk2 - 2 ||delta||/eta)
  for (const auto& r : rec) {
    M += r.mistake;
    if (r.update == UpdateKind::margin_project)
      B += r.tau * (2.0 * (1.0 - r.y * r.score) - r.tau * r.pk2 - 2.0 * r.delta_norm / 0.6);
  }
  EXPECT_EQ(M, 5);
  EXPECT_NEAR(B, 0.726493, 1e-6);
  expect_vec_near(support_x(p), {0.0, 1.0, 2.1}, 1e-15);
  expect_vec_near(p.expansion()->alpha, {0.973550, -1.306722, 1.109959}, 1e-6);
  EXPECT_NEAR(std::sqrt(p.norm2()), 0.999168, 1e-6);
  EXPECT_NEAR(std::sqrt(p.norm2_exact()), 0.999168, 1e-6);
}

TEST(ProjectronFixture, IcmlCorollary1EtaT) {  // docs/bounds.md#fixture-p end: U = 1, ICML Eq. (13)
  Projectron p(fixture_opts(0.6, EtaConvention::paper, 1.0));
  const auto rec = run(p, fixture_seq());
  const std::vector<double> want = {0.75, 1.249032, 0.592749, 0.938918, 0.895652, 0.750941};
  const std::vector<UpdateKind> kinds = {UpdateKind::add, UpdateKind::project, UpdateKind::add,
                                         UpdateKind::project, UpdateKind::project,
                                         UpdateKind::project};
  std::size_t m = 0;
  for (const auto& r : rec) {
    SCOPED_TRACE("round " + std::to_string(r.t));
    if (!r.mistake) {
      EXPECT_TRUE(std::isnan(r.eta_t));
      continue;
    }
    ASSERT_LT(m, want.size());
    EXPECT_NEAR(r.eta_t, want[m], 1e-6);
    EXPECT_EQ(to_string(r.update), to_string(kinds[m]));
    ++m;
  }
  EXPECT_EQ(m, 6u);  // M = 6
  // Independent values (tests/tools/projectron_reference.py): S = {0, 1}.
  expect_vec_near(support_x(p), {0.0, 1.0}, 1e-15);
  expect_vec_near(p.expansion()->alpha, {-0.162843112, -0.411889968}, 1e-8);
  EXPECT_NEAR(std::sqrt(p.norm2()), 0.526816311, 1e-8);
}

// ------------------------------------------------ DOGMA convention (projectron_reference.py)

TEST(ProjectronConvention, PaperAndDogmaDifferOnMistakeRule) {
  using K = UpdateKind;
  {  // paper eta = 0.2: round 2 (||delta|| = 0.293 > 0.2) adds.
    Projectron p(fixture_opts(0.2));
    check_trace(run(p, fixture_seq()),
                {{0.0, K::add, 1.0, 0.0, 1, 1},
                 {0.955997482, K::add, 0.293374871, 0.913931185, 1, 2},
                 {-0.100410793, K::add, 0.922081814, 0.149765129, 1, 3},
                 {0.180639852, K::none, kNaN, kNaN, kNaN, 3},
                 {0.430356781, K::add, 0.256596320, 0.934158329, 1, 4},
                 {-0.543064144, K::project, 0.004947150, 0.999975526, 1, 4},
                 {0.525921516, K::none, kNaN, kNaN, kNaN, 4},
                 {0.377435693, K::project, 0.003417022, 0.999988324, 1, 4}},
                1e-8);
    expect_vec_near(p.expansion()->alpha, {1.379154899, -1.304852263, 1.011819067, -1.081951060}, 1e-8);
    expect_vec_near(dense(p.chol().inverse()),
                    {38.967066889, -51.604458615, -5.175111109, 19.895186719, -51.604458615,
                     71.707071664, 8.126345861, -29.754642003, -5.175111109, 8.126345861,
                     2.750518205, -4.889937851, 19.895186719, -29.754642003, -4.889937851,
                     15.187949834},
                    1e-7);
  }
  {  // DOGMA eta = 0.2: round 2 (||delta||^2 = 0.086 <= 0.2) projects.
    Projectron p(fixture_opts(0.2, EtaConvention::dogma));
    check_trace(run(p, fixture_seq()),
                {{0.0, K::add, 1.0, 0.0, 1, 1},
                 {0.955997482, K::project, 0.293374871, 0.913931185, 1, 1},
                 {0.005955093, K::none, kNaN, kNaN, kNaN, 1},
                 {0.043510264, K::none, kNaN, kNaN, kNaN, 1},
                 {0.026688876, K::add, 0.795060098, 0.367879441, 1, 2},
                 {-0.683017827, K::project, 0.108633047, 0.988198861, 1, 2},
                 {-0.333369502, K::add, 0.790294321, 0.375434886, 1, 3},
                 {0.419828526, K::project, 0.131608715, 0.982679146, 1, 3}},
                1e-8);
    EXPECT_NEAR(std::sqrt(p.norm2()), 1.023232508, 1e-8);
  }
}

TEST(ProjectronConvention, PaperAndDogmaDifferOnMarginRule) {
  using K = UpdateKind;
  const std::vector<Row> head = {{0.0, K::add, 1.0, 0.0, 1, 1},
                                 {0.955997482, K::add, 0.293374871, 0.913931185, 1, 2},
                                 {-0.100410793, K::add, 0.922081814, 0.149765129, 1, 3}};
  {  // paper eta = 0.01: l < ||delta||/eta on both margin errors -> skips.
    ProjectronPP p(fixture_opts(0.01));
    auto want = head;
    want.insert(want.end(), {{0.180639852, K::margin_skip, 0.014007877, 0.999803779, 0, 3},
                             {0.430356781, K::add, 0.256596320, 0.934158329, 1, 4},
                             {-0.543064144, K::project, 0.004947150, 0.999975526, 1, 4},
                             {0.525921516, K::margin_skip, 0.046289204, 0.997857310, 0, 4},
                             {0.377435693, K::project, 0.003417022, 0.999988324, 1, 4}});
    check_trace(run(p, fixture_seq()), want, 1e-8);
    EXPECT_NEAR(std::sqrt(p.norm2()), 1.088776407, 1e-8);
  }
  {  // DOGMA eta = 0.01: l - ||delta||^2/eta > 0 on all three; round 7's tau is the
     // 2(l - ||delta||^2/eta)/pk2 term.
    ProjectronPP p(fixture_opts(0.01, EtaConvention::dogma));
    auto want = head;
    want.insert(want.end(),
                {{0.180639852, K::margin_project, 0.014007877, 0.999803779, 0.819520955, 3},
                 {1.004070593, K::add, 0.256596320, 0.934158329, 1, 4},
                 {0.275291591, K::margin_project, 0.004947150, 0.999975526, 0.724726146, 4},
                 {0.602464466, K::margin_project, 0.046289204, 0.997857310, 0.367320046, 4},
                 {0.988044324, K::project, 0.003417022, 0.999988324, 1, 4}});
    check_trace(run(p, fixture_seq()), want, 1e-8);
    expect_vec_near(p.expansion()->alpha, {1.637841876, -0.969402739, 1.408861006, -1.167820564}, 1e-8);
    EXPECT_NEAR(std::sqrt(p.norm2()), 1.171310235, 1e-8);
    EXPECT_NEAR(std::sqrt(p.norm2_exact()), 1.171310235, 1e-8);
  }
  {  // paper eta = 0.02: round 4's tau is the 2(l - ||delta||/eta)/pk2 term.
    ProjectronPP p(fixture_opts(0.02));
    auto want = head;
    want.insert(want.end(),
                {{0.180639852, K::margin_project, 0.014007877, 0.999803779, 0.237979286, 3},
                 {0.596956552, K::add, 0.256596320, 0.934158329, 1, 4},
                 {-0.305423225, K::project, 0.004947150, 0.999975526, 1, 4},
                 {0.561308737, K::margin_skip, 0.046289204, 0.997857310, 0, 4},
                 {0.610736880, K::project, 0.003417022, 0.999988324, 1, 4}});
    check_trace(run(p, fixture_seq()), want, 1e-8);
    expect_vec_near(p.expansion()->alpha, {1.497424571, -1.182141992, 1.009873085, -1.081951060}, 1e-8);
    EXPECT_NEAR(std::sqrt(p.norm2()), 1.001755509, 1e-8);
  }
}

// Margin threshold "2eta" (docs/conventions.md#margin-threshold): the margin test and tau divide by
// 2 eta, the mistake test keeps eta. Expected traces: tests/tools/projectron_reference.py.
TEST(ProjectronConvention, MarginThreshold2Eta) {
  using K = UpdateKind;
  {  // paper eta = 0.6: round 3 (l = 0.994 < ||delta||/0.6 = 1.651, skipped at "eta") now updates.
    LearnerOptions o = fixture_opts(0.6);
    o.own["margin_threshold"] = "2eta";
    ProjectronPP p(o);
    check_trace(run(p, fixture_seq()), {{0.0, K::add, 1.0, 0.0, 1, 1},
                                        {0.955997482, K::project, 0.293374871, 0.913931185, 1, 1},
                                        {0.005955093, K::margin_project, 0.990799859, 0.018315639, 1, 1},
                                        {0.177331557, K::margin_project, 0.149160192, 0.977751237, 0.841388291, 1},
                                        {0.613392656, K::add, 0.795060098, 0.367879441, 1, 2},
                                        {0.265139133, K::margin_project, 0.108633047, 0.988198861, 0.743636626, 2},
                                        {-0.280009012, K::add, 0.790294321, 0.375434886, 1, 3},
                                        {1.080549428, K::project, 0.131608715, 0.982679146, 1, 3}},
                1e-8);
  }
  {  // DOGMA eta = 0.005: the margin steps are those of eta = 0.01 (PaperAndDogmaDifferOnMarginRule).
    LearnerOptions o = fixture_opts(0.005, EtaConvention::dogma);
    o.own["margin_threshold"] = "2eta";
    ProjectronPP p(o);
    check_trace(run(p, fixture_seq()), {{0.0, K::add, 1.0, 0.0, 1, 1},
                                        {0.955997482, K::add, 0.293374871, 0.913931185, 1, 2},
                                        {-0.100410793, K::add, 0.922081814, 0.149765129, 1, 3},
                                        {0.180639852, K::margin_project, 0.014007877, 0.999803779, 0.819520955, 3},
                                        {1.004070593, K::add, 0.256596320, 0.934158329, 1, 4},
                                        {0.275291591, K::margin_project, 0.004947150, 0.999975526, 0.724726146, 4},
                                        {0.602464466, K::margin_project, 0.046289204, 0.997857310, 0.367320046, 4},
                                        {0.988044324, K::project, 0.003417022, 0.999988324, 1, 4}},
                1e-8);
  }
}

// ---------------------------------------------------------------- parameters and factory

TEST(ProjectronParams, Validation) {
  for (const char* name : {"projectron", "projectron++"}) {
    LearnerOptions o = fixture_opts(-0.1);
    try {
      test_util::configured_learner(name, o);
      ADD_FAILURE() << name << ": negative eta accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--eta"), std::string::npos) << e.what();
    }
    o = fixture_opts(std::nan(""));
    EXPECT_THROW(test_util::configured_learner(name, o), std::invalid_argument);
    o = fixture_opts(0.1, EtaConvention::paper, -1.0);
    try {
      test_util::configured_learner(name, o);
      ADD_FAILURE() << name << ": negative U accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--U"), std::string::npos) << e.what();
    }
    EXPECT_NE(test_util::configured_learner(name, fixture_opts(0.0)), nullptr);  // eta = 0 is valid for both
  }
}

// Projectron++ with eta = 0 is defined as "no margin updates" (projectron.hpp): it then makes
// exactly the Projectron's (eta = 0) decisions.
TEST(ProjectronParams, PlusPlusEtaZeroHasNoMarginUpdates) {
  for (auto conv : {EtaConvention::paper, EtaConvention::dogma}) {
    Projectron a(fixture_opts(0.0, conv));
    ProjectronPP b(fixture_opts(0.0, conv));
    const auto ra = run(a, fixture_seq()), rb = run(b, fixture_seq());
    int skips = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
      EXPECT_EQ(ra[i].score, rb[i].score);
      if (rb[i].margin_error) {
        EXPECT_EQ(rb[i].update, UpdateKind::margin_skip);
        ++skips;
      } else {
        EXPECT_EQ(ra[i].update, rb[i].update);
      }
    }
    EXPECT_GT(skips, 0);
  }
}

// ---------------------------------------------------------- eta = 0 versus kernel Perceptron

namespace {
Dataset gaussian_points(std::size_t n, std::size_t dim, uint64_t seed, bool linear_labels) {
  Rng rng(seed);
  Dataset d;
  std::vector<double> w(dim), x(dim);
  for (auto& v : w) v = rng.normal();
  for (std::size_t t = 0; t < n; ++t) {
    double s = 0.0;
    for (std::size_t j = 0; j < dim; ++j) { x[j] = rng.normal(); s += w[j] * x[j]; }
    // Labels: a noisy halfspace (linear) or a noisy sphere (rbf), 10% flips, so mistakes go on.
    double y = linear_labels ? (s > 0 ? 1 : -1) : (s * s > static_cast<double>(dim) ? 1 : -1);
    if (rng.uniform() < 0.1) y = -y;
    d.push_dense(x, y);
  }
  d.dim = dim;
  return d;
}
}  // namespace

// General position: the Gaussian Gram matrix of distinct points is positive definite, so with
// eta = 0 every mistake adds (||delta||^2 stays above the guard) and the Projectron IS the kernel
// Perceptron: same supports, alpha = y, hence bit-identical scores on every round (until a
// first projection the Projectron scores with alpha . k_t exactly like the kernel Perceptron).
TEST(ProjectronEquivalence, EtaZeroEqualsKernelPerceptronInGeneralPosition) {
  const Dataset d = gaussian_points(2000, 4, 11, false);
  LearnerOptions o;
  o.kernel = Kernel::rbf(1.0);
  o.dim = d.dim;
  o.own["eta"] = 0.0;
  for (auto conv : {EtaConvention::paper, EtaConvention::dogma}) {
    o.own["eta_convention"] = conv;
    Projectron p(o);
    KernelPerceptron kp(o);
    double min_dl2 = 1.0;
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord a = p.learn(d[t], static_cast<int64_t>(t + 1));
      const RoundRecord b = kp.learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_EQ(a.score, b.score) << "round " << t + 1;
      ASSERT_EQ(a.update, b.update) << "round " << t + 1;  // add on every mistake
      if (a.mistake) min_dl2 = std::min(min_dl2, a.delta_norm * a.delta_norm);
    }
    EXPECT_EQ(p.support_size(), kp.support_size());
    EXPECT_GT(p.support_size(), 400u);
    EXPECT_GT(min_dl2, ProjectronBase::kGuard);  // the guard never fired: general position
    EXPECT_NEAR(p.norm2(), kp.norm2(), 1e-9 * kp.norm2());
    EXPECT_LT(gram_inverse_error(p), 1e-8);
  }
}

// Linear kernel in R^5: after 5 independent supports every point is in span(S), ||delta|| = 0 up
// to round-off, so the Projectron (eta = 0) projects: f + y Pk = f + y k exactly in exact
// arithmetic. Asserted: |S| = 5 (Perceptron: |S| = M), the same mistake on every round, and
// scores equal to 1e-9 relative to ||f|| ||x|| (round-off of the projection only).
TEST(ProjectronEquivalence, EtaZeroLinearKernelSparserButSamePredictions) {
  const std::size_t dim = 5;
  const Dataset d = gaussian_points(2000, dim, 12, true);
  LearnerOptions o;
  o.kernel = Kernel::linear();
  o.dim = dim;
  o.own["eta"] = 0.0;
  Projectron p(o);
  KernelPerceptron kp(o);
  std::size_t projects = 0;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const Example x = d[t];
    const RoundRecord a = p.learn(x, static_cast<int64_t>(t + 1));
    const RoundRecord b = kp.learn(x, static_cast<int64_t>(t + 1));
    const double tol = 1e-9 * (1.0 + std::sqrt(kp.norm2() * x.sqnorm));
    ASSERT_NEAR(a.score, b.score, tol) << "round " << t + 1;
    ASSERT_EQ(a.mistake, b.mistake) << "round " << t + 1;
    projects += a.update == UpdateKind::project;
  }
  EXPECT_EQ(p.support_size(), dim);
  EXPECT_GT(kp.support_size(), 100u);
  EXPECT_EQ(projects + dim, kp.support_size());
  EXPECT_NEAR(p.norm2(), kp.norm2(), 1e-9 * kp.norm2());
}

// ------------------------------------------------- near-duplicate points (regression)

namespace {

// n points uniform in [0, 1] (1-D), labels sign(sin 12x): nearly dependent Gaussian supports.
Dataset sin_sign_points(int n, uint64_t seed) {
  Rng rng(seed);
  Dataset data;
  for (int t = 0; t < n; ++t) {
    const double x = rng.uniform();
    data.push_dense(std::vector<double>{x}, std::sin(12.0 * x) > 0 ? 1.0 : -1.0);
  }
  data.dim = 1;
  return data;
}

// A projection the guard forced (eta = 0): its label, coefficients d and point.
struct Forced { double y; std::vector<double> d; Example x; };

// s_KP(x) - sum_tau y_tau delta_tau(x), delta_tau(x) = k(x_tau, x) - sum_j d_j k(s_j, x): the
// kernel Perceptron's score less the residuals of the forced projections.
double score_less_forced(double s_kp, const std::vector<Forced>& forced, const Kernel& k, const ProjectronBase& p,
                         const Example& x) {
  double pred = s_kp;
  for (const Forced& f : forced) {
    double dx = k(f.x, x);
    for (std::size_t j = 0; j < f.d.size(); ++j) dx -= f.d[j] * k(p.supports().row(j), x);
    pred -= f.y * dx;
  }
  return pred;
}

}  // namespace

// Reviewer's report against the inversion-lemma recursion: 1-D Gaussian data, eta = 0, the
// applied residual ||k - sum d_j k_j|| reached 1.37 while the logged ||delta|| was ~0, and the
// running ||f||^2 was off by up to 99.96%. 300 points uniform in [0,1], gamma = 2 (cond(K) of the
// support set ~ 1e11), labels sign(sin 12x). Asserted on every round:
//  * a projected update's coefficients d solve K d = k_t to rounding level: ||K d - k_t|| <=
//    1e-12 ||k_t||, and the applied residual ||k(x_t,.) - sum_j d_j k(s_j,.)||^2 (from K, k_t, d)
//    equals the logged ||delta||^2 to 1e-9 (k(x,x) = 1);
//  * running ||f||^2 = alpha^T K alpha to 1e-8 relative.
// With eta = 0 the Projectron is the kernel Perceptron (docs/learners.md#projectron) except on the
// rounds where the guard forces a projection: there f loses -y delta_t. Asserted: the same mistakes
// on every round, and s_P(x) = s_KP(x) - sum_{forced tau} y_tau delta_tau(x) to 1e-9 (1 + ||f||)
// (delta_tau(x) = k(x_tau,x) - sum_j d_j k(s_j,x) from the applied d), i.e. the Projectron's
// scores are the Perceptron's to 1e-9 once the (logged) guard residuals are accounted for; and
// |s_P - s_KP| <= sum ||delta_tau|| (Cauchy-Schwarz). The raw score gap is only printed: it is
// of the order of kGuard (file comment of projectron.hpp), not 1e-9.
TEST(ProjectronNearDuplicates, AppliedUpdateIsTheLoggedProjection) {
  const Dataset data = sin_sign_points(300, 5);
  struct Case { bool pp; double eta; };
  for (const Case c : {Case{false, 0.0}, Case{false, 1e-4}, Case{true, 1e-4}}) {
    SCOPED_TRACE(std::string(c.pp ? "projectron++" : "projectron") + " eta " + std::to_string(c.eta));
    LearnerOptions o;
    o.kernel = Kernel::rbf(2.0);
    o.dim = 1;
    o.own["eta"] = c.eta;
    std::unique_ptr<Learner> l = test_util::configured_learner(c.pp ? "projectron++" : "projectron", o);
    const auto& p = dynamic_cast<const ProjectronBase&>(*l);
    KernelPerceptron kp(o);
    std::vector<Forced> forced;  // eta = 0: the guard-forced projections
    std::size_t projections = 0;
    double max_gap = 0.0, sum_dl = 0.0;
    for (std::size_t t = 0; t < data.size(); ++t) {
      const Example x = data[t];
      const RoundRecord r = l->learn(x, static_cast<int64_t>(t + 1));
      ASSERT_TRUE(std::isfinite(r.score));
      if (c.eta == 0.0) {
        const RoundRecord rk = kp.learn(x, static_cast<int64_t>(t + 1));
        ASSERT_EQ(r.mistake, rk.mistake) << "round " << t + 1;
        const double pred = score_less_forced(rk.score, forced, o.kernel, p, x);
        const double scale = 1.0 + std::sqrt(kp.norm2());
        ASSERT_NEAR(r.score, pred, 1e-9 * scale) << "round " << t + 1;
        ASSERT_LE(std::abs(r.score - rk.score), sum_dl + 1e-9 * scale) << "round " << t + 1;
        max_gap = std::max(max_gap, std::abs(r.score - rk.score) / scale);
      }
      if (r.update == UpdateKind::project || r.update == UpdateKind::margin_project) {
        ++projections;
        const Eigen::MatrixXd K = gram(p);
        const auto n = K.rows();
        const std::vector<double> dv = p.last_projection();
        ASSERT_EQ(static_cast<std::size_t>(n), dv.size());
        Eigen::VectorXd k(n);
        for (Eigen::Index j = 0; j < n; ++j) k(j) = o.kernel(p.supports().row(static_cast<std::size_t>(j)), x);
        const Eigen::Map<const Eigen::VectorXd> d(dv.data(), n);
        ASSERT_LE((K * d - k).norm(), 1e-12 * k.norm()) << "round " << t + 1;
        const double applied_dl2 = r.kxx - 2.0 * d.dot(k) + d.dot(K * d);
        ASSERT_NEAR(applied_dl2, r.delta_norm * r.delta_norm, 1e-9) << "round " << t + 1;
        if (c.eta == 0.0) {
          ASSERT_LE(r.delta_norm * r.delta_norm, ProjectronBase::kGuard * r.kxx);  // forced
          forced.push_back({r.y, dv, x});
          sum_dl += r.delta_norm;
        }
      }
      const double exact = l->norm2_exact();
      ASSERT_NEAR(l->norm2(), exact, 1e-8 * exact) << "round " << t + 1;
    }
    EXPECT_GT(projections, 50u);  // the case really is the nearly dependent one
    EXPECT_LT(l->support_size(), 30u);
    std::printf("%s eta=%g: |S|=%zu projections=%zu cond(K)=%.3g max |s_P - s_KP|/(1+||f||)=%.3g\n",
                c.pp ? "projectron++" : "projectron", c.eta, l->support_size(), projections, gram_condition(p), max_gap);
  }
}

// ---------------------------------------------------------------- invariants on long runs

namespace {
// Dekel et al. / JMLR Sec. 7 style: +1 ~ N((1,1), diag(0.2,2)), -1 ~ N((-1,-1), diag(0.2,2)),
// 10% label noise (diag = variances).
Dataset dekel_like(std::size_t n, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  for (std::size_t t = 0; t < n; ++t) {
    const double y = rng.uniform() < 0.5 ? 1.0 : -1.0;
    const std::vector<double> x = {y + std::sqrt(0.2) * rng.normal(), y + std::sqrt(2.0) * rng.normal()};
    d.push_dense(x, rng.uniform() < 0.1 ? -y : y);
  }
  d.dim = 2;
  return d;
}

struct InvariantCase {
  bool plusplus;
  EtaConvention conv;
  double eta;
};
}  // namespace

class ProjectronInvariants : public ::testing::TestWithParam<InvariantCase> {};

TEST_P(ProjectronInvariants, PackingNormAndInverseOnEveryRound) {
  const InvariantCase c = GetParam();
  const Dataset d = dekel_like(3000, 21);
  LearnerOptions o;
  o.kernel = Kernel::rbf(1.0);
  o.dim = 2;
  o.own["eta"] = c.eta;
  o.own["eta_convention"] = c.conv;
  std::unique_ptr<Learner> l = test_util::configured_learner(c.plusplus ? "projectron++" : "projectron", o);
  const auto& p = dynamic_cast<const ProjectronBase&>(*l);
  // Squared feature distance every pair of supports must keep (JMLR Thm 1;
  // docs/learners.md#projectron).
  const double min_dist2 = c.conv == EtaConvention::paper ? c.eta * c.eta : c.eta;
  // ||f_T||^2 from the records alone (docs/bounds.md#projectron_certificate,
  // docs/bounds.md#projectronpp_certificate).
  double lemma_sum = 0.0;
  std::size_t adds = 0;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord r = l->learn(d[t], static_cast<int64_t>(t + 1));
    const double dl2 = r.delta_norm * r.delta_norm;
    if (r.update == UpdateKind::add) {
      ++adds;
      lemma_sum += r.kxx + 2.0 * r.y * r.score;
      ASSERT_GT(dl2 + 1e-12, min_dist2) << "round " << t + 1;  // the test that made it add
      // The new support against every earlier one: 2 - 2k >= ||delta||^2 >= threshold.
      const SupportSet& sv = p.supports();
      const Example xn = sv.row(sv.size() - 1);
      for (std::size_t j = 0; j + 1 < sv.size(); ++j) {
        const double dist2 = 2.0 - 2.0 * o.kernel(xn, sv.row(j));
        ASSERT_GE(dist2 + 1e-12, dl2) << "round " << t + 1 << " support " << j;
        ASSERT_GE(dist2 + 1e-12, min_dist2) << "round " << t + 1 << " support " << j;
      }
    } else if (r.update == UpdateKind::project) {
      ASSERT_LE(dl2, min_dist2 + 1e-12) << "round " << t + 1;
      lemma_sum += r.pk2 + 2.0 * r.y * r.score;
    } else if (r.update == UpdateKind::margin_project) {
      ASSERT_FALSE(r.mistake);
      ASSERT_GT(r.tau, 0.0);
      ASSERT_LE(r.tau, 1.0);
      lemma_sum += r.tau * r.tau * r.pk2 + 2.0 * r.tau * r.y * r.score;
    }
    ASSERT_EQ(static_cast<std::size_t>(r.support_size), adds);
    {  // every round: O(|S|^2) kernel evaluations, |S| < 400 here
      const double exact = l->norm2_exact();
      ASSERT_NEAR(l->norm2(), exact, 1e-8 * exact) << "round " << t + 1;
      ASSERT_NEAR(lemma_sum, exact, 1e-8 * exact) << "round " << t + 1;
    }
  }
  EXPECT_GT(adds, 5u);
  EXPECT_LT(adds, 400u);  // eta > 0 on a compact-ish domain: the support set stays small
  const double err = gram_inverse_error(p), cond = gram_condition(p);
  std::printf("|S| = %zu  cond(K) = %.3g  ||K Kinv - I||_F = %.3g\n", adds, cond, err);
  // K = L L^T is backward stable, so K L^{-T} L^{-1} - I is ~ eps cond(K) (times a small
  // factor in |S|); measured 2e-13 at cond ~1e3 and 2e-10 at cond 1.2e6 (eta = 0.05 paper; the
  // old inversion-lemma recursion gave 1e-7 there). Held to max(1e-8, 1e-14 cond).
  EXPECT_LE(err, std::max(1e-8, 1e-14 * cond));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ProjectronInvariants,
    ::testing::Values(InvariantCase{false, EtaConvention::paper, 0.3},
                      InvariantCase{false, EtaConvention::dogma, 0.1},
                      InvariantCase{true, EtaConvention::paper, 0.3},
                      InvariantCase{true, EtaConvention::dogma, 0.1},
                      InvariantCase{true, EtaConvention::paper, 0.05}),
    [](const auto& info) {
      const InvariantCase& c = info.param;
      return std::string(c.plusplus ? "PP" : "P") + (c.conv == EtaConvention::paper ? "_paper_" : "_dogma_") +
             std::to_string(static_cast<int>(c.eta * 100));
    });

// --------------------------------------------------------------------- inverse accuracy

// Every round a mistake, eta = 0 paper, Gaussian kernel on N(0, I_10) points: each round adds,
// so L is grown n times by the O(n) append. The labels are chosen against the score of a kernel
// Perceptron run alongside (with eta = 0 and every round added, the Projectron's f is the same
// expansion), which lets the Projectron itself run by blocks (learn_block, the panel solve at the
// FMA rate: 10^4 additions in seconds, where single rounds are memory-bound at ~70 s). Every
// round is asserted to be an addition, so the labels did force mistakes.
Projectron grown_by_additions(std::size_t n, double gamma, uint64_t seed) {
  constexpr std::size_t dim = 10;
  Rng rng(seed);
  LearnerOptions o;
  o.kernel = Kernel::rbf(gamma);
  o.dim = dim;
  o.own["eta"] = 0.0;
  KernelPerceptron labeller(o);
  std::vector<double> xs(dim);
  Dataset d;
  for (std::size_t t = 0; t < n; ++t) {
    for (auto& v : xs) v = rng.normal();
    d.push_dense(xs, 1.0);
    Example x = d[t];
    x.y = d.y[t] = labeller.score(x) > 0 ? -1.0 : 1.0;
    labeller.learn(x, static_cast<int64_t>(t + 1));
  }
  Projectron p(o);
  std::vector<Example> block;
  std::vector<RoundRecord> rec(n);
  for (std::size_t t = 0; t < n; t += block.size()) {
    block.clear();
    for (std::size_t i = t; i < std::min(n, t + kPanelLanes); ++i) block.push_back(d[i]);
    p.learn_block(block.data(), block.size(), static_cast<int64_t>(t + 1), rec.data() + t);
  }
  for (std::size_t t = 0; t < n; ++t) EXPECT_EQ(rec[t].update, UpdateKind::add) << "round " << t + 1;
  EXPECT_EQ(p.chol().size(), n);
  return p;
}

// Column j of K Kinv - I and of L L^T - K for sampled j, in O(n^2) per column and without an
// n x n matrix in memory (10^4 supports would need 0.8 GB per matrix): Kinv e_j by a forward
// and a backward solve with the learner's L, K streamed row by row from the kernel.
struct ColumnErrors {
  double inverse_max = 0.0, inverse_frobenius_estimate = 0.0;  // ||(K Kinv - I) e_j||_2
  double backward_max = 0.0;                                   // ||(L L^T - K) e_j|| / ||K e_j||
};
ColumnErrors sampled_column_errors(const ProjectronBase& p, std::size_t samples, uint64_t seed) {
  const GramCholesky& L = p.chol();
  const SupportSet& sv = p.supports();
  const Kernel k = p.expansion()->kernel;
  const std::size_t n = L.size();
  Rng rng(seed);
  std::vector<std::size_t> cols(samples);
  for (auto& j : cols) j = rng.below(n);
  std::vector<std::vector<double>> v(samples), b(samples), kv(samples, std::vector<double>(n, 0.0)),
      ke(samples, std::vector<double>(n));
  for (std::size_t s = 0; s < samples; ++s) {
    const std::size_t j = cols[s];
    std::vector<double> y(n, 0.0);  // y = L^{-1} e_j (zero above j)
    for (std::size_t i = j; i < n; ++i) {
      double acc = i == j ? 1.0 : 0.0;
      for (std::size_t c = j; c < i; ++c) acc -= L(i, c) * y[c];
      y[i] = acc / L(i, i);
    }
    v[s].assign(n, 0.0);
    L.backward(y.data(), v[s].data());  // v = L^{-T} y = Kinv e_j
    b[s].assign(n, 0.0);                // b = L (L^T e_j): row j of L is column j of L^T
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c <= std::min(i, j); ++c) b[s][i] += L(i, c) * L(j, c);
  }
  std::vector<Example> rows;
  for (std::size_t i = 0; i < n; ++i) rows.push_back(sv.row(i));
  std::vector<double> krow(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t l = 0; l < n; ++l) krow[l] = k(rows[i], rows[l]);
    for (std::size_t s = 0; s < samples; ++s) {
      double acc = 0.0;
      for (std::size_t l = 0; l < n; ++l) acc += krow[l] * v[s][l];
      kv[s][i] = acc;
      ke[s][i] = krow[cols[s]];
    }
  }
  ColumnErrors e;
  double sum2 = 0.0;
  for (std::size_t s = 0; s < samples; ++s) {
    double inv2 = 0.0, back2 = 0.0, kcol2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double r = kv[s][i] - (i == cols[s] ? 1.0 : 0.0);
      inv2 += r * r;
      back2 += (b[s][i] - ke[s][i]) * (b[s][i] - ke[s][i]);
      kcol2 += ke[s][i] * ke[s][i];
    }
    sum2 += inv2;
    e.inverse_max = std::max(e.inverse_max, std::sqrt(inv2));
    e.backward_max = std::max(e.backward_max, std::sqrt(back2 / kcol2));
  }
  e.inverse_frobenius_estimate = std::sqrt(sum2 * static_cast<double>(n) / static_cast<double>(samples));
  return e;
}

// Requirement: after 10^4 additions on a Gaussian kernel ||K Kinv - I|| <= 1e-8, with Kinv =
// L^{-T} L^{-1} from the learner's factor (no refresh; projectron.hpp says why). Checked on 24
// sampled columns (every column norm <= 1e-8; the Frobenius estimate is printed), with the
// column backward error of L L^T <= 1e-13. gamma = 0.5 on N(0, I_10) points.
TEST(ProjectronInverse, KKinvIsIdentityAfter10000Additions) {
  const Projectron p = grown_by_additions(10000, 0.5, 31);
  const ColumnErrors e = sampled_column_errors(p, 24, 7);
  std::printf("10^4 additions, gamma 0.5: max column ||(K Kinv - I) e_j|| = %.3g, Frobenius estimate %.3g, "
              "max column backward error %.3g\n", e.inverse_max, e.inverse_frobenius_estimate, e.backward_max);
  EXPECT_LE(e.inverse_max, 1e-8);
  EXPECT_LE(e.backward_max, 1e-13);
}

// ||E||_2 for E = K Kinv - I by power iteration on E^T E (Kinv symmetric: E^T = Kinv K - I).
template <class ApplyInv>
double spectral_error(const Eigen::MatrixXd& K, ApplyInv apply_inv) {
  Eigen::VectorXd v = Eigen::VectorXd::Ones(K.rows()).normalized();
  double sigma = 0.0;
  for (int it = 0; it < 30; ++it) {
    const Eigen::VectorXd w = K * apply_inv(v) - v;
    const Eigen::VectorXd u = apply_inv(Eigen::VectorXd(K * w)) - w;
    sigma = std::sqrt(u.norm());
    v = u.normalized();
  }
  return sigma;
}

// Where K is ill conditioned (gamma = 0.1: cond(K) 7.2e6 at n = 3000, 6.9e8 at 10^4), ||K Kinv -
// I|| is ~ eps cond(K) for any inverse computed in double precision; the grown factor must be as
// good as a fresh factorisation of K (Eigen LLT: what a refresh would compute), which is why
// there is no refresh. Spectral norms by power iteration. PLAB_LONG_TESTS=1 runs the 10^4
// additions (about a minute, 2.5 GB): measured 9.8e-9 grown, 1.6e-8 fresh (at the limit: the
// 1e-8 holds there with 2% to spare, the grown factor beats the refresh).
TEST(ProjectronInverse, IllConditionedGramGrownFactorIsAsGoodAsARefresh) {
  const char* env = std::getenv("PLAB_LONG_TESTS");
  const std::size_t n = env && std::string(env) == "1" ? 10000 : 3000;
  const Projectron p = grown_by_additions(n, 0.1, 31);
  const Eigen::MatrixXd K = gram(p), L = p.chol().factor();
  const Eigen::LLT<Eigen::MatrixXd> fresh(K);
  const double e_grown = spectral_error(K, [&](const Eigen::VectorXd& x) {
    return Eigen::VectorXd(L.transpose().triangularView<Eigen::Upper>().solve(L.triangularView<Eigen::Lower>().solve(x)));
  });
  const double e_fresh = spectral_error(K, [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(fresh.solve(x)); });
  const double back = (L * L.transpose() - K).norm() / K.norm();
  std::printf("%zu additions, gamma 0.1: ||K Kinv - I||_2 grown %.3g, refreshed %.3g; ||LL^T - K||_F/||K||_F %.3g\n",
              n, e_grown, e_fresh, back);
  EXPECT_LE(e_grown, 1e-8);
  EXPECT_LE(e_grown, 2.0 * e_fresh);
  EXPECT_LE(back, 1e-13);
}

// Guard edge case (projectron.hpp file comment): a zero vector under the linear kernel has
// k(x,x) = 0, so it cannot be added (K would be singular); it is "projected" onto {0}, f stays 0.
TEST(ProjectronParams, ZeroVectorOnEmptySetIsNotAdded) {
  LearnerOptions o;
  o.dim = 2;
  o.own["eta"] = 0.0;
  Projectron p(o);
  Dataset d;
  d.push_dense(std::vector<double>{0.0, 0.0}, 1.0);
  d.push_dense(std::vector<double>{1.0, 0.0}, 1.0);
  d.dim = 2;
  const RoundRecord r1 = p.learn(d[0], 1);
  EXPECT_TRUE(r1.mistake);
  EXPECT_EQ(r1.update, UpdateKind::project);
  EXPECT_EQ(p.support_size(), 0u);
  EXPECT_EQ(p.norm2(), 0.0);
  const RoundRecord r2 = p.learn(d[1], 2);
  EXPECT_EQ(r2.update, UpdateKind::add);
  EXPECT_DOUBLE_EQ(p.chol()(0, 0), 1.0);  // L = [sqrt(k(x,x))]
  EXPECT_DOUBLE_EQ(p.norm2(), 1.0);
}
