#include "experiments/schedule/worker.hpp"

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/format.hpp"
#include "core/thread_pool.hpp"
#include "experiments/exit_codes.hpp"
#include "experiments/schedule/cell_store.hpp"

namespace plab {

namespace {

std::optional<std::size_t> injected_failure_after(int rank) {
  const char* v = std::getenv("PLAB_TEST_RANK_FAIL");
  if (!v) return std::nullopt;
  const std::string s = v;
  const std::size_t colon = s.find(':');
  int r = -1;
  std::size_t k = 0;
  const bool ok = colon != std::string::npos &&
                  std::from_chars(s.data(), s.data() + colon, r).ec == std::errc() &&
                  std::from_chars(s.data() + colon + 1, s.data() + s.size(), k).ec == std::errc();
  if (!ok) throw std::invalid_argument("PLAB_TEST_RANK_FAIL: expected RANK:CELLS, got '" + s + "'");
  if (r != rank) return std::nullopt;
  return k;
}

}  // namespace

// One stage on this rank: cells asked for (outstanding), cells computing (running), and the
// finished ones the threads leave for the main thread to send.
struct WorkerStage {
  std::size_t stage = 0;
  std::vector<CellOutcome*> batch;
  std::size_t outstanding = 0, running = 0;
  bool open = true;  // rank 0 may still have cells of this stage
  std::atomic<bool> closed{false};      // open, for the threads: no cell left to ask for
  std::atomic<unsigned> computing{0};   // threads computing a cell
  ThreadPool helpers{0};                // a thread with no cell left helps the running cells' kernel rows
  std::vector<std::thread> threads;
  std::mutex m;                    // guards finished
  std::vector<CellDone> finished;
};

WorkerRank::WorkerRank(StagePlan& plan, const RunnerOptions& opt, Transport& t)
    : plan_(plan), opt_(opt), t_(t), fail_after_(injected_failure_after(t.rank())) {}

bool WorkerRank::serve_stage(std::size_t stage) {
  WorkerStage s;
  s.stage = stage;
  s.batch = plan_.expand(stage);
  Next next = Next::kGoOn;
  try {
    while (next == Next::kGoOn) {
      for (; s.open && s.running + s.outstanding < opt_.jobs; ++s.outstanding) t_.send(0, WantCell{stage});
      bool busy = false;
      if (auto e = t_.try_recv(0)) {
        busy = true;
        next = handle(s, std::move(*e));
      }
      if (next == Next::kGoOn && send_finished(s)) busy = true;
      if (next == Next::kGoOn && !busy) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  } catch (const std::exception& e) {
    fail(s, e);
  }
  for (auto& t : s.threads) t.join();
  return next == Next::kStageOver;
}

WorkerRank::Next WorkerRank::handle(WorkerStage& s, Envelope e) {
  if (std::holds_alternative<Release>(e.message)) {
    released_ = true;
    return Next::kReleased;
  }
  if (const auto* end = std::get_if<StageEnd>(&e.message)) {
    plan_.apply(*end);
    return Next::kStageOver;
  }
  const auto* a = std::get_if<AssignCell>(&e.message);
  if (!a || a->stage != s.stage) return Next::kGoOn;  // the answer to a request of an earlier stage
  --s.outstanding;
  if (!a->index) {
    s.open = false;  // no cell left in this stage
    s.closed = true;
    return Next::kGoOn;
  }
  if (*a->index >= s.batch.size())
    throw std::runtime_error(fmt::format("rank 0 sent cell {} of a stage of {} cells: the ranks expand different specs",
                                         *a->index, s.batch.size()));
  start_cell(s, *a->index, a->key);
  return Next::kGoOn;
}

void WorkerRank::start_cell(WorkerStage& s, std::size_t index, const std::string& key) {
  ++s.running;
  s.computing.fetch_add(1);
  s.threads.emplace_back([this, &s, o = s.batch[index], key] {
    PoolScope scope(&s.helpers);
    try {
      o->key = cell_key(o->cell, plan_.data().get(o->cell));
      if (o->key != key)
        o->error = fmt::format("rank {} computes key {} for this cell, rank 0 {}: the ranks see different data or code",
                               t_.rank(), o->key, key);
    } catch (const std::exception& e) {
      o->error = std::string("data: ") + e.what();
    }
    if (o->error.empty()) compute_and_store(*o, plan_.data(), opt_.cells_dir);
    CellDone done{key, o->doc, o->error, o->seconds, o->cell_seconds};
    {
      std::lock_guard<std::mutex> lock(s.m);
      s.finished.push_back(std::move(done));
    }
    s.computing.fetch_sub(1);  // then, once rank 0 has no cell left, help the cells still running
    s.helpers.help_until([&s] { return !s.closed.load() || s.computing.load() == 0; });
  });
}

// Sends the cells finished since the last call; true when there were some.
bool WorkerRank::send_finished(WorkerStage& s) {
  std::vector<CellDone> now;
  {
    std::lock_guard<std::mutex> lock(s.m);
    now.swap(s.finished);
  }
  for (auto& d : now) {
    t_.send(0, std::move(d));
    --s.running;
    if (fail_after_ && ++done_here_ >= *fail_after_)
      throw std::runtime_error(fmt::format("PLAB_TEST_RANK_FAIL: injected failure after {} cell(s)", done_here_));
  }
  return !now.empty();
}

// Tells rank 0, which names the cells in flight and ends the job; ends it here if rank 0 released
// this rank first (it had just finished) or does not answer.
void WorkerRank::fail(WorkerStage& s, const std::exception& e) {
  for (auto& t : s.threads) t.detach();
  t_.send(0, RankFailed{e.what()});
  for (int ms = 0; ms < 60000 && !t_.try_recv(0); ++ms) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::cerr << "plab reproduce: rank " << t_.rank() << ": " << e.what() << "\n";
  t_.abort(kExitError);
}

void WorkerRank::wait_for_release() {
  while (!released_) released_ = std::holds_alternative<Release>(t_.recv(0).message);
}

}  // namespace plab
