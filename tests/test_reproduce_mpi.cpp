// `plab reproduce` under mpirun (docs/cluster.md): the same bytes as one process, staged figures
// across ranks, and a rank that fails mid-run: a message naming the cells in flight, then a rerun
// that resumes and gives identical results.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include "tests/reproduce_fixture.hpp"
#include "tests/test_util.hpp"

using namespace plab::test_util;
namespace fs = std::filesystem;

namespace {

// mpirun as root (CI, containers) needs --allow-run-as-root; --oversubscribe runs 3 ranks on 2 cores.
// Under the sanitizer build the ranks run without LeakSanitizer: Open MPI keeps allocations of its
// dlopen'ed plugins past MPI_Finalize, which LeakSanitizer reports from unknown modules (ignored
// by the other builds).
std::string mpirun(int ranks) {
  return "mpirun -n " + std::to_string(ranks) + " --oversubscribe --allow-run-as-root -x ASAN_OPTIONS=detect_leaks=0 " +
         PLAB_BIN_PATH;
}

std::string reproduce_args(const fs::path& specs, const fs::path& results, int jobs) {
  return " reproduce --specs " + specs.string() + " --results " + results.string() + " --no-plots --jobs " +
         std::to_string(jobs);
}

CliResult sh(const std::string& cmd) {
  // run_cli runs the plab binary; here the command starts with mpirun or an environment assignment.
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

TEST(ReproduceMpi, ThreeRanksWriteTheBytesOfOneProcess) {
  TempDir tmp("mpi_same");
  // Cells long enough (about 0.1 s) that ranks 1 and 2 get some even when they start slowly on a
  // loaded machine (400-row cells can all be done by then).
  write_tiny_spec(tmp.p / "specs", 4, 20000);
  const auto one = run_cli(reproduce_args(tmp.p / "specs", tmp.p / "one", 2));
  ASSERT_EQ(one.status, 0) << one.output;
  const auto three = sh(mpirun(3) + reproduce_args(tmp.p / "specs", tmp.p / "three", 1));
  ASSERT_EQ(three.status, 0) << three.output;
  EXPECT_NE(three.output.find("on each of 3 MPI ranks"), std::string::npos) << three.output;
  EXPECT_TRUE(std::regex_search(three.output, std::regex("on rank [12]\\)"))) << "no cell ran on another rank:\n"
                                                                              << three.output;
  const auto a = deterministic_files(tmp.p / "one"), b = deterministic_files(tmp.p / "three");
  EXPECT_GT(a.size(), 20u);  // 4 perms x (1 + 2 + 1) cells, the figure's CSVs and summary
  EXPECT_EQ(a, b);
}

TEST(ReproduceMpi, FailedRankNamesCellsInFlightAndRerunResumes) {
  TempDir tmp("mpi_fail");
  // 8 x (1 + 2) stage-0 cells, 8 stoptron cells in stage 1; cells long enough (about 0.1 s) that
  // every rank gets some before the others finish.
  write_tiny_spec(tmp.p / "specs", 8, 20000);
  const auto one = run_cli(reproduce_args(tmp.p / "specs", tmp.p / "one", 2));
  ASSERT_EQ(one.status, 0) << one.output;
  const std::size_t total = finished_cells(tmp.p / "one");
  ASSERT_EQ(total, 32u);

  const std::string run = mpirun(3) + reproduce_args(tmp.p / "specs", tmp.p / "mpi", 1);
  const auto failed = sh("PLAB_TEST_RANK_FAIL=1:1 " + run);
  EXPECT_NE(failed.status, 0) << failed.output;
  EXPECT_NE(failed.output.find("rank 1 failed: PLAB_TEST_RANK_FAIL: injected failure after 1 cell(s)"),
            std::string::npos)
      << failed.output;
  EXPECT_NE(failed.output.find("Cells in flight"), std::string::npos) << failed.output;
  EXPECT_TRUE(std::regex_search(failed.output, std::regex("  rank [0-2]: TINY syn [a-z]+ .* perm [0-7]\n")))
      << failed.output;
  const std::size_t kept = finished_cells(tmp.p / "mpi");
  EXPECT_GE(kept, 1u);
  EXPECT_LT(kept, total);

  const auto rerun = sh(run);
  ASSERT_EQ(rerun.status, 0) << rerun.output;
  EXPECT_NE(rerun.output.find(std::to_string(kept) + " reused"), std::string::npos) << rerun.output;
  EXPECT_EQ(deterministic_files(tmp.p / "one"), deterministic_files(tmp.p / "mpi"));
}

}  // namespace
