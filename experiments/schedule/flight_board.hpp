// The one process-wide state of the scheduler, and its one signal handler: the cells in flight on
// every rank, preformatted for rank 0's SIGTERM handler. A launcher ends the job that way when a
// rank dies (kill -9, OOM); the handler names the cells in flight (every finished cell is on disk,
// so rerunning the same command resumes) and may only write(2), hence the preformatted text.
#pragma once
#include <string>

namespace plab::flight_board {

// Installs the SIGTERM handler (rank 0 of several ranks; idempotent).
void install();
// Replaces the text the handler prints (rank 0's main thread or a cell thread under its lock).
void publish(const std::string& text);

}  // namespace plab::flight_board
