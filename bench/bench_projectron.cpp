// The Projectron's O(|S|^2) work at fixed |S| = n (projectron.hpp): the forward solve z = L^{-1} k_t
// that every round needs, done for a block of kPanelLanes = 24 rounds at once (forward_panel, the
// path learn_block uses) or for one round alone (stride 1, the path of a lone learn() call), and
// the backward solve alpha = L^{-T} beta that forms the expansion when it is read (sync).
// Flops: n^2 per round and right-hand side (n^2/2 FMAs). Machine limit measured on the dev box
// (2 cores, AMD EPYC Zen 5): FP64 FMA peak 26 GFMA/s with AVX2, 52 GFMA/s with AVX-512 (one core);
// the packed factor is 4 n^2 bytes (n = 2000: 16 MB, beyond L2, inside L3).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "algorithms/panel_solve.hpp"
#include "algorithms/projectron.hpp"
#include "algorithms/random.hpp"

using namespace plab;

namespace {

struct Factor {
  GramCholesky L;
  std::vector<double> K;  // n x kPanelLanes kernel rows of further points (row-major, lanes per row)
};

// L of n well-spread Gaussian-kernel points (10-d, gamma = 0.5), grown as the learner does.
Factor make_factor(std::size_t n) {
  Rng rng(7);
  const std::size_t dim = 10, W = kPanelLanes;
  std::vector<std::vector<double>> pts(n + W, std::vector<double>(dim));
  for (auto& p : pts)
    for (auto& v : p) v = rng.normal();
  auto kern = [&](std::size_t a, std::size_t b) {
    double s = 0.0;
    for (std::size_t j = 0; j < dim; ++j) s += (pts[a][j] - pts[b][j]) * (pts[a][j] - pts[b][j]);
    return std::exp(-0.5 * s);
  };
  Factor f;
  std::vector<double> z;
  for (std::size_t i = 0; i < n; ++i) {
    z.resize(i);
    for (std::size_t j = 0; j < i; ++j) z[j] = kern(i, j);
    forward_panel(f.L.packed(), 0, i, z.data(), 1);
    double pk2 = 0.0;
    for (double v : z) pk2 += v * v;
    f.L.append(z.data(), std::sqrt(1.0 - pk2));
  }
  f.K.resize(n * W);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t l = 0; l < W; ++l) f.K[j * W + l] = kern(n + l, j);
  return f;
}

void counters(benchmark::State& state, double rounds, double n) {
  state.SetItemsProcessed(static_cast<int64_t>(rounds) * state.iterations());
  state.counters["GFLOP/s"] = benchmark::Counter(rounds * n * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// 24 rounds' z at once: the factor is read once per block.
void BM_PanelForward(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Factor f = make_factor(n);
  std::vector<double> Z;
  for (auto _ : state) {
    Z = f.K;
    forward_panel(f.L.packed(), 0, n, Z.data(), kPanelLanes);
    benchmark::DoNotOptimize(Z.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(panel_isa());
  counters(state, static_cast<double>(kPanelLanes), static_cast<double>(n));
}

// One round alone (stride 1): four fma chains, bound by FMA latency.
void BM_LaneForward(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Factor f = make_factor(n);
  std::vector<double> z(n);
  for (auto _ : state) {
    for (std::size_t j = 0; j < n; ++j) z[j] = f.K[j * kPanelLanes];
    forward_panel(f.L.packed(), 0, n, z.data(), 1);
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  counters(state, 1.0, static_cast<double>(n));
}

// alpha = L^{-T} beta (sync): the triangle streamed once, one FMA per element.
void BM_CholBackward(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Factor f = make_factor(n);
  std::vector<double> z(n), w(n), d(n);
  for (std::size_t j = 0; j < n; ++j) z[j] = f.K[j * kPanelLanes];
  for (auto _ : state) {
    w = z;  // backward consumes its input (O(n) copy)
    f.L.backward(w.data(), d.data());
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  counters(state, 1.0, static_cast<double>(n));
  state.counters["GB/s"] = benchmark::Counter(4.0 * static_cast<double>(n * n) * 1e-9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(BM_PanelForward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_LaneForward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_CholBackward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
