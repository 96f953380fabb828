#include "experiments/schedule/mpi_comm.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace plab::mpi {

namespace {

bool g_init = false;

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string("MPI: ") + what + ": " + std::string(text, static_cast<std::size_t>(len)));
}

void finalize_at_exit() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

}  // namespace

bool launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

bool init() {
  if (!g_init && launched()) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_FUNNELED) throw std::runtime_error("MPI: the library does not support MPI_THREAD_FUNNELED");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // errors become exceptions (check)
    g_init = true;
    std::atexit(finalize_at_exit);
  }
  return size() > 1;
}

int rank() {
  int r = 0;
  if (g_init) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  int n = 1;
  if (g_init) MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void send(int dest, int tag, const std::string& payload) {
  check(MPI_Send(payload.data(), static_cast<int>(payload.size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD), "MPI_Send");
}

std::optional<Message> try_recv(int source) {
  int flag = 0;
  MPI_Status st;
  check(MPI_Iprobe(source < 0 ? MPI_ANY_SOURCE : source, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  int n = 0;
  check(MPI_Get_count(&st, MPI_CHAR, &n), "MPI_Get_count");
  Message m{st.MPI_SOURCE, st.MPI_TAG, std::string(static_cast<std::size_t>(n), '\0')};
  check(MPI_Recv(m.payload.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  return m;
}

Message recv(int source) {
  for (;;) {
    if (auto m = try_recv(source)) return *m;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void abort(int code) {
  if (g_init) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace plab::mpi
