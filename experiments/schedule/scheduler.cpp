#include "experiments/schedule/scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "core/file_io.hpp"
#include "core/format.hpp"
#include "core/thread_pool.hpp"
#include "experiments/exit_codes.hpp"
#include "experiments/schedule/cell_schedule.hpp"
#include "experiments/schedule/cell_store.hpp"
#include "experiments/schedule/flight_board.hpp"

namespace plab {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The unfinished cells, most expensive first (LPT; the order changes no result).
std::deque<CellOutcome*> lpt_order(const std::vector<CellOutcome*>& work, DataCache& data) {
  std::vector<std::pair<double, CellOutcome*>> order;
  for (auto* o : work) order.emplace_back(estimate_cost(o->cell, *data.get(o->cell).train), o);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::deque<CellOutcome*> queue;
  for (const auto& [cost, o] : order) queue.push_back(o);
  return queue;
}

}  // namespace

std::string describe(const Cell& c) {
  return c.figure + " " + c.dataset + " " + c.algo_id + " " + c.point.dump() + " perm " + std::to_string(c.perm);
}

void stop_for_failed_rank(Transport& t, int source, const std::string& what, const std::string& in_flight) {
  std::cerr << fmt::format("plab reproduce: rank {} failed: {}\n", source, what) << in_flight << std::flush;
  t.abort(kExitError);
}

// One stage on rank 0: the cells not handed out yet, the cells in flight per rank, the count of
// finished ones. Every member is guarded by m (the progress log too).
class StageQueue {
 public:
  StageQueue(const std::vector<CellOutcome*>& batch, const std::vector<CellOutcome*>& work, DataCache& data,
             std::size_t stage, const RunnerOptions& opt, bool several_ranks)
      : queue_(lpt_order(work, data)), total_(work.size()), stage_(stage), opt_(opt), publish_(several_ranks) {
    for (std::size_t i = 0; i < batch.size(); ++i) index_[batch[i]] = i;
    for (auto* o : work) by_key_[o->key] = o;
  }
  std::mutex m;
  bool write_failed = false;  // a cell file could not be written: hand out no more cells
  std::string write_error;    // the first write error

  CellOutcome* take(int rank) {
    if (queue_.empty()) return nullptr;
    CellOutcome* o = queue_.front();
    queue_.pop_front();
    in_flight_[rank].push_back(o);
    if (publish_) flight_board::publish(in_flight_text());
    return o;
  }
  void finish(CellOutcome* o, int rank) {
    auto& v = in_flight_[rank];
    v.erase(std::find(v.begin(), v.end(), o));
    if (publish_) flight_board::publish(in_flight_text());
    log_done(o, ++finished_, rank);
  }
  // Every cell finished and none in flight on another rank.
  bool done() const {
    std::size_t remote = 0;
    for (const auto& [r, v] : in_flight_) remote += r > 0 ? v.size() : 0;
    return finished_ == total_ && remote == 0;
  }
  std::string in_flight_text() const {
    std::string text = fmt::format(
        "Cells in flight (not finished; every finished cell is kept in {}, rerun the same command to resume):\n",
        opt_.cells_dir);
    for (const auto& [r, v] : in_flight_)
      for (const auto* o : v) text += fmt::format("  rank {}: {}\n", r, describe(o->cell));
    return text;
  }
  std::size_t index_of(const CellOutcome* o) const { return index_.at(o); }
  CellOutcome* by_key(const std::string& key) const { return by_key_.at(key); }
  std::size_t left() const { return queue_.size(); }

 private:
  void log_done(const CellOutcome* o, std::size_t n, int rank) const {
    if (!opt_.log) return;
    const std::size_t left = total_ - n;
    *opt_.log << "[stage " << stage_ << "] " << n << "/" << total_ << " cells done, " << left << " left, ETA "
              << format_duration(static_cast<double>(left) * seconds_since(t0_) / static_cast<double>(n)) << "  ("
              << describe(o->cell) << ": "
              << (o->error.empty() ? format_duration(o->cell_seconds) : "FAILED: " + o->error)
              << (rank > 0 ? " on rank " + std::to_string(rank) : "") << ")\n";
    opt_.log->flush();
  }

  std::deque<CellOutcome*> queue_;
  std::map<int, std::vector<CellOutcome*>> in_flight_;  // rank -> cells handed out, not yet done
  std::map<const CellOutcome*, std::size_t> index_;     // a cell's index in the stage's batch
  std::map<std::string, CellOutcome*> by_key_;
  std::size_t finished_ = 0;
  const std::size_t total_, stage_;
  const RunnerOptions& opt_;
  const bool publish_;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

void Scheduler::run_stage(std::size_t stage, RunStats& stats) {
  const std::vector<CellOutcome*> batch = plan_.expand(stage);
  std::map<std::string, CellOutcome*> first_of_key;
  const std::vector<CellOutcome*> work = plan_.resolve(batch, opt_.cells_dir, opt_.reuse, first_of_key);
  if (opt_.log && !batch.empty())
    *opt_.log << "[stage " << stage << "] " << batch.size() << " cells, " << work.size() << " to compute, "
              << (batch.size() - work.size()) << " already done or failed\n";
  compute(batch, work, stage);
  stats.computed += work.size();
  stats.cached += plan_.settle(batch, first_of_key);
  stats.total += batch.size();
  if (t_.size() > 1) {
    const StageEnd end = plan_.stage_end(batch);
    for (int r = 1; r < t_.size(); ++r) t_.send(r, end);
  }
}

void Scheduler::compute(const std::vector<CellOutcome*>& batch, const std::vector<CellOutcome*>& work,
                        std::size_t stage) {
  StageQueue q(batch, work, plan_.data(), stage, opt_, t_.size() > 1);
  if (t_.size() > 1) flight_board::install();
  std::vector<std::thread> pool;
  const unsigned n_threads = std::max(1u, std::min<unsigned>(opt_.jobs, static_cast<unsigned>(work.size())));
  ThreadPool helpers(0);  // a thread with no cell left helps the running cells' kernel rows
  std::atomic<unsigned> computing{work.empty() ? 0 : n_threads};
  for (unsigned k = 0; k < n_threads && !work.empty(); ++k)
    pool.emplace_back([this, &q, &helpers, &computing] {
      PoolScope scope(&helpers);
      thread_loop(q);
      computing.fetch_sub(1);
      helpers.help_until([&] { return computing.load() == 0; });
    });
  try {
    if (t_.size() > 1) serve_ranks(q, stage);
  } catch (const std::exception& e) {  // threads are computing: stop the job rather than unwind
    std::cerr << "plab reproduce: rank 0: " << e.what() << "\n" << q.in_flight_text() << std::flush;
    t_.abort(kExitError);
  }
  for (auto& t : pool) t.join();
  if (q.write_failed)
    throw WriteError(fmt::format("{}; stopped at the first write error with {} cell(s) of stage {} not computed "
                                 "(every finished cell is kept in {}: free space, then rerun the same command "
                                 "to resume)", q.write_error, q.left(), stage, opt_.cells_dir));
}

void Scheduler::thread_loop(StageQueue& q) {
  for (;;) {
    CellOutcome* o;
    {
      std::lock_guard<std::mutex> lock(q.m);
      if (q.write_failed || !(o = q.take(0))) return;
    }
    const bool write_failed = compute_and_store(*o, plan_.data(), opt_.cells_dir);
    std::lock_guard<std::mutex> lock(q.m);
    if (write_failed && !q.write_failed) {  // the disk, not the cell: stop at the first one
      q.write_failed = true;
      q.write_error = o->error;
    }
    q.finish(o, 0);
  }
}

// Answers the other ranks until every cell of the stage is done.
void Scheduler::serve_ranks(StageQueue& q, std::size_t stage) {
  for (;;) {
    bool idle = true;
    while (auto e = t_.try_recv(-1)) {  // every waiting message, then the end test
      idle = false;
      std::lock_guard<std::mutex> lock(q.m);
      handle(q, stage, *e);
    }
    {
      std::lock_guard<std::mutex> lock(q.m);
      if (q.done()) return;
    }
    if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void Scheduler::handle(StageQueue& q, std::size_t stage, const Envelope& e) {
  if (const auto* w = std::get_if<WantCell>(&e.message)) {
    CellOutcome* o = w->stage == stage ? q.take(e.source) : nullptr;
    t_.send(e.source, o ? AssignCell{stage, q.index_of(o), o->key} : AssignCell{w->stage, std::nullopt, ""});
  } else if (const auto* d = std::get_if<CellDone>(&e.message)) {
    CellOutcome* o = q.by_key(d->key);
    o->doc = d->doc;
    o->error = d->error;
    o->seconds = d->seconds;
    o->cell_seconds = d->cell_seconds;
    q.finish(o, e.source);
  } else if (const auto* f = std::get_if<RankFailed>(&e.message)) {
    stop_for_failed_rank(t_, e.source, f->what, q.in_flight_text());
  }
}

}  // namespace plab
