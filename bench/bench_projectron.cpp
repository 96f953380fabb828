// The Projectron mistake step at fixed |S| = n: d = Kinv k_t (symmetric matvec over the packed
// triangle) followed by a rank-1 update of Kinv (what grow() does after appending a row).
// Flops counted as 2 n^2 (matvec) + 2 n^2 (rank-1 update); the sign of the update alternates
// so Kinv stays bounded across iterations. Machine limits: ~70 GFLOP/s FP64 FMA, ~15 GB/s.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "algorithms/projectron.hpp"
#include "algorithms/random.hpp"

using namespace plab;

namespace {

// Kinv of n well-spread Gaussian-kernel points (10-d, gamma = 0.5), grown as the learner does.
GramInverse make_inverse(std::size_t n, std::vector<double>& k_out) {
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
  GramInverse inv;
  std::vector<double> k, d;
  for (std::size_t i = 0; i < n; ++i) {
    k.resize(i);
    d.resize(i);
    for (std::size_t j = 0; j < i; ++j) k[j] = kern(i, j);
    inv.multiply(k.data(), d.data());
    double pk2 = 0.0;
    for (std::size_t j = 0; j < i; ++j) pk2 += k[j] * d[j];
    inv.grow(d.data(), 1.0 - pk2);
  }
  k_out.resize(n);
  for (std::size_t j = 0; j < n; ++j) k_out[j] = kern(n, j);  // the query point x_{n+1}
  return inv;
}

void BM_ProjectronMistakeStep(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> k, d(n);
  GramInverse inv = make_inverse(n, k);
  double sign = 1.0;
  for (auto _ : state) {
    inv.multiply(k.data(), d.data());
    double pk2 = 0.0;
    for (std::size_t j = 0; j < n; ++j) pk2 += k[j] * d[j];
    // Small alternating step: the same memory traffic and flops as the real update.
    inv.rank1_update(d.data(), sign * 1e-3 / (1.0 + pk2), n);
    sign = -sign;
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  const double flops = 4.0 * static_cast<double>(n) * static_cast<double>(n);
  state.SetItemsProcessed(state.iterations());
  state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  // Bytes streamed: the packed triangle (8 n^2/2) read by the matvec, read+written by the update.
  state.counters["GB/s"] = benchmark::Counter(12.0 * static_cast<double>(n) * static_cast<double>(n) * 1e-9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

// The two halves separately, to see which one limits.
void BM_KinvMatvec(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> k, d(n);
  GramInverse inv = make_inverse(n, k);
  for (auto _ : state) {
    inv.multiply(k.data(), d.data());
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["GFLOP/s"] = benchmark::Counter(2e-9 * static_cast<double>(n * n),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_KinvRank1(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> k, d(n);
  GramInverse inv = make_inverse(n, k);
  inv.multiply(k.data(), d.data());
  double c = 1e-6;
  for (auto _ : state) {
    inv.rank1_update(d.data(), c, n);
    c = -c;
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["GFLOP/s"] = benchmark::Counter(2e-9 * static_cast<double>(n * n),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(BM_ProjectronMistakeStep)->Arg(100)->Arg(500)->Arg(2000);
BENCHMARK(BM_KinvMatvec)->Arg(100)->Arg(500)->Arg(2000);
BENCHMARK(BM_KinvRank1)->Arg(100)->Arg(500)->Arg(2000);
