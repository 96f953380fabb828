// The contract every registered learner keeps, parameterised over the registry (a learner added
// with one registry line is covered without editing this file), and the toy learner that shows
// it: registered here with one call, it gets bounds, a colour and these contract tests.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>

#include "tests/test_util.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "config/recorded_options.hpp"
#include "config/given_options.hpp"
#include "bounds/option_owners.hpp"
#include "core/random.hpp"
#include "experiments/run/pipeline.hpp"
#include "experiments/run/run.hpp"
#include "experiments/report/plot.hpp"

namespace plab {
namespace {

// A new learner as a contributor would add it: its class ...
class ToyPerceptron final : public ExpansionLearner {
 public:
  using ExpansionLearner::ExpansionLearner;
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    if (r.mistake) {
      f_.add(x, t, x.y);
      norm2_ += r.kxx + 2.0 * x.y * r.score;
      r.update = UpdateKind::add;
    }
    return finish(r);
  }
};

// ... and its one registry entry (its name is the registry's: the class has none).
const LearnerInfo& kToy = register_learner({.name = "toy-perceptron", .bounds = {BoundFamily::perceptron},
                                            .color = "#123456",
                                            .summary = "a kernel Perceptron under another name",
                                            .make = maker_of<ToyPerceptron>()});

// A learner with options of its own, as docs/extending.md#learner adds one: the header's class
// with its struct Options (rows, defaults, the rule between them) ...
class ScratchMargin final : public ExpansionLearner {
 public:
  struct Options {
    double scratch_margin = 0.0;      // update while y f(x) <= margin
    std::size_t scratch_warmup = 0;   // rounds that update on every example
    static std::vector<OptionMember<Options>> rows() {
      return {{"scratch_margin", &Options::scratch_margin, "margin of the scratch learner", at_least(0)},
              {"scratch_warmup", &Options::scratch_warmup, "rounds of the scratch learner that always update",
               at_most(1000)}};
    }
    void validate(const SpellOption& spell) const {
      if (scratch_warmup > 0 && scratch_margin == 0.0)
        throw std::invalid_argument(spell("scratch_warmup") + " needs " + spell("scratch_margin") + " > 0");
    }
  };
  ScratchMargin(const LearnerOptions& o, const Options& own) : ExpansionLearner(o), own_(own) {}
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    if (x.y * r.score <= own_.scratch_margin || t <= static_cast<int64_t>(own_.scratch_warmup)) {
      f_.add(x, t, x.y);
      norm2_ += r.kxx + 2.0 * x.y * r.score;
      r.update = UpdateKind::add;
    }
    return finish(r);
  }
  const Options& options() const { return own_; }

 private:
  Options own_;
};

// ... and its one registry line.
const LearnerInfo& kScratch = register_learner({.name = "scratch-margin", .bounds = {},
                                                .color = "#1b9e77", .summary = "a margin Perceptron of this test",
                                                .make = own_maker_of<ScratchMargin>(),
                                                .own = own_options<ScratchMargin::Options>("Scratch options")});

// Noisy linear target, inputs ~ N(0, I) scaled to norm <= 1 on average.
Dataset noisy(std::size_t n, std::size_t dim, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> w(dim), x(dim);
  for (auto& v : w) v = rng.normal();
  Dataset d;
  for (std::size_t t = 0; t < n; ++t) {
    double m = 0.0;
    for (std::size_t j = 0; j < dim; ++j) { x[j] = rng.normal() / std::sqrt(double(dim)); m += w[j] * x[j]; }
    d.push_dense(x, (m >= 0.0) != (rng.uniform() < 0.1) ? 1.0 : -1.0);
  }
  d.dim = dim;
  return d;
}

// Three noisy linear classes (class = arg max of three random directions, 10% relabelled).
Dataset noisy_classes(std::size_t n, std::size_t dim, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<double>> w(3, std::vector<double>(dim));
  for (auto& wc : w) for (auto& v : wc) v = rng.normal();
  std::vector<double> x(dim);
  Dataset d;
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<double> s(3, 0.0);
    for (std::size_t j = 0; j < dim; ++j) {
      x[j] = rng.normal() / std::sqrt(double(dim));
      for (std::size_t c = 0; c < 3; ++c) s[c] += w[c][j] * x[j];
    }
    std::size_t y = static_cast<std::size_t>(std::max_element(s.begin(), s.end()) - s.begin());
    if (rng.uniform() < 0.1) y = rng.below(3);
    d.push_dense(x, static_cast<double>(y));
  }
  d.dim = dim;
  d.classes = {0.0, 1.0, 2.0};
  return d;
}

// The contract's data: binary, or three classes for multiclass learners.
Dataset data_for(const LearnerInfo& info, std::size_t n, std::size_t dim, uint64_t seed) {
  return info.multiclass ? noisy_classes(n, dim, seed) : noisy(n, dim, seed);
}

// Options every learner accepts: a budget for budget learners, NORMA with a margin.
LearnerOptions options_for(const LearnerInfo& info, const Kernel& k, std::size_t dim) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = dim;
  if (info.multiclass) o.classes = 3;
  if (info.uses("budget")) o.own["budget"] = 20;
  if (info.name == "norma") o.own = {{"rho", 0.5}, {"lambda", 0.01}};  // its own options
  return o;
}

std::vector<Kernel> kernels_for(const LearnerInfo& info) {
  std::vector<Kernel> ks;
  for (const Kernel& k : {Kernel::linear(), Kernel::rbf(0.5)})
    if (info.takes(k)) ks.push_back(k);
  return ks;
}

class Contract : public ::testing::TestWithParam<std::string> {
 protected:
  const LearnerInfo& info() const { return learner_info(GetParam()); }
};

TEST_P(Contract, DescriptorIsComplete) {
  const LearnerInfo& l = info();
  EXPECT_FALSE(l.summary.empty());
  EXPECT_TRUE(std::regex_match(l.color, std::regex("#[0-9a-f]{6}"))) << l.color;
  EXPECT_EQ(plot_color(l.name), l.color);
}

// Every option a registry entry takes is declared (type, default, range, help), and its declared
// owners name this learner; the declared default of a taken option is the LearnerOptions default.
TEST_P(Contract, EveryOptionTakenIsDeclared) {
  const LearnerInfo& l = info();
  const auto rows = declared_options();
  for (const auto& own : l.own.rows) {  // its own: one row, its owners the learners that declare it alike
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const OptionDecl& d) { return d.same_as(own); });
    ASSERT_NE(it, rows.end()) << own.name;
    EXPECT_TRUE(std::find(it->owners.begin(), it->owners.end(), l.name) != it->owners.end()) << own.name;
    EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [&](const OptionDecl& d) {
                return d.kind == "learner" && d.name == own.name && d.takes(l.name);
              }), 1) << own.name << ": one row of the name is its";
    EXPECT_FALSE(it->help.empty());
  }
}

// docs/learners.md has a section for the learner (its options table there is generated: plab docs,
// checked by DocTables.CommittedCopiesAreGenerated).
TEST_P(Contract, HasADocsSection) {
  if (GetParam() == kToy.name || GetParam() == kScratch.name) GTEST_SKIP() << "registered by this test file, not documented";
  std::ifstream in(std::string(PLAB_TEST_DATA) + "/../../docs/learners.md");
  ASSERT_TRUE(in) << "docs/learners.md";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bool found = false;
  for (std::size_t p = doc.find("\n## "); p != std::string::npos && !found; p = doc.find("\n## ", p + 1))
    found = doc.substr(p, doc.find('\n', p + 1) - p).find("`" + GetParam() + "`") != std::string::npos;
  EXPECT_TRUE(found) << "no section for " << GetParam();
}

// Records: score before the update, ties are mistakes, support and t as reported; the running
// ||f||^2 equals alpha^T K alpha; "last" is the first hypothesis; the same options give the same run.
TEST_P(Contract, RoundRecordsKeepTheSchema) {
  const Dataset d = data_for(info(), 600, 4, 21);
  for (const Kernel& k : kernels_for(info())) {
    SCOPED_TRACE(k.describe());
    const LearnerOptions o = options_for(info(), k, 4);
    auto L = test_util::configured_learner(GetParam(), o);
    for (std::size_t t = 0; t < d.size(); ++t) {
      const double before = L->score(d[t]);
      const RoundRecord r = L->learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_EQ(r.t, static_cast<int64_t>(t + 1));
      // The Projectron scores in its orthonormal coordinates: the same number up to rounding.
      ASSERT_NEAR(r.score, before, 1e-9 * std::max(1.0, std::abs(before))) << "t=" << t + 1;
      ASSERT_EQ(r.mistake, (info().multiclass ? 1.0 : r.y) * r.score <= 0.0) << "t=" << t + 1;
      ASSERT_EQ(static_cast<std::size_t>(r.support_size), L->support_size()) << "t=" << t + 1;
      if ((t + 1) % 100 == 0) {
        const double ex = L->norm2_exact();
        ASSERT_NEAR(L->norm2(), ex, 1e-8 * std::max(1.0, std::abs(ex))) << "t=" << t + 1;
      }
    }
    ASSERT_FALSE(L->hypotheses().empty());
    EXPECT_EQ(L->hypotheses().front(), "last");
    EXPECT_EQ(L->score_as("last", d[0]), L->score(d[0]));
  }
}

TEST_P(Contract, LearnBlockEqualsRoundByRoundAndIsDeterministic) {
  const Dataset d = data_for(info(), 400, 3, 22);
  const LearnerOptions o = options_for(info(), kernels_for(info()).back(), 3);
  auto one = test_util::configured_learner(GetParam(), o), blk = test_util::configured_learner(GetParam(), o);
  std::vector<Example> xs;
  for (std::size_t t = 0; t < d.size(); ++t) xs.push_back(d[t]);
  std::vector<RoundRecord> b(d.size());
  blk->learn_block(xs.data(), xs.size(), 1, b.data());
  for (std::size_t t = 0; t < d.size(); ++t) {
    const RoundRecord r = one->learn(d[t], static_cast<int64_t>(t + 1));
    ASSERT_EQ(r.score, b[t].score) << "t=" << t + 1;
    ASSERT_EQ(r.update, b[t].update) << "t=" << t + 1;
    ASSERT_EQ(r.support_size, b[t].support_size) << "t=" << t + 1;
  }
}

// The bound families of the descriptor are what the pipeline evaluates: a learner with families
// gets applicable rows with known ids; one without gets none.
TEST_P(Contract, PipelineEvaluatesTheDeclaredBounds) {
  const Dataset d = data_for(info(), 300, 3, 23);
  RunRequest req;
  req.learner = test_util::configured(GetParam(), options_for(info(), kernels_for(info()).front(), 3));
  req.train = &d;
  req.order = make_order(d.size(), 5);
  req.comparator.kind = "svm";
  const RunReport rep = run_pipeline(req);
  if (info().bounds.empty()) {
    EXPECT_TRUE(rep.bounds.empty());
    return;
  }
  ASSERT_FALSE(rep.bounds.empty());
  std::size_t applicable = 0;
  for (const auto& b : rep.bounds) {
    EXPECT_NE(find_bound(b.id), nullptr) << b.id;
    applicable += b.applicable;
    if (b.applicable && b.hard) { EXPECT_TRUE(b.holds) << b.id; }
  }
  EXPECT_GT(applicable, 0u);
}

INSTANTIATE_TEST_SUITE_P(Registry, Contract, ::testing::ValuesIn(learner_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n;
                           for (char c : p.param) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

// The toy learner is in the registry, so the suite above ran for it; and it behaves as the kernel
// Perceptron it copies, bound rows included.
TEST(ToyLearner, OneRegistryLineGivesBoundsColourAndContract) {
  const auto names = learner_names();
  ASSERT_NE(std::find(names.begin(), names.end(), "toy-perceptron"), names.end());
  EXPECT_EQ(plot_color("toy-perceptron"), kToy.color);
  const Dataset d = noisy(300, 3, 24);
  RunRequest req;
  LearnerOptions o;
  o.kernel = Kernel::rbf(0.5);
  req.train = &d;
  req.order = make_order(d.size(), 9);
  req.learner = test_util::configured("toy-perceptron", o);
  const RunReport toy = run_pipeline(req);
  req.learner = test_util::configured("kernel-perceptron", o);
  const RunReport ref = run_pipeline(req);
  ASSERT_EQ(toy.bounds.size(), ref.bounds.size());
  for (std::size_t i = 0; i < toy.bounds.size(); ++i) {
    EXPECT_EQ(toy.bounds[i].id, ref.bounds[i].id);
    EXPECT_EQ(toy.bounds[i].applicable, ref.bounds[i].applicable);
    if (ref.bounds[i].applicable) { EXPECT_EQ(toy.bounds[i].value, ref.bounds[i].value) << ref.bounds[i].id; }
  }
  EXPECT_EQ(toy.run.mistakes, ref.run.mistakes);
}

// The checks every entry passes, the built-ins included (they are registered through them).
TEST(Registry, RejectsBadRegistrations) {
  auto rejects = [](LearnerInfo info, const std::string& why) {
    try {
      register_learner(std::move(info));
      ADD_FAILURE() << "accepted: " << why;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  rejects(kToy, "exists");
  // kToy under a new name with one field spoilt.
  auto spoilt = [](const std::string& name, auto spoil) {
    LearnerInfo i = kToy;
    i.name = name;
    spoil(i);
    return i;
  };
  struct RealBudget {  // a budget of another type than the budget learners'
    double budget = 1.0;
    static std::vector<OptionMember<RealBudget>> rows() { return {{"budget", &RealBudget::budget, "a real budget"}}; }
  };
  rejects(spoilt("toy-2", [](LearnerInfo& i) { i.own = own_options<RealBudget>("Toy options"); }),
          "own option 'budget' is a real, another learner's is a count");
  struct DashedKey {  // a key is its spec key and its flag with '-' for '_'
    double my_rate = 1.0;
    static std::vector<OptionMember<DashedKey>> rows() { return {{"my-rate", &DashedKey::my_rate, "a rate"}}; }
  };
  rejects(spoilt("toy-6", [](LearnerInfo& i) { i.own = own_options<DashedKey>("Toy options"); }),
          "own option 'my-rate': a key is written with '_', not '-'");
  struct RunKey {  // --limit is the run's
    double limit = 1.0;
    static std::vector<OptionMember<RunKey>> rows() { return {{"limit", &RunKey::limit, "a limit"}}; }
  };
  rejects(spoilt("toy-7", [](LearnerInfo& i) { i.own = own_options<RunKey>("Toy options"); }),
          "own option 'limit' is the run option --limit");
  rejects(spoilt("toy-3", [](LearnerInfo& i) { i.color = "red"; }), "#rrggbb");
  rejects(spoilt("toy-4", [](LearnerInfo& i) { i.summary.clear(); }), "no summary");
  rejects(spoilt("toy-5", [](LearnerInfo& i) { i.make = nullptr; }), "no maker");
  rejects(spoilt("", [](LearnerInfo&) {}), "empty name");
  // A built-in that failed them would have thrown when the table was built: all of them are here.
  EXPECT_GE(learner_names().size(), 17u);
}

// Ranges come from the declarations, for every learner taking the option, with the flag named.
TEST(Registry, DeclaredRangesAreChecked) {
  auto message = [](const std::string& algo, LearnerOptions o) -> std::string {
    o.kernel = Kernel::rbf(0.5);
    o.dim = 2;
    o.classes = 3;
    try {
      test_util::configured_learner(algo, o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  LearnerOptions o;
  o.own["eta"] = -0.5;
  EXPECT_EQ(message("projectron", o), "--eta must be >= 0 (and finite) for projectron, got -0.5");
  EXPECT_EQ(message("multiclass-projectron++", o), "--eta must be >= 0 (and finite) for multiclass-projectron++, got -0.5");
  EXPECT_EQ(message("kernel-perceptron", o), "");  // an option it does not take is not checked (nor given)
  o = {};
  for (const std::string& algo : learners_taking("budget"))
    EXPECT_EQ(message(algo, o), "--budget must be >= 1 for " + algo + ", got 0");  // the default: B must be given
  o.own["budget"] = 3;
  o.own["nu"] = 1.5;  // NORMA's own option
  // A bound from above is said with the option's help (a count's help states its cost).
  EXPECT_EQ(message("norma", o).rfind("--nu must be <= 1 (and finite) for norma, got 1.5 (", 0), 0u) << message("norma", o);
  o = {};
  o.own["update_rule"] = "softmax";
  EXPECT_NE(message("multiclass-perceptron", o).find("--update-rule: unknown value 'softmax'"), std::string::npos);
}

// A learner's own Options, registered at run time: its rows are declared options (one owner),
// the one configuration step fills their defaults, checks their ranges and its rule in the front
// end's spelling, refuses them to other learners, and the run and its metadata carry them.
TEST(OwnOptions, ScratchLearnerTakesItsOwnOptionsThroughEveryDoor) {
  const auto error = [](const std::string& algo, const nlohmann::json& given) -> std::string {
    try {
      configure_learner(algo, given_from_json(given));
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  LearnerOptions o = configure_learner("scratch-margin", given_from_json({{"scratch_margin", 0.5}}));
  EXPECT_EQ(o.own, nlohmann::json({{"scratch_margin", 0.5}, {"scratch_warmup", 0}}));
  o = configure_learner("scratch-margin", given_from_json(nlohmann::json::object()));
  EXPECT_EQ(o.own, nlohmann::json({{"scratch_margin", 0.0}, {"scratch_warmup", 0}}));  // the struct's defaults
  EXPECT_EQ(error("scratch-margin", {{"scratch_margin", -1.0}}),
            "scratch_margin must be >= 0 (and finite) for scratch-margin, got -1");
  EXPECT_EQ(error("scratch-margin", {{"scratch_warmup", 5}}), "scratch_warmup needs scratch_margin > 0");
  EXPECT_EQ(error("scratch-margin", {{"scratch_warmup", 2.5}}), "scratch_warmup must be a non-negative integer, got 2.5");
  EXPECT_EQ(error("scratch-margin", {{"budget", 5}}),
            "budget is not an option of scratch-margin (its options: scratch_margin, scratch_warmup); it is an option of "
            + join_and(learners_taking("budget")));
  EXPECT_EQ(error("kernel-perceptron", {{"scratch_margin", 0.5}}),
            "scratch_margin is not an option of kernel-perceptron (it takes no learner options); it is an option of "
            "scratch-margin");
  // Options built by hand pass the same check before make_learner (here spelt as plab run's flags).
  LearnerOptions by_hand;
  by_hand.own = {{"scratch_warmup", 3}};
  try {
    test_util::configured_learner("scratch-margin", by_hand);
    ADD_FAILURE() << "the rule was not checked";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--scratch-warmup needs --scratch-margin > 0");
  }
  // The typed Options reach the learner; the run's metadata and its model file carry them.
  RunRequest req;
  const Dataset d = noisy(300, 4, 5);
  req.train = &d;
  req.bounds = false;
  req.learner = configure_learner("scratch-margin", given_from_json({{"scratch_margin", 0.25}, {"scratch_warmup", 7},
                                                                     {"kernel", "rbf"}, {"gamma", 0.5}}));
  req.order = make_order(d.size(), 5);
  const RunReport rep = run_pipeline(req);
  const auto* l = dynamic_cast<const ScratchMargin*>(rep.learner.get());
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->options().scratch_margin, 0.25);
  EXPECT_EQ(l->options().scratch_warmup, 7u);
  EXPECT_EQ(run_meta(req, rep)["options"], nlohmann::json({{"scratch_margin", 0.25}, {"scratch_warmup", 7}}));
  const RunFacts facts = facts_from_meta(run_meta(req, rep));  // a trace's metadata read back
  EXPECT_EQ(facts.options.own, rep.facts.options.own);
}

TEST(Registry, UnknownNameSuggestsTheNearest) {
  try {
    learner_info("projectronn");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean \"projectron\"?"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace plab
