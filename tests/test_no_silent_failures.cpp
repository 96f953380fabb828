// What a careful user of plab expects when a score, a stream, a thread or an output fails: never a
// silent wrong answer (a non-finite score is an error, docs/models.md#no-finite-score), a stream cut
// mid-line said so, a thread the system cannot start not an abort, a write error a failure, and no
// temporary file left by a signal (docs/inputs.md#streams).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/test_util.hpp"

namespace plab {
namespace {

using test_util::run_cli;
using test_util::run_shell;

// Two supports of opposite signs, (1, 0) and (0, 1), in a cubic kernel (gamma 1, coef0 0): a row
// (1e110, 1e110) has k = (1e110)^3 = inf with both, so f = inf - inf = NaN. Both test rows score
// NaN, one labelled +1 and one -1: "predict -1" would count the second one correct.
struct NanScoresFixture {
  test_util::TempDir dir{"nan_scores"};
  std::string train = (dir.p / "train.svm").string(), test = (dir.p / "test.svm").string();
  std::string model = (dir.p / "m.plab").string();
  NanScoresFixture() {
    std::ofstream(train) << "+1 1:1\n-1 2:1\n";
    std::ofstream(test) << "+1 1:1e110 2:1e110\n-1 1:1e110 2:1e110\n";
  }
  std::string algo() const { return "--algo kernel-perceptron --kernel poly --degree 3 --gamma 1 --coef0 0 --quiet --no-bounds"; }
};

TEST(NoSilentFailures, NonFiniteScoresCountAsErrorsInPredictAndRunTest) {
  NanScoresFixture f;
  const std::string summary = (f.dir.p / "s.json").string();
  const auto run = run_cli("run " + f.algo() + " --data " + f.train + " --test " + f.test + " --summary " + summary +
                           " --save-model " + f.model);
  ASSERT_EQ(run.status, 0) << run.output;
  const auto res = nlohmann::json::parse(std::ifstream(summary)).at("results");
  EXPECT_EQ(res.at("test_error").at("last").get<double>(), 1.0) << res.dump();
  EXPECT_EQ(res.at("test_rows_no_finite_score").at("last").get<int>(), 2) << res.dump();
  const auto p = run_cli("predict --model " + f.model + " --data " + f.test + " --output " + (f.dir.p / "p.csv").string());
  ASSERT_EQ(p.status, 0) << p.output;
  EXPECT_NE(p.output.find("error 100.0000% (2 rows with y f(x) <= 0 or no finite score; 2 rows with no finite score)"),
            std::string::npos)
      << p.output;
}

TEST(NoSilentFailures, ShowAndPredictToStandardOutputFailOnAWriteError) {
  NanScoresFixture f;
  ASSERT_EQ(run_cli("run " + f.algo() + " --data " + f.train + " --save-model " + f.model).status, 0);
  const auto show = run_shell(test_util::plab_bin() + " model show " + f.model + " 2>&1 >/dev/full");
  EXPECT_EQ(show.status, 1) << show.output;
  EXPECT_NE(show.output.find("standard output"), std::string::npos) << show.output;
  const auto pred = run_shell(test_util::plab_bin() + " predict --model " + f.model + " --data " + f.train + " 2>&1 >/dev/full");
  EXPECT_EQ(pred.status, 1) << pred.output;
  EXPECT_NE(pred.output.find("standard output"), std::string::npos) << pred.output;
}

// A model path that is a pipe still open: only the first line is read before it is refused (a
// device such as /dev/zero is never read whole; the old reader waited for the end here).
TEST(NoSilentFailures, ModelFilesAreRefusedAtTheirFirstLineWithoutReadingTheRest) {
  test_util::TempDir dir("model_first_line");
  const std::string fifo = (dir.p / "m.fifo").string();
  const auto r = run_shell("cd " + dir.p.string() + " && mkfifo m.fifo && (sh -c \"printf 'hello\\n'; exec sleep 8\" > m.fifo 2>/dev/null &) && " +
                           "timeout 5 " + test_util::plab_bin() + " model show " + fifo + " 2>&1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("m.fifo: not a perceptron-lab model file"), std::string::npos) << r.output;
  const auto z = run_shell("timeout 5 " + test_util::plab_bin() + " predict --model /dev/zero --data x 2>&1");
  EXPECT_EQ(z.status, 2) << z.output;
  EXPECT_NE(z.output.find("/dev/zero: not a perceptron-lab model file"), std::string::npos) << z.output;
}

TEST(NoSilentFailures, AStreamsLastLineWithoutNewlineIsSaid) {
  test_util::TempDir dir("stream_cut");
  const std::string summary = (dir.p / "s.json").string();
  const std::string run = " run --algo perceptron --data - --quiet --no-bounds --summary " + summary + " 2>&1";
  const auto cut = run_shell("printf '+1 3:1\\n-1 2:1\\n+1 3:1 10:0.' | " + test_util::plab_bin() + run);
  ASSERT_EQ(cut.status, 0) << cut.output;
  EXPECT_NE(cut.output.find("the stream's last line (<stdin>:3) has no newline"), std::string::npos) << cut.output;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(summary)).at("data").at("unterminated_last_line"), 3);
  const auto whole = run_shell("printf '+1 3:1\\n-1 2:1\\n+1 3:1 10:0.5\\n' | " + test_util::plab_bin() + run);
  ASSERT_EQ(whole.status, 0) << whole.output;
  EXPECT_EQ(whole.output.find("no newline"), std::string::npos) << whole.output;
  EXPECT_FALSE(nlohmann::json::parse(std::ifstream(summary)).at("data").contains("unterminated_last_line"));
}

TEST(NoSilentFailures, ALineOverTheLengthLimitIsRefusedNamingIt) {
  const auto r = run_shell("head -c 70000000 /dev/zero | " + test_util::plab_bin() + " run --algo perceptron --data - --quiet 2>&1");
  EXPECT_EQ(r.status, 2) << r.output.substr(0, 400);
  EXPECT_NE(r.output.find("<stdin>:1: the line is longer than 64 MiB"), std::string::npos) << r.output.substr(0, 400);
}

#if !defined(__SANITIZE_ADDRESS__)  // the sanitizers reserve terabytes of address space: no ulimit -v
TEST(NoSilentFailures, ThreadsTheSystemCannotStartLeaveFewerThreadsNotAnAbort) {
  NanScoresFixture f;
  const auto r = run_shell("ulimit -v 1000000; " + test_util::plab_bin() + " run " + f.algo() + " --data " + f.train +
                           " --threads 200 2>&1");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("threads asked for (--threads): the run goes on with"), std::string::npos) << r.output;
}


// A primal Perceptron model scoring a row with feature index 2^31: the model's memory, not 16 GiB
// of weights sized by the data's dimension.
TEST(NoSilentFailures, PredictMemoryIsTheModelsNotTheDataDimensions) {
  test_util::TempDir dir("predict_dim");
  const std::string train = (dir.p / "t.svm").string(), big = (dir.p / "big.svm").string(), m = (dir.p / "m.plab").string();
  std::ofstream(train) << "+1 1:1\n-1 2:1\n";
  std::ofstream(big) << "+1 1:1 2147483648:1\n-1 2:1\n";
  ASSERT_EQ(run_cli("run --algo perceptron --data " + train + " --quiet --no-bounds --save-model " + m).status, 0);
  const auto r = run_shell("ulimit -v 2000000; " + test_util::plab_bin() + " predict --model " + m + " --data " + big + " 2>&1");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("error 0.0000%"), std::string::npos) << r.output;
}

// A stream holds no rows: running out of memory names the rows it gave and its dimension, not "0 rows".
TEST(NoSilentFailures, AStreamsOutOfMemoryMessageNamesTheRowsItGave) {
  const auto r = run_shell("ulimit -v 2000000; printf '+1 1:1\\n-1 2147483648:1\\n' | " + test_util::plab_bin() +
                           " run --algo perceptron --data - --quiet --no-bounds 2>&1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("out of memory running perceptron on <stdin> after 2 rows (dimension 2147483648: one support "
                          "stored densely takes 16384.0 MiB)"),
            std::string::npos)
      << r.output;
}
#endif

// pm1-to-01 densifies: 100 rows of dimension 2^31 - 1 (12 bytes a value, plus one dense row of 8 bytes
// a value: 2416 GiB) are refused before allocating.
TEST(NoSilentFailures, ADensifyingPreprocessThatCannotFitIsRefusedNamingItsCost) {
  test_util::TempDir dir("pm1_dense");
  const std::string data = (dir.p / "d.svm").string();
  {
    std::ofstream f(data);
    for (int i = 0; i < 100; ++i) f << (i % 2 ? "-1" : "+1") << " 2147483647:1\n";
  }
  const auto r = run_cli("run --algo perceptron --data " + data + " --preprocess pm1-to-01 --quiet --no-bounds");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--preprocess pm1-to-01 makes every row dense (an absent feature, 0, becomes 0.5): 100 rows x "
                          "dimension 2147483647 take 2416.0 GiB"),  // (12 x 100 + 8) bytes x (2^31 - 1)
            std::string::npos)
      << r.output;
}

// SIGTERM, SIGHUP and SIGPIPE while a stream's trace is written: the temporary rows file goes too.
TEST(NoSilentFailures, SignalsRemoveTheTracesTemporaryRows) {
  for (const char* sig : {"TERM", "HUP"}) {
    test_util::TempDir dir(std::string("signal_") + sig);
    const std::string script = "cd " + dir.p.string() + " || exit 9; sh -c \"printf '+1 1:1\\n-1 2:1\\n'; exec sleep 4\" | " +
                               test_util::plab_bin() + " run --algo perceptron --data - --quiet --trace t.csv 2>/dev/null & " +
                               "sleep 1; ls " + dir.p.string() + "; kill -" + sig + " $!; wait $!; echo status $?; ls " +
                               dir.p.string();
    const auto r = run_shell(script);
    const std::size_t status = r.output.find("status ");
    ASSERT_NE(status, std::string::npos) << r.output;
    EXPECT_NE(r.output.substr(0, status).find("t.csv.rows.tmp."), std::string::npos) << sig << ": " << r.output;
    EXPECT_EQ(r.output.find("t.csv.rows.tmp.", status), std::string::npos) << sig << ": " << r.output;
  }
  // SIGPIPE: `--trace -` read by a reader that stops early (the rows file is in the temporary folder).
  test_util::TempDir dir("signal_PIPE");
  const auto r = run_shell("cd " + dir.p.string() + " || exit 9; export TMPDIR=" + dir.p.string() +
                           "; seq 1 30000 | awk '{print ($1 % 2 ? \"+1\" : \"-1\") \" 1:\" ($1 % 7) / 7}' | " +
                           test_util::plab_bin() + " run --algo perceptron --data - --quiet --no-bounds --trace - | " +
                           "head -c 100 > /dev/null; echo listing; ls");
  EXPECT_NE(r.output.find("listing"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("rows.tmp."), std::string::npos) << r.output;
}

}  // namespace
}  // namespace plab
