// The MPI side of `plab reproduce` under mpirun/srun (docs/cluster.md), built as libplab_mpi.so and
// loaded by experiments/schedule/mpi_comm.cpp only when a launcher started the process. Only the
// calling (main) thread talks MPI (MPI_THREAD_FUNNELED); the cell threads never do.
#include "experiments/schedule/mpi_module.h"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool g_init = false;

int fail(int rc, const char* what, char* err, std::size_t n) {
  if (rc == MPI_SUCCESS) return 0;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  std::snprintf(err, n, "%s: %.*s", what, len, text);
  return rc;
}

void finalize_at_exit() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

int init(char* err, std::size_t n) {
  if (g_init) return 0;
  int provided = 0;
  if (const int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided)) return fail(rc, "MPI_Init_thread", err, n);
  if (provided < MPI_THREAD_FUNNELED) {
    std::snprintf(err, n, "the library does not support MPI_THREAD_FUNNELED");
    return -1;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // errors come back as codes
  g_init = true;
  std::atexit(finalize_at_exit);
  return 0;
}

int rank() {
  int r = 0;
  if (g_init) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  int s = 1;
  if (g_init) MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

int send(int dest, int tag, const char* data, std::size_t len, char* err, std::size_t n) {
  if (len > static_cast<std::size_t>(INT_MAX)) {
    std::snprintf(err, n, "MPI_Send: a message of %zu bytes exceeds MPI's int count", len);
    return -1;
  }
  return fail(MPI_Send(data, static_cast<int>(len), MPI_CHAR, dest, tag, MPI_COMM_WORLD), "MPI_Send", err, n);
}

int probe(int source, int* flag, int* from, int* tag, std::size_t* len, char* err, std::size_t n) {
  MPI_Status st;
  *flag = 0;
  if (const int rc = MPI_Iprobe(source < 0 ? MPI_ANY_SOURCE : source, MPI_ANY_TAG, MPI_COMM_WORLD, flag, &st))
    return fail(rc, "MPI_Iprobe", err, n);
  if (!*flag) return 0;
  int count = 0;
  if (const int rc = MPI_Get_count(&st, MPI_CHAR, &count)) return fail(rc, "MPI_Get_count", err, n);
  *from = st.MPI_SOURCE;
  *tag = st.MPI_TAG;
  *len = static_cast<std::size_t>(count);
  return 0;
}

int recv(int from, int tag, char* data, std::size_t len, char* err, std::size_t n) {
  return fail(MPI_Recv(data, static_cast<int>(len), MPI_CHAR, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv",
              err, n);
}

void abort_all(int code) {
  if (g_init) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

const plab_mpi_table kApi = {PLAB_MPI_API_VERSION, init, rank, size, send, probe, recv, abort_all};

}  // namespace

extern "C" __attribute__((visibility("default"))) const plab_mpi_table* plab_mpi_api() { return &kApi; }
