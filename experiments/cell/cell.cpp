#include "experiments/cell/cell.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/random.hpp"
#include "core/sha256.hpp"
#include "bounds/bounds.hpp"
#include "config/run_config.hpp"
#include "datasets/registry.hpp"
#include "experiments/cell/analyses.hpp"
#include "experiments/cell/cell_metrics.hpp"
#include "experiments/run/run_job.hpp"
#include "experiments/version.hpp"

namespace plab {

using nlohmann::json;

namespace {

// The options the cell's spec gives its run: the algorithm's params, its data set's kernel, the
// bounds' comparator, its permutation and its limit, as the one configuration step reads them
// (config/run_config.hpp).
GivenOptions cell_options(const Cell& c) {
  const std::string at = "spec " + c.figure + " algorithm " + c.algo_id;
  GivenOptions g = given_from_json(learner_params(c), at);
  if (c.kernel.is_object())
    for (const auto& [k, v] : c.kernel.items()) g.add(k == "type" ? "kernel" : k, v, at + " kernel", k);
  for (const char* k : {"comparator", "svm_C"})
    if (c.bounds.is_object() && c.bounds.contains(k)) g.add(k, c.bounds.at(k), at + " bounds");
  if (c.order == "shuffle") g.add("shuffle", c.perm_seed, at + " permutation");
  g.add("limit", c.limit, at);
  return g;
}

}  // namespace

json learner_params(const Cell& c) {
  json p = json::object();
  for (const auto& [key, v] : c.options.items())
    if (key.rfind("metric_", 0) != 0) p[key] = v;  // metric switches (experiments/cell/cell_metrics.hpp)
  return p;
}

std::string cell_key(const Cell& c, const CellData& d) {
  return sha256_hex(c.canonical().dump() + "\n" + git_revision() + "\n" + d.sha).substr(0, 24);
}

namespace {

// Curves at ~curve_points evenly spaced rounds (always including the last).
json cell_curve(const Cell& c, const RunResult& res) {
  const std::size_t T = res.rounds.size();
  // Sample k at round ceil(k T / cp), k = 1 .. cp; more points than rounds: every round.
  const std::size_t cp = std::min<std::size_t>(c.curve_points, T);
  json ct = json::array(), ce = json::array(), cs = json::array();
  std::size_t mistakes = 0, next = 0;
  for (std::size_t t = 1, k = 1; t <= T; ++t) {
    mistakes += res.rounds[t - 1].mistake;
    if (next == 0) next = (k * T + cp - 1) / cp;
    if (t == next || t == T) {
      ct.push_back(t);
      ce.push_back(static_cast<double>(mistakes) / static_cast<double>(t));
      cs.push_back(res.rounds[t - 1].support_size);
      ++k;
      next = (k * T + cp - 1) / cp;
    }
  }
  return {{"t", ct}, {"online_error", ce}, {"support_size", cs}};
}

// The deterministic results of a cell (no timings).
json cell_results(const RunReport& rep, const CellData& d) {
  const RunResult& res = rep.run;
  const std::size_t T = res.rounds.size();
  json r = {{"rounds", T},
            {"mistakes", res.mistakes},
            {"updates", res.updates},
            {"margin_errors", res.margin_errors},
            {"support_size", res.support_size},
            {"online_error", T ? static_cast<double>(res.mistakes) / static_cast<double>(T) : 0.0}};
  if (rep.learner->keeps_norm()) r["f_norm2"] = rep.learner->norm2();  // docs/learners.md#bookkeeping
  // First round at which the support reached its final size (a budget learner filling B).
  for (std::size_t t = 1; t <= T; ++t)
    if (res.rounds[t - 1].support_size >= static_cast<int64_t>(res.support_size)) {
      r["support_reached_at"] = t;
      break;
    }
  // Support at T over support at T/2: about 2 for linear growth, less for sub-linear.
  if (T >= 2 && res.rounds[T / 2 - 1].support_size > 0)
    r["support_growth"] = static_cast<double>(res.support_size) /
                          static_cast<double>(res.rounds[T / 2 - 1].support_size);
  if (d.test)
    for (const auto& [h, e] : rep.test_error.items()) r["test_error_" + h] = e;
  return r;
}

// The bound rows the spec keeps (all when it names none); null when the spec asks for none.
json cell_bounds(const Cell& c, const RunReport& rep) {
  if (c.bounds.is_null()) return nullptr;
  const auto ids = c.bounds.value("names", std::vector<std::string>{});
  json list = json::array();
  for (const auto& b : rep.bounds)
    if (ids.empty() || std::find(ids.begin(), ids.end(), b.id) != ids.end()) list.push_back(to_json(b));
  return list;
}

// The checked configuration of a cell's run. The comparator is seeded from the permutation, so
// every algorithm of a permutation is compared with the same g0.
RunConfig cell_config(const Cell& c, const CellData& d) {
  return configure(cell_options(c), {.algo = c.algo, .data = d.train.get(), .bounds = !c.bounds.is_null(),
                                     .comparator = "svm",  // a spec's default (docs/specs.md)
                                     .permutation_seed = c.perm_seed});
}

}  // namespace

json run_cell(const Cell& c, const CellData& d, double* seconds) {
  if (!c.error.empty()) throw std::runtime_error(c.error);
  const RunJob job{.train = d.train.get(), .test = d.test.get(), .caller_pool = true,  // the worker's pool
                   .reorder = [&](std::vector<std::size_t> order) { return cell_training_order(c, *d.train, std::move(order)); }};
  const auto [req, rep] = run_configured(cell_config(c, d), job);
  if (seconds) *seconds = rep.run.seconds;
  json r = cell_results(rep, d);
  add_cell_metrics({c, d, rep.facts.options, *rep.learner, rep.run, req.order}, r);  // experiments/cell/cell_metrics.hpp
  const json an = run_analyses(c, rep.run, d, req.order, rep.facts.options);  // T-figure analyses
  for (const auto& [k, v] : an["results"].items()) r[k] = v;
  json doc = {{"cell", c.canonical()},
              {"git", git_revision()},
              {"data_sha256", d.sha},
              {"results", r},
              {"curve", cell_curve(c, rep.run)},
              {"bounds", cell_bounds(c, rep)}};
  if (!an["profiles"].empty()) doc["profiles"] = an["profiles"];
  return doc;
}


}  // namespace plab
