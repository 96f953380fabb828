// Learning from a stream (plab run --data -, docs/inputs.md#streams): the stream reader gives the
// rows, bits and messages of the file readers; a stream run gives the trace, the counts and the
// model of the same rows read from a file; what needs the whole data set is refused; and the peak
// memory of a budget learner on a 200,000-row pipe stays far below what the loaded rows would take.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "bounds/bounds.hpp"
#include "core/random.hpp"
#include "core/sha256.hpp"
#include "datasets/registry.hpp"
#include "datasets/row_stream.hpp"
#include "experiments/run/pipeline.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using plab::test_util::read_text;
using plab::test_util::run_shell;
using plab::test_util::same_bits;

namespace {

// `n` LIBSVM rows of `d` features (about 80% present), labels from a fixed hyperplane with 5% noise:
// independent of the code under test (its own generator and formatting).
std::string libsvm_rows(std::size_t n, std::size_t d, uint64_t seed) {
  plab::Rng rng(seed);
  std::string out;
  char buf[64];
  for (std::size_t i = 0; i < n; ++i) {
    std::string feats;
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      const double v = 2.0 * rng.uniform() - 1.0;
      if (rng.uniform() < 0.2) continue;
      s += (j % 3 == 0 ? 1.0 : -0.5) * v;
      std::snprintf(buf, sizeof buf, " %zu:%.5g", j + 1, v);
      feats += buf;
    }
    out += ((s > 0) != (rng.uniform() < 0.05) ? "+1" : "-1") + feats + "\n";
  }
  return out;
}

const plab::LoadOptions kLibsvm;  // the default reading: LIBSVM, binary labels

plab::RowStream stream_of(std::istringstream& in, const plab::LoadOptions& opt) {
  return plab::RowStream(in, plab::kStdinName, opt);
}

// Every row of `s` into one Dataset (one row at a time, as run_stream takes them).
plab::Dataset drain(plab::RowStream& s) {
  plab::Dataset d;
  while (s.next(d)) {}
  return d;
}

void expect_same_rows(const plab::Dataset& a, const plab::Dataset& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.rowptr, b.rowptr);
  EXPECT_EQ(a.idx, b.idx);
  for (std::size_t k = 0; k < a.val.size(); ++k) ASSERT_TRUE(same_bits(a.val[k], b.val[k])) << k;
  for (std::size_t t = 0; t < a.size(); ++t) {
    ASSERT_TRUE(same_bits(a.y[t], b.y[t])) << t;
    ASSERT_TRUE(same_bits(a.sqnorm[t], b.sqnorm[t])) << t;
  }
}

}  // namespace

TEST(RowStream, LibsvmRowsBitsAndChecksumAreTheFileReaders) {
  plab::test_util::TempDir dir("stream_libsvm");
  const std::string text = "# a comment\n" + libsvm_rows(500, 12, 3) + "\n-1 2:0.5 7:-1e-3\n";
  std::ofstream(dir.p / "d.libsvm") << text;
  const plab::Dataset file = plab::load_libsvm((dir.p / "d.libsvm").string());
  std::istringstream in(text);
  plab::RowStream s = stream_of(in, kLibsvm);
  const plab::Dataset streamed = drain(s);
  expect_same_rows(file, streamed);
  EXPECT_EQ(s.rows(), file.size());
  EXPECT_EQ(s.dim(), file.dim);
  EXPECT_EQ(s.sha256(), file.sha256);
  EXPECT_EQ(s.sha256(), plab::sha256_hex(text));
}

TEST(RowStream, CsvHeaderLabelColumnAndTrailingZeroColumns) {
  plab::test_util::TempDir dir("stream_csv");
  const std::string text = "y,a,b,c\n1,0.5,0,0\n-1,0,2,0\n1,1.5,-1,0\n";
  std::ofstream(dir.p / "d.csv") << text;
  plab::LoadOptions opt;
  opt.format = "csv";
  opt.layout = plab::DelimitedLayout{};
  opt.layout->label_column = "first";
  const plab::Dataset file = plab::load_dataset((dir.p / "d.csv").string(), opt);
  std::istringstream in(text);
  plab::RowStream s = stream_of(in, opt);
  expect_same_rows(file, drain(s));
  EXPECT_EQ(s.dim(), 3u);  // column c is all zeros and still counts, as for the file
  EXPECT_EQ(s.dim(), file.dim);
  EXPECT_EQ(s.header(), "<stdin>:1: 'y,a,b,c'");
}

TEST(RowStream, ErrorsNameStdinAndTheLine) {
  const auto error_of = [&](const std::string& text, const plab::LoadOptions& opt) -> std::string {
    try {
      std::istringstream in(text);
      plab::RowStream s = stream_of(in, opt);
      drain(s);
    } catch (const plab::DataError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of("+1 1:1\n-1 2:x\n", kLibsvm), "<stdin>:2:6: non-numeric value 'x'");
  EXPECT_EQ(error_of("+1 1:1\n\n-1 3:1 2:1\n", kLibsvm).rfind("<stdin>:3:8: index 2 not strictly ascending (previous 3)", 0), 0u);
  EXPECT_EQ(error_of("+1 1:1\n-1 1:1\n0 1:1\n", kLibsvm).rfind("<stdin>:3:1: label '0' after label '-1' at <stdin>:2:1", 0), 0u);
  EXPECT_EQ(error_of("# only a comment\n", kLibsvm), "<stdin>: empty stream (no examples)");
  plab::LoadOptions csv;
  csv.format = "csv";
  EXPECT_EQ(error_of("1,2,1\n1,-1\n", csv), "<stdin>:2:1: expected 3 columns, got 2");
  plab::LoadOptions classes;
  classes.labels = plab::LabelMap::parse("classes");
  EXPECT_NE(error_of("1 1:1\n", classes).find("--labels classes needs the class list of the whole data set"),
            std::string::npos);
  plab::LoadOptions usps;
  usps.format = "usps";
  EXPECT_NE(error_of("1 1:1\n", usps).find("--format usps cannot be read as a stream"), std::string::npos);
}

// A row is handed on when its line has arrived, not when a read buffer fills or the pipe closes.
TEST(RowStream, PipeRowsArriveBeforeTheWriterCloses) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::atomic<bool> got_first{false};
  std::thread writer([&] {
    const std::string first = "+1 1:0.5 3:2\n";
    ASSERT_EQ(::write(fds[1], first.data(), first.size()), static_cast<ssize_t>(first.size()));
    for (int i = 0; i < 200 && !got_first; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::string second = "-1 2:1\n";
    ASSERT_EQ(::write(fds[1], second.data(), second.size()), static_cast<ssize_t>(second.size()));
    ::close(fds[1]);
  });
  plab::FdInput in(fds[0]);
  plab::RowStream s(in, plab::kStdinName, kLibsvm);
  plab::Dataset d;
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(s.next(d));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  got_first = true;
  EXPECT_LT(waited, 5.0) << "the first row waited for the writer to close the pipe";
  EXPECT_TRUE(s.next(d));
  EXPECT_FALSE(s.next(d));
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(d.size(), 2u);
  EXPECT_EQ(s.sha256(), plab::sha256_hex("+1 1:0.5 3:2\n-1 2:1\n"));
}

namespace {

struct RunFiles {
  std::string trace, model;
  nlohmann::json summary;
};

// plab run with `args` on `data` (a file, or "-" fed from the file `feed`); trace, summary, model.
RunFiles run_plab(const fs::path& dir, const std::string& tag, const std::string& args, const std::string& data,
                  const std::string& feed = "") {
  const fs::path t = dir / (tag + ".csv"), s = dir / (tag + ".json"), m = dir / (tag + ".model");
  const std::string cmd = plab::test_util::plab_bin() + " run " + args + " --quiet --data " + data + " --trace " +
                          t.string() + " --summary " + s.string() + " --save-model " + m.string() +
                          (feed.empty() ? "" : " < " + feed) + " 2>&1";
  const auto r = run_shell(cmd);
  EXPECT_EQ(r.status, 0) << cmd << "\n" << r.output;
  return {read_text(t), read_text(m), nlohmann::json::parse(read_text(s))};
}

std::string after_line(const std::string& s, int lines) {
  std::size_t p = 0;
  for (int i = 0; i < lines && p != std::string::npos; ++i) p = s.find('\n', p) + 1;
  return s.substr(p);
}
nlohmann::json meta_of(const std::string& trace) {
  nlohmann::json m = nlohmann::json::parse(trace.substr(2, trace.find('\n') - 2));
  m.erase("data");  // name, path and source say where the rows came from
  return m;
}

// The stream run equals the file run (no shuffle, no bounds: the file run's comparator column g is
// the one thing a stream cannot have): the trace's rows and its metadata but the data's
// provenance, the counts, and the model's arrays (the model header names the data).
void expect_stream_equals_file(const std::string& args, const std::string& ext = "libsvm", const std::string& text = "") {
  plab::test_util::TempDir dir("stream_eq");
  const fs::path data = dir.p / ("d." + ext);
  std::ofstream(data) << (text.empty() ? libsvm_rows(1500, 16, 11) : text);
  const RunFiles f = run_plab(dir.p, "file", args + " --no-bounds", data.string());
  const RunFiles s = run_plab(dir.p, "stream", args, "-", data.string());
  ASSERT_FALSE(f.trace.empty());
  EXPECT_EQ(after_line(s.trace, 1), after_line(f.trace, 1)) << args;
  EXPECT_EQ(meta_of(s.trace), meta_of(f.trace)) << args;
  for (const char* k : {"rounds", "mistakes", "updates", "margin_errors", "support_size", "f_norm2", "f_norm2_exact"})
    EXPECT_EQ(s.summary["results"][k], f.summary["results"][k]) << args << " " << k;
  if (args.find("--limit") == std::string::npos) {  // a stream cut by --limit is not read to its end
    EXPECT_EQ(s.summary["data"]["sha256"], f.summary["data"]["sha256"]);
    EXPECT_EQ(s.summary["data"]["size"], f.summary["data"]["size"]);
  }
  EXPECT_EQ(s.summary["data"]["dim"], f.summary["data"]["dim"]);
  EXPECT_EQ(s.summary["data"]["source"], "stream");
  EXPECT_EQ(after_line(s.model, 2), after_line(f.model, 2)) << args;
}

}  // namespace

TEST(StreamRun, BudgetLearnersEqualTheFileRun) {
  expect_stream_equals_file("--algo rbp --budget 40 --kernel rbf --gamma 0.2");
  expect_stream_equals_file("--algo forgetron --budget 30 --kernel rbf --gamma 0.2");
  expect_stream_equals_file("--algo stoptron --budget 25 --kernel poly --degree 2");
}

TEST(StreamRun, KernelLearnersEqualTheFileRun) {
  expect_stream_equals_file("--algo kernel-perceptron --kernel rbf --gamma 0.2");
  expect_stream_equals_file("--algo projectron++ --eta 0.2 --kernel rbf --gamma 0.2");
  expect_stream_equals_file("--algo pa1 --C 0.5 --kernel linear");
  expect_stream_equals_file("--algo averaged-perceptron --kernel rbf --gamma 0.2");
  // The primal Perceptron sizes w by the data's dimension; a stream's is known at the end only.
  expect_stream_equals_file("--algo perceptron");
}

TEST(StreamRun, LimitAndCsvEqualTheFileRun) {
  expect_stream_equals_file("--algo rbp --budget 40 --kernel rbf --gamma 0.2 --limit 777");
  std::string csv = "a,b,c,label\n";
  plab::Rng rng(5);
  for (int i = 0; i < 400; ++i) {
    const double a = rng.uniform(), b = rng.uniform() - 0.5;
    csv += std::to_string(a) + "," + std::to_string(b) + ",0," + (a + b > 0.6 ? "1" : "0") + "\n";
  }
  expect_stream_equals_file("--algo kernel-perceptron --kernel poly --degree 2 --format csv --labels 1:+1,0:-1", "csv", csv);
}

TEST(StreamRun, BoundRowsAreNotApplicableWithTheReason) {
  plab::test_util::TempDir dir("stream_bounds");
  const fs::path data = dir.p / "d.libsvm";
  std::ofstream(data) << libsvm_rows(300, 8, 2);
  const RunFiles f = run_plab(dir.p, "file", "--algo kernel-perceptron --kernel rbf", data.string());
  const RunFiles s = run_plab(dir.p, "stream", "--algo kernel-perceptron --kernel rbf", "-", data.string());
  ASSERT_EQ(s.summary["bounds"].size(), f.summary["bounds"].size());
  ASSERT_GT(s.summary["bounds"].size(), 0u);
  for (std::size_t i = 0; i < s.summary["bounds"].size(); ++i) {
    const auto& b = s.summary["bounds"][i];
    EXPECT_EQ(b["id"], f.summary["bounds"][i]["id"]);
    EXPECT_EQ(b["applicable"], false);
    EXPECT_EQ(b["why_not"], plab::kStreamNoBounds);
    EXPECT_EQ(b["empirical"], f.summary["results"]["mistakes"]);
  }
}

TEST(StreamRun, WholeDataSetFlagsAreRefusedNamingTheFlag) {
  plab::test_util::TempDir dir("stream_refuse");
  const fs::path data = dir.p / "d.libsvm";
  std::ofstream(data) << libsvm_rows(50, 4, 1);
  const std::pair<std::string, std::string> cases[] = {
      {"--algo rbp --budget 5 --shuffle 3", "--shuffle with --data -: a permutation needs the whole data set"},
      {"--algo rbp --budget 5 --test " + data.string(), "--test with --data -: not taken"},
      {"--algo rbp --budget 5 --comparator svm", "--comparator with --data -: the comparator needs the whole data set"},
      {"--algo rbp --budget 5 --svm-C 2", "--svm-C with --data -: the comparator needs the whole data set"},
      {"--algo rbp --budget 5 --preprocess unit-norm", "--preprocess with --data -: not taken"},
      {"--algo multiclass-perceptron", "--algo multiclass-perceptron with --data -: a multiclass learner's class list"},
      // (a binary learner refuses numeric labels first: only NORMA's regression and novelty tasks take them)
      {"--algo norma --task regression --loss squared --labels classes",
       "--labels classes needs the class list of the whole data set"},
      {"--algo rbp --budget 5 --format usps", "--format usps cannot be read as a stream"},
  };
  for (const auto& [args, msg] : cases) {
    const auto r = run_shell(plab::test_util::plab_bin() + " run " + args + " --data - < " + data.string() + " 2>&1");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(msg), std::string::npos) << args << "\n" << r.output;
  }
  const auto empty = run_shell("echo | " + plab::test_util::plab_bin() + " run --algo rbp --budget 5 --data - 2>&1");
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.output.find("<stdin>: empty stream (no examples)"), std::string::npos) << empty.output;
}

// A budget learner (B = 1000, Gaussian kernel) on 200,000 rows of 20 features piped in, written by
// this process as the child reads them: the child's peak RSS (wait4) stays under a ceiling far
// below what the rows would take loaded (12 bytes per non-zero + 24 per row, plus a round record
// per row), which is what a run that read the whole stream first would need.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;  // shadow memory and quarantine: the RSS is not the program's
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

TEST(StreamRun, PeakMemoryIsTheModelsNotTheData) {
  if (kAsan) GTEST_SKIP() << "peak RSS under AddressSanitizer is not the program's";
  constexpr std::size_t kRows = 200000, kDim = 20;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string bin = plab::test_util::plab_bin();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execl(bin.c_str(), bin.c_str(), "run", "--algo", "rbp", "--budget", "1000", "--kernel", "rbf", "--gamma", "0.5",
            "--data", "-", "--quiet", "--no-bounds", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[0]);
  std::signal(SIGPIPE, SIG_IGN);
  std::size_t nnz = 0;
  for (std::size_t done = 0; done < kRows; done += 1000) {
    const std::string chunk = libsvm_rows(1000, kDim, 100 + done);
    for (char c : chunk) nnz += c == ':';
    std::size_t off = 0;
    while (off < chunk.size()) {
      const ssize_t n = ::write(fds[1], chunk.data() + off, chunk.size() - off);
      ASSERT_GT(n, 0) << "the child stopped reading";
      off += static_cast<std::size_t>(n);
    }
  }
  ::close(fds[1]);
  int status = 0;
  struct rusage ru {};
  ASSERT_EQ(::wait4(pid, &status, 0, &ru), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const double peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
  const double loaded_mib =
      (12.0 * static_cast<double>(nnz) + 24.0 * kRows + static_cast<double>(sizeof(plab::RoundRecord)) * kRows) /
      (1024.0 * 1024.0);
  std::printf("peak RSS %.1f MiB; the rows loaded would take %.1f MiB\n", peak_mib, loaded_mib);
  EXPECT_LT(peak_mib, 40.0);
  EXPECT_LT(peak_mib, 0.5 * loaded_mib);
}
