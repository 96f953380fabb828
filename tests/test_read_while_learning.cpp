// A LIBSVM file learned while it is read (docs/inputs.md#read-while-learning): every record, bound row,
// comparator and ||f_T||^2 equal those of the same file read whole first, with and without a limit,
// for learners of every kind; and the file's own error comes first, in the words of a whole read.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "bounds/bounds.hpp"
#include "config/run_config.hpp"
#include "core/random.hpp"
#include "datasets/background_load.hpp"
#include "experiments/run/pipeline.hpp"
#include "experiments/run/trace.hpp"
#include "test_util.hpp"

namespace {

using namespace plab;

// `n` rows of 12 features (some absent), a comment and a blank line among them, labels ±1 from a
// fixed hyperplane with noise: written by the test's own generator.
std::string arriving_rows(std::size_t n, uint64_t seed) {
  Rng rng(seed);
  std::string out = "# read while learning\n";
  char buf[48];
  for (std::size_t i = 0; i < n; ++i) {
    if (i == n / 3) out += "\n";
    std::string feats;
    double s = 0.0;
    for (std::size_t j = 0; j < 12; ++j) {
      if (rng.uniform() < 0.3) continue;
      const double v = 2.0 * rng.uniform() - 1.0;
      s += (j % 2 ? 1.0 : -0.7) * v;
      std::snprintf(buf, sizeof buf, " %zu:%.6g", j + 1, v);
      feats += buf;
    }
    out += ((s > 0) != (rng.uniform() < 0.1) ? "+1" : "-1") + feats + "\n";
  }
  return out;
}

struct Outcome {
  std::string records, bounds, comparator;
  double norm = 0.0;
  std::size_t count = 0;
};

Outcome outcome(const RunReport& rep) {
  Outcome o;
  o.records = trace_csv(rep.run.rounds, nlohmann::json::object());
  for (const auto& b : rep.bounds) o.bounds += to_json(b).dump() + "\n";
  o.comparator = rep.comparator.dump();
  o.norm = rep.f_norm2_exact;
  o.count = rep.run.count;
  return o;
}

// One run of `params` over `path`: read whole first, or learned while it is read.
Outcome run_file(const std::string& path, const nlohmann::json& params, bool arriving, std::size_t limit) {
  const GivenOptions given = given_from_json(params, "test");
  const std::string algo = params.at("algo");
  GivenOptions learner = given;
  learner.values.erase("algo");
  RunRequest req;
  req.stream_limit = limit;
  std::optional<BackgroundLoad> load;
  Dataset whole;
  if (arriving) {
    load.emplace(path, LoadOptions{});
    req.loading = &*load;
  } else {
    whole = load_dataset(path, LoadOptions{});
    req.train = &whole;
    req.order = make_order(whole.size(), std::nullopt, limit);
  }
  req.take(configure(learner, {.algo = algo, .data = arriving ? nullptr : &whole, .permutation_seed = 7}));
  return outcome(run_pipeline(req));
}

}  // namespace

TEST(ReadWhileLearning, RecordsAndBoundsEqualTheWholeFile) {
  test_util::TempDir dir("arriving");
  const std::string path = (dir.p / "d.libsvm").string();
  std::ofstream(path) << arriving_rows(3000, 5);
  const nlohmann::json runs[] = {
      {{"algo", "perceptron"}},
      {{"algo", "kernel-perceptron"}, {"kernel", "rbf"}, {"gamma", 0.3}},
      {{"algo", "forgetron"}, {"budget", 40}, {"kernel", "rbf"}, {"gamma", 0.3}},
      {{"algo", "projectron++"}, {"eta", 0.2}, {"kernel", "rbf"}, {"gamma", 0.3}},
      {{"algo", "pa1"}, {"C", 0.5}, {"kernel", "poly"}, {"degree", 2}},
      {{"algo", "bogd"}, {"budget", 60}, {"kernel", "rbf"}, {"gamma", 0.3}},
      {{"algo", "fogd"}, {"kernel", "rbf"}, {"gamma", 0.3}},
      {{"algo", "nogd"}, {"budget", 80}, {"kernel", "rbf"}, {"gamma", 0.3}},
  };
  for (const auto& params : runs)
    for (const std::size_t limit : {std::size_t{0}, std::size_t{777}}) {
      const std::string what = params.dump() + " limit " + std::to_string(limit);
      const Outcome whole = run_file(path, params, false, limit), arriving = run_file(path, params, true, limit);
      EXPECT_EQ(arriving.count, limit ? limit : 3000) << what;
      EXPECT_EQ(arriving.count, whole.count) << what;
      EXPECT_EQ(arriving.records, whole.records) << what;
      EXPECT_TRUE(!whole.bounds.empty() || params["algo"] == "pa1") << what;  // PA-I has no bound family
      EXPECT_EQ(arriving.bounds, whole.bounds) << what;
      EXPECT_EQ(arriving.comparator, whole.comparator) << what;
      EXPECT_TRUE(test_util::same_bits(arriving.norm, whole.norm)) << what;
    }
}

TEST(ReadWhileLearning, ACompressedFileIsHandedOverWhenRead) {
  test_util::TempDir dir("arriving_gz");
  const std::string path = (dir.p / "d.libsvm").string();
  std::ofstream(path) << arriving_rows(1200, 21);
  ASSERT_EQ(std::system(("gzip -k -f '" + path + "'").c_str()), 0);
  const nlohmann::json params = {{"algo", "rbp"}, {"budget", 50}, {"kernel", "rbf"}, {"gamma", 0.5}};
  const Outcome whole = run_file(path, params, false, 0), arriving = run_file(path + ".gz", params, true, 0);
  EXPECT_EQ(arriving.count, 1200u);
  EXPECT_EQ(arriving.records, whole.records);
  EXPECT_EQ(arriving.bounds, whole.bounds);
}

TEST(ReadWhileLearning, TheFilesErrorComesFirstInTheWordsOfAWholeRead) {
  test_util::TempDir dir("arriving_err");
  const auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  // A bad value late in the file, and a learner that fails earlier: the file's error is the one said.
  const std::string path = (dir.p / "bad.libsvm").string();
  std::string text = arriving_rows(2500, 9);
  text += "+1 1:0.5 2:x\n";
  std::ofstream(path) << text;
  const std::string whole = message([&] { load_dataset(path, LoadOptions{}); });
  ASSERT_NE(whole.find(path + ":2503:"), std::string::npos) << whole;
  for (const nlohmann::json& params : {nlohmann::json{{"algo", "perceptron"}},
                                       nlohmann::json{{"algo", "rbp"}, {"budget", 30}, {"kernel", "rbf"}}})
    EXPECT_EQ(message([&] { run_file(path, params, true, 0); }), whole) << params.dump();
  // A learner's error on a good file names the file and the row, as with the file read whole.
  const std::string wide = (dir.p / "wide.libsvm").string();
  std::ofstream(wide) << arriving_rows(500, 3) << "+1 4000000000:1\n";
  const nlohmann::json perceptron = {{"algo", "perceptron"}};
  const std::string want = message([&] { run_file(wide, perceptron, false, 0); });
  ASSERT_NE(want.find(wide + ": row 501"), std::string::npos) << want;
  EXPECT_EQ(message([&] { run_file(wide, perceptron, true, 0); }), want);
}
