// The schedule of `plab reproduce` (experiments/schedule/cell_schedule.hpp): LPT makespans computed by
// hand, the stage-by-stage plan, and errors naming the file and line of a bad cell_times.csv.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "experiments/schedule/cell_schedule.hpp"
#include "tests/test_util.hpp"

using namespace plab;

TEST(CellSchedule, LptMakespanByHand) {
  // 5->A, 4->B, 3->B (7), 3->A (8), 3->B (10): LPT gives 10 where the optimum {5,4},{3,3,3} is 9.
  EXPECT_DOUBLE_EQ(lpt_makespan({3, 5, 3, 4, 3}, 2), 10.0);
  EXPECT_DOUBLE_EQ(lpt_makespan({3, 5, 3, 4, 3}, 1), 18.0);
  EXPECT_DOUBLE_EQ(lpt_makespan({10, 1, 1}, 8), 10.0);  // the largest cell is the floor
  EXPECT_DOUBLE_EQ(lpt_makespan({}, 4), 0.0);
}

TEST(CellSchedule, PlanAddsStagesAndNamesTheLargestCell) {
  const std::vector<CellTime> cells = {{"R1", "a9a", "pa1", "", 0, 0, 6.0}, {"R1", "a9a", "rbp", "", 0, 0, 2.0},
                                       {"R1", "a9a", "rbp", "", 1, 0, 2.0}, {"R1", "a9a", "stoptron", "", 0, 1, 1.0},
                                       {"R1", "a9a", "stoptron", "", 1, 1, 1.0}};
  const std::string r = plan_report(cells, {1, 2});
  EXPECT_NE(r.find("5 cells with a recorded time, 2 stage(s); total 12.0 s"), std::string::npos) << r;
  EXPECT_NE(r.find("6.000 s  50.0%  R1 a9a pa1 {} perm 0 (stage 0)"), std::string::npos) << r;
  // 1 worker: 10 + 2 = 12; 2 workers: stage 0 max(6, 4) = 6, stage 1 = 1: 7; floor 6 + 1.
  EXPECT_NE(r.find("   1 workers:      12.0 s"), std::string::npos) << r;
  EXPECT_NE(r.find("   2 workers:       7.0 s  (floor: the largest cell of each stage, 7.0 s"), std::string::npos) << r;
}

TEST(CellSchedule, BadCellTimesNameFileAndLine) {
  plab::test_util::TempDir tmp("cell_times");
  const std::string path = (tmp.p / "cell_times.csv").string();
  std::ofstream(path) << "figure\tdataset\talgorithm\tpoint\tperm\tstage\tkey\tcell_seconds\tlearn_seconds\tcached\n"
                      << "R1\ta9a\tpa1\t\t0\t0\tk\t1.5\t1\t0\n"
                      << "R1\ta9a\tpa1\t\tx\t0\tk\t1.5\t1\t0\n";
  try {
    read_cell_times(path);
    FAIL() << "accepted a bad line";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3: bad number", 0), 0u) << e.what();
  }
  EXPECT_THROW(read_cell_times((tmp.p / "missing.csv").string()), std::runtime_error);
}

// Every field of a cell_times.csv row read whole: a time of "5abc" was read as 5 s, "-5" as a cell
// of -5 s, and a file without its header as rows.
TEST(CellSchedule, CellTimesAreReadWholeOrRefused) {
  plab::test_util::TempDir tmp("cell_times_strict");
  const std::string path = (tmp.p / "cell_times.csv").string();
  const std::string header = "figure\tdataset\talgorithm\tpoint\tperm\tstage\tkey\tcell_seconds\tlearn_seconds\tcached\n";
  for (const std::string secs : {"5abc", "-5", "inf", "", "1e999"}) {
    std::ofstream(path) << header << "R1\ta9a\tpa1\t\t0\t0\tk\t" << secs << "\t1\t0\n";
    try {
      read_cell_times(path);
      ADD_FAILURE() << "accepted cell_seconds '" << secs << "'";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ":2: cell_seconds", 0), 0u) << e.what();
    }
  }
  std::ofstream(path) << header << "R1\ta9a\tpa1\t\t0\t0\tk\tnan\t1\t0\n" << "R1\ta9a\trbp\t\t1\t2\tk2\t2.5\t1\t0\n";
  const std::vector<CellTime> cells = read_cell_times(path);  // nan: a reused cell, no time of its own
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].algorithm, "rbp");
  EXPECT_EQ(cells[0].perm, 1);
  EXPECT_EQ(cells[0].stage, 2u);
  EXPECT_EQ(cells[0].seconds, 2.5);
  std::ofstream(path) << "";
  EXPECT_THROW(read_cell_times(path), std::runtime_error);
  std::ofstream(path) << header;
  EXPECT_TRUE(read_cell_times(path).empty());
  const std::string r = plan_report({}, {1, 2});
  EXPECT_EQ(r.find("nan"), std::string::npos) << r;
  EXPECT_NE(r.find("nothing to plan"), std::string::npos) << r;
}
