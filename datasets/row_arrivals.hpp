// Rows of a data set being read on another thread, handed to a learner as they are stored
// (docs/inputs.md#read-while-learning). Represents: the reader's count of the rows stored so far and
// where they lie. Requires: the reader reserved its arrays for every row the file can hold before the
// first publish (the arrays never move afterwards; publish checks it), and a reader that fails after
// a publish gives its arrays to keep(). Ensures: rows [0, wait(n)) are complete and stay where they
// are while the RowArrivals lives (in the reader's Dataset, or kept here).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "datasets/dataset.hpp"

namespace plab {

class RowArrivals {
 public:
  // The reader: rows [0, d.size()) of `d` are stored. Every row before them must be unchanged.
  void publish(const Dataset& d) {
    const Where w{d.rowptr.data(), d.idx.data(), d.val.data(), d.y.data(), d.sqnorm.data()};
    if (state_.load(std::memory_order_relaxed) == 0) where_ = w;  // before the first release
    else if (!(w == where_)) throw std::logic_error("RowArrivals: the reader's arrays moved after a publish");
    state_.store(d.size());
    wake();
  }
  // The reader is done (all rows stored, or it failed): waiters return what arrived.
  void close() {
    state_.fetch_or(kClosed);
    wake();
  }
  // The reader failed: its arrays stay here, with the rows already handed over, until the arrivals go.
  void keep(Dataset&& d) { kept_ = std::move(d); }
  // Blocks until at least `want` rows arrived or the reader closed; the rows arrived.
  std::size_t wait(std::size_t want) const {
    for (;;) {
      const uint64_t s = state_.load();
      if ((s & ~kClosed) >= want || (s & kClosed)) return static_cast<std::size_t>(s & ~kClosed);
      // Counted before the state is read again, so that a publish after that read sees a waiter
      // (both sequentially consistent); wait() itself returns at once if the state moved meanwhile.
      waiters_.fetch_add(1);
      if (const uint64_t again = state_.load(); again == s) state_.wait(s);
      waiters_.fetch_sub(1);
    }
  }
  // The rows arrived so far, without waiting.
  std::size_t arrived() const { return static_cast<std::size_t>(state_.load() & ~kClosed); }
  // Row t, arrived (t < wait(t + 1)).
  Example operator[](std::size_t t) const {
    const std::size_t b = where_.rowptr[t], e = where_.rowptr[t + 1];
    return {{where_.idx + b, e - b}, {where_.val + b, e - b}, where_.sqnorm[t], where_.y[t]};
  }
  // The rows the file is expected to hold (a guess from its first rows, set before their publish),
  // 0 when unknown: what a learner reserves for its round records.
  std::size_t expected = 0;

 private:
  struct Where {
    const std::size_t* rowptr = nullptr;
    const uint32_t* idx = nullptr;
    const double *val = nullptr, *y = nullptr, *sqnorm = nullptr;
    bool operator==(const Where&) const = default;
  };
  // A publish wakes only a learner that waits: a system call each 32 rows would cost more than they.
  void wake() {
    if (waiters_.load() > 0) state_.notify_all();
  }
  static constexpr uint64_t kClosed = uint64_t{1} << 63;
  std::atomic<uint64_t> state_{0};
  mutable std::atomic<int> waiters_{0};
  Where where_;
  Dataset kept_;
};

}  // namespace plab
