// Whole-pass wall time of every learner on a9a (Gaussian kernel, gamma = 0.04; JMLR Table 1),
// one pass in file order. Budgets B = 793 (the paper's Projectron support on a9a); Projectron(++)
// with the DOGMA convention eta = 0.1 as in JMLR Fig. 6. The paper's MATLAB times for
// comparison: about 35 s (RBP, Forgetron), 40 s (Projectron, Projectron++), 130 s (Perceptron),
// 375 s (PA-I). NORMA: hinge at margin 1, lambda = 0.01, Lambda = 0.5, truncation tau = 1000.
// BPA-S, BPA-NN, BOGD, BOGD++, FOGD, NOGD at their defaults (C = 1, eta = 0.5, lambda = 0.001, D = 400, k = 20);
// BOGD also at B = 1600. The learners run as without bounds (record_norms off, docs/learners.md#bookkeeping):
// the pass a user pays for with --no-bounds.
#include <benchmark/benchmark.h>

#include <memory>

#include "algorithms/registry.hpp"
#include "bench/learner_floors.hpp"
#include "config/given_options.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/run.hpp"

using namespace plab;

namespace {

const Dataset* a9a() {
  static std::unique_ptr<Dataset> d = [] {
    try { return std::make_unique<Dataset>(load_dataset("a9a")); } catch (const DataError&) { return std::unique_ptr<Dataset>(); }
  }();
  return d.get();
}

void BM_WholePassA9a(benchmark::State& st, const std::string& algo, std::size_t budget) {
  const Dataset* d = a9a();
  if (!d) { st.SkipWithError("a9a not found on the data search path"); return; }
  // The options of the header's table that the learner declares, checked as a run's are.
  nlohmann::json want = {{"budget", budget}, {"C", 1.0}};
  if (algo == "perceptron") want["kernel"] = "linear";
  else want.update({{"kernel", "rbf"}, {"gamma", 0.04}});
  if (algo == "projectron" || algo == "projectron++") want.update({{"eta", 0.1}, {"eta_convention", "dogma"}});
  if (algo == "norma")  // hinge at margin 1, lambda = 0.01, Lambda = 0.5, last 1000 terms kept
    want.update({{"rho", 1.0}, {"lambda", 0.01}, {"learning_rate", 0.5}, {"truncate", 1000}});
  GivenOptions given;
  for (const auto& [k, v] : want.items())
    if (k == "kernel" || k == "gamma" || learner_info(algo, "algo").uses(k)) given.add(k, v, "bench_learners");
  LearnerConfig config = configure_learner(algo, given);
  config.with_data(d->dim, 0).with_record_norms(false);
  const LearnerOptions& o = config.options();
  const auto order = make_order(d->size(), std::nullopt);
  // What the floor reads, from one untimed pass (every pass makes the same records); the timed
  // passes then run as `plab run --no-bounds --quiet` runs: no observer, no record kept.
  std::vector<bench::PassRound> rounds;
  rounds.reserve(order.size());
  const RoundObserver observe = [&](const RoundRecord& rec, const RunResult&) {
    rounds.push_back({static_cast<std::size_t>(rec.support_size), rec.update != UpdateKind::none, rec.removed >= 0});
  };
  RunResult r = run_online(*make_learner(config), *d, order, observe, 1, false);
  const std::size_t mistakes = r.mistakes;
  for (auto _ : st) {
    auto learner = make_learner(config);
    r = run_online(*learner, *d, order, {}, 1, false);
  }
  if (r.mistakes != mistakes) st.SkipWithError("the timed passes made other mistakes than the first");
  st.counters["mistakes"] = static_cast<double>(r.mistakes);
  st.counters["support"] = static_cast<double>(r.support_size);
  // The pass's floor (bench/learner_floors.hpp, docs/learners.md#floors; make bench-report).
  const bench::PassFloor floor = bench::pass_floor(algo, o, *d, order, rounds);
  st.counters["floor_fma"] = floor.ops;
  st.counters["floor_bytes"] = floor.bytes;
  st.counters["rounds/s"] = benchmark::Counter(static_cast<double>(order.size()) * st.iterations(),
                                               benchmark::Counter::kIsRate);
}

// One benchmark per registered binary learner (a new learner is benchmarked without editing this file).
const bool kRegistered = [] {
  for (const auto& l : learners()) {
    if (l.multiclass) continue;  // bench_multiclass.cpp (MNIST)
    benchmark::RegisterBenchmark(("BM_WholePassA9a/" + l.name).c_str(), BM_WholePassA9a, l.name, 793)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  }
  benchmark::RegisterBenchmark("BM_WholePassA9a/bogd/B1600", BM_WholePassA9a, "bogd", 1600)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  return true;
}();

}  // namespace
