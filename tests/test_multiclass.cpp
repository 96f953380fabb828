// Multiclass learners (docs/learners.md#multiclass): relations to the binary learners that hold bit
// for bit, the MRBP eviction order, Projectron++ limits, the label plumbing and the bounds on the
// Kesler construction. Hand fixtures against DOGMA's rules are in test_multiclass_fixtures.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "algorithms/multiclass.hpp"
#include "algorithms/multiclass_projectron.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/pipeline.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

// m noisy linear classes in `dim` dimensions; labels are class indices. Printed seed (Eigen style).
Dataset classes_data(std::size_t n, std::size_t dim, std::size_t m, uint64_t seed, double noise = 0.1) {
  Rng rng(seed);
  std::vector<std::vector<double>> w(m, std::vector<double>(dim));
  for (auto& wc : w) for (auto& v : wc) v = rng.normal();
  std::vector<double> x(dim);
  Dataset d;
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<double> s(m, 0.0);
    for (std::size_t j = 0; j < dim; ++j) {
      x[j] = rng.normal() / std::sqrt(double(dim));
      for (std::size_t c = 0; c < m; ++c) s[c] += w[c][j] * x[j];
    }
    std::size_t y = static_cast<std::size_t>(std::max_element(s.begin(), s.end()) - s.begin());
    if (rng.uniform() < noise) y = rng.below(m);
    d.push_dense(x, static_cast<double>(y));
  }
  d.dim = dim;
  for (std::size_t c = 0; c < m; ++c) d.classes.push_back(static_cast<double>(c));
  return d;
}

LearnerOptions mc_options(const Kernel& k, std::size_t dim, std::size_t m) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = dim;
  o.classes = m;
  return o;
}

// docs/learners.md#multiclass-perceptron: with two classes {-1 -> 0, +1 -> 1} the max-score multiclass
// Perceptron is the binary kernel Perceptron with f scaled by 2: f_1 = f_bin and f_0 = -f_bin, so
// score = f_y - f_other = 2 y f_bin and the mistakes coincide. The class sums are serial chains and
// the binary score a lane sum (docs/learners.md#lane-sums): equal up to rounding, not bit for bit.
TEST(MulticlassPerceptron, TwoClassesAreTheBinaryPerceptronTimesTwo) {
  const uint64_t seed = test_util::test_seed(20261123);
  for (const Kernel& k : {Kernel::linear(), Kernel::rbf(0.7), Kernel::poly(0.5, 1.0, 3)}) {
    SCOPED_TRACE(k.describe());
    const Dataset mc = classes_data(800, 5, 2, seed, 0.15);
    LearnerOptions o = mc_options(k, 5, 2);
    MulticlassPerceptron multi(o);
    KernelPerceptron bin(o);
    for (std::size_t t = 0; t < mc.size(); ++t) {
      Example xm = mc[t], xb = mc[t];
      xb.y = xm.y == 1.0 ? 1.0 : -1.0;
      const RoundRecord rm = multi.learn(xm, static_cast<int64_t>(t + 1));
      const RoundRecord rb = bin.learn(xb, static_cast<int64_t>(t + 1));
      ASSERT_EQ(rm.mistake, rb.mistake) << "t=" << t + 1;
      ASSERT_NEAR(rm.score, 2.0 * xb.y * rb.score, 1e-9 * std::max(1.0, std::abs(rb.score))) << "t=" << t + 1;
      ASSERT_EQ(rm.competitor, static_cast<int64_t>(1 - xm.y));
      ASSERT_EQ(rm.support_size, rb.support_size);
    }
    EXPECT_NEAR(multi.norm2_exact(), 2.0 * bin.norm2_exact(), 1e-9 * std::max(1.0, bin.norm2_exact()));
  }
}

// The first round is a mistake (all scores 0); ties go to the lowest class; the prediction is the
// first arg max over all classes.
TEST(MulticlassPerceptron, FirstRoundAndTiesFollowMatlabMax) {
  Dataset d;
  d.push_dense(std::vector<double>{1.0, 0.0}, 2.0);
  d.push_dense(std::vector<double>{0.0, 1.0}, 1.0);  // orthogonal: f = 0 everywhere but class 2's x
  d.dim = 2;
  d.classes = {0, 1, 2};
  MulticlassPerceptron p(mc_options(Kernel::linear(), 2, 3));
  const RoundRecord r1 = p.learn(d[0], 1);
  EXPECT_TRUE(r1.mistake);
  EXPECT_EQ(r1.score, 0.0);
  EXPECT_EQ(r1.competitor, 0);  // f = (0,0,0): the first class other than y = 2
  EXPECT_EQ(r1.pred, 0);
  EXPECT_EQ(r1.update, UpdateKind::add);
  const RoundRecord r2 = p.learn(d[1], 2);  // scores (0, 0, 0) again: y = 1, competitor 0, a tie
  EXPECT_TRUE(r2.mistake);
  EXPECT_EQ(r2.competitor, 0);
  EXPECT_EQ(p.coef(0, 2), 1.0);
  EXPECT_EQ(p.coef(0, 0), -1.0);
  EXPECT_EQ(p.coef(1, 1), 1.0);
  EXPECT_EQ(p.coef(1, 0), -1.0);
}

// Uniform update: -1/(m-1) on every other class; the Kesler bounds are reported not applicable.
TEST(MulticlassPerceptron, UniformUpdateSpreadsTheStep) {
  Dataset d = classes_data(200, 3, 4, 5);
  LearnerOptions o = mc_options(Kernel::linear(), 3, 4);
  o.own["update_rule"] = "uniform";
  MulticlassPerceptron p(o);
  p.learn(d[0], 1);
  const std::size_t y = static_cast<std::size_t>(d[0].y);
  for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(p.coef(0, c), c == y ? 1.0 : -1.0 / 3.0);
  RunRequest req;
  req.learner = test_util::configured("multiclass-perceptron", o);
  req.train = &d;
  req.order = make_order(d.size(), 3);
  const RunReport rep = run_pipeline(req);
  ASSERT_FALSE(rep.bounds.empty());
  for (const auto& b : rep.bounds) {
    EXPECT_FALSE(b.applicable) << b.id;
    EXPECT_NE(b.why_not.find("uniform"), std::string::npos) << b.why_not;
  }
}

// MRBP: with a budget no run reaches it equals the multiclass Perceptron; with B = 2 every eviction
// removes the support at the drawn position among the B oldest in insertion order (DOGMA).
TEST(Mrbp, LargeBudgetIsThePerceptronAndEvictionsFollowInsertionOrder) {
  const Dataset d = classes_data(300, 4, 3, 8, 0.2);
  LearnerOptions o = mc_options(Kernel::rbf(0.5), 4, 3);
  o.own["budget"] = 100000;
  MulticlassPerceptron p(o);
  MulticlassRandomBudgetPerceptron big(o);
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord a = p.learn(d[t], static_cast<int64_t>(t + 1)), b = big.learn(d[t], static_cast<int64_t>(t + 1));
    ASSERT_EQ(a.score, b.score);
    ASSERT_EQ(a.update, b.update);
  }
  o.own["budget"] = 2;
  o.own["seed"] = 77;
  MulticlassRandomBudgetPerceptron small(o);
  Rng draws(77);              // the learner's stream: one below(B) per eviction
  std::vector<int64_t> ids;   // support ids in insertion order, as DOGMA keeps them
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord r = small.learn(d[t], static_cast<int64_t>(t + 1));
    if (!r.mistake) continue;
    ids.push_back(r.t);
    if (ids.size() > 2) {
      const std::size_t j = static_cast<std::size_t>(draws.below(2));
      ASSERT_EQ(r.update, UpdateKind::evict);
      ASSERT_EQ(r.removed, ids[j]) << "t=" << r.t;
      ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(j));
    }
    ASSERT_EQ(r.support_size, static_cast<int64_t>(ids.size()));
  }
  std::vector<int64_t> have;
  for (std::size_t i = 0; i < small.supports().size(); ++i) have.push_back(small.supports().id(i));
  std::sort(have.begin(), have.end());
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(have, ids);
}

// Projectron++ with eta = 0 never projects in general position and makes no margin updates: it is
// the max-score multiclass Perceptron, bit for bit (both conventions).
TEST(MulticlassProjectronPP, EtaZeroIsThePerceptron) {
  const Dataset d = classes_data(400, 6, 4, 11, 0.2);
  for (const auto conv : {EtaConvention::paper, EtaConvention::dogma}) {
    LearnerOptions o = mc_options(Kernel::rbf(0.8), 6, 4);
    o.own["eta"] = 0.0;
    o.own["eta_convention"] = conv;
    MulticlassPerceptron p(o);
    MulticlassProjectronPP pp(o);
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord a = p.learn(d[t], static_cast<int64_t>(t + 1)), b = pp.learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_EQ(a.score, b.score) << "t=" << t + 1;
      ASSERT_EQ(a.mistake, b.mistake);
      ASSERT_EQ(a.support_size, b.support_size);
    }
  }
}

// Projectron++: every projection d_c solves K_c d = k_c (residual at rounding level), the class bases
// hold only supports whose coefficient for that class is the class's, and ||f||^2 stays exact.
TEST(MulticlassProjectronPP, ProjectionsAndBasesAreConsistent) {
  const Dataset d = classes_data(600, 4, 3, 12, 0.2);
  for (const auto conv : {EtaConvention::paper, EtaConvention::dogma}) {
    LearnerOptions o = mc_options(Kernel::rbf(1.0), 4, 3);
    o.own["eta"] = conv == EtaConvention::paper ? 0.3 : 0.09;
    o.own["eta_convention"] = conv;
    MulticlassProjectronPP pp(o);
    std::size_t projected = 0, margin = 0;
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = pp.learn(d[t], static_cast<int64_t>(t + 1));
      projected += r.update == UpdateKind::project;
      margin += r.update == UpdateKind::margin_project;
    }
    EXPECT_GT(projected, 0u);
    EXPECT_GT(margin, 0u);
    EXPECT_LT(pp.support_size(), 600u);
    for (std::size_t c = 0; c < 3; ++c) {
      const auto& S = pp.basis(c);
      for (std::size_t i = 0; i < pp.support_size(); ++i)
        if (std::find(S.begin(), S.end(), i) == S.end()) { EXPECT_EQ(pp.coef(i, c), 0.0) << "class " << c; }
    }
    EXPECT_NEAR(pp.norm2(), pp.norm2_exact(), 1e-8 * std::max(1.0, pp.norm2_exact()));
  }
}

// Multiclass PA-I: tau = min(C, loss / (2 k(x,x))) with the loss 1 - (f_y - f_competitor).
TEST(MulticlassPA1, StepIsTheClippedLossOverTwiceKxx) {
  const Dataset d = classes_data(100, 3, 3, 13);
  LearnerOptions o = mc_options(Kernel::linear(), 3, 3);
  o.own["C"] = 0.5;
  MulticlassPA1 pa(o);
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord r = pa.learn(d[t], static_cast<int64_t>(t + 1));
    if (r.update != UpdateKind::add) { EXPECT_GE(r.score, 1.0); continue; }
    EXPECT_DOUBLE_EQ(r.tau, std::min(0.5, (1.0 - r.score) / (2.0 * r.kxx)));
    EXPECT_EQ(pa.coef(pa.support_size() - 1, static_cast<std::size_t>(r.y)), r.tau);
    EXPECT_EQ(pa.coef(pa.support_size() - 1, static_cast<std::size_t>(r.competitor)), -r.tau);
  }
}

// Labels: "classes" maps the distinct labels in ascending order; a test label the training data
// lacks is an error naming it; binary learners refuse class labels and multiclass ones need them.
TEST(MulticlassLabels, ClassesAreIndexedAndChecked) {
  test_util::TempDir dir("mc_labels");
  const std::string train = (dir.p / "train.libsvm").string(), test = (dir.p / "test.libsvm").string();
  std::ofstream(train) << "7 1:1\n3 2:1\n7 1:0.5 2:0.5\n-1 1:2\n";
  std::ofstream(test) << "3 1:1\n5 2:1\n";
  const Dataset d = load_dataset(train, LabelMap::parse("classes"));
  EXPECT_EQ(d.classes, (std::vector<double>{-1.0, 3.0, 7.0}));
  EXPECT_EQ(d.y, (std::vector<double>{2.0, 1.0, 2.0, 0.0}));
  const Dataset t = load_dataset(test, LabelMap::parse("classes"));
  RunRequest req;
  req.learner = test_util::configured("multiclass-perceptron", {});
  req.train = &d;
  req.test = &t;
  req.order = make_order(d.size(), 0);
  req.bounds = false;
  try {
    run_pipeline(req);
    FAIL() << "label 5 accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("label 5 is not a class of the training data"), std::string::npos) << e.what();
  }
  req.learner = test_util::configured("kernel-perceptron", {});
  req.test = nullptr;
  EXPECT_THROW(run_pipeline(req), std::invalid_argument);
  const Dataset bin = load_dataset(train, LabelMap::parse("7:+1,*:-1"));
  req.learner = test_util::configured("multiclass-pa1", {});
  req.train = &bin;
  EXPECT_THROW(run_pipeline(req), std::invalid_argument);
}

}  // namespace
}  // namespace plab
