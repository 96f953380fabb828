// High-dimensional sparse data (docs/learners.md#layout).
// BM_Layout: the two support layouts against the density nnz / dim of the supports (2048
// supports, Gaussian kernel rows of 1 or 24 examples at once): where the dense layout stops
// paying sets SupportSet::kDenseDensity; on binary rows, the bitset index against both.
// BM_HighDim: whole passes over synthetic:sparse:d=1300000,nnz=500,n=20000 (news20.binary's shape:
// 1.36 million features, a few hundred non-zeros per row), kernel Perceptron and Projectron++
// with the linear and the Gaussian kernel. peak_MB is the process's peak resident memory so far
// (ru_maxrss, the data set included): run one benchmark per process (--benchmark_filter) for the
// peak of that learner alone.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <memory>

#include "config/given_options.hpp"
#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "datasets/synthetic.hpp"
#include "experiments/run/run.hpp"

using namespace plab;

namespace {

double peak_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // kB on Linux
}

// make_sparse's rows with every value 1.0 (binary features).
Dataset ones(const Dataset& d) {
  Dataset b;
  for (std::size_t t = 0; t < d.size(); ++t) {
    const Example x = d[t];
    const std::vector<double> one(x.idx.size(), 1.0);
    b.push_back(x.idx, one, x.y);
  }
  return b;
}

// Arguments: dim, nnz, layout (0 dense, 1 sparse, 2 bits), m, binary values (0: normal, 1: 1.0).
void BM_Layout(benchmark::State& st) {
  const std::size_t dim = static_cast<std::size_t>(st.range(0)), nnz = static_cast<std::size_t>(st.range(1)), n = 2048;
  const SupportLayout layout = st.range(2) == 2 ? SupportLayout::bits : st.range(2) ? SupportLayout::sparse : SupportLayout::dense;
  const std::size_t m = static_cast<std::size_t>(st.range(3));
  Dataset sup = make_sparse(n, dim, nnz, 0.0, 1), probe = make_sparse(96, dim, nnz, 0.0, 2);
  if (st.range(4)) {
    sup = ones(sup);
    probe = ones(probe);
  }
  KernelExpansion f(Kernel::rbf(0.5), dim, layout);
  Rng rng(3);
  for (std::size_t i = 0; i < n; ++i) f.add(sup[i], static_cast<int64_t>(i + 1), rng.normal());
  std::vector<Example> xs;
  for (std::size_t i = 0; i < probe.size(); ++i) xs.push_back(probe[i]);
  std::vector<double> out(m * n);
  std::size_t k = 0;
  for (auto _ : st) {
    f.sv.kernel_rows(f.kernel, xs.data() + (k % (96 / m)) * m, m, out.data(), n);
    benchmark::DoNotOptimize(out.data());
    ++k;
  }
  st.counters["rows/s"] = benchmark::Counter(static_cast<double>(st.iterations() * m), benchmark::Counter::kIsRate);
  const char* name[] = {"dense", "sparse", "bits"};
  st.SetLabel(std::string(name[st.range(2)]) + (f.sv.bitset() ? "(bitset)" : "") + " density " +
              std::to_string(static_cast<double>(nnz) / static_cast<double>(dim)) + " m=" + std::to_string(m) +
              (st.range(4) ? " binary" : ""));
}

const Dataset& news_like() {
  static const Dataset d = make_sparse(20000, 1300000, 500, 0.0, 1);
  return d;
}

void BM_HighDim(benchmark::State& st, const std::string& algo, const Kernel& k) {
  const Dataset& d = news_like();
  GivenOptions given = given_from_json(kernel_json_given(k), "bench_high_dim");
  if (learner_info(algo, "algo").uses("eta")) given.add("eta", 0.5, "bench_high_dim");  // Projectron++: ||delta|| <= 0.5 projects (paper convention)
  LearnerConfig o = configure_learner(algo, given);
  o.with_data(d.dim, 0);
  const auto order = make_order(d.size(), std::nullopt);
  RunResult r;
  std::size_t nnz = 0;
  for (auto _ : st) {
    auto learner = make_learner(o);
    r = run_online(*learner, d, order);
    nnz = learner->expansion()->sv.nnz();
  }
  st.counters["mistakes"] = static_cast<double>(r.mistakes);
  st.counters["support"] = static_cast<double>(r.support_size);
  st.counters["support_nnz"] = static_cast<double>(nnz);
  st.counters["peak_MB"] = peak_mb();
}

}  // namespace

// a9a's shape (14 of 123), MNIST's (~150 of 784), then density 1/2 .. 1/256 of 2048 features.
// Binary values (docs/learners.md#binary): the bitset index against both layouts, where it stops
// paying sets SupportSet::kBitsDensity.
BENCHMARK(BM_Layout)
    ->ArgsProduct({{123}, {14}, {0, 1}, {1, 24}, {0}})
    ->ArgsProduct({{784}, {150}, {0, 1}, {1, 24}, {0}})
    ->ArgsProduct({{2048}, {1024, 512, 256, 128, 64, 32, 16, 8}, {0, 1}, {1, 24}, {0}})
    ->ArgsProduct({{123}, {14}, {0, 1, 2}, {1, 24}, {1}})
    ->ArgsProduct({{2048}, {512, 128, 64, 32, 16, 8, 4}, {0, 1, 2}, {1, 24}, {1}});
BENCHMARK_CAPTURE(BM_HighDim, kperceptron_linear, "kernel-perceptron", Kernel::linear())->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_HighDim, kperceptron_rbf, "kernel-perceptron", Kernel::rbf(1.0))->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_HighDim, projectronpp_linear, "projectron++", Kernel::linear())->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_HighDim, projectronpp_rbf, "projectron++", Kernel::rbf(1.0))->Unit(benchmark::kSecond)->Iterations(1);
