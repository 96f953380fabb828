// The MPI layer of `plab reproduce` (docs/cluster.md): a thin wrapper over the MPI C API (Open MPI).
// MPI is initialised only when the process was started by an MPI launcher (mpirun, srun), from a
// module loaded then (libplab_mpi.so beside the program, experiments/schedule/mpi_module.h), so
// `plab` without one runs as a single process exactly as before and never touches MPI.
// Only the calling (main) thread talks MPI (MPI_THREAD_FUNNELED); the cell threads never do.
#pragma once
#include <optional>
#include <string>

namespace plab::mpi {

// True when an MPI launcher started this process (Open MPI's OMPI_COMM_WORLD_SIZE, or the PMI /
// PMIx variables srun sets).
bool launched();

// Initialises MPI when launched() (idempotent); returns true when this process is one of several
// ranks. Finalised at exit.
bool init();

int rank();  // 0 without MPI
int size();  // 1 without MPI

struct Message {
  int source = 0, tag = 0;
  std::string payload;
};

void send(int dest, int tag, const std::string& payload);
// A waiting message from `source` (-1: any), if there is one; never blocks.
std::optional<Message> try_recv(int source);
// Waits for a message from `source` (-1: any). Polls with a 1 ms sleep instead of MPI's busy wait,
// so a waiting rank leaves its core to the cell threads (ranks often share a machine's cores).
Message recv(int source);

// Ends every rank of the job with `code` (after the caller printed why).
[[noreturn]] void abort(int code);

}  // namespace plab::mpi
