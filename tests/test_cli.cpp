// The plab program on bad input: a clear message naming the option / file / line, a non-zero
// exit status, never a crash. Runs the built binary (PLAB_BIN_PATH from CMake, or $PLAB_BIN).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

namespace {

using Result = plab::test_util::CliResult;
Result cli(const std::string& args) { return plab::test_util::run_cli(args); }

std::string temp_file(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("plab_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto p = dir / name;
  std::ofstream(p) << content;
  return p.string();
}

void expect_error(const std::string& args, const std::string& needle) {
  const Result r = cli(args);
  EXPECT_NE(r.status, 0) << args << "\n" << r.output;
  EXPECT_LT(r.status, 128) << "crashed: " << args << "\n" << r.output;
  EXPECT_NE(r.output.find(needle), std::string::npos) << "expected '" << needle << "' in:\n" << r.output;
}

}  // namespace

TEST(Cli, UnknownAlgorithmNamesTheOption) {
  expect_error("run --algo nosuch --data synthetic:dekel:n=10", "--algo");
}
TEST(Cli, UnknownOptionIsRejected) {
  expect_error("run --algo kernel-perceptron --data synthetic:dekel:n=10 --bogus 1", "--bogus");
}
TEST(Cli, BadKernelAndParameters) {
  expect_error("run --algo kernel-perceptron --data synthetic:dekel:n=10 --kernel cubic", "--kernel");
  expect_error("run --algo kernel-perceptron --data synthetic:dekel:n=10 --kernel rbf --gamma -1", "--gamma");
  expect_error("run --algo projectron --data synthetic:dekel:n=10 --kernel rbf --eta -0.5", "--eta");
  expect_error("run --algo rbp --data synthetic:dekel:n=10 --kernel rbf", "--budget");
  expect_error("run --algo rbp --data synthetic:dekel:n=10 --kernel rbf --budget -3", "--budget");
  expect_error("run --algo forgetron --data synthetic:dekel:n=10 --kernel rbf --budget=-3", "--budget");
  expect_error("run --algo stoptron --data synthetic:dekel:n=10 --kernel rbf --budget 0", "--budget");
  expect_error("run --algo perceptron --data synthetic:dekel:n=10 --limit=-1", "--limit");
  expect_error("run --algo rbp --data synthetic:dekel:n=10 --budget 5 --seed=-2", "--seed");
  expect_error("run --algo pa1 --data synthetic:dekel:n=10 --C 0", "--C");
  expect_error("run --algo projectron --data synthetic:dekel:n=10 --eta-convention other", "--eta-convention");
  expect_error("run --algo kernel-perceptron --data synthetic:dekel:n=10 --gamma abc", "--gamma");
}
TEST(Cli, MalformedFileNamesFileAndLine) {
  const auto f = temp_file("bad.svm", "+1 1:0.5 2:1\n-1 3:x\n");
  expect_error("run --algo perceptron --data " + f, f + ":2:");
  const auto g = temp_file("nan.svm", "+1 1:0.5\n+1 1:nan\n");
  expect_error("run --algo perceptron --data " + g, g + ":2:");
  const auto h = temp_file("label.svm", "+1 1:0.5\n7 1:1\n");
  expect_error("run --algo perceptron --data " + h, "label");
}
TEST(Cli, MissingDataListsWhereItLooked) {
  expect_error("run --algo perceptron --data /nonexistent/file.svm", "/nonexistent/file.svm");
  const Result r = cli("run --algo perceptron --data a9a --quiet --no-bounds");
  if (r.status != 0) {
    EXPECT_NE(r.output.find("PLAB_DATA"), std::string::npos) << r.output;
  }
  expect_error("run --algo perceptron --data synthetic:dekel:n=10 --test /nonexistent/test.svm",
               "/nonexistent/test.svm");
}
TEST(Cli, RunWritesSummaryAndTraceWithTheDocumentedKeys) {
  const auto dir = std::filesystem::temp_directory_path() / ("plab_cli_run_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string summary = (dir / "s.json").string(), trace = (dir / "t.csv").string();
  const Result r = cli("run --algo kernel-perceptron --data synthetic:dekel:n=300,seed=3 --kernel rbf "
                        "--gamma 1 --shuffle 5 --quiet --summary " + summary + " --trace " + trace);
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream s(summary);
  const std::string js((std::istreambuf_iterator<char>(s)), {});
  for (const char* key : {"\"rounds\"", "\"mistakes\"", "\"updates\"", "\"support_size\"", "\"seconds\"",
                          "\"sha256\"", "\"git\"", "\"shuffle_seed\"", "\"bounds\"", "\"holds\""})
    EXPECT_NE(js.find(key), std::string::npos) << key;
  std::ifstream t(trace);
  std::string meta, header;
  std::getline(t, meta);
  std::getline(t, header);
  EXPECT_EQ(meta.rfind("# {", 0), 0u);
  EXPECT_EQ(header.rfind("t,y,score,mistake,update,support_size", 0), 0u) << header;
  std::size_t rows = 0;
  for (std::string line; std::getline(t, line);) ++rows;
  EXPECT_EQ(rows, 300u);
  // The saved trace recomputes the same bounds.
  const Result b = cli("bounds --trace " + trace);
  EXPECT_EQ(b.status, 0) << b.output;
  EXPECT_NE(b.output.find("Cauchy-Schwarz"), std::string::npos) << b.output;
}
// Hand computation (docs/learners.md#voted-perceptron, sign(0) a mistake): training
// (1,0),(2,1),(-1,2), all +1, leaves v2 = (1,0) with c2 = 2 and v3 = (0,2) with c3 = 1, so last =
// (0,2), averaged = (2,2), voted = sign(2 sign(x1) + sign(x2)). On the test set A = (1,-.5,-1), B =
// (1,-3,+1), D = (-1,2,+1) twice: last errs on B (1/4), averaged on A, B (2/4), voted on A, D, D
// (3/4).
TEST(Cli, TestErrorOfEachHypothesis) {
  const auto tr = temp_file("vp_train.svm", "+1 1:1 2:0\n+1 1:2 2:1\n+1 1:-1 2:2\n");
  const auto te = temp_file("vp_test.svm", "-1 1:1 2:-0.5\n+1 1:1 2:-3\n+1 1:-1 2:2\n+1 1:-1 2:2\n");
  const std::string summary = temp_file("vp.json", "");
  const Result r = cli("run --algo voted-perceptron --kernel linear --data " + tr + " --test " + te +
                        " --no-bounds --summary " + summary);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto js = nlohmann::json::parse(std::ifstream(summary));
  const auto& e = js.at("results").at("test_error");
  EXPECT_EQ(e.size(), 3u) << e;
  EXPECT_DOUBLE_EQ(e.at("last").get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(e.at("averaged").get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(e.at("voted").get<double>(), 0.75);
  EXPECT_NE(r.output.find("test error (voted hypothesis): 75.0000%"), std::string::npos) << r.output;
  // A learner whose old coefficients change (Forgetron shrinks them) has no averaged hypothesis.
  const Result f = cli("run --algo forgetron --budget 2 --data synthetic:dekel:n=200,seed=3 --kernel rbf "
                        "--gamma 1 --test synthetic:dekel:n=50,seed=4 --quiet --no-bounds --summary " + summary);
  ASSERT_EQ(f.status, 0) << f.output;
  const auto fe = nlohmann::json::parse(std::ifstream(summary)).at("results").at("test_error");
  EXPECT_EQ(fe.size(), 1u) << fe;
  EXPECT_TRUE(fe.contains("last")) << fe;
}
TEST(Cli, ProgressLinesAtPowersOfTwo) {
  const Result r = cli("run --algo perceptron --data synthetic:dekel:n=100 --no-bounds");
  ASSERT_EQ(r.status, 0) << r.output;
  for (int t : {1, 2, 4, 8, 16, 32, 64})
    EXPECT_NE(r.output.find(" " + std::to_string(t) + " rounds"), std::string::npos) << t;
  EXPECT_EQ(r.output.find(" 3 rounds"), std::string::npos);
}
