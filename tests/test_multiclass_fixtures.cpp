// Hand fixtures of the multiclass learners against DOGMA's rules, round by round: the records come
// from tests/tools/multiclass_reference.py, an independent implementation of DOGMA's
// k_perceptron_multi_train.m, k_pa_multi_train.m and k_projectron2_multi_train.m in exact rational
// arithmetic (its output is tests/data/multiclass_fixtures.json; rerun the script to regenerate).
// Covered: the first round, ties between other classes for the competitor, f_y = f_competitor
// mistakes, the uniform update, MRBP evictions by position in insertion order, PA-I's steps, and
// Projectron++ projections, margin updates and skips with empty and non-empty class bases.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"
#include "algorithms/multiclass.hpp"
#include "algorithms/multiclass_projectron.hpp"
#include "algorithms/registry.hpp"

namespace plab {
namespace {

using nlohmann::json;

const json& fixtures() {
  static const json j = [] {
    std::ifstream in(std::string(PLAB_SOURCE_DIR) + "/tests/data/multiclass_fixtures.json");
    return json::parse(in);
  }();
  return j;
}

Kernel kernel_of(const json& k) {
  const std::string type = k.at("type");
  if (type == "linear") return Kernel::linear();
  if (type == "poly") return Kernel::poly(k.at("gamma_float"), k.at("coef0_float"), k.at("degree"));
  throw std::runtime_error("fixture kernel " + type);
}

UpdateKind kind_of(const std::string& s) {
  for (int k = 0; k <= static_cast<int>(UpdateKind::update); ++k)
    if (to_string(static_cast<UpdateKind>(k)) == s) return static_cast<UpdateKind>(k);
  throw std::runtime_error("fixture kind " + s);
}

// Relative tolerance on the reference's exact values (our arithmetic is double).
void near(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-9 * std::max(1.0, std::abs(want))) << what;
}

class Fixture : public ::testing::TestWithParam<std::size_t> {};

TEST_P(Fixture, RoundByRoundAsDogma) {
  const json& f = fixtures().at("fixtures").at(GetParam());
  SCOPED_TRACE(f.at("name").get<std::string>() + ": " + f.at("description").get<std::string>());
  Dataset d;
  for (const auto& row : f.at("data")) d.push_dense(row.at("x").get<std::vector<double>>(), row.at("y").get<double>());
  const json& o = f.at("options");
  LearnerOptions opt;
  opt.kernel = kernel_of(f.at("kernel"));
  opt.dim = f.at("data").at(0).at("x").size();
  d.dim = opt.dim;
  opt.classes = f.at("classes");
  if (!o.at("update").is_null()) opt.own["update_rule"] = o.at("update");
  if (!o.at("budget").is_null()) opt.own["budget"] = o.at("budget");
  if (o.contains("eviction") && !o.at("eviction").is_null()) opt.own["eviction"] = o.at("eviction");
  if (!o.at("C_float").is_null()) opt.own["C"] = o.at("C_float");
  if (!o.at("eta_float").is_null()) opt.own["eta"] = o.at("eta_float");
  if (!o.at("eta_convention").is_null()) opt.own["eta_convention"] = o.at("eta_convention") == "dogma" ? EtaConvention::dogma : EtaConvention::paper;
  auto learner = test_util::configured_learner(f.at("learner"), opt);
  if (!o.at("eviction_draws").is_null()) {
    std::vector<std::size_t> draws;
    for (const auto& j : o.at("eviction_draws")) draws.push_back(j.get<std::size_t>() - 1);  // MATLAB positions are 1-based
    dynamic_cast<MulticlassRandomBudgetPerceptron&>(*learner).replay_draws(draws);
  }
  const auto* pp = dynamic_cast<const MulticlassProjectronPP*>(learner.get());
  for (const auto& want : f.at("rounds")) {
    const int64_t t = want.at("t");
    SCOPED_TRACE("t=" + std::to_string(t));
    const RoundRecord r = learner->learn(d[static_cast<std::size_t>(t - 1)], t);
    EXPECT_EQ(r.mistake, want.at("mistake").get<bool>());
    EXPECT_EQ(r.margin_error, want.at("margin_error").get<bool>());
    EXPECT_EQ(r.competitor, want.at("competitor").get<int64_t>());
    EXPECT_EQ(r.pred, want.at("predicted").get<int64_t>());
    EXPECT_EQ(r.update, kind_of(want.at("kind")));
    EXPECT_EQ(r.support_size, want.at("support_size").get<int64_t>());
    near(r.score, want.at("score_float"), "score");
    near(r.f_norm2, want.at("norm2_float"), "running ||f||^2");
    near(learner->norm2_exact(), want.at("norm2_float"), "exact ||f||^2");
    if (f.at("learner") != "multiclass-perceptron" && f.at("learner") != "mrbp" && r.update != UpdateKind::none)
      near(r.tau, want.at("tau_float"), "tau");  // the Perceptrons' step is 1 by definition and not recorded
    if (pp && want.contains("delta_true_float") && !want.at("delta_true_float").is_null()) {
      near(pp->last_deltas()[0], want.at("delta_true_float"), "delta_true");
      near(pp->last_deltas()[1], want.at("delta_wrong_float"), "delta_wrong");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dogma, Fixture, ::testing::Range<std::size_t>(0, fixtures().at("fixtures").size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                           return fixtures().at("fixtures").at(p.param).at("name").get<std::string>();
                         });

}  // namespace
}  // namespace plab
