// Threads inside one run (core/thread_pool.hpp, docs/threads.md): wall-clock rates against the
// number of threads N (the last argument) of
//  - BM_ThreadsRowsMnist: kernel rows of a block of 96 MNIST rounds (run_online's block, as the
//    multiclass learners compute them) against 2000 or 19000 dense supports, R4's former
//    degree-7 kernel (bench_multiclass's r4_kernel);
//  - BM_ThreadsRowA9a: one a9a round's row (the binary learners' per-round row, Gaussian gamma 0.04)
//    against 2000 or 19000 supports; BM_ThreadsRowA9aSplit: the same split whatever its size;
//  - BM_ThreadsPassMnist: the whole MNIST multiclass PA-I pass of bench_multiclass (C = 1);
//  - BM_StreamTriad: memory bandwidth, a[i] = b[i] + s c[i] over 3 x 64 MB on N threads (STREAM's
//    triad: 24 bytes a step, write-allocate not counted).
// All on real time (the pool's helpers are other threads). Numbers: docs/threads.md#measured.
#include <benchmark/benchmark.h>

#include <memory>

#include "config/given_options.hpp"
#include "algorithms/registry.hpp"
#include "core/thread_pool.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/run.hpp"
#include "numerics/support_set.hpp"

using namespace plab;

namespace {

const Dataset* load(const std::string& name, const char* labels) {
  try {
    return new Dataset(load_dataset(name, LabelMap::parse(labels)));
  } catch (const DataError&) {
    return nullptr;
  }
}
const Dataset* mnist() {
  static const Dataset* d = load("mnist", "classes");
  return d;
}
const Dataset* a9a() {
  static const Dataset* d = load("a9a", "");
  return d;
}

// Kernel rows of `m` rounds of d (after the supports) against n supports, on a pool of N threads.
void rows(benchmark::State& st, const Dataset* d, const Kernel& k, std::size_t m) {
  if (!d) { st.SkipWithError("data set not found on the data search path"); return; }
  const std::size_t n = static_cast<std::size_t>(st.range(0)), N = static_cast<std::size_t>(st.range(1));
  SupportSet sv(d->dim);
  std::vector<Example> xs;  // rows 0..n-1 are the supports, the next m the rounds
  double nnz = 0.0;
  for (std::size_t i = 0; i < n + m; ++i)
    if (i < n) sv.add((*d)[i], static_cast<int64_t>(i));
    else nnz += static_cast<double>(xs.emplace_back((*d)[i]).idx.size());
  std::vector<double, HugePageAllocator<double>> out(m * n);
  ThreadPool pool(static_cast<unsigned>(N - 1));
  PoolScope scope(&pool);
  for (auto _ : st) {
    sv.kernel_rows(k, xs.data(), m, out.data(), n);
    benchmark::DoNotOptimize(out.data());
  }
  st.counters["rows/s"] = benchmark::Counter(static_cast<double>(m * st.iterations()), benchmark::Counter::kIsRate);
  st.counters["GFMA/s"] = benchmark::Counter(nnz * static_cast<double>(n) * 1e-9 * static_cast<double>(st.iterations()),
                                             benchmark::Counter::kIsRate);
}

void BM_ThreadsRowsMnist(benchmark::State& st) { rows(st, mnist(), Kernel::poly(0.006, 0.5, 7), 96); }
void BM_ThreadsRowA9a(benchmark::State& st) { rows(st, a9a(), Kernel::rbf(0.04), 1); }
BENCHMARK(BM_ThreadsRowsMnist)->ArgsProduct({{2000, 19000}, {1, 2}})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ThreadsRowA9a)->ArgsProduct({{2000, 19000}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);

// The threshold's evidence (docs/threads.md#threshold): a9a rows of 500 .. 8000 supports split on
// N threads whatever their size (N = 1: the unsplit time).
void BM_ThreadsRowA9aSplit(benchmark::State& st) {
  const double saved = parallel_min_work();
  set_parallel_min_work(0.0);
  rows(st, a9a(), Kernel::rbf(0.04), 1);
  set_parallel_min_work(saved);
}
BENCHMARK(BM_ThreadsRowA9aSplit)->ArgsProduct({{500, 2000, 8000}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_ThreadsPassMnist(benchmark::State& st) {
  const Dataset* d = mnist();
  if (!d) { st.SkipWithError("mnist not found on the data search path"); return; }
  GivenOptions given = given_from_json(kernel_json_given(Kernel::poly(0.006, 0.5, 7)), "bench_threads");
  given.add("C", 1.0, "bench_threads");
  LearnerConfig o = configure_learner("multiclass-pa1", given);
  o.with_data(d->dim, d->classes.size());
  const auto order = make_order(d->size(), std::nullopt);
  ThreadPool pool(static_cast<unsigned>(st.range(0) - 1));
  PoolScope scope(&pool);
  RunResult r;
  for (auto _ : st) {
    auto learner = make_learner(o);
    r = run_online(*learner, *d, order);
  }
  st.counters["support"] = static_cast<double>(r.support_size);
}
BENCHMARK(BM_ThreadsPassMnist)->Arg(1)->Arg(2)->UseRealTime()->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_StreamTriad(benchmark::State& st) {
  const std::size_t n = std::size_t{8} << 20;  // 64 MB an array, far beyond the caches
  std::vector<double, HugePageAllocator<double>> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  ThreadPool pool(static_cast<unsigned>(st.range(0) - 1));
  PoolScope scope(&pool);
  for (auto _ : st) {
    pool.run(0, n, 4096, pool.width(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] = b[i] + 3.0 * c[i];
    });
    benchmark::DoNotOptimize(a.data());
  }
  st.counters["GB/s"] = benchmark::Counter(24.0 * static_cast<double>(n) * 1e-9 * static_cast<double>(st.iterations()),
                                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_StreamTriad)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
