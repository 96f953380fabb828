// Housekeeping of a `plab reproduce` results folder (docs/cluster.md#results-folder): stale
// temporaries removed at startup, write errors with the system's reason, an unwritable folder
// found before any cell, one run per folder (lock), two writers of one cell, and the default
// --results resolved at run time.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_io.hpp"
#include "tests/reproduce_fixture.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using namespace plab::test_util;
namespace fs = std::filesystem;

namespace {

std::string tiny_run(const fs::path& specs, const fs::path& results) {
  return "reproduce --specs " + specs.string() + " --results " + results.string() + " --no-plots --jobs 2";
}

std::string exception_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(ResultsFolder, WriteErrorsGiveTheSystemReason) {
  TempDir tmp("rf_errors");
  std::ofstream(tmp.p / "plain") << "a file, not a folder\n";
  EXPECT_EQ(exception_message([&] { write_file_atomic((tmp.p / "plain" / "x.json").string(), "{}"); }),
            (tmp.p / "plain").string() + ": cannot create folder: Not a directory");
  fs::create_directories(tmp.p / "taken" / "x.json");  // a folder where the file should go
  const std::string path = (tmp.p / "taken" / "x.json").string();
  EXPECT_EQ(exception_message([&] { write_file_atomic(path, "{}"); }), path + ": cannot rename into place: Is a directory");
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.p / "taken"), fs::directory_iterator()), 1);  // temporary removed
  // Permission denied and read-only file systems: UnwritableFolderIsFoundBeforeAnyCell.
}

// A full disk, here a file-size limit (RLIMIT_FSIZE; SIGXFSZ ignored, so write() fails with
// EFBIG), stops the run at the first cell file it cannot write, naming it: the other cells are not
// computed only to fail in turn.
TEST(ResultsFolder, FirstWriteErrorStopsTheRunNamingTheFile) {
  TempDir tmp("rf_full");
  write_tiny_spec(tmp.p / "specs", 6);  // stage 0: 6 Perceptron + 12 RBP cells
  const std::string cmd = std::string("sh -c 'trap \"\" XFSZ; ulimit -f 2; exec ") + PLAB_BIN_PATH +
                          " reproduce --specs " + (tmp.p / "specs").string() + " --results " + (tmp.p / "r").string() +
                          " --no-plots --jobs 1' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(pclose(p)), 1) << out;
  EXPECT_NE(out.find((tmp.p / "r" / "cells").string()), std::string::npos) << out;
  EXPECT_NE(out.find("File too large; stopped at the first write error with 17 cell(s) of stage 0 not computed"),
            std::string::npos)
      << out;
  std::size_t done = 0;
  for (std::size_t k = out.find("cells done"); k != std::string::npos; k = out.find("cells done", k + 1)) ++done;
  EXPECT_EQ(done, 1u) << out;
}

// A data file in a folder without search permission: a message naming the path, exit 2, not a raw
// std::filesystem error (root reads anywhere: run it as nobody then).
TEST(ResultsFolder, DataBehindAFolderWithoutPermissionNamesThePath) {
  TempDir tmp("rf_perm");
  fs::create_directories(tmp.p / "closed");
  std::ofstream(tmp.p / "closed" / "x.svm") << "+1 1:1\n";
  const bool root = ::geteuid() == 0;
  if (root && std::system("command -v setpriv >/dev/null") != 0) GTEST_SKIP() << "root without setpriv";
  fs::permissions(tmp.p, fs::perms::all);
  fs::permissions(tmp.p / "closed", fs::perms::none);
  const std::string prefix = root ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  FILE* p = popen((prefix + PLAB_BIN_PATH + " run --algo perceptron --data " + (tmp.p / "closed" / "x.svm").string() +
                   " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(pclose(p)), 2) << out;
  EXPECT_NE(out.find("plab: cannot access " + (tmp.p / "closed" / "x.svm").string() + ": Permission denied"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("filesystem error"), std::string::npos) << out;
  fs::permissions(tmp.p / "closed", fs::perms::all);
}

TEST(ResultsFolder, StaleTemporariesAreRemovedEverywhereButInANestedResultsFolder) {
  TempDir tmp("rf_tmp");
  const fs::path r = tmp.p / "results";
  for (const auto& f : {"N1/finals.csv.tmp.404", "cells/abc.json.tmp.7.0", "cells/abc.json", "N1/finals.csv",
                        "quick/.plab-reproduce.lock", "quick/cells/x.json.tmp.9.1"}) {
    fs::create_directories((r / f).parent_path());
    std::ofstream(r / f) << "x";
  }
  EXPECT_EQ(remove_temporaries(r.string()), 2u);
  EXPECT_FALSE(fs::exists(r / "N1/finals.csv.tmp.404"));
  EXPECT_FALSE(fs::exists(r / "cells/abc.json.tmp.7.0"));
  EXPECT_TRUE(fs::exists(r / "cells/abc.json"));
  EXPECT_TRUE(fs::exists(r / "N1/finals.csv"));
  EXPECT_TRUE(fs::exists(r / "quick/cells/x.json.tmp.9.1"));  // results/quick/ has its own run and lock

  // The command does it at startup and says so.
  write_tiny_spec(tmp.p / "specs", 1);
  std::ofstream(r / "N1/finals.csv.tmp.405") << "x";
  const auto res = run_cli(tiny_run(tmp.p / "specs", r));
  ASSERT_EQ(res.status, 0) << res.output;
  EXPECT_NE(res.output.find("removed 1 stale temporary file(s) (*.tmp.*) under " + r.string()), std::string::npos)
      << res.output;
  EXPECT_FALSE(fs::exists(r / "N1/finals.csv.tmp.405"));
}

TEST(ResultsFolder, UnwritableFolderIsFoundBeforeAnyCell) {
  TempDir tmp("rf_ro");
  write_tiny_spec(tmp.p / "specs", 1);
  fs::create_directories(tmp.p / "ro/cells");
  // root writes anywhere: run the command as nobody then (util-linux setpriv).
  const bool root = ::geteuid() == 0;
  if (root && std::system("command -v setpriv >/dev/null") != 0) GTEST_SKIP() << "root without setpriv";
  fs::permissions(tmp.p, fs::perms::all);  // nobody must reach the specs
  fs::permissions(tmp.p / "ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                                    fs::perms::others_exec | fs::perms::group_read | fs::perms::group_exec);
  const std::string prefix = root ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  FILE* p = popen((prefix + PLAB_BIN_PATH + " " + tiny_run(tmp.p / "specs", tmp.p / "ro") + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int st = pclose(p);
  EXPECT_EQ(WEXITSTATUS(st), 1) << out;
  EXPECT_NE(out.find((tmp.p / "ro").string() + "/.plab-reproduce.lock: cannot open the lock file: Permission denied"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("cells done"), std::string::npos) << out;  // no cell was computed
  // A writable folder whose cells/ is not.
  fs::permissions(tmp.p / "ro", fs::perms::all);
  fs::permissions(tmp.p / "ro" / "cells", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                                              fs::perms::others_exec);
  p = popen((prefix + PLAB_BIN_PATH + " " + tiny_run(tmp.p / "specs", tmp.p / "ro") + " 2>&1").c_str(), "r");
  out.clear();
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(pclose(p)), 1) << out;
  EXPECT_NE(out.find((tmp.p / "ro" / "cells").string() + "/.plab-write-test: cannot open for writing: Permission denied"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("cells done"), std::string::npos) << out;
  fs::permissions(tmp.p / "ro" / "cells", fs::perms::all);
}

TEST(ResultsFolder, SecondRunWaitsForTheLock) {
  TempDir tmp("rf_lock");
  write_tiny_spec(tmp.p / "specs", 1);
  const fs::path r = tmp.p / "results";
  auto held = std::make_unique<FolderLock>(r.string(), nullptr);
  const fs::path log = tmp.p / "log", status = tmp.p / "status";
  const std::string cmd = std::string("(") + PLAB_BIN_PATH + " " + tiny_run(tmp.p / "specs", r) + " > " + log.string() +
                          " 2>&1; echo $? > " + status.string() + ") &";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string waiting = "waiting for the lock on " + r.string() + " held by pid " + std::to_string(::getpid());
  for (int i = 0; i < 600 && read_text(log).find(waiting) == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_NE(read_text(log).find(waiting), std::string::npos) << read_text(log);
  EXPECT_FALSE(fs::exists(status));  // still waiting
  EXPECT_FALSE(fs::exists(r / "cells")) << "a cell was computed while another run held the lock";
  held.reset();
  for (int i = 0; i < 1200 && read_text(status).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(read_text(status), "0\n") << read_text(log);
  EXPECT_EQ(finished_cells(r), 4u);
}

TEST(ResultsFolder, TwoWritersOfOneCellNeverCorruptIt) {
  TempDir tmp("rf_writers");
  const std::string path = (tmp.p / "cells" / "k.json").string();
  std::string content(1 << 20, 'x');  // large enough that a torn write would show
  for (std::size_t i = 0; i < content.size(); i += 97) content[i] = static_cast<char>('a' + i % 26);
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0}, seen{0};
  std::thread reader([&] {
    while (!stop) {
      const std::string got = read_text(path);
      if (got.empty()) continue;  // not yet written
      ++seen;
      bad += got != content;
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&] {
      for (int i = 0; i < 50; ++i) write_file_atomic(path, content);
    });
  for (auto& t : writers) t.join();
  stop = true;
  reader.join();
  EXPECT_EQ(bad, 0);
  EXPECT_GT(seen, 0);
  EXPECT_EQ(read_text(path), content);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.p / "cells")) ++files;
  EXPECT_EQ(files, 1u);  // no temporary left behind
}

TEST(ResultsFolder, DefaultResultsFolderIsResolvedAtRunTime) {
  TempDir tmp("rf_default");
  write_tiny_spec(tmp.p / "specs", 1);
  const std::string bin = PLAB_BIN_PATH;
  const std::string run = bin + " reproduce --specs " + (tmp.p / "specs").string() + " --no-plots --jobs 2 2>&1";
  // Outside any repository: ./results.
  fs::create_directories(tmp.p / "plain");
  const std::string plain = "cd " + (tmp.p / "plain").string() + " && " + run;
  FILE* p = popen(plain.c_str(), "r");
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(pclose(p)), 0) << out;
  EXPECT_NE(out.find("results in " + (tmp.p / "plain" / "results").string() + "\n"), std::string::npos) << out;
  EXPECT_EQ(finished_cells(tmp.p / "plain" / "results"), 4u);
  // In a sub-folder of a repository (.git and experiments/specs/): the repository's results/.
  const fs::path repo = tmp.p / "repo";
  fs::create_directories(repo / ".git");
  fs::create_directories(repo / "experiments" / "specs");
  fs::create_directories(repo / "docs" / "deep");
  const std::string in_repo = "cd " + (repo / "docs" / "deep").string() + " && " + bin + " reproduce --plan 2>&1";
  p = popen(in_repo.c_str(), "r");
  out.clear();
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  EXPECT_NE(out.find((repo / "results" / "cell_times.csv").string() + ": cannot read"), std::string::npos) << out;
}

}  // namespace

// A lock taken but whose pid is not written yet says so, not "held by pid ?".
TEST(ResultsFolder, LockWithoutItsPidYetSaysSoNotQuestionMark) {
  TempDir tmp("rf_lock_nopid");
  const std::string path = (tmp.p / kFolderLockName).string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);  // empty, locked: the moment before the pid
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  std::ostringstream log;
  std::thread waiter([&] { FolderLock lock(tmp.p.string(), &log); });
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // the waiter reads for 200 ms, then waits
  ::close(fd);  // releases the flock
  waiter.join();
  EXPECT_NE(log.str().find("held by another process (its pid not yet written)"), std::string::npos) << log.str();
  EXPECT_EQ(log.str().find("pid ?"), std::string::npos) << log.str();
  EXPECT_EQ(read_text(path), std::to_string(::getpid()) + "\n");
}

// A run of named figures writes REPORT.md with only those, and says so on its first line.
TEST(ResultsFolder, ReportOfNamedFiguresSaysSoOnItsFirstLine) {
  TempDir tmp("rf_named");
  write_tiny_spec(tmp.p / "specs", 1, 60);
  const fs::path r = tmp.p / "results";
  const auto named = run_cli(tiny_run(tmp.p / "specs", r) + " TINY");
  ASSERT_EQ(named.status, 0) << named.output;
  const std::string md = read_text(r / "REPORT.md");
  const std::string first = md.substr(0, md.find('\n'));
  EXPECT_NE(first.find("— only the figures named on the command line (TINY); the others are not in this file"),
            std::string::npos) << first;
  const auto all = run_cli(tiny_run(tmp.p / "specs", r));
  ASSERT_EQ(all.status, 0) << all.output;
  const std::string md2 = read_text(r / "REPORT.md");
  EXPECT_EQ(md2.substr(0, md2.find('\n')).find("only the figures"), std::string::npos) << md2.substr(0, 200);
}

// A cell file edited or damaged after it was written (a curve emptied, a count changed to another
// plausible one) is computed again, never read into a figure: the file carries its own checksum.
TEST(ResultsFolder, ADamagedCellFileIsComputedAgain) {
  TempDir tmp("rf_damaged");
  write_tiny_spec(tmp.p / "specs", 1, 60);
  const auto first = run_cli(tiny_run(tmp.p / "specs", tmp.p / "r"));
  ASSERT_EQ(first.status, 0) << first.output;
  const auto before = deterministic_files(tmp.p / "r");
  const std::vector<fs::path> cells = finished_cell_files(tmp.p / "r");
  ASSERT_GE(cells.size(), 2u);
  nlohmann::json a = nlohmann::json::parse(read_text(cells[0])), b = nlohmann::json::parse(read_text(cells[1]));
  a["curve"]["online_error"] = nlohmann::json::array();  // made the report read past the curve (a crash)
  b["results"]["mistakes"] = b["results"]["mistakes"].get<int>() + 1;
  write_file_atomic(cells[0].string(), a.dump());
  write_file_atomic(cells[1].string(), b.dump());
  const auto again = run_cli(tiny_run(tmp.p / "specs", tmp.p / "r"));
  ASSERT_EQ(again.status, 0) << again.output;
  for (const fs::path& c : {cells[0], cells[1]})
    EXPECT_NE(again.output.find(c.string() + ": its content does not match its checksum"), std::string::npos) << again.output;
  EXPECT_EQ(deterministic_files(tmp.p / "r"), before);  // recomputed: the same files as the first run
}

// A curve asks for more points than the run has rounds: every round is a point (was: rounds 1, 2
// and T, the sample index falling behind the rounds).
TEST(ResultsFolder, MorePointsThanRoundsGivesEveryRound) {
  TempDir tmp("rf_points");
  fs::create_directories(tmp.p / "specs");
  std::ofstream(tmp.p / "specs" / "P1.json") << R"({"figure": "P1", "permutations": 1, "limit": 50, "curve_points": 75,
    "datasets": [{"id": "s", "data": "synthetic:dekel:n=80,seed=3", "kernel": {"type": "rbf", "gamma": 1}}],
    "algorithms": [{"id": "p", "algo": "kernel-perceptron"}]})";
  const auto r = run_cli(tiny_run(tmp.p / "specs", tmp.p / "r"));
  ASSERT_EQ(r.status, 0) << r.output;
  std::istringstream in(read_text(tmp.p / "r" / "P1" / "curves_s.csv"));
  std::string line;
  std::getline(in, line);  // header
  std::vector<int> t;
  for (; std::getline(in, line);) t.push_back(std::stoi(line.substr(0, line.find(','))));
  ASSERT_EQ(t.size(), 50u) << read_text(tmp.p / "r" / "P1" / "curves_s.csv").substr(0, 400);
  for (int k = 0; k < 50; ++k) EXPECT_EQ(t[static_cast<std::size_t>(k)], k + 1);
}

// A cell file replaced by a FIFO (it would block the read and the write) or by a link to /dev/zero
// (it would fill memory): neither is read; the cell is computed again and written as a file.
TEST(ResultsFolder, ACellFileThatIsNoRegularFileIsComputedAgain) {
  TempDir tmp("rf_foreign");
  write_tiny_spec(tmp.p / "specs", 1, 60);
  ASSERT_EQ(run_cli(tiny_run(tmp.p / "specs", tmp.p / "r")).status, 0);
  const auto before = deterministic_files(tmp.p / "r");
  const std::vector<fs::path> cells = finished_cell_files(tmp.p / "r");
  ASSERT_GE(cells.size(), 2u);
  fs::remove(cells[0]);
  ASSERT_EQ(::mkfifo(cells[0].c_str(), 0600), 0);
  fs::remove(cells[1]);
  fs::create_symlink("/dev/zero", cells[1]);
  const auto again = run_cli(tiny_run(tmp.p / "specs", tmp.p / "r"));
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(cells[0]))) << cells[0];
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(cells[1]))) << cells[1];
  EXPECT_EQ(deterministic_files(tmp.p / "r"), before);
}
