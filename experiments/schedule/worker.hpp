// A rank other than 0 under MPI (docs/cluster.md): computes the cells rank 0 hands out on its
// `jobs` threads and writes their files; rank 0 collects the results. A failure ends the job
// with a message naming the cells in flight.
#pragma once
#include <cstddef>
#include <optional>

#include "experiments/schedule/runner_options.hpp"
#include "experiments/schedule/stages.hpp"
#include "experiments/schedule/transport.hpp"

namespace plab {

struct WorkerStage;

class WorkerRank {
 public:
  // Reads PLAB_TEST_RANK_FAIL=R:K: rank R stops with an error after finishing K cells (tests the
  // failure path of docs/cluster.md; never set in normal use).
  WorkerRank(StagePlan& plan, const RunnerOptions& opt, Transport& t);
  // Computes what rank 0 hands out until the stage ends; false when rank 0 released this rank.
  bool serve_stage(std::size_t stage);
  // Waits until rank 0 releases this rank (at once if it already did).
  void wait_for_release();

 private:
  enum class Next { kGoOn, kStageOver, kReleased };
  Next handle(WorkerStage& s, Envelope e);
  void start_cell(WorkerStage& s, std::size_t index, const std::string& key);
  bool send_finished(WorkerStage& s);
  [[noreturn]] void fail(WorkerStage& s, const std::exception& e);

  StagePlan& plan_;
  const RunnerOptions& opt_;
  Transport& t_;
  std::optional<std::size_t> fail_after_;
  std::size_t done_here_ = 0;  // cells finished on this rank, over every stage
  bool released_ = false;
};

}  // namespace plab
