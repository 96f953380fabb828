// Non-finite arithmetic during a run stops it with the round, the data row and the quantity
// (experiments/run/run.cpp check_finite, docs/learners.md#non-finite), for every learner, with the
// hostile inputs: a NaN score compares false with y s <= 0 and would otherwise count as correct.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <utility>

#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/pipeline.hpp"
#include "test_util.hpp"

using namespace plab;

namespace {

// n rows of 3 features of magnitude `scale` (random signs and sizes in [0.5, 1) scale) and random
// labels (so the Perceptron keeps making mistakes), written as a LIBSVM file.
std::string write_scaled(const std::filesystem::path& dir, const std::string& name, std::size_t n, double scale) {
  Rng rng(7);
  const std::string path = (dir / name).string();
  std::ofstream f(path);
  f.precision(17);
  for (std::size_t i = 0; i < n; ++i) {
    double x[3];
    for (double& v : x) v = (rng.uniform() < 0.5 ? -1.0 : 1.0) * (0.5 + 0.5 * rng.uniform()) * scale;
    f << (rng.uniform() < 0.5 ? "+1" : "-1") << " 1:" << x[0] << " 2:" << x[1] << " 3:" << x[2] << "\n";
  }
  return path;
}

// The NonFiniteError message of a run, or "" when the run finished.
std::string run_error(const std::string& algo, const Dataset& d, const Kernel& k) {
  RunRequest req;
  LearnerOptions o;
  o.kernel = k;
  const LearnerInfo& info = learner_info(algo);
  if (info.uses("budget")) o.own["budget"] = 50;
  if (info.name == "norma") o.own["rho"] = 0.5;  // its own option
  req.learner = test_util::configured(algo, o);
  Dataset classes;  // multiclass learners: the ±1 labels as classes 0, 1
  if (info.multiclass) {
    classes = d;
    index_classes(classes);
  }
  req.train = info.multiclass ? &classes : &d;
  req.order = make_order(d.size(), std::nullopt);
  req.bounds = false;
  try {
    run_pipeline(req);
  } catch (const NonFiniteError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Values near 1e200 with the linear kernel: ||x||^2 overflows, so the data are refused at load with
// the file and line (the load-time half, datasets/dataset.hpp).
TEST(NonFinite, ValuesNear1e200AreRefusedAtLoad) {
  test_util::TempDir dir("nonfinite_load");
  const std::string path = write_scaled(dir.p, "big.svm", 1000, 1e200);
  try {
    load_dataset(path);
    ADD_FAILURE() << "loaded";
  } catch (const DataError& e) {
    EXPECT_TRUE(has(e.what(), "big.svm:1")) << e.what();
    EXPECT_TRUE(has(e.what(), "not finite")) << e.what();
  }
}

// Rows with ||x||^2 = 3.6e307, just under the load limit max/4, each on its own feature: the
// kernel Perceptron errs on every round (scores 0) and its ||f||^2 = sum of k(x,x) overflows on
// round 5. The run stops there, naming the round and the row, for every learner that keeps ||f||^2.
TEST(NonFinite, LinearKernelOverflowStopsTheRun) {
  test_util::TempDir dir("nonfinite_linear");
  const std::string path = (dir.p / "b.svm").string();
  {
    std::ofstream f(path);
    for (int i = 1; i <= 1000; ++i) f << (i % 3 ? "+1 " : "-1 ") << i << ":" << (i % 2 ? "6e153" : "-6e153") << "\n";
  }
  const Dataset d = load_dataset(path);
  for (const std::string algo : {"kernel-perceptron", "projectron", "projectron++", "averaged-perceptron", "perceptron"}) {
    const std::string msg = run_error(algo, d, Kernel::linear());
    EXPECT_TRUE(has(msg, "round 5 (data row 5): the running norm ||f_t||^2 is inf: non-finite arithmetic"))
        << algo << ": '" << msg << "'";
  }
}

// A degree-13 polynomial on features of scale 1e12: k(x,x) = (||x||^2)^13 ~ 1e312 overflows on the
// first round, for every learner. Unstopped, the Projectron would end with 0 supports and only
// "project" updates (||delta||^2 = inf fails the guard test), silently.
TEST(NonFinite, Degree13PolynomialOnScale1e12StopsEveryLearnerAtRound1) {
  test_util::TempDir dir("nonfinite_poly");
  const Dataset d = load_dataset(write_scaled(dir.p, "p.svm", 2000, 1e12));
  const Kernel k = Kernel::poly(1.0, 0.0, 13);
  for (const auto& info : learners()) {
    if (!info.takes(k)) continue;  // the primal Perceptron: linear only; FOGD: Gaussian only
    const std::string msg = run_error(info.name, d, k);
    EXPECT_TRUE(has(msg, "round 1 (data row 1): k(x_t,x_t) is inf")) << info.name << ": '" << msg << "'";
  }
}

// The command line: the message and exit status 1, and no trace or summary written.
TEST(NonFinite, CommandLineNamesRoundRowAndQuantity) {
  test_util::TempDir dir("nonfinite_cli");
  const std::string data = write_scaled(dir.p, "p.svm", 2000, 1e12), trace = (dir.p / "t.csv").string();
  const auto r = test_util::run_cli("run --algo projectron --data " + data +
                                    " --kernel poly --degree 13 --trace " + trace);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(has(r.output, "plab: error: round 1 (data row 1): k(x_t,x_t) is inf")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(trace));
  // Shuffled, the row is the one the round read.
  const auto s = test_util::run_cli("run --algo kernel-perceptron --data " + data +
                                    " --kernel poly --degree 13 --shuffle 5 --no-bounds");
  const Dataset d = load_dataset(data);
  const auto order = make_order(d.size(), 5);
  EXPECT_TRUE(has(s.output, "round 1 (data row " + std::to_string(order[0] + 1) + "): k(x_t,x_t) is inf")) << s.output;
}

// The check itself: the always-filled quantities must be finite; an optional one may be NaN (not
// applicable) but not infinite.
TEST(NonFinite, CheckNamesEachQuantity) {
  RoundRecord r;
  r.t = 7;
  r.index = 41;
  r.kxx = 1.0;
  r.f_norm2 = 2.0;
  EXPECT_NO_THROW(check_finite(r));  // tau, coef, ... NaN: not applicable
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const auto msg = [](RoundRecord q) {
    try {
      check_finite(q);
    } catch (const NonFiniteError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  RoundRecord a = r; a.score = nan;
  EXPECT_TRUE(has(msg(a), "round 7 (data row 42): the score f(x_t) is nan")) << msg(a);
  RoundRecord b = r; b.kxx = inf;
  EXPECT_TRUE(has(msg(b), "round 7 (data row 42): k(x_t,x_t) is inf")) << msg(b);
  RoundRecord c = r; c.f_norm2 = -nan;
  EXPECT_TRUE(has(msg(c), "the running norm ||f_t||^2 is")) << msg(c);
  RoundRecord e = r; e.coef = -inf;
  EXPECT_TRUE(has(msg(e), "the coefficient of x_t is -inf")) << msg(e);
  RoundRecord f = r; f.tau = inf;
  EXPECT_TRUE(has(msg(f), "the step tau_t is inf")) << msg(f);
  // Every optional quantity on its own: infinite of either sign stops and is named, NaN (not
  // applicable) and the largest finite values pass.
  const std::pair<double RoundRecord::*, const char*> optional[] = {
      {&RoundRecord::delta_norm, "the projection error ||delta_t||"}, {&RoundRecord::pk2, "||P k(x_t,.)||^2"},
      {&RoundRecord::tau, "the step tau_t"}, {&RoundRecord::eta_t, "the threshold eta_t"},
      {&RoundRecord::phi, "the Forgetron phi_t"}, {&RoundRecord::psi, "the Forgetron psi_t"},
      {&RoundRecord::Q, "the Forgetron Q_t"}, {&RoundRecord::sigma_r, "the Forgetron sigma_r"},
      {&RoundRecord::f_r, "the Forgetron f_r"}, {&RoundRecord::rho, "the margin rho_t"},
      {&RoundRecord::coef, "the coefficient of x_t"}, {&RoundRecord::trunc_norm, "the truncated norm"},
      {&RoundRecord::trunc_bound, "the truncation bound"}};
  const double big = std::numeric_limits<double>::max();
  for (const auto& [field, name] : optional) {
    for (const double v : {inf, -inf}) {
      RoundRecord q = r;
      q.*field = v;
      EXPECT_TRUE(has(msg(q), std::string(name) + " is " + (v > 0 ? "inf" : "-inf"))) << name << ": " << msg(q);
    }
    for (const double v : {nan, -nan, big, -big, 0.0}) {
      RoundRecord q = r;
      q.*field = v;
      EXPECT_NO_THROW(check_finite(q)) << name << " = " << v;
    }
  }
  // Without the running norm (no bounds) it may be NaN, never infinite.
  RoundRecord g = r; g.f_norm2 = nan;
  EXPECT_NO_THROW(check_finite(g, false));
  g.f_norm2 = inf;
  EXPECT_THROW(check_finite(g, false), NonFiniteError);
}

}  // namespace
