#include "experiments/cell/analyses.hpp"

#include <cmath>
#include <stdexcept>

#include "core/random.hpp"
#include "bounds/comparator.hpp"
#include "bounds/formulas.hpp"
#include "bounds/profile.hpp"
#include "config/given_options.hpp"
#include "experiments/run/online_to_batch_eval.hpp"

namespace plab {

using nlohmann::json;

namespace {

json o2b_analysis(const O2BSpec& a, const RunResult& res, const CellData& d, const std::vector<std::size_t>& order,
                  const LearnerOptions& o) {
  const double delta = a.delta;
  const O2BEvaluation e = o2b_kernel_perceptron(*d.train, order, res.rounds, o.kernel, delta);
  json r = {{"o2b_index", e.index},         {"o2b_supports", e.supports}, {"o2b_criterion", e.criterion},
            {"o2b_empirical", e.empirical}, {"o2b_risk_bound", e.risk_bound}};
  if (d.test) r["test_error_ccg"] = o2b_test_error(e, *d.train, o.kernel, *d.test);
  return r;
}

// MR (4)/(8) at each rho of a grid (docs/bounds.md#mr4_all_t, docs/bounds.md#mr8_i, docs/bounds.md#ordering: the two are not ordered at a fixed rho).
json rho_profile(const Cell& c, const RhoProfileSpec& a, const RunResult& res, const CellData& d,
                 const std::vector<std::size_t>& order, const LearnerOptions& o, json& results) {
  ComparatorRequest req;  // its kind on this cell's kernel and data: the configuration step's rules
  GivenOptions given;
  given.add("comparator", a.comparator, "rho_profile", "comparator");
  configure_comparator(req, given, d.train.get(), o.kernel);
  const Comparator g = make_comparator(resolve_comparator(req.kind, *d.train, o.kernel), *d.train, order, o.kernel,
                                       a.svm_C, derive_seed(c.perm_seed, 0xC0));  // "auto" as a run resolves it
  if (!(g.norm > 0)) throw std::invalid_argument("rho_profile: comparator has norm 0");
  std::vector<double> m_all, m_mist;
  double r2 = 0.0, r2I = 0.0;
  for (std::size_t t = 0; t < res.rounds.size(); ++t) {
    const RoundRecord& rr = res.rounds[t];
    const double kxx = std::isnan(rr.kxx) ? o.kernel.self((*d.train)[order[t]].sqnorm) : rr.kxx;
    const double m = rr.y * g.scores[t] / g.norm;  // unit-comparator margin
    m_all.push_back(m);
    r2 = std::max(r2, kxx);
    if (rr.mistake) { m_mist.push_back(m); r2I = std::max(r2I, kxx); }
  }
  const bounds::MarginProfile PT(m_all), PI(m_mist);
  const double r = std::sqrt(r2), rI = std::sqrt(r2I), M = static_cast<double>(res.mistakes);
  auto curves = [&](double rho) {
    const double s = 1.0 / rho;
    return std::vector<double>{bounds::mr4(PT.l1(s), r, s), bounds::freund_schapire(PT.l2(s), r, s),
                               bounds::mr4(PI.l1(s), rI, s), bounds::mr8(PI.l2(s), rI, s)};
  };
  const auto& names = rho_profile_names();
  const auto& grid = a.rho;
  std::vector<std::vector<double>> ys(4);
  std::size_t violations = 0;
  for (double rho : grid) {
    if (!(rho > 0)) throw std::invalid_argument("rho_profile: every rho must be > 0");
    const auto v = curves(rho);
    for (std::size_t k = 0; k < 4; ++k) {
      ys[k].push_back(v[k]);
      violations += !bounds::within(M, v[k]);
    }
  }
  results["profile_violations"] = violations;
  if (a.at) {
    const auto v = curves(*a.at);
    results["mr4_all_at"] = v[0];
    results["mr8_all_at"] = v[1];
    results["mr4_I_at"] = v[2];
    results["mr8_I_at"] = v[3];
    for (double x : v) violations += !bounds::within(M, x);
    results["profile_violations"] = violations;
  }
  json prof = json::object();
  for (std::size_t k = 0; k < 4; ++k) prof[names[k]] = {{"x", grid}, {"y", ys[k]}};
  return prof;
}

}  // namespace

json run_analyses(const Cell& c, const RunResult& res, const CellData& d, const std::vector<std::size_t>& order,
                  const LearnerOptions& o) {
  json out = {{"results", json::object()}, {"profiles", json::object()}};
  const AnalysisSpec a = parse_analysis(c.analysis, "figure " + c.figure);
  if (a.o2b) {
    const json r = o2b_analysis(*a.o2b, res, d, order, o);
    for (const auto& [n, x] : r.items()) out["results"][n] = x;
  }
  if (a.rho_profile) {
    json results = json::object();
    out["profiles"] = rho_profile(c, *a.rho_profile, res, d, order, o, results);
    for (const auto& [n, x] : results.items()) out["results"][n] = x;
  }
  return out;
}

}  // namespace plab
