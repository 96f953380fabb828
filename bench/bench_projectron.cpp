// The Projectron step at fixed |S| = n with the Cholesky factor K = L L^T (projectron.hpp):
// forward solve z = L^{-1} k_t (every mistake / margin error), backward solve d = L^{-T} z (only
// on projected updates) and the O(n) append of a row (only on additions).
// Flops: n^2 per triangular solve (n^2/2 FMAs). Machine limits: ~70 GFLOP/s FP64 FMA, ~15 GB/s;
// the packed factor is 4 n^2 bytes (n = 2000: 16 MB, beyond L2, inside L3).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "algorithms/projectron.hpp"
#include "algorithms/random.hpp"

using namespace plab;

namespace {

// L of n well-spread Gaussian-kernel points (10-d, gamma = 0.5), grown as the learner does;
// k_out is the kernel row of a further point.
GramCholesky make_factor(std::size_t n, std::vector<double>& k_out) {
  Rng rng(7);
  const std::size_t dim = 10;
  std::vector<std::vector<double>> pts(n + 1, std::vector<double>(dim));
  for (auto& p : pts)
    for (auto& v : p) v = rng.normal();
  auto kern = [&](std::size_t a, std::size_t b) {
    double s = 0.0;
    for (std::size_t j = 0; j < dim; ++j) s += (pts[a][j] - pts[b][j]) * (pts[a][j] - pts[b][j]);
    return std::exp(-0.5 * s);
  };
  GramCholesky L;
  std::vector<double> k, z;
  for (std::size_t i = 0; i < n; ++i) {
    k.resize(i);
    z.resize(i);
    for (std::size_t j = 0; j < i; ++j) k[j] = kern(i, j);
    const double pk2 = L.forward(k.data(), z.data());
    L.append(z.data(), std::sqrt(1.0 - pk2));
  }
  k_out.resize(n);
  for (std::size_t j = 0; j < n; ++j) k_out[j] = kern(n, j);
  return L;
}

void counters(benchmark::State& state, double flops, double bytes) {
  state.SetItemsProcessed(state.iterations());
  state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["GB/s"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// A projected mistake step: forward + backward solve (2 n^2 flops, the triangle read twice).
void BM_ProjectronProjectStep(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> k, z(n), d(n);
  const GramCholesky L = make_factor(n, k);
  for (auto _ : state) {
    benchmark::DoNotOptimize(L.forward(k.data(), z.data()));
    L.backward(z.data(), d.data());
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  const double nn = static_cast<double>(n) * static_cast<double>(n);
  counters(state, 2.0 * nn, 8.0 * nn);
}

void BM_CholForward(benchmark::State& state) {  // skipped margin errors pay only this
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> k, z(n);
  const GramCholesky L = make_factor(n, k);
  for (auto _ : state) {
    benchmark::DoNotOptimize(L.forward(k.data(), z.data()));
    benchmark::ClobberMemory();
  }
  const double nn = static_cast<double>(n) * static_cast<double>(n);
  counters(state, nn, 4.0 * nn);
}

void BM_CholBackward(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> k, z(n), w(n), d(n);
  const GramCholesky L = make_factor(n, k);
  L.forward(k.data(), z.data());
  for (auto _ : state) {
    w = z;  // backward consumes its input (O(n) copy)
    L.backward(w.data(), d.data());
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  const double nn = static_cast<double>(n) * static_cast<double>(n);
  counters(state, nn, 4.0 * nn);
}

}  // namespace

BENCHMARK(BM_ProjectronProjectStep)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_CholForward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_CholBackward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
