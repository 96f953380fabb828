// Spec validation: every broken spec of tests/data/broken_specs (MANIFEST.tsv: file, expected
// message) is rejected naming the file and the JSON path, with a hint where one is close; every
// committed spec parses in both modes; and the exit codes of `plab reproduce` on tiny specs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "experiments/exit_codes.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/report/theory_figures.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kBroken = std::string(PLAB_TEST_DATA) + "/broken_specs";

struct Case {
  std::string file, expected;
};

std::vector<Case> manifest() {
  std::ifstream in(kBroken + "/MANIFEST.tsv");
  std::vector<Case> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    out.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1)});
  }
  return out;
}

std::string parse_error(const std::string& path) {
  try {
    load_spec(path, false);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SpecErrors, ManifestCoversTheCorpus) {
  const auto cases = manifest();
  EXPECT_GE(cases.size(), 15u);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(kBroken)) files += e.path().extension() == ".json";
  EXPECT_EQ(files, cases.size()) << "every broken spec needs a MANIFEST.tsv line";
}

TEST(SpecErrors, EveryBrokenSpecIsRejectedWithFileAndPath) {
  for (const auto& c : manifest()) {
    const std::string path = kBroken + "/" + c.file;
    const std::string msg = parse_error(path);
    ASSERT_FALSE(msg.empty()) << c.file << " was accepted";
    EXPECT_EQ(msg.rfind(path + ": /", 0), 0u) << c.file << ": " << msg;
    EXPECT_NE(msg.find(path + ": " + c.expected), std::string::npos) << c.file << ": " << msg;
  }
}

TEST(SpecErrors, QuickBlockErrorsAreFoundInFullMode) {
  const std::string path = kBroken + "/bad_quick_algorithm_id.json";
  EXPECT_THROW(load_spec(path, false), std::invalid_argument);
  EXPECT_THROW(load_spec(path, true), std::invalid_argument);
}

TEST(SpecErrors, CommittedSpecsParseInBothModes) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(std::string(PLAB_SOURCE_DIR) + "/experiments/specs")) {
    const std::string p = e.path().string();
    if (e.path().extension() != ".json" || p.find(".schema.") != std::string::npos) continue;
    EXPECT_NO_THROW(load_spec(p, false)) << p;
    EXPECT_NO_THROW(load_spec(p, true)) << p;
    ++n;
  }
  EXPECT_GE(n, 16u);
}

TEST(SpecErrors, TypedFieldsOfAParsedSpec) {
  const Spec s = parse_spec(json::parse(R"({"figure": "F",
    "datasets": [{"id": "d", "data": "synthetic:dekel:n=10", "kernel": {"type": "rbf", "gamma": 2}}],
    "algorithms": [{"id": "p", "algo": "projectron", "params": {"eta": [0.1, 0.2]}}],
    "bounds": {"comparator": "truth", "names": ["mr4_all_t"]},
    "plots": [{"id": "x", "type": "final", "x": "point:eta", "y": "bound:mr4_all_t", "series": [{"algorithm": "p"}]}],
    "claims": [{"claim": "c", "checks": [{"a": {"algorithm": "p", "metric": "mistakes"}, "op": "<=", "b": 3}]}]})"),
                            false, "inline");
  EXPECT_EQ(s.datasets[0].kernel.type, "rbf");
  EXPECT_DOUBLE_EQ(s.datasets[0].kernel.gamma, 2.0);
  EXPECT_EQ(s.algorithms[0].params.at("eta").kind, ParamSpec::Kind::grid);
  EXPECT_EQ(s.algorithms[0].params.at("eta").grid.size(), 2u);
  ASSERT_TRUE(s.bounds.has_value());
  EXPECT_EQ(s.bounds->ids, std::vector<std::string>{"mr4_all_t"});
  EXPECT_EQ(s.plots[0].type, FigurePlot::Type::final);
  EXPECT_EQ(s.plots[0].y, "bound:mr4_all_t");
  EXPECT_EQ(s.claims[0].checks[0].op, "<=");
  EXPECT_FALSE(s.claims[0].checks[0].b.has_value());
  EXPECT_EQ(s.claims[0].checks[0].number_text, "3");
}

TEST(SpecErrors, MetricPatterns) {
  EXPECT_TRUE(is_known_metric("online_error"));
  EXPECT_TRUE(is_known_metric("bound:novikoff"));
  EXPECT_TRUE(is_known_metric("bound_ratio:mr4_all_t"));
  EXPECT_FALSE(is_known_metric("bound:Novikoff (r/rho)^2"));
  EXPECT_FALSE(is_known_metric("bound_ratio:"));
  EXPECT_FALSE(is_known_metric("online_eror"));
}

// --- exit status of `plab reproduce` (cli/cmd_reproduce.cpp) ---

namespace {

using plab::test_util::TempDir;

json tiny() {
  return json::parse(R"({"figure": "X", "permutations": 1, "limit": 60,
    "datasets": [{"id": "d", "data": "synthetic:dekel:n=60,seed=3", "kernel": {"type": "rbf", "gamma": 1}}],
    "algorithms": [{"id": "p", "algo": "kernel-perceptron"}]})");
}

int run_reproduce(const TempDir& d, const json& spec, const std::string& extra = "") {
  fs::create_directories(d.p / "specs");
  std::ofstream(d.p / "specs" / "X.json") << spec.dump(2);
  const std::string cmd = std::string(PLAB_BIN_PATH) + " reproduce --jobs 1 --no-plots --specs " +
                          (d.p / "specs").string() + " --results " + (d.p / "results").string() + " " + extra +
                          " >" + (d.p / "log").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string log_of(const TempDir& d) { return plab::test_util::read_text(d.p / "log"); }

}  // namespace

TEST(ReproduceExit, ZeroWhenEverythingEvaluates) {
  TempDir d("ok");
  json j = tiny();
  j["claims"] = json::parse(R"([{"claim": "few", "checks": [{"a": {"algorithm": "p", "metric": "mistakes"}, "op": "<=", "b": 60}]}])");
  EXPECT_EQ(run_reproduce(d, j), 0) << log_of(d);
}

TEST(ReproduceExit, InvalidSpecIs2) {
  TempDir d("invalid");
  json j = tiny();
  j["permutation"] = 1;
  EXPECT_EQ(run_reproduce(d, j), 2);
  EXPECT_NE(log_of(d).find("/permutation: unknown key (did you mean \"permutations\"?)"), std::string::npos) << log_of(d);
}

// A copy of a committed spec with an option its owner does not take (the mistake a new user makes
// first): exit 2 naming the file, the JSON path and the option, before any cell runs.
TEST(ReproduceExit, AnOptionItsOwnerDoesNotTakeIs2BeforeAnyCell) {
  const json t1 = json::parse(std::ifstream(std::string(PLAB_SOURCE_DIR) + "/experiments/specs/T1.json"));
  json kernel = t1, bounds = t1;
  kernel["datasets"][0]["kernel"]["gamma"] = 0.5;
  bounds["bounds"]["svm_C"] = 2;
  const std::pair<json, std::string> cases[] = {
      {kernel, "X.json: /datasets/0/kernel/gamma: gamma is an option of the poly and rbf kernels, not of \"type\": "
               "\"linear\""},
      {bounds, "X.json: /bounds/svm_C: svm_C is an option of the auto and svm comparators, not of \"comparator\": "
               "\"truth\""}};
  for (const auto& [spec, message] : cases) {
    TempDir d("owner");
    EXPECT_EQ(run_reproduce(d, spec, "--quick"), 2) << log_of(d);
    EXPECT_NE(log_of(d).find(message), std::string::npos) << log_of(d);
    std::size_t cells = 0;
    if (fs::exists(d.p / "results"))
      for (const auto& e : fs::recursive_directory_iterator(d.p / "results")) cells += e.is_regular_file();
    EXPECT_EQ(cells, 0u) << "a cell ran before the spec was refused";
  }
}

TEST(ReproduceExit, FailedCellIs3) {
  TempDir d("cell");
  json j = tiny();
  // Each value in its declared range (checked when the spec is read), the pair refused when the
  // cell is configured: truncate comes from another algorithm's results, so the rule between the
  // two cannot be checked before (a fixed pair is refused when the spec is read: broken_specs).
  j["algorithms"].push_back({{"id", "r"}, {"algo", "norma"},
                             {"params", {{"truncate", {{"from", "p"}, {"field", "support_size"}}}, {"lambda", 2.0}}}});
  EXPECT_EQ(run_reproduce(d, j), 3) << log_of(d);
  EXPECT_NE(log_of(d).find("truncate needs learning_rate * lambda < 1"), std::string::npos) << log_of(d);
}

TEST(ReproduceExit, CheckDifferencesAre4) {
  TempDir d("check");
  const json j = tiny();
  ASSERT_EQ(run_reproduce(d, j, "--quick --update-reference"), 0) << log_of(d);
  const fs::path ref = d.p / "results" / "reference" / "X.json";
  json r = json::parse(std::ifstream(ref));
  r["groups"][0]["per_permutation"]["mistakes"][0] = r["groups"][0]["per_permutation"]["mistakes"][0].get<int>() + 1;
  std::ofstream(ref) << r.dump(2);
  EXPECT_EQ(run_reproduce(d, j, "--quick --check"), 4) << log_of(d);
}

// No spec can make a correct learner violate a theorem, so code 5 is checked on the decision:
// a group with a violated hard bound row, then the precedence of the codes.
TEST(ReproduceExit, HardBoundViolationIs5) {
  Group g;
  g.dataset = "d"; g.label = "p";
  g.bounds.push_back({"mr4_all_t", {json{{"id", "mr4_all_t"}, {"applicable", true}, {"hard", true}, {"holds", false},
                                         {"value", 3.0}, {"empirical", 4.0}}}});
  const auto bad = hard_bound_violations({g});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("mr4_all_t"), std::string::npos);
  EXPECT_EQ(reproduce_exit_code({bad.size(), 0, 0, 0}), 5);
  EXPECT_EQ(reproduce_exit_code({1, 1, 1, 1}), 5);
  EXPECT_EQ(reproduce_exit_code({0, 1, 1, 1}), 3);
  EXPECT_EQ(reproduce_exit_code({0, 0, 1, 1}), 4);
  EXPECT_EQ(reproduce_exit_code({0, 0, 0, 1}), 6);
  EXPECT_EQ(reproduce_exit_code({}), 0);
}

TEST(ReproduceExit, CodesAreInTheHelp) {
  TempDir d("help");
  const std::string cmd = std::string(PLAB_BIN_PATH) + " reproduce --help >" + (d.p / "log").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string help = log_of(d);
  for (const char* s : {"2 invalid arguments", "3 a cell failed", "4 --check", "5 a hard mistake bound is violated",
                        "6 a claim or published number"})
    EXPECT_NE(help.find(s), std::string::npos) << s << "\n" << help;
}

TEST(ReproduceExit, UnevaluatedClaimIs6) {
  TempDir d("claim");
  json j = tiny();
  j["claims"] = json::parse(R"([{"claim": "missing point", "checks": [{"a": {"algorithm": "p", "metric": "mistakes", "point": {"eta": 9}}, "op": "<", "b": 1}]}])");
  EXPECT_EQ(run_reproduce(d, j), 6) << log_of(d);
  EXPECT_NE(log_of(d).find("not evaluated (missing results)"), std::string::npos);
}

TEST(ReproduceExit, PublishedWithoutResultIs6) {
  TempDir d("published");
  json j = tiny();
  j["published"] = json::parse(R"([{"algorithm": "p", "metric": "test_error_last", "value": 0.1}])");
  EXPECT_EQ(run_reproduce(d, j), 6) << log_of(d);
  EXPECT_NE(log_of(d).find("no result"), std::string::npos);
}
