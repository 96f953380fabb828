// One whole pass of every multiclass learner over the full MNIST training set (60000 images, pixels/255)
// with R4's former polynomial kernel of degree 7 (r4_kernel below), in file order, and the kernel
// rows alone. The learners run as without bounds (record_norms off). The kernel row of x against S
// costs nnz(x) |S| fma (dense feature-major supports, sparse x: MNIST has ~150 non-zero pixels of
// 784); the counters count those useful fma per second, to compare with the core's measured peak
// (bench_projectron's BM_FmaPeakAvx512: 143 GFLOP/s = 71.6 GFMA/s on the Zen 5 dev VM, 2 x 8-wide
// fma a cycle at ~4.5 GHz). Measured numbers: docs/learners.md#layout.
#include <benchmark/benchmark.h>

#include <memory>

#include "algorithms/multiclass.hpp"
#include "algorithms/multiclass_projectron.hpp"
#include "config/given_options.hpp"
#include "numerics/poly_pow.hpp"
#include "algorithms/registry.hpp"
#include "numerics/simd.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/run.hpp"

using namespace plab;

namespace {

const Dataset* mnist() {
  static std::unique_ptr<Dataset> d = [] {
    try { return std::make_unique<Dataset>(load_dataset("mnist", LabelMap::parse("classes"))); }
    catch (const DataError&) { return std::unique_ptr<Dataset>(); }
  }();
  return d.get();
}

// The MNIST kernel of the measurements in docs/learners.md#layout:
// (0.006 <x,x'> + 1/2)^7 on pixels/255 (docs/conventions.md#r4). Pinned here so
// that the numbers stay comparable; R4 itself uses unit-norm images and <x,x'>^7.
Kernel r4_kernel() { return Kernel::poly(0.006, 0.5, 7); }

// The options below that `algo` declares, with R4's kernel, checked as a run's are.
LearnerConfig r4_options(const std::string& algo, const Dataset& d) {
  const Kernel k = r4_kernel();
  const nlohmann::json want = {{"eta", 0.1}, {"eta_convention", "dogma"}, {"budget", 2000}, {"C", 1.0}};
  GivenOptions given;
  for (const auto& [key, v] : want.items())
    if (learner_info(algo, "algo").uses(key)) given.add(key, v, "bench_multiclass");
  given.add("kernel", k.type_name(), "bench_multiclass");
  given.add("gamma", k.gamma, "bench_multiclass");
  given.add("coef0", k.coef0, "bench_multiclass");
  given.add("degree", k.degree, "bench_multiclass");
  LearnerConfig c = configure_learner(algo, given);
  c.with_data(d.dim, d.classes.size()).with_record_norms(false);  // as without bounds (docs/learners.md#bookkeeping)
  return c;
}

// The multiclass Projectron++'s forward solves, the same pass replayed round by round: a round
// that projects (mistake or margin error) solves z_c = L_c^{-1} k_c for y and the competitor,
// n_c (n_c + 1) / 2 fmas each with n_c = |S_c| before the round (docs/learners.md#floors).
double solve_fmas(const Dataset& d, const std::vector<std::size_t>& order, const LearnerConfig& o) {
  const auto learner = make_learner(o);
  const auto* pp = dynamic_cast<const MulticlassProjectronPP*>(learner.get());
  std::vector<double> n(d.classes.size());
  double fma = 0.0;
  for (std::size_t t = 0; t < order.size(); ++t) {
    for (std::size_t c = 0; c < n.size(); ++c) n[c] = static_cast<double>(pp->basis(c).size());
    const RoundRecord r = learner->learn(d[order[t]], static_cast<int64_t>(t) + 1);
    if (!r.mistake && !r.margin_error) continue;
    for (const auto c : {static_cast<std::size_t>(r.y), static_cast<std::size_t>(r.competitor)}) fma += n[c] * (n[c] + 1.0) / 2.0;
  }
  return fma;
}

void BM_WholePassMnist(benchmark::State& st, const std::string& algo) {
  const Dataset* d = mnist();
  if (!d) { st.SkipWithError("mnist not found on the data search path"); return; }
  const LearnerConfig o = r4_options(algo, *d);
  const auto order = make_order(d->size(), std::nullopt);
  RunResult r;
  for (auto _ : st) {
    auto learner = make_learner(o);
    r = run_online(*learner, *d, order);
  }
  double fma = 0.0;  // sum_t nnz(x_t) |S_{t-1}|
  for (std::size_t t = 1; t < r.rounds.size(); ++t)
    fma += static_cast<double>(d->rowptr[order[t] + 1] - d->rowptr[order[t]]) * static_cast<double>(r.rounds[t - 1].support_size);
  st.counters["mistakes"] = static_cast<double>(r.mistakes);
  st.counters["support"] = static_cast<double>(r.support_size);
  st.counters["kernel_GFMA/s"] = benchmark::Counter(fma * 1e-9 * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  if (algo == "multiclass-projectron++") fma += solve_fmas(*d, order, o);
  st.counters["floor_fma"] = fma;  // every round's kernel row (and solves), a floor of the pass (make bench-report)
}

// Kernel rows of a block of examples (kBlockRounds, as the multiclass learners compute them, into
// 64-byte aligned rows) against n MNIST supports: with R4's degree-7 kernel (arg 1 = 1) or the dot
// products alone (linear kernel, arg 1 = 0).
void BM_KernelRowsMnist(benchmark::State& st) {
  const Dataset* d = mnist();
  if (!d) { st.SkipWithError("mnist not found on the data search path"); return; }
  const std::size_t n = static_cast<std::size_t>(st.range(0)), m = MulticlassLearner::kBlockRounds;
  const Kernel k = st.range(1) ? r4_kernel() : Kernel::linear();
  SupportSet sv(d->dim);
  for (std::size_t i = 0; i < n; ++i) sv.add((*d)[i], static_cast<int64_t>(i));
  std::vector<Example> xs;
  double nnz = 0.0;
  for (std::size_t l = 0; l < m; ++l) {
    xs.push_back((*d)[n + l]);
    nnz += static_cast<double>(xs.back().idx.size());
  }
  std::vector<double, HugePageAllocator<double>> out(m * n);
  for (auto _ : st) {
    sv.kernel_rows(k, xs.data(), m, out.data(), n);
    benchmark::DoNotOptimize(out.data());
  }
  st.counters["GFMA/s"] = benchmark::Counter(nnz * static_cast<double>(n) * 1e-9 * static_cast<double>(st.iterations()),
                                             benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KernelRowsMnist)->ArgsProduct({{2000, 19000}, {0, 1}})->Unit(benchmark::kMillisecond);

// The power alone (poly_from_dots, p = 7) on a row of 19000 dots: arg 0/1/2 = scalar/avx2/avx512 path;
// the dots give b = gamma <x,x'> + 1/2 in [0.5, 2.3], R4's MNIST range (k(x,x) in [0.022, 311]).
// ns a value = 1e9 / items_per_second (the row's copy, ~150 KB from L2, is included).
void BM_PolyFromDots(benchmark::State& st) {
  const std::string isa = simd_name(static_cast<Simd>(st.range(0)));
  if (static_cast<Simd>(st.range(0)) > simd_best()) { st.SkipWithError((isa + " not on this CPU").c_str()); return; }
  const Kernel k = r4_kernel();
  Rng rng(5);
  std::vector<double> dots(19000), row(dots.size());
  for (double& d : dots) d = rng.uniform() * 300.0;
  for (auto _ : st) {
    row = dots;
    poly_from_dots_on(isa, k.gamma, k.coef0, k.degree, row.data(), row.size());
    benchmark::DoNotOptimize(row.data());
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * row.size()));
  st.SetLabel(isa);
}
BENCHMARK(BM_PolyFromDots)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

// The pairing of a block of kBlockRounds MNIST rounds (paid once per kernel_rows call) and the
// fraction of its fmas that are useful: sum nnz(x) / (2 |union| summed over the pairs).
void BM_PairRoundsMnist(benchmark::State& st) {
  const Dataset* d = mnist();
  if (!d) { st.SkipWithError("mnist not found on the data search path"); return; }
  std::vector<Example> xs;
  double nnz = 0.0;
  for (std::size_t l = 0; l < MulticlassLearner::kBlockRounds; ++l) {
    xs.push_back((*d)[l]);
    nnz += static_cast<double>(xs.back().idx.size());
  }
  RoundPairs g;
  for (auto _ : st) {
    g = pair_rounds(xs.data(), xs.size(), d->dim, 20000);
    benchmark::DoNotOptimize(g.val.data());
  }
  st.counters["useful"] = nnz / static_cast<double>(2 * g.offset.size());
}
BENCHMARK(BM_PairRoundsMnist)->Unit(benchmark::kMicrosecond);

const bool kRegistered = [] {
  for (const auto& l : learners())
    if (l.multiclass)
      benchmark::RegisterBenchmark(("BM_WholePassMnist/" + l.name).c_str(), BM_WholePassMnist, l.name)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
  return true;
}();

}  // namespace
