#include "experiments/schedule/mpi_comm.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <vector>

#include "experiments/schedule/mpi_module.h"

namespace plab::mpi {

namespace {

const plab_mpi_table* g_api = nullptr;  // set by init() when launched

// The module beside the running program (build/libplab_mpi.so next to build/plab and the tests).
std::filesystem::path module_path() {
  std::vector<char> buf(4096);
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return "libplab_mpi.so";
  return std::filesystem::path(std::string(buf.data(), static_cast<std::size_t>(n))).parent_path() / "libplab_mpi.so";
}

const plab_mpi_table* load() {
  const std::string path = module_path().string();
  // RTLD_GLOBAL: Open MPI loads its own components, which look up its symbols globally.
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!h) throw std::runtime_error("MPI: started by an MPI launcher, but its module could not be loaded: " +
                                   std::string(dlerror()) + " (docs/cluster.md)");
  using Get = const plab_mpi_table* (*)();
  const auto get = reinterpret_cast<Get>(dlsym(h, "plab_mpi_api"));
  const plab_mpi_table* api = get ? get() : nullptr;
  if (!api || api->version != PLAB_MPI_API_VERSION)
    throw std::runtime_error("MPI: " + path + " is not the module of this plab (rebuild both)");
  return api;
}

void check(int rc, const char* err) {
  if (rc != 0) throw std::runtime_error(std::string("MPI: ") + err);
}

}  // namespace

bool launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

bool init() {
  if (!g_api && launched()) {
    const plab_mpi_table* api = load();
    char err[512] = "";
    check(api->init(err, sizeof err), err);
    g_api = api;
  }
  return size() > 1;
}

int rank() { return g_api ? g_api->rank() : 0; }

int size() { return g_api ? g_api->size() : 1; }

void send(int dest, int tag, const std::string& payload) {
  char err[512] = "";
  check(g_api ? g_api->send(dest, tag, payload.data(), payload.size(), err, sizeof err) : -1, g_api ? err : "not initialised");
}

std::optional<Message> try_recv(int source) {
  if (!g_api) throw std::runtime_error("MPI: not initialised");
  char err[512] = "";
  int flag = 0, from = 0, tag = 0;
  std::size_t len = 0;
  check(g_api->probe(source, &flag, &from, &tag, &len, err, sizeof err), err);
  if (!flag) return std::nullopt;
  Message m{from, tag, std::string(len, '\0')};
  check(g_api->recv(from, tag, m.payload.data(), len, err, sizeof err), err);
  return m;
}

Message recv(int source) {
  for (;;) {
    if (auto m = try_recv(source)) return *m;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void abort(int code) {
  if (g_api) g_api->abort(code);
  std::_Exit(code);
}

}  // namespace plab::mpi
