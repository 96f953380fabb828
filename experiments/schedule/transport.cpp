#include "experiments/schedule/transport.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "experiments/schedule/mpi_comm.hpp"

namespace plab {

Envelope Transport::recv(int source) {
  for (;;) {
    if (auto m = try_recv(source)) return std::move(*m);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void Transport::abort(int code) {
  end_job(code);
  std::_Exit(code);
}

namespace {

class SingleProcess final : public Transport {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void send(int dest, const Message&) override {
    throw std::logic_error("single process: no rank " + std::to_string(dest) + " to send to");
  }
  std::optional<Envelope> try_recv(int) override { return std::nullopt; }
  void end_job(int) override {}
};

class MpiTransport final : public Transport {
 public:
  int rank() const override { return mpi::rank(); }
  int size() const override { return mpi::size(); }
  void send(int dest, const Message& m) override {
    const WireMessage w = encode(m);
    mpi::send(dest, w.tag, w.payload);
  }
  std::optional<Envelope> try_recv(int source) override {
    auto m = mpi::try_recv(source);
    if (!m) return std::nullopt;
    return Envelope{m->source, decode({m->tag, std::move(m->payload)})};
  }
  void end_job(int code) override { mpi::abort(code); }
};

}  // namespace

Transport& single_process_transport() {
  static SingleProcess t;
  return t;
}

Transport& process_transport() {
  static MpiTransport mpi_transport;
  mpi::init();  // several ranks only under mpirun / srun
  return mpi::launched() ? static_cast<Transport&>(mpi_transport) : single_process_transport();
}

}  // namespace plab
