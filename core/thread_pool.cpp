#include "core/thread_pool.hpp"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <system_error>
#include <utility>

namespace plab {
namespace {

thread_local ThreadPool* t_pool = nullptr;
std::atomic<double> g_min_work{1.0e5};  // docs/threads.md#threshold

// How long a helper with nothing to do polls before it sleeps (posting to a sleeping helper costs
// a wake-up, tens of microseconds; a round's serial part between two posts is shorter).
constexpr auto kSpin = std::chrono::microseconds(200);

}  // namespace

struct ThreadPool::Task {
  std::size_t begin, end, grain, chunks;
  const std::function<void(std::size_t, std::size_t)>* fn;
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr error;  // the first chunk's exception (set under the pool's mutex)

  // Chunk c: units of `grain` [c U / chunks, (c + 1) U / chunks) of the U units of the range.
  void execute(std::size_t c, std::mutex& m) {
    const std::size_t units = (end - begin + grain - 1) / grain;
    const std::size_t b = begin + c * units / chunks * grain;
    const std::size_t e = std::min(end, begin + (c + 1) * units / chunks * grain);
    try {
      (*fn)(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m);
      if (!error) error = std::current_exception();
    }
    done.fetch_add(1, std::memory_order_release);
  }
};

ThreadPool::ThreadPool(unsigned own) : own_(0) {
  // A thread the system cannot start (memory or process limits) leaves the pool smaller, not the
  // program aborted: the same bits on any number of threads (own() says how many started).
  try {
    threads_.reserve(own);
    for (unsigned k = 0; k < own; ++k) threads_.emplace_back([this] { own_loop(); });
  } catch (const std::system_error&) {
  } catch (const std::bad_alloc&) {
  }
  own_ = static_cast<unsigned>(threads_.size());
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::run(std::size_t begin, std::size_t end, std::size_t grain, std::size_t chunks,
                     const std::function<void(std::size_t, std::size_t)>& fn) {
  grain = std::max<std::size_t>(grain, 1);
  chunks = std::min(chunks, (end - begin + grain - 1) / grain);
  if (chunks <= 1) {
    if (end > begin) fn(begin, end);
    return;
  }
  Task t{begin, end, grain, chunks, &fn, {}, {}, {}};
  {
    std::lock_guard<std::mutex> lock(m_);
    tasks_.push_back(&t);
    posted_.fetch_add(1, std::memory_order_release);  // under the mutex: a helper about to sleep sees it
  }
  cv_.notify_all();
  for (std::size_t c; (c = t.next.fetch_add(1)) < chunks;) t.execute(c, m_);
  {
    std::lock_guard<std::mutex> lock(m_);  // no helper takes a chunk of t from here on
    tasks_.erase(std::find(tasks_.begin(), tasks_.end(), &t));
  }
  for (unsigned spins = 0; t.done.load(std::memory_order_acquire) < chunks; ++spins)
    if (spins % 64 == 63) std::this_thread::yield();
    else _mm_pause();
  if (t.error) std::rethrow_exception(t.error);
}

// Takes one chunk of a posted task and runs it (outside the mutex); false when none is left.
bool ThreadPool::help_once() {
  Task* t = nullptr;
  std::size_t c = 0;
  {
    std::lock_guard<std::mutex> lock(m_);
    for (Task* p : tasks_)
      if ((c = p->next.fetch_add(1)) < p->chunks) {
        t = p;
        break;
      }
  }
  if (!t) return false;
  idle_.fetch_sub(1, std::memory_order_relaxed);
  ThreadPool* outer = std::exchange(t_pool, nullptr);  // a chunk runs alone on its thread
  t->execute(c, m_);  // the caller may return once every chunk is done: t is not read after this
  t_pool = outer;
  idle_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void ThreadPool::help_until(const std::function<bool()>& done) {
  lent_.fetch_add(1);
  idle_.fetch_add(1);
  while (!done()) {
    const unsigned seen = posted_.load(std::memory_order_acquire);  // before looking: no post is missed
    if (help_once()) continue;
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (posted_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) _mm_pause();
    if (posted_.load(std::memory_order_acquire) != seen) continue;
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait_for(lock, std::chrono::milliseconds(1), [&] { return posted_.load() != seen; });
  }
  idle_.fetch_sub(1);
  lent_.fetch_sub(1);
}

void ThreadPool::own_loop() {
  idle_.fetch_add(1);
  for (;;) {
    const unsigned seen = posted_.load(std::memory_order_acquire);
    if (help_once()) continue;
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (posted_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) _mm_pause();
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return stop_ || posted_.load() != seen; });
    if (stop_) return;
  }
}

PoolScope::PoolScope(ThreadPool* pool) : outer_(std::exchange(t_pool, pool)) {}
PoolScope::~PoolScope() { t_pool = outer_; }
ThreadPool* current_pool() { return t_pool; }

void parallel_run(ThreadPool& pool, std::size_t begin, std::size_t end, std::size_t grain,
                  const std::function<void(std::size_t, std::size_t)>& fn) {
  pool.run(begin, end, grain, parallel_min_work() <= 0.0 ? pool.width() : 1 + pool.idle(), fn);
}

double parallel_min_work() { return g_min_work.load(std::memory_order_relaxed); }
void set_parallel_min_work(double w) { g_min_work.store(w, std::memory_order_relaxed); }

unsigned resolve_threads(unsigned requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace plab
