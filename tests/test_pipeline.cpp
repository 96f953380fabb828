// One run pipeline: `plab run` and a reproduce cell of the same configuration report the same
// results and the same bound rows, field by field; options a learner does not use are errors
// by either path.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "algorithms/bpa.hpp"
#include "config/given_options.hpp"
#include "experiments/cell/cell.hpp"
#include "experiments/spec/spec.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The cells of a one-algorithm spec on a synthetic set with the SVM comparator.
std::vector<Cell> cells_of(const std::string& algo, const json& params) {
  const json j = {{"figure", "PIPE"},
                  {"permutations", 1},
                  {"datasets", {{{"id", "dk"}, {"data", "synthetic:dekel:n=300,seed=3"},
                                 {"kernel", {{"type", "rbf"}, {"gamma", 1.0}}}}}},
                  {"algorithms", {{{"id", "a"}, {"algo", algo}, {"params", params}}}},
                  {"bounds", {{"comparator", "svm"}, {"svm_C", 1.0}}}};
  return expand_independent(parse_spec(j, false));
}

// `plab run` of the same configuration: the permutation seed shuffles the rounds and seeds the
// comparator, the cell's options become flags.
json run_cli_summary(const Cell& c) {
  const fs::path out = fs::temp_directory_path() / ("plab_pipe_" + std::to_string(::getpid()) + ".json");
  std::string args = "run --quiet --algo " + c.algo + " --data " + c.data + " --kernel rbf --gamma 1 --shuffle " +
                     std::to_string(c.perm_seed) + " --comparator svm --svm-C 1 --summary " + out.string();
  const json params = learner_params(c);
  for (const auto& [k, v] : params.items())
    args += " " + flag_spelling(k) + " " + (v.is_string() ? v.get<std::string>() : v.dump());
  const auto r = test_util::run_cli(args);
  EXPECT_EQ(r.status, 0) << r.output;
  std::ifstream in(out);
  json s = json::parse(in);
  fs::remove(out);
  return s;
}

void expect_same_run(const std::string& algo, const json& params) {
  SCOPED_TRACE(algo);
  const Cell c = cells_of(algo, params).at(0);
  DataCache cache;
  const json cell = run_cell(c, cache.get(c), nullptr);
  const json cli = run_cli_summary(c);
  for (const char* k : {"rounds", "mistakes", "updates", "margin_errors", "support_size", "f_norm2"})
    EXPECT_EQ(cell["results"][k], cli["results"][k]) << k;
  const json& a = cell["bounds"];
  const json& b = cli["bounds"];
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 0u);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (const auto& [field, v] : a[i].items()) EXPECT_EQ(v, b[i][field]) << a[i]["id"] << " " << field;
}

TEST(Pipeline, PlabRunAndReproduceCellAgreeFieldByField) {
  expect_same_run("projectron++", {{"eta", 0.2}, {"eta_convention", "dogma"}});
  expect_same_run("rbp", {{"budget", 15}});  // the learner seed reaches both paths
  expect_same_run("kernel-perceptron", json::object());
}

TEST(Pipeline, UnusedOptionIsAnErrorNamingOptionAndLearner) {
  const auto r = test_util::run_cli("run --algo kernel-perceptron --data synthetic:dekel:n=50 --budget 50");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--budget is not an option of kernel-perceptron"), std::string::npos) << r.output;
  const auto e = test_util::run_cli("run --algo pa1 --data synthetic:dekel:n=50 --eta 0.1");
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.output.find("--eta is not an option of pa1 (its options: --C, --eta-convention)"), std::string::npos) << e.output;
  try {  // a spec is checked when it is loaded, naming the JSON path
    cells_of("perceptron", {{"budget", 5}});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& ex) {
    EXPECT_NE(std::string(ex.what()).find("/algorithms/0/params/budget: budget is not an option of perceptron"),
              std::string::npos) << ex.what();
  }
  Cell c = cells_of("kernel-perceptron", json::object()).at(0);  // and a cell built by hand, when it runs
  c.options = {{"budget", 5}};
  DataCache cache;
  try {
    run_cell(c, cache.get(c), nullptr);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& ex) {
    EXPECT_NE(std::string(ex.what()).find("budget is not an option of kernel-perceptron"), std::string::npos) << ex.what();
  }
}

TEST(Pipeline, BadFlagValuesExitWith2) {
  EXPECT_EQ(test_util::run_cli("run --algo rbp --data synthetic:dekel:n=50 --budget abc").status, 2);
  EXPECT_EQ(test_util::run_cli("run --algo rbp --data synthetic:dekel:n=50 --budget -3").status, 2);
  EXPECT_EQ(test_util::run_cli("run --data synthetic:dekel:n=50").status, 2);  // --algo missing
  EXPECT_EQ(test_util::run_cli("run --help").status, 0);
  const auto pa = test_util::run_cli("run --quiet --no-bounds --algo pa1 --data synthetic:dekel:n=50 --eta-convention dogma");
  EXPECT_EQ(pa.status, 0) << pa.output;  // PA-I reads the convention (DOGMA's margin-1 rule)
}

TEST(Pipeline, OptionValuesAreCheckedAgainstTheTable) {
  const auto r = test_util::run_cli("run --algo projectron --data synthetic:dekel:n=50 --eta-convention dogmaa");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--eta-convention"), std::string::npos) << r.output;
  // The same through the one configuration step, as a spec, a model header or trace metadata give them.
  const auto configured = [](const std::string& algo, const json& j) { return configure_learner(algo, given_from_json(j, "test")); };
  const LearnerInfo& bpa = learner_info("bpa-s");  // budget and C, declared alike by the budget learners and PA-I
  EXPECT_THROW(configured("bpa-s", {{"budget", -3}}), std::invalid_argument);
  EXPECT_THROW(configured("bpa-s", {{"C", "0.1"}}), std::invalid_argument);
  try {
    configured("bpa-s", {{"budgte", 3}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean \"budget\"?"), std::string::npos) << e.what();
  }
  const LearnerOptions o = configured("bpa-s", {{"C", 2.5}, {"budget", 7}});
  EXPECT_EQ(options_from<BudgetPassiveAggressive::Options>(o.own).C, 2.5);
  EXPECT_EQ(options_from<BudgetPassiveAggressive::Options>(o.own).budget, 7u);
  EXPECT_EQ(bpa.options_json(o), (json{{"budget", 7}, {"C", 2.5}}));
  // A learner's own option (the Projectron's eta_convention): taken by it, refused by another.
  EXPECT_EQ(configured("projectron", {{"eta_convention", "dogma"}}).options().own.at("eta_convention"), "dogma");
  EXPECT_THROW(configured("bpa-s", {{"eta_convention", "dogma"}}), std::invalid_argument);
  EXPECT_THROW(configured("projectron", {{"eta_convention", "dogmaa"}}), std::invalid_argument);
}

}  // namespace
}  // namespace plab
