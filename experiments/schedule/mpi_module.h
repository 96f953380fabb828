/* The C interface between `plab` and its MPI module (libplab_mpi.so, experiments/schedule/mpi_module.cpp).
   The module alone links MPI and is loaded only when an MPI launcher started the process
   (experiments/schedule/mpi_comm.cpp), so a single-process run loads none of MPI's libraries: they
   were half of plab's start-up time (docs/architecture.md#fixed-cost). Errors come back as text (no
   exception crosses the boundary); every call returns 0 on success. */
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLAB_MPI_API_VERSION 1

struct plab_mpi_table {
  int version; /* PLAB_MPI_API_VERSION */
  /* MPI_Init_thread with MPI_THREAD_FUNNELED and errors returned, not fatal. */
  int (*init)(char* err, size_t err_len);
  int (*rank)(void);
  int (*size)(void);
  int (*send)(int dest, int tag, const char* data, size_t len, char* err, size_t err_len);
  /* A waiting message from `source` (-1: any): *flag = 1 and its source, tag and length, or *flag = 0. */
  int (*probe)(int source, int* flag, int* from, int* tag, size_t* len, char* err, size_t err_len);
  /* Receives the message `probe` found into data[0..len). */
  int (*recv)(int from, int tag, char* data, size_t len, char* err, size_t err_len);
  void (*abort)(int code);
};

/* The module's one exported symbol. */
const struct plab_mpi_table* plab_mpi_api(void);

#ifdef __cplusplus
}
#endif
