#include "experiments/cell/norma_metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "algorithms/norma.hpp"

namespace plab {

using nlohmann::json;

namespace {

// old[i] = support i has age >= tau at the end of round T.
std::vector<char> old_mask(const KernelExpansion& f, int64_t T, std::size_t tau) {
  std::vector<char> old(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) old[i] = f.sv.id(i) <= T - static_cast<int64_t>(tau);
  return old;
}

}  // namespace

double expansion_tail_norm(const KernelExpansion& f, int64_t T, std::size_t tau) {
  const auto old = old_mask(f, T, tau);
  std::vector<double> row(f.size());
  double s = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!old[i]) continue;
    f.sv.kernel_row(f.kernel, f.sv.row(i), row.data());
    double inner = 0.0;
    for (std::size_t j = 0; j < f.size(); ++j) if (old[j]) inner += f.alpha[j] * row[j];
    s += f.alpha[i] * inner;
  }
  return std::sqrt(std::max(0.0, s));  // a Gram quadratic form: >= 0 up to rounding
}

double expansion_tail_sup(const KernelExpansion& f, int64_t T, std::size_t tau, const Dataset& points) {
  const auto old = old_mask(f, T, tau);
  std::vector<double> row(f.size());
  double sup = 0.0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    f.sv.kernel_row(f.kernel, points[k], row.data());
    double v = 0.0;
    for (std::size_t j = 0; j < f.size(); ++j) if (old[j]) v += f.alpha[j] * row[j];
    sup = std::max(sup, std::fabs(v));
  }
  return sup;
}

NuIdentity nu_identity(const std::vector<RoundRecord>& rounds, double nu, double threshold_final,
                       bool regression) {
  NuIdentity out;
  if (rounds.empty()) return out;
  double n_sigma = 0.0, eta_sum = 0.0, eta_sigma = 0.0;
  for (const auto& r : rounds) {
    n_sigma += r.margin_error;
    eta_sum += r.eta_t;
    eta_sigma += r.margin_error ? r.eta_t : 0.0;
  }
  const double T = static_cast<double>(rounds.size());
  out.fraction = n_sigma / T;
  const double drift = (regression ? -1.0 : 1.0) * (threshold_final - rounds.front().rho);  // rho_{T+1} - rho_1
  const double eta = rounds.front().eta_t;
  const bool constant = std::all_of(rounds.begin(), rounds.end(), [&](const RoundRecord& r) { return r.eta_t == eta; });
  // docs/bounds.md#nu-identity: sum eta_t sigma_t = nu sum eta_t - (rho_{T+1} - rho_1) (regression:
  // + (eps_{T+1} - eps_1)); constant eta in the closed form fraction - (nu - drift / (Lambda T))
  // (no rounding from summing eta).
  out.residual = constant ? out.fraction - (nu - drift / (eta * T))
                          : (eta_sigma - nu * eta_sum + drift) / eta_sum;
  return out;
}

Flagged novelty_flagged(const Learner& l, double threshold, bool inclusive, const Dataset& test) {
  Flagged f;
  std::size_t fp = 0, fn = 0;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const Example x = test[i];
    const double s = l.score(x);
    const bool flag = inclusive ? s <= threshold : s < threshold;  // novel iff f(x) < rho (slides)
    if (x.y > 0) { ++f.npos; fp += flag; } else { ++f.nneg; fn += flag; }
  }
  f.pos = f.npos ? static_cast<double>(fp) / static_cast<double>(f.npos) : std::nan("");
  f.neg = f.nneg ? static_cast<double>(fn) / static_cast<double>(f.nneg) : std::nan("");
  return f;
}

std::size_t drift_period(const std::string& spec) {
  const std::string head = "synthetic:drift";
  if (spec.rfind(head, 0) != 0) return 0;
  std::string rest = spec.substr(head.size());
  if (!rest.empty() && rest[0] == ':') rest = rest.substr(1);
  std::size_t K = 1000;  // make_synthetic's default (datasets/synthetic.cpp)
  for (std::size_t pos = 0; pos < rest.size();) {
    const std::size_t c = std::min(rest.find(',', pos), rest.size());
    const std::string item = rest.substr(pos, c - pos);
    if (item.rfind("K=", 0) == 0) {
      const auto r = std::from_chars(item.data() + 2, item.data() + item.size(), K);
      if (r.ec != std::errc() || K == 0) throw std::invalid_argument("synthetic:drift: bad K in '" + spec + "'");
    }
    pos = c + 1;
  }
  return K;
}

ShiftErrors drift_shift_errors(const std::vector<RoundRecord>& rounds, std::size_t K, std::size_t window) {
  ShiftErrors out;
  const std::size_t T = rounds.size();
  // Mistakes among rounds a+1 .. b (1-based), clipped to [1, T].
  auto count = [&](std::size_t a, std::size_t b, double& m, double& n) {
    b = std::min(b, T);
    for (std::size_t t = a + 1; t <= b; ++t) { m += rounds[t - 1].mistake; n += 1; }
  };
  double pm = 0, pn = 0, sm = 0, sn = 0;
  for (std::size_t s = K; s < T; s += K) count(s, s + window, pm, pn);  // after the shift at s
  for (std::size_t e = K; e < T; e += K) count(e >= window ? e - window : 0, e, sm, sn);
  count(T >= window ? T - window : 0, T, sm, sn);  // the last segment's end
  out.post = pn > 0 ? pm / pn : std::nan("");
  out.settled = sn > 0 ? sm / sn : std::nan("");
  return out;
}

namespace {

// NuIdentity, truncation and novelty results of one NORMA run (the header lists them).
void norma_results(const Cell& c, const CellData& d, const LearnerOptions& o, const Norma& nl,
                   const RunResult& res, const std::vector<std::size_t>& order, json& r) {
  const Norma::Options lo = options_from<Norma::Options>(o.own);
  const std::size_t T = res.rounds.size();
  const bool regression = lo.task == "regression";
  if (T == 0) return;
  const NuIdentity id = nu_identity(res.rounds, lo.nu < 0.0 ? 0.0 : lo.nu, nl.threshold(), regression);
  r["margin_error_fraction"] = id.fraction;
  r["threshold_final"] = nl.threshold();
  if (lo.nu >= 0.0) {
    r["nu"] = lo.nu;
    r["nu_gap_abs"] = std::fabs(id.fraction - lo.nu);
    r["nu_identity_residual"] = id.residual;
  }
  if (lo.truncate > 0) {
    double mx = 0.0, ratio = 0.0;
    std::size_t removed = 0;
    for (const auto& rec : res.rounds) {
      if (rec.removed < 0) continue;
      ++removed;
      mx = std::max(mx, rec.trunc_norm);
      if (rec.trunc_bound > 0.0) ratio = std::max(ratio, rec.trunc_norm / rec.trunc_bound);
    }
    r["trunc_removed"] = removed;
    r["max_trunc_norm"] = mx;
    r["max_trunc_ratio"] = ratio;
    const double C = nl.loss_bound(), kappa = nl.kappa();
    const bool tail = c.options.value("metric_untruncated_tail", false);  // costs a second, untruncated run
    if (!lo.decay_rate && lo.lambda > 0.0 && std::isfinite(C)) {
      const double eta = lo.learning_rate, lam = lo.lambda;
      const double q = std::pow(1.0 - eta * lam, static_cast<double>(lo.truncate));
      r["trunc_term_bound"] = norma_truncation_term_bound(eta, lam, C, kappa, lo.truncate);  // docs/bounds.md#norma-truncation
      r["trunc_tail_bound"] = nl.truncation_total_bound();                                // docs/bounds.md#norma-truncation
      r["trunc_pointwise_bound"] = C * kappa * kappa * q / lam;  // docs/bounds.md#norma-truncation pointwise [D]
    }
    if (tail) {
      // The measured counterpart of the tail bound: the untruncated run on the same rounds.
      Norma::Options lo0 = lo;
      lo0.truncate = 0;
      Norma shadow(o, lo0);
      const RunResult r0 = run_online(shadow, *d.train, order);
      const KernelExpansion& f0 = *shadow.expansion();
      const auto Tn = static_cast<int64_t>(T);
      r["untruncated_mistakes"] = r0.mistakes;
      r["untruncated_support_size"] = r0.support_size;
      r["untruncated_tail_norm"] = expansion_tail_norm(f0, Tn, lo.truncate);
      if (d.test) r["untruncated_tail_sup"] = expansion_tail_sup(f0, Tn, lo.truncate, *d.test);
    }
  }
  if (lo.task == "novelty" && d.test) {
    const Flagged f = novelty_flagged(nl, nl.threshold(), lo.inclusive_ties, *d.test);
    if (f.npos) r["test_flagged_pos"] = f.pos;
    if (f.nneg) r["test_flagged_neg"] = f.neg;
  }
}

}  // namespace

void add_norma_metrics(const CellRun& r, json& results) {
  norma_results(r.cell, r.data, r.options, learner_as<Norma>(r.learner, "norma"), r.run, r.order, results);
}

void add_drift_metrics(const CellRun& r, json& results) {
  if (const std::size_t K = drift_period(r.cell.data); K > 0 && r.cell.order == "given") {
    const ShiftErrors e = drift_shift_errors(r.run.rounds, K, std::max<std::size_t>(1, K / 4));
    if (std::isfinite(e.post)) results["post_shift_error"] = e.post;
    if (std::isfinite(e.settled)) results["settled_error"] = e.settled;
    if (std::isfinite(e.post) && std::isfinite(e.settled)) results["shift_jump"] = e.post - e.settled;
  }
}

}  // namespace plab
