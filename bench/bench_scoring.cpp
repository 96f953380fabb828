// Scoring x against the whole support set: the hot loop of every kernel learner.
// Shapes: ijcnn1-like (22 dense), a9a-like (123 binary features, 14 active), mnist-like (784 dense).
// Counters: bytes/s counts the support columns streamed (nnz(x) * |S| * 8 bytes) plus the
// per-support norms and coefficients; flops/s counts 2 flops per streamed value.
#include <benchmark/benchmark.h>

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

void BM_Score(benchmark::State& st) {
  const Shape shape = static_cast<Shape>(st.range(0));
  const std::size_t n = static_cast<std::size_t>(st.range(1));
  const Dataset sup = make_shape(shape, n, 1), probe = make_shape(shape, 64, 2);
  KernelExpansion f(Kernel::rbf(0.04), sup.dim);
  Rng rng(3);
  for (std::size_t i = 0; i < n; ++i) f.add(sup[i], static_cast<int64_t>(i + 1), rng.normal());
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
  st.SetLabel(shape == ijcnn1 ? "ijcnn1-like 22 dense" : shape == a9a ? "a9a-like 123 sparse" : "mnist-like 784 dense");
}

}  // namespace

BENCHMARK(BM_Score)->ArgsProduct({{ijcnn1, a9a, mnist}, {100, 1000, 10000}});
