// Temporary files removed when a signal ends the process (SIGINT, SIGTERM, SIGHUP, SIGPIPE): a
// run stopped by Ctrl-C, kill or a closed pipe leaves its old outputs intact and no temporary
// beside them (SIGKILL aside: nothing runs then). The handler is installed for a signal only while
// its action is the default one (the Python interpreter's SIGINT or reproduce's SIGTERM handler
// stay theirs); it unlinks the files registered, then the signal ends the process as before.
#pragma once
#include <string>

namespace plab {

// Registers `path` until the object is destroyed (at most kSlots at once: more are not removed by
// a signal, only by their owner).
class RemovedOnSignal {
 public:
  explicit RemovedOnSignal(const std::string& path);
  ~RemovedOnSignal();
  RemovedOnSignal(const RemovedOnSignal&) = delete;
  RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;
  static constexpr int kSlots = 16;

 private:
  int slot_ = -1;
};

}  // namespace plab
