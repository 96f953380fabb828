// The one orchestration of a configured run, shared by `plab run`, perceptron_lab.run and every
// reproduce cell: the round order, the RunRequest, the run's thread pool and run_pipeline. Each
// front end keeps only its own syntax, I/O and printing (docs/architecture.md#configuration).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "config/run_config.hpp"
#include "experiments/run/pipeline.hpp"

namespace plab {

// What a configured run reads besides its configuration.
struct RunJob {
  const Dataset* train = nullptr;   // a stream's description (name, path, no rows) when `stream` is set
  const Dataset* test = nullptr;    // optional
  // true: the calling thread's pool, a reproduce cell's, whose worker lends it helpers
  // (core/thread_pool.hpp); false: a pool of the configuration's `threads`.
  bool caller_pool = false;
  RowStream* stream = nullptr;      // rows learned as they arrive (RunRequest::stream)
  // A file learned while it is read (RunRequest::loading; file order): the report's request then
  // has the whole data set, once read, as its train and its file order as its order.
  BackgroundLoad* loading = nullptr;
  const ModelFile* init = nullptr;  // the model continued (RunRequest::init)
  RoundObserver observe{};
  bool keep_rounds = true;
  // A cell's training order made of the permutation (experiments/cell/cell_data.hpp); none: as is.
  std::function<std::vector<std::size_t>(std::vector<std::size_t>)> reorder{};
  // Called once the request is made and the pool started (`started` threads, the caller
  // included; 0 with the caller's pool), before the first round: a front end's start lines.
  std::function<void(const RunRequest&, unsigned started)> on_start{};
};

// A finished run: the request it ran (the order, the options) and its report.
struct JobReport {
  RunRequest req;
  RunReport rep;
};

// The request of `config` over `job`: the rounds in the configuration's order (its `shuffle`, its
// `limit`), on its threads (the same bits on any number).
JobReport run_configured(const RunConfig& config, const RunJob& job);

}  // namespace plab
