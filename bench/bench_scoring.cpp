// Scoring x against the whole support set: the hot loop of every kernel learner.
// Shapes: ijcnn1-like (22 dense), a9a-like (123 binary features, 14 active), mnist-like (784 dense).
// Counters: bytes/s counts the support columns streamed (nnz(x) * |S| * 8 bytes) plus the
// per-support norms and coefficients; flops/s counts 2 flops per streamed value.
#include <benchmark/benchmark.h>

#include <vector>

#include "core/random.hpp"
#include "numerics/support_set.hpp"

using namespace plab;

namespace {

enum Shape { ijcnn1 = 0, a9a = 1, mnist = 2 };

Dataset make_shape(Shape s, std::size_t n, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    if (s == a9a) {  // 14 distinct active binary features out of 123, like the real a9a rows
      std::vector<double> x(123, 0.0);
      for (int k = 0; k < 14; ++k) x[rng.below(123)] = 1.0;
      d.push_dense(x, 1.0);
    } else {
      std::vector<double> x(s == ijcnn1 ? 22 : 784);
      for (double& v : x) v = rng.uniform();
      d.push_dense(x, 1.0);
    }
  }
  return d;
}

// A Gaussian expansion over n supports of the shape, with normal coefficients.
KernelExpansion expansion(Shape shape, std::size_t n) {
  const Dataset sup = make_shape(shape, n, 1);
  KernelExpansion f(Kernel::rbf(0.04), sup.dim);
  Rng rng(3);
  for (std::size_t i = 0; i < n; ++i) f.add(sup[i], static_cast<int64_t>(i + 1), rng.normal());
  return f;
}

void BM_Score(benchmark::State& st) {
  const Shape shape = static_cast<Shape>(st.range(0));
  const std::size_t n = static_cast<std::size_t>(st.range(1));
  const Dataset probe = make_shape(shape, 64, 2);
  const KernelExpansion f = expansion(shape, n);
  std::size_t k = 0, nnz = 0;
  double acc = 0.0;
  for (auto _ : st) {
    const Example x = probe[k++ & 63];
    nnz += x.idx.size();
    acc += f.score(x);
  }
  benchmark::DoNotOptimize(acc);
  const double streamed = static_cast<double>(nnz) * n * 8.0 + st.iterations() * n * 16.0;
  st.counters["bytes/s"] = benchmark::Counter(streamed, benchmark::Counter::kIsRate);
  st.counters["flop/s"] = benchmark::Counter(2.0 * nnz * n, benchmark::Counter::kIsRate);
  st.counters["support-rounds/s"] =
      benchmark::Counter(static_cast<double>(st.iterations() * n), benchmark::Counter::kIsRate);
  st.SetLabel(shape == ijcnn1 ? "ijcnn1-like 22 dense" : shape == a9a ? "a9a-like 123 sparse" : "mnist-like 784 dense");
}

// 24 rounds scored together (KernelExpansion::scores, the append-only learners' learn_block;
// docs/learners.md#block-scores), the same bits as 24 BM_Score calls: supports x rounds per second
// against BM_Score's supports per second.
void BM_BlockScores(benchmark::State& st) {
  const Shape shape = static_cast<Shape>(st.range(0));
  const std::size_t n = static_cast<std::size_t>(st.range(1));
  const Dataset probe = make_shape(shape, 48, 2);
  const KernelExpansion f = expansion(shape, n);
  std::vector<Example> xs;
  for (std::size_t t = 0; t < probe.size(); ++t) xs.push_back(probe[t]);
  double s[kPanelLanes], acc = 0.0;
  std::size_t k = 0;
  for (auto _ : st) {
    f.scores(xs.data() + (k++ & 1) * kPanelLanes, kPanelLanes, s);
    acc += s[0];
  }
  benchmark::DoNotOptimize(acc);
  st.counters["support-rounds/s"] =
      benchmark::Counter(static_cast<double>(st.iterations() * kPanelLanes * n), benchmark::Counter::kIsRate);
  st.SetLabel(shape == ijcnn1 ? "ijcnn1-like 22 dense" : shape == a9a ? "a9a-like 123 sparse" : "mnist-like 784 dense");
}

// A whole kernel row k(s_i, x) alone (SupportSet::kernel_row: CKS's removed support, BPA-NN's
// neighbour search, NOGD's map), against BM_Score's row and sum together.
void BM_KernelRow(benchmark::State& st) {
  const Shape shape = static_cast<Shape>(st.range(0));
  const std::size_t n = static_cast<std::size_t>(st.range(1));
  const Dataset probe = make_shape(shape, 64, 2);
  const KernelExpansion f = expansion(shape, n);
  std::vector<double> row(n);
  std::size_t k = 0;
  for (auto _ : st) {
    f.sv.kernel_row(f.kernel, probe[k++ & 63], row.data());
    benchmark::DoNotOptimize(row.data());
  }
  st.counters["support-rounds/s"] =
      benchmark::Counter(static_cast<double>(st.iterations() * n), benchmark::Counter::kIsRate);
  st.SetLabel(shape == ijcnn1 ? "ijcnn1-like 22 dense" : shape == a9a ? "a9a-like 123 sparse" : "mnist-like 784 dense");
}

}  // namespace

BENCHMARK(BM_Score)->ArgsProduct({{ijcnn1, a9a, mnist}, {100, 793, 1000, 10000}});
BENCHMARK(BM_BlockScores)->ArgsProduct({{ijcnn1, a9a, mnist}, {1000, 10000}});
BENCHMARK(BM_KernelRow)->ArgsProduct({{ijcnn1, a9a, mnist}, {1000, 10000}});
