// The Projectron's O(|S|^2) work at fixed |S| = n (projectron.hpp): the forward solve z = L^{-1} k_t
// that every round needs, done for a block of kPanelLanes = 24 rounds at once (forward_panel, the
// path learn_block uses) or for one round alone (stride 1, the path of a lone learn() call), and
// the backward solve alpha = L^{-T} beta that forms the expansion when it is read (sync).
// BM_ProjectronStep is the whole round as the learner runs it (kernel row, block solve, decision,
// projected update) at a fixed support set of n points.
// Flops: n^2 per round and right-hand side (n^2/2 FMAs). The machine's limit is measured here too
// (BM_FmaPeak: independent FMA chains, nothing else); the packed factor is 4 n^2 bytes (n = 2000:
// 16 MB, beyond L2, inside L3).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include <immintrin.h>

#include "config/given_options.hpp"
#include "algorithms/learner.hpp"
#include "algorithms/registry.hpp"
#include "datasets/dataset.hpp"
#include "numerics/column_solve.hpp"
#include "numerics/panel_solve.hpp"
#include "algorithms/projectron.hpp"
#include "core/random.hpp"

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

// One right-hand side by columns (the multiclass Projectron++'s solve): the rows of a block side by
// side, then the diagonal block's serial recurrence.
void BM_ColumnForward(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Factor f = make_factor(n);
  FactorColumns cols;
  cols.assign(f.L.packed(), n);
  std::vector<double> z(n);
  for (auto _ : state) {
    for (std::size_t j = 0; j < n; ++j) z[j] = f.K[j * kPanelLanes];
    forward_columns(cols, z.data());
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

// One round of the Projectron (eta = 0) with |S| = n, through learn_block as run_online calls it:
// n well-spread Gaussian points are added first, then the same points are presented again in
// blocks of kPanelLanes; they lie in span(S) (||delta|| = 0), so every update is a projection
// and |S| stays n. GFLOP/s counts the solve's n^2 per round.
void BM_ProjectronStep(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Rng rng(11);
  const std::size_t dim = 10;
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> x(dim);
    for (auto& v : x) v = rng.normal();
    d.push_dense(x, 1.0);
  }
  GivenOptions given = given_from_json(kernel_json_given(Kernel::rbf(0.5)), "bench_projectron");
  given.add("eta", 0.0, "bench_projectron");
  LearnerConfig o = configure_learner("projectron", given);
  o.with_data(dim, 0);
  auto learner = make_learner(o);
  std::vector<Example> xs;
  std::vector<RoundRecord> rec(n);
  for (std::size_t i = 0; i < n; ++i) {  // labels against f: every round a mistake, every point added
    d.y[i] = learner->score(d[i]) > 0.0 ? -1.0 : 1.0;
    xs.push_back(d[i]);
    rec[i] = learner->learn(xs.back(), static_cast<int64_t>(i + 1));
  }
  if (learner->support_size() != n) { state.SkipWithError("the points were not all added"); return; }
  int64_t t = static_cast<int64_t>(n) + 1;
  std::size_t b = 0;
  for (auto _ : state) {
    learner->learn_block(xs.data() + b, kPanelLanes, t, rec.data());
    t += static_cast<int64_t>(kPanelLanes);
    b = (b + kPanelLanes) % (n - kPanelLanes);
  }
  if (learner->support_size() != n) state.SkipWithError("|S| changed");
  counters(state, static_cast<double>(kPanelLanes), static_cast<double>(n));
}

// The machine's FP64 limits on one core, independent accumulator chains (enough to cover the
// latency), 2 flops per lane and step. FmaPeak: a step is an FMA, 12 chains; compare every GFLOP/s
// above with it. MulAddPeak: a step is a lane-sum term, a product rounded and then added (acc += a
// * b as two operations: the terms of every score, kernel-row dot and map whose bits
// docs/learners.md#lane-sums fixes), 8 chains, each its own product: where the adds run beside
// the FMA pipes it matches FmaPeak, where they share them, less. 8, not 12: with 12 accumulators,
// x and the products, AVX2's 16 registers spilled one accumulator to the stack, and its chain
// through memory (a store, a forwarded load, an add: about 10 cycles a round) measured half the
// AVX2 rate on an AMD EPYC Zen 4.
#define PLAB_PEAK(NAME, TARGET, VEC, W, SET1, STEP, CHAINS)                                           \
  __attribute__((target(TARGET))) void NAME(benchmark::State& state) {                             \
    VEC x = SET1(0.999999);                                                                         \
    const VEC y = SET1(1e-9);                                                                       \
    const VEC b[8] = {SET1(1e-9), SET1(2e-9), SET1(3e-9), SET1(4e-9),                               \
                      SET1(5e-9), SET1(6e-9), SET1(7e-9), SET1(8e-9)};                              \
    VEC a0 = x, a1 = x, a2 = x, a3 = x, a4 = x, a5 = x, a6 = x, a7 = x, a8 = x, a9 = x, a10 = x, a11 = x; \
    for (auto _ : state)                                                                            \
      for (int r = 0; r < 1000; ++r) {                                                              \
        asm volatile("" : "+v"(x)); /* products are formed anew every step */                       \
        a0 = STEP(a0, 0); a1 = STEP(a1, 1); a2 = STEP(a2, 2); a3 = STEP(a3, 3);                     \
        a4 = STEP(a4, 4); a5 = STEP(a5, 5); a6 = STEP(a6, 6); a7 = STEP(a7, 7);                     \
        if (CHAINS > 8) {                                                                           \
          a8 = STEP(a8, 0); a9 = STEP(a9, 1); a10 = STEP(a10, 2); a11 = STEP(a11, 3);               \
        }                                                                                           \
        asm volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5));            \
        asm volatile("" : "+v"(a6), "+v"(a7));                                                      \
        if (CHAINS > 8) asm volatile("" : "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11));               \
      }                                                                                             \
    (void)y, (void)b;                                                                               \
    for (const VEC& v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11}) benchmark::DoNotOptimize(v); \
    state.counters["GFLOP/s"] = benchmark::Counter((CHAINS) * 1000.0 * 2 * (W) * 1e-9,               \
                                                   benchmark::Counter::kIsIterationInvariantRate);  \
  }
#define PLAB_FMA_STEP_256(a, k) _mm256_fmadd_pd(a, x, y)
#define PLAB_FMA_STEP_512(a, k) _mm512_fmadd_pd(a, x, y)
#define PLAB_MUL_ADD_STEP_256(a, k) _mm256_add_pd(a, _mm256_mul_pd(x, b[k]))
#define PLAB_MUL_ADD_STEP_512(a, k) _mm512_add_pd(a, _mm512_mul_pd(x, b[k]))
PLAB_PEAK(FmaPeakAvx2, "avx2,fma", __m256d, 4, _mm256_set1_pd, PLAB_FMA_STEP_256, 12)
PLAB_PEAK(FmaPeakAvx512, "avx512f", __m512d, 8, _mm512_set1_pd, PLAB_FMA_STEP_512, 12)
PLAB_PEAK(MulAddPeakAvx2, "avx2,fma", __m256d, 4, _mm256_set1_pd, PLAB_MUL_ADD_STEP_256, 8)
PLAB_PEAK(MulAddPeakAvx512, "avx512f", __m512d, 8, _mm512_set1_pd, PLAB_MUL_ADD_STEP_512, 8)
#undef PLAB_PEAK
#undef PLAB_FMA_STEP_256
#undef PLAB_FMA_STEP_512
#undef PLAB_MUL_ADD_STEP_256
#undef PLAB_MUL_ADD_STEP_512
// Where the CPU lacks AVX-512 its rows are skipped (not run: an illegal instruction).
#define PLAB_PEAK_BM(NAME, AVX512)                                                                    \
  void BM_##NAME(benchmark::State& state) {                                                         \
    if (AVX512 && !__builtin_cpu_supports("avx512f")) { state.SkipWithError("no AVX-512 on this CPU"); return; } \
    NAME(state);                                                                                    \
  }
PLAB_PEAK_BM(FmaPeakAvx2, false)
PLAB_PEAK_BM(FmaPeakAvx512, true)
PLAB_PEAK_BM(MulAddPeakAvx2, false)
PLAB_PEAK_BM(MulAddPeakAvx512, true)
#undef PLAB_PEAK_BM

}  // namespace

BENCHMARK(BM_FmaPeakAvx2);
BENCHMARK(BM_FmaPeakAvx512);
BENCHMARK(BM_MulAddPeakAvx2);
BENCHMARK(BM_MulAddPeakAvx512);
BENCHMARK(BM_ProjectronStep)->Arg(100)->Arg(500)->Arg(2000);
BENCHMARK(BM_PanelForward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_LaneForward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_ColumnForward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
BENCHMARK(BM_CholBackward)->Arg(100)->Arg(500)->Arg(800)->Arg(2000);
