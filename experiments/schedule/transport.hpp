// How the ranks of one `plab reproduce` job talk (docs/cluster.md): typed messages
// (experiments/schedule/messages.hpp) between rank 0 and the other ranks. A single process has one
// rank and nobody to talk to; under mpirun / srun the MPI transport carries the messages
// (experiments/schedule/mpi_comm.hpp, the one file compiled with MPI's flags). The cell threads of
// a rank never talk: only the rank's main thread does.
#pragma once
#include <memory>
#include <optional>

#include "experiments/schedule/messages.hpp"

namespace plab {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;  // 0: the scheduler
  virtual int size() const = 0;  // number of ranks (1: a single process)
  virtual void send(int dest, const Message& m) = 0;
  // A waiting message from `source` (-1: any), if there is one; never blocks.
  virtual std::optional<Envelope> try_recv(int source) = 0;
  // Ends every rank of the job with `code` (after the caller printed why).
  [[noreturn]] void abort(int code);
  // Waits for a message from `source` (-1: any), polling with a 1 ms sleep instead of a busy wait,
  // so a waiting rank leaves its core to the cell threads (ranks often share a machine's cores).
  Envelope recv(int source);

 protected:
  virtual void end_job(int code) = 0;  // abort's way of ending the other ranks too
};

// One process, one rank: nothing to send or receive.
Transport& single_process_transport();
// This process's transport: MPI when an MPI launcher started it (initialised here, idempotent),
// else the single-process one.
Transport& process_transport();

}  // namespace plab
