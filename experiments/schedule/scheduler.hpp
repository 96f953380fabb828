// Rank 0 (or the only process) of run_specs: each stage's unfinished cells, most expensive first
// (experiments/schedule/cell_schedule.hpp), on `jobs` threads here and, under MPI, on the other
// ranks' threads as they ask (experiments/schedule/worker.hpp); a progress line per finished cell.
#pragma once
#include <string>

#include "experiments/schedule/runner_options.hpp"
#include "experiments/schedule/stages.hpp"
#include "experiments/schedule/transport.hpp"

namespace plab {

class StageQueue;

class Scheduler {
 public:
  Scheduler(StagePlan& plan, const RunnerOptions& opt, Transport& t) : plan_(plan), opt_(opt), t_(t) {}
  // Expands, resolves and computes one stage, then sends its results to the other ranks.
  void run_stage(std::size_t stage, RunStats& stats);

 private:
  void compute(const std::vector<CellOutcome*>& batch, const std::vector<CellOutcome*>& work, std::size_t stage);
  void thread_loop(StageQueue& q);
  void serve_ranks(StageQueue& q, std::size_t stage);
  void handle(StageQueue& q, std::size_t stage, const Envelope& e);

  StagePlan& plan_;
  const RunnerOptions& opt_;
  Transport& t_;
};

// "figure dataset algorithm point perm" of a cell, for progress and failure messages.
std::string describe(const Cell& c);

// Rank 0, told that rank `source` failed: names it and the cells in flight, ends the job.
[[noreturn]] void stop_for_failed_rank(Transport& t, int source, const std::string& what, const std::string& in_flight);

}  // namespace plab
