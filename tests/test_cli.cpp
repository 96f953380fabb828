// The plab program on bad input: a clear message naming the option / file / line, a non-zero
// exit status, never a crash. Runs the built binary (PLAB_BIN_PATH from CMake, or $PLAB_BIN).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bounds/option_owners.hpp"
#include "core/sha256.hpp"
#include "tests/test_util.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
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
// A value or sign out of the declaration is refused by the configuration step, in its words (the
// same as a spec's and Python's), not by the flag parser.
TEST(Cli, ValuesAreCheckedByTheConfigurationStep) {
  expect_error("run --algo rbp --data synthetic:dekel:n=10 --kernel rbf --budget -3",
               "--budget must be a non-negative integer, got -3");
  expect_error("run --algo rbp --data synthetic:dekel:n=10 --kernel rbf --budget 2.5",
               "--budget must be a non-negative integer, got 2.5");
  expect_error("run --algo rbp --data synthetic:dekel:n=10 --kernel rbf --budget ten",
               "--budget must be a non-negative integer, got \"ten\"");
  expect_error("run --algo pa1 --data synthetic:dekel:n=10 --eta-convention dogme",
               "--eta-convention: unknown value 'dogme' (did you mean \"dogma\"?) (allowed: paper, dogma)");
  expect_error("run --algo pa1 --data synthetic:dekel:n=10 --threads -1", "--threads must be a non-negative integer, got -1");
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
// --preprocess (docs/conventions.md#preprocess). Linear Perceptron on (3,4)+, (-6,-8)-: round 1 is a
// mistake (score 0) and stores x_1, round 2 scores <x_1,x_2> < 0, correct; so ||f||^2 = ||x_1||^2:
// 25 as read, 1 after unit-norm ((0.6, 0.8)).
TEST(Cli, PreprocessIsAppliedAndRecorded) {
  const auto tr = temp_file("pre_train.svm", "+1 1:3 2:4\n-1 1:-6 2:-8\n");
  const std::string summary = temp_file("pre.json", "");
  const std::string base = "run --algo kernel-perceptron --kernel linear --no-bounds --quiet --data " + tr + " --summary " + summary;
  ASSERT_EQ(cli(base).status, 0);
  auto js = nlohmann::json::parse(std::ifstream(summary));
  EXPECT_EQ(js.at("data").at("preprocess"), "none");
  EXPECT_EQ(js.at("results").at("mistakes"), 1);
  EXPECT_DOUBLE_EQ(js.at("results").at("f_norm2").get<double>(), 25.0);
  const Result r = cli(base + " --preprocess unit-norm");
  ASSERT_EQ(r.status, 0) << r.output;
  js = nlohmann::json::parse(std::ifstream(summary));
  EXPECT_EQ(js.at("data").at("preprocess"), "unit-norm");
  EXPECT_EQ(js.at("results").at("mistakes"), 1);
  EXPECT_DOUBLE_EQ(js.at("results").at("f_norm2").get<double>(), 1.0);
}
TEST(Cli, BadPreprocessingIsExit2NamingTheOption) {
  const auto tr = temp_file("pre_bad.svm", "+1 1:3 2:4\n-1 1:-0.5 2:0.25\n");
  const Result r = cli("run --algo kernel-perceptron --data " + tr + " --preprocess unit_norm");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--preprocess: unknown preprocessing 'unit_norm'"), std::string::npos) << r.output;
  const Result o = cli("run --algo kernel-perceptron --data " + tr + " --preprocess pm1-to-01");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("row 1: feature 1 = 3 is outside [-1, 1]"), std::string::npos) << o.output;
}
TEST(Cli, ProgressLinesAtPowersOfTwo) {
  const Result r = cli("run --algo perceptron --data synthetic:dekel:n=100 --no-bounds");
  ASSERT_EQ(r.status, 0) << r.output;
  for (int t : {1, 2, 4, 8, 16, 32, 64})
    EXPECT_NE(r.output.find(" " + std::to_string(t) + " rounds"), std::string::npos) << t;
  EXPECT_EQ(r.output.find(" 3 rounds"), std::string::npos);
}

// ---- names against paths, FIFOs, CSV layout flags ----
namespace {
// Runs plab in `dir` (the working directory decides what a bare name means).
Result cli_in(const std::filesystem::path& dir, const std::string& args) {
  return plab::test_util::run_shell("cd '" + dir.string() + "' && timeout 120 " + plab::test_util::plab_bin() + " " + args + " 2>&1");
}
nlohmann::json summary_of(const std::filesystem::path& p) { return nlohmann::json::parse(std::ifstream(p)); }
}  // namespace

TEST(Cli, RegistryNameThatIsAlsoAFileIsRefused) {
  plab::test_util::TempDir d("ambiguous");
  std::ofstream(d.p / "a9a") << "+1 1:1\n-1 2:1\n";
  const Result r = cli_in(d.p, "run --algo perceptron --data a9a --no-bounds");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("'a9a' is both a registered data set and a file"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("./a9a"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("registry:a9a"), std::string::npos) << r.output;
  const Result f = cli_in(d.p, "run --algo perceptron --data ./a9a --no-bounds --summary s.json");
  ASSERT_EQ(f.status, 0) << f.output;
  EXPECT_NE(f.output.find("file './a9a'"), std::string::npos) << f.output;
  const auto s = summary_of(d.p / "s.json");
  EXPECT_EQ(s.at("data").at("source"), "file");
  EXPECT_EQ(s.at("data").at("size"), 2);
}

TEST(Cli, FifoAndProcessSubstitutionAreReadOnceAndHashed) {
  plab::test_util::TempDir d("fifo");
  const std::string text = "+1 1:1\n-1 2:1\n+1 1:0.5 2:0.5\n";
  std::ofstream(d.p / "src.svm") << text;
  const std::string want = plab::sha256_hex(text);
  ASSERT_EQ(std::system(("mkfifo '" + (d.p / "data.fifo").string() + "'").c_str()), 0);
  ASSERT_EQ(std::system(("cat '" + (d.p / "src.svm").string() + "' > '" + (d.p / "data.fifo").string() + "' &").c_str()), 0);
  const Result r = cli_in(d.p, "run --algo perceptron --data data.fifo --no-bounds --quiet --summary s.json");
  ASSERT_EQ(r.status, 0) << r.output;  // 124 = timeout: the FIFO was reopened
  EXPECT_EQ(summary_of(d.p / "s.json").at("data").at("sha256"), want);
  EXPECT_EQ(summary_of(d.p / "s.json").at("data").at("size"), 3);
  const std::string cmd = "cd '" + d.p.string() + "' && timeout 120 bash -c \"" + plab::test_util::plab_bin() +
                          " run --algo perceptron --data <(cat src.svm) --no-bounds --quiet --summary p.json\"";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(summary_of(d.p / "p.json").at("data").at("sha256"), want);
}

TEST(Cli, CsvHeaderIsReportedAndLayoutFlagsApply) {
  plab::test_util::TempDir d("csvflags");
  std::ofstream(d.p / "h.csv") << "a,b,label\n1,2,1\n3,4,-1\n";
  const Result r = cli_in(d.p, "run --algo perceptron --data h.csv --no-bounds --summary s.json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("first line taken as a header"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("'a,b,label'"), std::string::npos) << r.output;
  const auto s = summary_of(d.p / "s.json");
  EXPECT_EQ(s.at("data").at("size"), 2);
  EXPECT_NE(s.at("data").at("header").get<std::string>().find("h.csv:1"), std::string::npos);
  std::ofstream(d.p / "wine.data") << "1,14.23,1.71\n2,13.2,1.78\n3,13.16,2.36\n";
  const Result w = cli_in(d.p, "run --algo perceptron --data wine.data --format csv --label-column first "
                               "--labels 1:+1,*:-1 --no-bounds --summary w.json");
  ASSERT_EQ(w.status, 0) << w.output;
  EXPECT_EQ(summary_of(d.p / "w.json").at("data").at("dim"), 2);
  expect_error("run --algo perceptron --data synthetic:dekel:n=10 --header maybe", "--header");
  const Result reg = cli_in(d.p, "run --algo perceptron --data registry:wdbc --header no");
  EXPECT_EQ(reg.status, 2) << reg.output;
  EXPECT_NE(reg.output.find("apply to files"), std::string::npos) << reg.output;
  const Result svm = cli_in(d.p, "run --algo perceptron --data wine.data --label-column first");
  EXPECT_EQ(svm.status, 2) << svm.output;
  EXPECT_NE(svm.output.find("--format csv"), std::string::npos) << svm.output;
}

// Options declared beside their owners (docs/learners.md#options): a flag that no selected owner
// declares is an error (exit 2) naming the flag and who takes it, not silently ignored.
namespace {
void expect_exit2(const std::string& args, const std::string& message) {
  const Result r = cli(args);
  EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << "expected '" << message << "' in:\n" << r.output;
}
const std::string kRun = "run --algo kernel-perceptron --data synthetic:dekel:n=10 --quiet ";
}  // namespace

TEST(Cli, AnOptionNoSelectedOwnerTakesIsExit2NamingItsOwners) {
  expect_exit2(kRun + "--kernel linear --gamma 0.5", "--gamma is an option of the poly and rbf kernels, not of --kernel linear");
  expect_exit2(kRun + "--gamma 0.5", "--gamma is an option of the poly and rbf kernels, not of --kernel linear");
  expect_exit2(kRun + "--kernel rbf --degree 3", "--degree is an option of the poly kernel, not of --kernel rbf");
  expect_exit2(kRun + "--kernel gaussian --coef0 1", "--coef0 is an option of the poly kernel, not of --kernel rbf");
  expect_exit2(kRun + "--comparator truth --svm-C 2",
               "--svm-C is an option of the auto and svm comparators, not of --comparator truth");
  expect_exit2(kRun + "--comparator multipass --comparator-seed 4", "--comparator-seed is an option of the auto and svm");
  expect_exit2(kRun + "--no-bounds --svm-C 2", "--svm-C is an option of the auto and svm comparators, not of --no-bounds");
  expect_exit2(kRun + "--header yes", "--header is an option of the csv and tsv readers, not of --data synthetic:dekel:n=10");
  expect_exit2(kRun + "--label-column first", "--label-column is an option of the csv and tsv readers");
  expect_exit2(kRun + "--format csv", "--format is an option of the csv, libsvm, tsv and usps readers, not of --data synthetic");
  expect_exit2("run --algo rbp --budget 5 --data synthetic:dekel:n=10 --eta 0.1",
               "--eta is not an option of rbp (its options: --budget, --seed); it is an option of projectron, "
               "projectron++, bogd, bogd++, fogd, nogd and multiclass-projectron++");
  // A name several learners declare: each takes it with its own range; an earlier name is read.
  expect_exit2("run --algo bogd --budget 5 --kernel rbf --data synthetic:dekel:n=10 --eta 0", "--eta must be > 0 (and finite) for bogd, got 0");
  expect_exit2("run --algo fogd --kernel rbf --data synthetic:dekel:n=10 --ogd-eta 0.2 --eta 0.3",
               "--ogd-eta and --eta name the same option of fogd (ogd_eta is its earlier name)");
  expect_exit2("run --algo projectron --kernel rbf --data synthetic:dekel:n=10 --ogd-eta 0.2",
               "--ogd-eta is not an option of projectron");
  // Taken where the owner is selected.
  for (const std::string ok : {"--kernel rbf --gamma 0.5", "--kernel poly --gamma 0.5 --degree 3 --coef0 1",
                               "--comparator svm --svm-C 2 --comparator-seed 4", "--kernel rbf --svm-C 2"}) {
    const Result r = cli(kRun + ok);
    EXPECT_EQ(r.status, 0) << ok << "\n" << r.output;
  }
}

// --comparator auto is first resolved to the comparator it picks on the data: on linear synthetic
// data that is the generating hyperplane, which takes neither C nor a subsample seed.
TEST(Cli, AnSvmOptionWhereAutoPicksTheTruthIsExit2) {
  expect_exit2(kRun + "--svm-C 2", "--svm-C is an option of the svm comparator, not of the truth comparator, which "
                                   "--comparator auto (the default) picks on synthetic:dekel:n=10");
  expect_exit2(kRun + "--comparator auto --comparator-seed 3", "--comparator-seed is an option of the svm comparator, "
                                                               "not of the truth comparator, which --comparator auto picks");
}

// The comparator's rules are the configuration step's, spelt as flags, before any data is read: the
// truth is linear (so a random-feature learner, on its Gaussian kernel, never has it).
TEST(Cli, ComparatorRulesAreCheckedByTheConfigurationStep) {
  expect_exit2(kRun + "--kernel rbf --comparator truth",
               "--comparator truth needs --kernel linear (the generating hyperplane is linear)");
  expect_exit2("run --algo fogd --kernel rbf --data synthetic:dekel:n=10 --comparator truth",
               "--comparator truth needs --kernel linear");
}

TEST(Cli, DeclaredRangesAreCheckedNamingTheFlag) {
  expect_exit2(kRun + "--kernel rbf --gamma 0", "--gamma must be > 0 (and finite), got 0");
  expect_exit2(kRun + "--kernel poly --gamma 1 --degree 0", "--degree must be >= 1, <= 1000, got 0");
  expect_exit2(kRun + "--kernel poly --gamma 1 --degree 3000000000",
               "--degree must be >= 1, <= 1000, got 3000000000 (Polynomial degree)");
  expect_exit2(kRun + "--comparator svm --svm-C -1", "--svm-C must be > 0 (and finite), got -1");
  expect_exit2("run --algo norma --data synthetic:dekel:n=10 --learning-rate 0", "--learning-rate must be > 0 (and finite) for norma, got 0");
  expect_exit2("run --algo stoptron --data synthetic:dekel:n=10", "--budget must be >= 1 for stoptron, got 0");
  expect_exit2("run --algo cks --budget 4 --beta -1 --data synthetic:dekel:n=10", "--beta must be >= 0 (and finite) for cks, got -1");
}

// `plab run --help` lists each declared flag under its owner's heading, each heading once.
TEST(Cli, HelpIsGroupedByOwner) {
  const Result r = cli("run --help");
  ASSERT_EQ(r.status, 0) << r.output;
  std::vector<std::string> groups = {"Run options"};
  for (const auto& d : plab::declared_options())
    if (std::find(groups.begin(), groups.end(), d.group) == groups.end()) groups.push_back(d.group);
  EXPECT_GE(groups.size(), 10u);  // run, 6 learner families, kernel, comparator, reader
  auto section = [&](const std::string& g) {
    const std::size_t at = r.output.find("\n" + g + ":\n");
    EXPECT_NE(at, std::string::npos) << g << " missing in:\n" << r.output;
    EXPECT_EQ(r.output.find("\n" + g + ":\n", at + 1), std::string::npos) << g << " twice";
    if (at == std::string::npos) return std::string();
    const std::size_t end = r.output.find("\n\n", at + g.size() + 3);
    return r.output.substr(at, end == std::string::npos ? std::string::npos : end - at);
  };
  std::set<std::string> flags;  // a flag several learners declare is under its first declaration's heading
  for (const auto& d : plab::declared_options()) {
    if (!flags.insert(d.flag()).second) continue;
    const std::string s = section(d.group);
    EXPECT_NE(s.find("  " + d.flag() + " "), std::string::npos) << d.flag() << " not under " << d.group << ":\n" << s;
  }
  EXPECT_EQ(r.output.find("--ogd-eta"), std::string::npos) << "an earlier name is read, not listed";
  const std::string run = section("Run options");
  for (const char* f : {"--algo", "--data", "--test", "--labels", "--shuffle", "--no-bounds"})
    EXPECT_NE(run.find(std::string("  ") + f + " "), std::string::npos) << f;
  EXPECT_NE(section("Kernel options").find("[kernels: poly and rbf]"), std::string::npos);
}
