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
// device such as /dev/zero is never read whole, and the refusal does not wait for the end).
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

// A row with feature index 2^31 would make the primal Perceptron's dense w 16 GiB from a 2-row
// input: refused before allocating, naming the data, row, round, feature index and cost, from a
// stream (was "out of memory ... dimension 2147483648"), a file, and continuing a model (was
// OOM-killed: load_state held two 16 GiB vectors; under a ulimit the error blamed the model).
TEST(NoSilentFailures, APrimalPerceptronRowWithAHugeFeatureIndexIsRefusedNamingTheRow) {
  test_util::TempDir dir("primal_dim");
  const std::string train = (dir.p / "t.svm").string(), wide = (dir.p / "wide.svm").string(), m = (dir.p / "m.plab").string();
  std::ofstream(train) << "+1 1:1\n-1 2:1\n";
  std::ofstream(wide) << "+1 1:1\n-1 2147483648:1\n";
  ASSERT_EQ(run_cli("run --algo perceptron --data " + train + " --quiet --no-bounds --save-model " + m).status, 0);
  const std::string cost = "feature index 2147483648: the perceptron's dense weight vector would take 2147483648 x 8 "
                           "bytes = 16.0 GiB, more than 1 GiB and than 64 bytes per non-zero";
  const std::string limit = "ulimit -v 2000000; ";
  const auto stream = run_shell(limit + "cat " + wide + " | " + test_util::plab_bin() + " run --algo perceptron --data - --quiet --no-bounds 2>&1");
  EXPECT_EQ(stream.status, 2) << stream.output;
  EXPECT_NE(stream.output.find("<stdin>: row 2 (round 2): " + cost), std::string::npos) << stream.output;
  const auto file = run_shell(limit + test_util::plab_bin() + " run --algo perceptron --data " + wide + " --quiet --no-bounds 2>&1");
  EXPECT_EQ(file.status, 2) << file.output;
  EXPECT_NE(file.output.find(wide + ": row 2 (round 2): " + cost), std::string::npos) << file.output;
  const auto cont = run_shell(limit + test_util::plab_bin() + " run --init-model " + m + " --data " + wide + " --quiet --no-bounds 2>&1");
  EXPECT_EQ(cont.status, 2) << cont.output;
  EXPECT_NE(cont.output.find(wide + ": row 2 (round 4): " + cost), std::string::npos) << cont.output;
  EXPECT_EQ(cont.output.find(m), std::string::npos) << "the model is not to blame: " << cont.output;
}

// Many more classes than the rows can show: the class coefficient table (supports x classes x 8
// bytes), not the data, is the cost, and it is refused before allocating, naming the classes (was
// 1M labels with --limit 100: 1.1 GB; 20k labels over 2,000 rows: 350 MB and over 60 s; the
// messages blamed "the data take 45.8 MiB").
TEST(NoSilentFailures, ManyClassesAreRefusedNamingTheirCost) {
  test_util::TempDir dir("many_classes");
  const std::string data = (dir.p / "labels.svm").string();
  {
    std::ofstream f(data);
    for (int i = 0; i < 20000; ++i) f << i << " 1:" << (i % 7) << " 2:1\n";
  }
  const auto r = run_shell(test_util::plab_bin() + " run --algo multiclass-perceptron --data " + data +
                           " --limit 2000 --quiet 2>&1");
  EXPECT_EQ(r.status, 2) << r.output;
  // 2000 supports x 20000 classes x 8 bytes = 305.2 MiB; the data: 20000 rows x (2 x 12 + 24) bytes = 0.9 MiB.
  EXPECT_NE(r.output.find(data + ": 20000 classes: multiclass-perceptron keeps one coefficient per class for each "
                          "support: up to 2000 supports x 20000 classes x 8 bytes = 305.2 MiB"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("8 x the data's 0.9 MiB"), std::string::npos) << r.output;
  // A budget bounds the supports: mrbp with B = 100 keeps 100 x 20000 x 8 bytes = 15.3 MiB, allowed.
  const auto b = run_cli("run --algo mrbp --budget 100 --data " + data + " --limit 300 --quiet --no-bounds");
  EXPECT_EQ(b.status, 0) << b.output;
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
