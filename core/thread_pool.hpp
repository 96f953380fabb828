// Threads inside one run (docs/threads.md): a pool of helper threads that take chunks of the
// loops their callers post, and the calling thread's pool (PoolScope) that parallel_for uses.
//
// Represents: a set of posted tasks, each a range [begin, end) cut into chunks; a chunk is run
// by exactly one thread (the caller or a helper), so fn must write disjoint outputs per chunk.
// The caller works on its own task too and returns when every chunk is done: the result cannot
// depend on who ran a chunk, so callers whose chunks compute the same bits by any split (the
// kernel rows: numerics/support_set.hpp) give the same bits on any number of threads.
// Helpers: the pool's own threads (`plab run --threads N`: N - 1 of them) and threads lent for a
// while by help_until (a reproduce worker with no cell left joins the running cells).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace plab {

class ThreadPool {
 public:
  // Starts `own` helper threads (0: only threads lent by help_until help); fewer when the system
  // cannot start one (own() says how many), never an abort.
  explicit ThreadPool(unsigned own);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // fn(b, e) on chunks of [begin, end): at most `chunks` chunks, their bounds multiples of
  // `grain` from begin (the last one ends at end). Runs on the caller alone when no helper is
  // idle. Rethrows the first exception of a chunk after all chunks are done.
  void run(std::size_t begin, std::size_t end, std::size_t grain, std::size_t chunks,
           const std::function<void(std::size_t, std::size_t)>& fn);
  // The calling thread helps until done() is true (checked at least every millisecond).
  void help_until(const std::function<bool()>& done);
  // Threads that may work on a task at once: the caller and every helper (own or lent).
  unsigned width() const { return 1 + own_ + lent_.load(std::memory_order_relaxed); }
  // The helper threads started.
  unsigned own() const { return own_; }
  // Helpers waiting for a chunk now.
  unsigned idle() const { return idle_.load(std::memory_order_relaxed); }

 private:
  struct Task;
  bool help_once();
  void own_loop();

  std::mutex m_;
  std::condition_variable cv_;
  std::vector<Task*> tasks_;  // posted, with chunks not yet taken (guarded by m_)
  std::atomic<unsigned> idle_{0}, lent_{0}, posted_{0};
  bool stop_ = false;
  unsigned own_;
  std::vector<std::thread> threads_;
};

// The pool of the calling thread while a PoolScope lives (nested scopes restore the outer one).
class PoolScope {
 public:
  explicit PoolScope(ThreadPool* pool);
  ~PoolScope();
  PoolScope(const PoolScope&) = delete;
  PoolScope& operator=(const PoolScope&) = delete;

 private:
  ThreadPool* outer_;
};
ThreadPool* current_pool();

// Splits [begin, end) over the current pool's threads in chunks aligned to `grain` when `work`
// (the caller's count of its inner operations) reaches parallel_min_work(); otherwise, or without
// a pool, fn(begin, end) on the calling thread (no allocation, no lock: every round asks).
double parallel_min_work();
void parallel_run(ThreadPool& pool, std::size_t begin, std::size_t end, std::size_t grain,
                  const std::function<void(std::size_t, std::size_t)>& fn);
template <class Fn>
void parallel_for(std::size_t begin, std::size_t end, std::size_t grain, double work, Fn&& fn) {
  ThreadPool* pool = current_pool();
  if (!pool || work < parallel_min_work() || pool->width() < 2) {
    if (end > begin) fn(begin, end);
    return;
  }
  parallel_run(*pool, begin, end, grain, std::ref(fn));
}

// The work below which a loop stays on one thread (measured: docs/threads.md#threshold). Tests set
// 0, which also splits into width() chunks whether or not helpers are idle.
void set_parallel_min_work(double w);

// The most threads a run takes (plab run --threads, Python run(threads=)).
inline constexpr unsigned kMaxThreads = 1024;
// `--threads` as given: 0 means the hardware threads (at least 1).
unsigned resolve_threads(unsigned requested);

}  // namespace plab
