// The reproduction runner: spec expansion and seeds, derived budgets, resume after a lost cell,
// determinism across thread counts, aggregation against hand-computed numbers, atomic writes,
// failing cells, and the regression comparison.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "experiments/report/report.hpp"
#include "experiments/schedule/runner.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/run/trace.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json tiny_spec_json() {
  return json::parse(R"({
    "figure": "TINY", "permutations": 3,
    "datasets": [{"id": "syn", "data": "synthetic:dekel:n=400,seed=7", "kernel": {"type": "rbf", "gamma": 1}}],
    "algorithms": [
      {"id": "perceptron", "algo": "kernel-perceptron"},
      {"id": "rbp", "algo": "rbp", "params": {"budget": [5, 10]}},
      {"id": "stoptron", "algo": "stoptron", "params": {"budget": {"from": "perceptron", "field": "support_size"}}},
      {"id": "stoptron-mean", "algo": "stoptron", "params": {"budget": {"from": "perceptron", "field": "support_size", "use": "mean"}}}
    ],
    "plots": [{"id": "err", "type": "curve", "metric": "online_error"}],
    "quick": {"permutations": 2, "limit": 100, "algorithm_params": {"rbp": {"budget": [3]}}}
  })");
}

using plab::test_util::TempDir;

std::map<std::string, std::string> read_dir(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = fs::relative(e.path(), dir).string();
    if (name.find(".time.json") != std::string::npos || name.find("timings.csv") != std::string::npos) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    out[name] = ss.str();
  }
  return out;
}

// Runs the specs and writes the deterministic figure outputs (no gnuplot).
RunStats run_all(const std::vector<Spec>& specs, const fs::path& dir, unsigned jobs,
                 std::map<std::string, std::vector<CellOutcome>>* outcomes = nullptr, bool reuse = true) {
  RunnerOptions o;
  o.reuse = reuse;
  o.cells_dir = (dir / "cells").string();
  o.jobs = jobs;
  RunStats st;
  auto out = run_specs(specs, o, &st);
  for (const auto& s : specs) write_figure(s, aggregate(s, out[s.figure]), dir.string(), false);
  if (outcomes) *outcomes = out;
  return st;
}

std::size_t count_cells(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    n += f.size() > 5 && f.substr(f.size() - 5) == ".json" && f.find(".time.") == std::string::npos;
  }
  return n;
}

}  // namespace

TEST(Spec, ExpansionCountsCellsAndStages) {
  const Spec s = parse_spec(tiny_spec_json(), false);
  const auto st = s.stages();
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0], (std::vector<std::string>{"perceptron", "rbp"}));
  EXPECT_EQ(st[1], (std::vector<std::string>{"stoptron", "stoptron-mean"}));
  EXPECT_EQ(expand_independent(s).size(), 3u * (1 + 2));  // perms x (1 + 2 budgets)
  // Quick: 2 permutations, the rbp grid replaced by one budget, a rounds limit.
  const Spec q = parse_spec(tiny_spec_json(), true);
  EXPECT_EQ(q.permutations, 2);
  EXPECT_EQ(q.limit, 100u);
  EXPECT_EQ(expand_independent(q).size(), 2u * (1 + 1));
  // A derived parameter without its source's results leaves the cells failed, not crashed.
  for (const auto& c : expand_algorithm(s, "stoptron", {})) EXPECT_FALSE(c.error.empty());
}

TEST(Spec, SeedsDoNotDependOnOrder) {
  json j = tiny_spec_json();
  const Spec a = parse_spec(j, false);
  std::reverse(j["algorithms"].begin(), j["algorithms"].end());
  const Spec b = parse_spec(j, false);
  auto seeds = [](const Spec& s) {
    std::map<std::string, std::pair<uint64_t, uint64_t>> m;
    for (const auto& c : expand_independent(s))
      m[c.algo_id + c.point.dump() + "#" + std::to_string(c.perm)] = {c.perm_seed, c.learner_seed};
    return m;
  };
  const auto sa = seeds(a), sb = seeds(b);
  EXPECT_EQ(sa, sb);
  // Every algorithm sees the same permutation p (paired comparisons); permutations differ.
  std::map<int, std::set<uint64_t>> per_perm;
  for (const auto& c : expand_independent(a)) per_perm[c.perm].insert(c.perm_seed);
  ASSERT_EQ(per_perm.size(), 3u);
  for (const auto& [p, set] : per_perm) EXPECT_EQ(set.size(), 1u) << "perm " << p;
  EXPECT_NE(*per_perm[0].begin(), *per_perm[1].begin());
  // The learner seeds of the two rbp budgets differ (independent streams per cell).
  std::set<uint64_t> rbp0;
  for (const auto& c : expand_independent(a)) if (c.algo_id == "rbp" && c.perm == 0) rbp0.insert(c.learner_seed);
  EXPECT_EQ(rbp0.size(), 2u);
  // And every rbp cell (each budget x each permutation) has its own stream: the mean over
  // permutations averages independent evictions, not one stream replayed.
  std::set<uint64_t> rbp_all;
  std::size_t rbp_cells = 0;
  for (const auto& c : expand_independent(a))
    if (c.algo_id == "rbp") { rbp_all.insert(c.learner_seed); ++rbp_cells; }
  EXPECT_EQ(rbp_cells, 3u * 2u);
  EXPECT_EQ(rbp_all.size(), rbp_cells);
  // The seed derives from the spec's seed name: another figure name gives other permutations.
  json k = tiny_spec_json();
  k["figure"] = "OTHER";
  EXPECT_NE(permutation_seed(parse_spec(k, false), "syn", 0), permutation_seed(a, "syn", 0));
}

TEST(Runner, DerivedBudgetsUseSamePermutationOrMean) {
  TempDir d("derived");
  std::map<std::string, std::vector<CellOutcome>> out;
  run_all({parse_spec(tiny_spec_json(), false)}, d.p, 2, &out);
  std::map<int, int64_t> support;
  double sum = 0;
  for (const auto& o : out["TINY"])
    if (o.cell.algo_id == "perceptron") {
      support[o.cell.perm] = o.results()["support_size"].get<int64_t>();
      sum += support[o.cell.perm];
    }
  ASSERT_EQ(support.size(), 3u);
  const int64_t mean_budget = std::llround(sum / 3.0);
  int seen = 0;
  for (const auto& o : out["TINY"]) {
    ASSERT_TRUE(o.error.empty()) << o.error;
    if (o.cell.algo_id == "stoptron") {
      EXPECT_EQ(o.cell.options["budget"].get<int64_t>(), support[o.cell.perm]);
      // A Stoptron with the Perceptron's final size as budget never stops: same run.
      EXPECT_EQ(o.results()["support_size"].get<int64_t>(), support[o.cell.perm]);
      ++seen;
    }
    if (o.cell.algo_id == "stoptron-mean") {
      EXPECT_EQ(o.cell.options["budget"].get<int64_t>(), mean_budget);
      ++seen;
    }
  }
  EXPECT_EQ(seen, 6);
}

TEST(Runner, ResumeRecomputesOnlyTheMissingCellAndOutputsAreIdentical) {
  TempDir d("resume");
  const std::vector<Spec> specs = {parse_spec(tiny_spec_json(), false)};
  const RunStats first = run_all(specs, d.p, 2);
  EXPECT_EQ(first.total, 15u);
  EXPECT_EQ(first.computed, 15u);
  EXPECT_EQ(first.failed, 0u);
  const auto before = read_dir(d.p);
  EXPECT_EQ(count_cells(d.p / "cells"), 15u);

  // A second run computes nothing.
  const RunStats again = run_all(specs, d.p, 2);
  EXPECT_EQ(again.computed, 0u);
  EXPECT_EQ(again.cached, 15u);

  // Lose one stage-0 cell (the run was killed before it finished): only it is recomputed, and
  // every deterministic output is byte-identical.
  std::string victim;
  for (const auto& [name, text] : before)
    if (name.rfind("cells/", 0) == 0 && text.find("\"algo\": \"rbp\"") != std::string::npos) { victim = name; break; }
  ASSERT_FALSE(victim.empty());
  fs::remove(d.p / victim);
  // A stale temporary file from an interrupted atomic write is not a result and is cleaned up.
  { std::ofstream((d.p / victim).string() + ".tmp.99999") << "{\"partial\": "; }
  const RunStats resumed = run_all(specs, d.p, 2);
  EXPECT_EQ(resumed.computed, 1u);
  EXPECT_EQ(resumed.cached, 14u);
  EXPECT_FALSE(fs::exists((d.p / victim).string() + ".tmp.99999"));
  EXPECT_EQ(read_dir(d.p), before);

  // Without reuse (the regression check) every cell is recomputed, to the same bytes.
  const RunStats fresh = run_all(specs, d.p, 2, nullptr, false);
  EXPECT_EQ(fresh.computed, 15u);
  EXPECT_EQ(fresh.cached, 0u);
  EXPECT_EQ(read_dir(d.p), before);
}

TEST(Runner, CorruptCellFileIsRecomputed) {
  TempDir d("corrupt");
  const std::vector<Spec> specs = {parse_spec(tiny_spec_json(), true)};
  run_all(specs, d.p, 1);
  const auto before = read_dir(d.p);
  std::string victim;
  for (const auto& [name, text] : before) if (name.rfind("cells/", 0) == 0) { victim = name; break; }
  ASSERT_FALSE(victim.empty());
  { std::ofstream(d.p / victim) << "{\"cell\": {"; }  // truncated (not written by us)
  const RunStats st = run_all(specs, d.p, 1);
  EXPECT_EQ(st.computed, 1u);
  EXPECT_EQ(read_dir(d.p), before);
}

TEST(Runner, SameFilesWithOneAndTwoJobs) {
  TempDir a("jobs1"), b("jobs2");
  const std::vector<Spec> specs = {parse_spec(tiny_spec_json(), false)};
  run_all(specs, a.p, 1);
  run_all(specs, b.p, 2);
  const auto fa = read_dir(a.p), fb = read_dir(b.p);
  EXPECT_EQ(fa.size(), fb.size());
  EXPECT_EQ(fa, fb);
}

// Unknown learners are spec errors (tests/test_spec_errors.cpp); a bad option value fails at run time.
TEST(Runner, BadOptionValueFailsItsCellsWithAClearMessage) {
  json j = tiny_spec_json();
  // Each value in its declared range (checked when the spec is read), the pair refused when the cell
  // is configured: truncate comes from another algorithm's results (a fixed pair stops the spec
  // when it is read, tests/data/broken_specs).
  j["algorithms"].push_back({{"id", "nope"}, {"algo", "norma"},
                             {"params", {{"truncate", {{"from", "perceptron"}, {"field", "support_size"}}}, {"lambda", 2.0}}}});
  j["algorithms"].push_back({{"id", "dep"}, {"algo", "rbp"},
                             {"params", {{"budget", {{"from", "nope"}, {"field", "support_size"}}}}}});
  TempDir d("unknown");
  std::map<std::string, std::vector<CellOutcome>> out;
  const RunStats st = run_all({parse_spec(j, true)}, d.p, 2, &out);
  EXPECT_EQ(st.failed, 4u);  // 2 perms of "nope" and of its dependent
  for (const auto& o : out["TINY"]) {
    if (o.cell.algo_id == "nope") EXPECT_NE(o.error.find("truncate needs learning_rate * lambda < 1"), std::string::npos) << o.error;
    else if (o.cell.algo_id == "dep") EXPECT_NE(o.error.find("no result of nope"), std::string::npos) << o.error;
    else EXPECT_TRUE(o.error.empty()) << o.error;
  }
  // One file per distinct good cell (identical cells, e.g. two stoptrons given the same budget, share
  // one); failures are not cached.
  std::set<std::string> good;
  for (const auto& o : out["TINY"])
    if (o.error.empty()) good.insert(o.key);
  EXPECT_EQ(count_cells(d.p / "cells"), good.size());
  EXPECT_GE(good.size(), 6u);
}

TEST(Report, MeanAndSampleStdByHand) {
  const Stat s = mean_std({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.std, 1.2909944487358056, 1e-15);  // sqrt(5/3)
  EXPECT_EQ(s.n, 4u);
  EXPECT_EQ(mean_std({7}).std, 0.0);
  EXPECT_EQ(mean_std({}).n, 0u);
}

TEST(Report, AggregateGroupsPermutations) {
  const Spec s = parse_spec(tiny_spec_json(), false);
  std::vector<CellOutcome> cells;
  const int mistakes[3] = {10, 12, 17};
  for (int p = 0; p < 3; ++p) {
    CellOutcome o;
    o.cell.dataset = "syn"; o.cell.algo_id = "perceptron"; o.cell.perm = 2 - p;  // any order
    o.cell.point = json::object();
    o.doc = {{"results", {{"mistakes", mistakes[2 - p]}, {"online_error", mistakes[2 - p] / 100.0}}},
             {"curve", {{"t", {50, 100}}, {"online_error", {0.1 * p, 0.2}}, {"support_size", {p, 2 * p}}}}};
    o.seconds = 1.0 + p;
    cells.push_back(o);
  }
  const auto g = aggregate(s, cells);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].values.at("mistakes"), (std::vector<double>{10, 12, 17}));  // permutation order
  EXPECT_DOUBLE_EQ(g[0].stats.at("mistakes").mean, 13.0);
  EXPECT_NEAR(g[0].stats.at("mistakes").std, 3.605551275463989, 1e-14);  // sqrt(((-3)^2+(-1)^2+4^2)/2)
  EXPECT_NEAR(g[0].stats.at("online_error").mean, 0.13, 1e-15);
  EXPECT_DOUBLE_EQ(g[0].seconds.mean, 2.0);
  ASSERT_EQ(g[0].t, (std::vector<double>{50, 100}));
  EXPECT_NEAR(g[0].curves.at("online_error")[0].mean, 0.1, 1e-15);  // (0 + 0.1 + 0.2) / 3
  EXPECT_DOUBLE_EQ(g[0].curves.at("support_size")[1].mean, 2.0);    // (0 + 2 + 4) / 3
  EXPECT_DOUBLE_EQ(g[0].curves.at("support_size")[1].std, 2.0);
}

TEST(Report, CompareJsonIntegersExactRealsRelativeTimingsIgnored) {
  const json ref = {{"a", 5}, {"b", 1.0}, {"seconds", 3.0}, {"v", {1, 2}}};
  EXPECT_TRUE(compare_json(ref, ref).empty());
  EXPECT_TRUE(compare_json({{"a", 5}, {"b", 1.0 + 1e-12}, {"seconds", 9.0}, {"v", {1, 2}}}, ref).empty());
  EXPECT_EQ(compare_json({{"a", 6}, {"b", 1.0}, {"seconds", 3.0}, {"v", {1, 2}}}, ref).size(), 1u);
  EXPECT_EQ(compare_json({{"a", 5}, {"b", 1.0 + 1e-6}, {"seconds", 3.0}, {"v", {1, 2}}}, ref).size(), 1u);
  EXPECT_EQ(compare_json({{"a", 5}, {"b", 1.0}, {"v", {1, 2, 3}}}, ref).size(), 1u);  // length
  EXPECT_EQ(compare_json({{"b", 1.0}, {"v", {1, 2}}}, ref).size(), 1u);               // missing key
}

TEST(Report, AtomicWriteLeavesNoTemporaryFile) {
  TempDir d("atomic");
  const std::string path = (d.p / "x.json").string();
  write_json_atomic(path, json{{"k", 1}});
  write_json_atomic(path, json{{"k", 2}});
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(d.p)) { (void)e; ++files; }
  EXPECT_EQ(files, 1u);
  std::ifstream in(path);
  EXPECT_EQ(json::parse(in)["k"], 2);
}

TEST(Runner, BoundsBlockIsEvaluatedPerCellAndPartOfTheKey) {
  json j = tiny_spec_json();
  const Spec plain = parse_spec(j, true);
  j["bounds"] = {{"comparator", "zero"}};
  const Spec with = parse_spec(j, true);
  EXPECT_FALSE(expand_independent(plain)[0].canonical().contains("bounds"));
  EXPECT_EQ(expand_independent(with)[0].canonical()["bounds"]["comparator"], "zero");
  TempDir d("bounds");
  std::map<std::string, std::vector<CellOutcome>> out;
  run_all({with}, d.p, 2, &out);
  std::size_t perceptron_cells = 0;
  for (const auto& o : out["TINY"]) {
    ASSERT_TRUE(o.error.empty()) << o.error;
    ASSERT_TRUE(o.doc["bounds"].is_array());
    if (o.cell.algo_id != "perceptron") continue;
    ++perceptron_cells;
    // The kernel Perceptron gets the Perceptron-family bounds; each names the comparator used.
    std::size_t applicable = 0;
    for (const auto& b : o.doc["bounds"]) {
      applicable += b["applicable"].get<bool>();
      if (b["applicable"].get<bool>()) { EXPECT_TRUE(b["holds"].get<bool>()) << b.dump(); }
    }
    EXPECT_GT(applicable, 0u);
  }
  EXPECT_EQ(perceptron_cells, 2u);
}
