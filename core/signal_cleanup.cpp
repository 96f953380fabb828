#include "core/signal_cleanup.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>

namespace plab {
namespace {

constexpr std::size_t kPathMax = 4096;
// A slot is written while `used` is false, then published; the handler reads published slots only
// (unlink is async-signal-safe; no allocation, no lock in the handler).
struct Slot {
  std::atomic<bool> used{false};
  char path[kPathMax];
};
Slot g_slots[RemovedOnSignal::kSlots];
std::mutex g_claim;  // between registering threads (the handler never takes it)

void on_signal(int sig) {
  for (auto& s : g_slots)
    if (s.used.load(std::memory_order_acquire)) ::unlink(s.path);
  std::signal(sig, SIG_DFL);  // ends the process as the signal would have
  std::raise(sig);
}

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
      struct sigaction sa {};
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

}  // namespace

RemovedOnSignal::RemovedOnSignal(const std::string& path) {
  if (path.size() >= kPathMax) return;
  install_once();
  std::lock_guard<std::mutex> lock(g_claim);
  for (int i = 0; i < kSlots; ++i)
    if (!g_slots[i].used.load(std::memory_order_relaxed)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].used.store(true, std::memory_order_release);
      slot_ = i;
      return;
    }
}

RemovedOnSignal::~RemovedOnSignal() {
  if (slot_ < 0) return;
  std::lock_guard<std::mutex> lock(g_claim);
  g_slots[slot_].used.store(false, std::memory_order_release);
}

}  // namespace plab
