// Threads inside a run (core/thread_pool.hpp, docs/threads.md): the pool runs every chunk once,
// and every registered learner writes the same trace, byte for byte, on 1, 2 and 3 threads with
// every kernel row split (the threshold forced to 0); the SVM comparator's scores too.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <stdexcept>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "core/thread_pool.hpp"
#include "datasets/registry.hpp"
#include "datasets/synthetic.hpp"
#include "experiments/run/pipeline.hpp"
#include "experiments/run/run.hpp"
#include "experiments/run/trace.hpp"
#include "test_util.hpp"

using namespace plab;

namespace {

// Forces every kernel row above one tile to split while a test runs.
struct ForceSplit {
  double saved = parallel_min_work();
  ForceSplit() { set_parallel_min_work(0.0); }
  ~ForceSplit() { set_parallel_min_work(saved); }
};

TEST(ThreadPool, EveryIndexOnceInChunksOfTheGrain) {
  for (unsigned own : {0u, 1u, 2u}) {
    ThreadPool pool(own);
    for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 1000u, 4097u}) {
      std::vector<std::atomic<int>> hits(n + 1);
      pool.run(1, n + 1, 64, 3, [&](std::size_t b, std::size_t e) {
        EXPECT_EQ((b - 1) % 64, 0u) << "a chunk starts off the grain";
        for (std::size_t i = b; i < e; ++i) hits[i].fetch_add(1);
      });
      for (std::size_t i = 1; i <= n; ++i) ASSERT_EQ(hits[i].load(), 1) << "own " << own << " n " << n << " i " << i;
    }
  }
}

TEST(ThreadPool, AChunksExceptionReachesTheCaller) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.run(0, 1000, 10, 3,
                        [](std::size_t b, std::size_t) {
                          if (b > 0) throw std::runtime_error("chunk");
                        }),
               std::runtime_error);
  int calls = 0;  // the pool still works
  pool.run(0, 10, 10, 3, [&](std::size_t, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 1);
}

// A lent thread (a reproduce worker with no cell left) takes chunks while it helps.
TEST(ThreadPool, ALentThreadHelpsUntilDone) {
  ThreadPool pool(0);
  std::atomic<bool> stop{false};
  std::thread lent([&] { pool.help_until([&] { return stop.load(); }); });
  while (pool.width() < 2) std::this_thread::yield();
  std::atomic<long> sum{0};
  for (int k = 0; k < 50; ++k)
    pool.run(0, 6400, 64, pool.width(), [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) sum.fetch_add(static_cast<long>(i));
    });
  stop = true;
  lent.join();
  EXPECT_EQ(sum.load(), 50L * 6400 * 6399 / 2);
}

// Rows shaped like a9a (14 of 123 features, real values: sums depend on their order) with labels
// in 3 classes for the multiclass learners.
Dataset a9a_like(std::size_t n, uint64_t seed, bool classes) {
  Rng rng(seed);
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> x(123, 0.0);
    for (int k = 0; k < 14; ++k) x[rng.below(123)] = rng.normal();
    d.push_dense(x, classes ? static_cast<double>(rng.below(3)) : (rng.uniform() < 0.5 ? 1.0 : -1.0));
  }
  if (classes) index_classes(d);
  return d;
}

std::string trace_on(unsigned threads, const LearnerInfo& info, const LearnerOptions& o, const Dataset& d,
                     const std::vector<std::size_t>& order) {
  ThreadPool pool(threads - 1);
  PoolScope scope(&pool);
  auto learner = test_util::configured_learner(info.name, o);
  const RunResult r = run_online(*learner, d, order);
  return trace_csv(r.rounds, nlohmann::json{{"norm2_exact", learner->norm2_exact()}});
}

TEST(Threads, EveryLearnerSameTraceOnOneTwoAndThreeThreads) {
  ForceSplit force;
  const Dataset binary = a9a_like(700, 1, false), multi = a9a_like(700, 2, true);
  const auto order = make_order(binary.size(), 4);
  for (const auto& info : learners()) {
    for (const Kernel& k : {Kernel::linear(), Kernel::rbf(0.3), Kernel::poly(0.5, 1.0, 3)}) {
      if (!info.takes(k)) continue;
      SCOPED_TRACE(info.name + " " + k.describe());
      const Dataset& d = info.multiclass ? multi : binary;
      LearnerOptions o;
      o.kernel = k;
      o.dim = d.dim;
      o.classes = info.multiclass ? 3 : 0;
      if (info.uses("budget")) o.own["budget"] = 300;  // above 4 tiles of supports: rows that split
      if (info.name == "norma") o.own = {{"rho", 0.5}, {"lambda", 0.01}};  // its own options
      if (info.uses("eta")) o.own["eta"] = 0.3;
      const std::string one = trace_on(1, info, o, d, order);
      auto probe = test_util::configured_learner(info.name, o);
      run_online(*probe, d, order);
      if (probe->expansion()) { EXPECT_GT(probe->support_size(), 64u) << "one tile of supports: nothing to split"; }
      EXPECT_EQ(trace_on(2, info, o, d, order), one);
      EXPECT_EQ(trace_on(3, info, o, d, order), one);
    }
  }
}

// The SVM comparator (its Gram rows and scores), on both layouts of the supports.
TEST(Threads, SvmComparatorSameScoresOnAnyThreads) {
  ForceSplit force;
  const Dataset d = a9a_like(600, 3, false);
  const auto order = make_order(d.size(), 5);
  std::vector<Comparator> c;
  for (unsigned threads : {1u, 2u, 3u}) {
    ThreadPool pool(threads - 1);
    PoolScope scope(&pool);
    c.push_back(run_comparator({"svm", 1.0, 7}, d, order, Kernel::rbf(0.3)));
  }
  for (std::size_t n = 1; n < c.size(); ++n) {
    EXPECT_EQ(std::bit_cast<uint64_t>(c[n].norm), std::bit_cast<uint64_t>(c[0].norm));
    ASSERT_EQ(c[n].scores.size(), c[0].scores.size());
    for (std::size_t t = 0; t < c[0].scores.size(); ++t)
      ASSERT_EQ(std::bit_cast<uint64_t>(c[n].scores[t]), std::bit_cast<uint64_t>(c[0].scores[t])) << "t " << t;
  }
}

// `plab run --threads`: the trace and the summary (but its wall time) the same bytes on 1 and 2
// threads (PA-I keeps about half the rounds: from ~6700 supports on, a9a's rows split at the
// default threshold); a bad count is an error naming the option (exit 2).
TEST(Threads, PlabRunThreadsFlag) {
  test_util::TempDir dir("threads_cli");
  std::vector<std::string> out;
  for (const std::string n : {"1", "2"}) {
    const std::string t = (dir.p / ("t" + n + ".csv")).string(), s = (dir.p / ("s" + n + ".json")).string();
    const auto r = test_util::run_cli("run --algo pa1 --data a9a --limit 16000 --kernel rbf --gamma 0.04 --no-bounds "
                                      "--quiet --threads " + n + " --trace " + t + " --summary " + s);
    ASSERT_EQ(r.status, 0) << r.output;
    nlohmann::json summary = nlohmann::json::parse(test_util::read_text(s));
    summary["results"].erase("seconds");  // wall time: the one field that may differ
    out.push_back(test_util::read_text(t) + summary.dump());
  }
  EXPECT_EQ(out[1], out[0]);
  const auto bad = test_util::run_cli("run --algo pa1 --data a9a --threads -1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--threads"), std::string::npos) << bad.output;
}

}  // namespace
