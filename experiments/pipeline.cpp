#include "experiments/pipeline.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bounds/comparator.hpp"
#include "core/random.hpp"

namespace plab {
namespace {

nlohmann::json kernel_json(const Kernel& k) {
  return {{"type", k.type_name()}, {"gamma", k.gamma}, {"coef0", k.coef0}, {"degree", k.degree}};
}

// The comparator g0 of the request (docs/bounds.md#comparator): its scores go into column g.
nlohmann::json attach_comparator(const RunRequest& req, RunResult& run) {
  std::string kind = req.comparator.kind;
  if (kind == "auto")
    kind = !req.train->truth.empty() && req.options.kernel.type == Kernel::Type::linear ? "truth" : "svm";
  const Comparator g = make_comparator(kind, *req.train, req.order, req.options.kernel, req.comparator.svm_C,
                                       derive_seed(req.comparator.seed, 0xC0));
  if (!std::isfinite(g.norm))
    throw NonFiniteError(fmt::format("the comparator {}'s norm is {}: non-finite arithmetic "
                                     "(docs/learners.md#non-finite)", g.name, g.norm));
  for (std::size_t t = 0; t < run.rounds.size(); ++t) {
    RoundRecord& r = run.rounds[t];
    r.g = g.scores[t];
    if (!std::isfinite(r.g))
      throw NonFiniteError(fmt::format("round {} (data row {}): the comparator score g(x_t) is {}: non-finite "
                                       "arithmetic (docs/learners.md#non-finite)", r.t, r.index + 1, r.g));
  }
  return {{"name", g.name}, {"norm", g.norm}, {"svm_C", req.comparator.svm_C}, {"seed", req.comparator.seed}};
}

}  // namespace

RunReport run_pipeline(const RunRequest& req) {
  if (!req.train) throw std::invalid_argument("run_pipeline: no training data");
  LearnerOptions opt = req.options;
  opt.dim = std::max(req.train->dim, req.test ? req.test->dim : std::size_t{0});
  RunReport rep;
  rep.learner = make_learner(req.algo, opt, req.given);
  rep.run = run_online(*rep.learner, *req.train, req.order, req.observe);
  rep.f_norm2_exact = rep.learner->norm2_exact();
  if (!std::isfinite(rep.f_norm2_exact))
    throw NonFiniteError(fmt::format("after round {}: ||f_T||^2 = alpha^T K alpha recomputed is {}: non-finite "
                                     "arithmetic (docs/learners.md#non-finite)", rep.run.rounds.size(), rep.f_norm2_exact));
  rep.test_error = nlohmann::json::object();
  if (req.test)
    for (const auto& h : rep.learner->hypotheses()) rep.test_error[h] = test_error(*rep.learner, h, *req.test);
  rep.facts.algo = req.algo;
  rep.facts.options = opt;
  rep.facts.f_norm2_exact = rep.f_norm2_exact;
  if (!req.bounds) return rep;
  rep.comparator = attach_comparator(req, rep.run);
  rep.facts.comparator = rep.comparator["name"];
  rep.facts.g_norm = rep.comparator["norm"];
  rep.bounds = evaluate_bounds(rep.run.rounds, rep.facts);
  return rep;
}

nlohmann::json run_meta(const RunRequest& req, const RunReport& rep) {
  const LearnerInfo& info = learner_info(req.algo);
  nlohmann::json m = {{"algo", req.algo},
                      {"kernel", kernel_json(req.options.kernel)},
                      {"options", options_to_json(rep.facts.options, info.options)},
                      {"f_norm2_exact", rep.f_norm2_exact}};
  if (!rep.comparator.is_null()) m["comparator"] = rep.comparator;
  return m;
}

}  // namespace plab
