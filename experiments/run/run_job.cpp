#include "experiments/run/run_job.hpp"

#include <memory>

#include "core/thread_pool.hpp"
#include "datasets/background_load.hpp"

namespace plab {

JobReport run_configured(const RunConfig& config, const RunJob& job) {
  JobReport out;
  RunRequest& req = out.req;
  req.train = job.loading ? nullptr : job.train;
  req.test = job.test;
  req.init = job.init;
  req.take(config);
  const RunOptions& run = config.run();
  if (!job.loading) req.order = make_order(job.train->size(), run.shuffle, run.limit);
  if (job.reorder) req.order = job.reorder(std::move(req.order));
  req.stream = job.stream;
  req.loading = job.loading;
  req.stream_limit = run.limit;
  req.observe = job.observe;
  req.keep_rounds = job.keep_rounds;
  std::unique_ptr<ThreadPool> pool;  // the kernel rows' helpers
  if (!job.caller_pool) pool = std::make_unique<ThreadPool>(resolve_threads(run.threads) - 1);
  PoolScope scope(pool ? pool.get() : current_pool());
  if (job.on_start) job.on_start(req, pool ? pool->own() + 1 : 0);
  out.rep = run_pipeline(req);
  if (job.loading) {  // the whole file, now read, and the rounds it gave
    req.train = &job.loading->finish();
    req.loading = nullptr;
    req.order = make_order(req.train->size(), std::nullopt, run.limit);
  }
  return out;
}

}  // namespace plab
