// The cell metric table (experiments/cell/cell_metrics.hpp): entries keyed by learner name reach
// the results of that learner's cells only, every key is declared, bad entries are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "algorithms/norma.hpp"
#include "algorithms/perceptron.hpp"
#include "experiments/cell/cell.hpp"
#include "experiments/cell/cell_metrics.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {
namespace {

using nlohmann::json;

Cell small_cell(const std::string& algo) {
  Cell c;
  c.algo = algo;
  c.data = "synthetic:dekel:n=120,seed=5";
  c.order = "given";
  c.kernel = {{"type", "linear"}};
  return c;
}

// Every key a built-in entry declares can be named in a spec (known_metrics, experiments/spec/spec.cpp).
TEST(CellMetrics, BuiltinKeysAreSpecMetrics) {
  const auto& known = known_metrics();
  for (const auto& m : cell_metrics())
    for (const auto& k : m.keys)
      EXPECT_NE(std::find(known.begin(), known.end(), k), known.end()) << m.name << ": " << k;
}

TEST(CellMetrics, BadEntriesAreRefused) {
  auto fn = [](const CellRun&, json&) {};
  EXPECT_THROW(register_cell_metric({"norma", "", {"x"}, fn}), std::invalid_argument);           // taken name
  EXPECT_THROW(register_cell_metric({"t_unknown", "no-such-learner", {"x"}, fn}), std::invalid_argument);
  EXPECT_THROW(register_cell_metric({"t_nokeys", "perceptron", {}, fn}), std::invalid_argument);
  EXPECT_THROW(register_cell_metric({"", "perceptron", {"x"}, fn}), std::invalid_argument);
  EXPECT_THROW(register_cell_metric({"t_nofn", "perceptron", {"x"}, nullptr}), std::invalid_argument);
}

// A metric keyed by "perceptron": in a Perceptron cell's results, not in a NORMA cell's. The
// Perceptron updates exactly on its mistakes, so updates / mistakes is 1 (an independent fact).
TEST(CellMetrics, KeyedByLearnerName) {
  register_cell_metric({"t_ratio", "perceptron", {"t_updates_per_mistake"}, [](const CellRun& r, json& out) {
                          const PrimalPerceptron& p = learner_as<PrimalPerceptron>(r.learner, "t_ratio");
                          (void)p;
                          out["t_updates_per_mistake"] =
                              static_cast<double>(r.run.updates) / static_cast<double>(r.run.mistakes);
                        }});
  DataCache cache;
  const Cell pc = small_cell("perceptron");
  const json rp = run_cell(pc, cache.get(pc), nullptr)["results"];
  ASSERT_TRUE(rp.contains("t_updates_per_mistake"));
  EXPECT_GT(rp["mistakes"].get<int>(), 0);
  EXPECT_EQ(rp["t_updates_per_mistake"].get<double>(), 1.0);
  const Cell nc = small_cell("norma");
  const json rn = run_cell(nc, cache.get(nc), nullptr)["results"];
  EXPECT_FALSE(rn.contains("t_updates_per_mistake"));
  EXPECT_TRUE(rn.contains("margin_error_fraction"));  // the built-in NORMA entry
  EXPECT_FALSE(rp.contains("margin_error_fraction"));
}

TEST(CellMetrics, UndeclaredKeyAndWrongClassAreErrors) {
  register_cell_metric({"t_sneaky", "kernel-perceptron", {"t_declared"},
                        [](const CellRun&, json& out) { out["t_undeclared"] = 1; }});
  DataCache cache;
  const Cell kc = small_cell("kernel-perceptron");
  EXPECT_THROW(run_cell(kc, cache.get(kc), nullptr), std::logic_error);
  LearnerOptions o;
  o.dim = 2;
  PrimalPerceptron p{o};
  EXPECT_THROW(learner_as<Norma>(p, "t"), std::logic_error);
  EXPECT_EQ(&learner_as<PrimalPerceptron>(p, "t"), &p);
}

}  // namespace
}  // namespace plab
