// The bounds of the budget learners that followed the Projectron: BPA-S, BOGD, BOGD++ and NOGD
// (docs/bounds.md#budget-ogd-bounds). Each learner's step is written as
//   f_{t+1} = (1 - eta lambda) f_t + a_t y_t k(x_t,.) + delta_t
// with a_t = tau_t > 0 on the rounds U it steps on (trace column tau), delta_t what the budget
// maintenance changed against the unbudgeted step (column delta_norm = ||delta_t||), and the shrink
// 1 - eta lambda only for a learner that takes --ogd-lambda (BOGD, BOGD++). Rows [D]:
//   budget_ogd_all_t        M <= (a_max D_1(g) + ||g|| A) / a_min                 a_posteriori
//   budget_ogd_certificate  M <= (sum_U a_t l_t(g) - sum_{U\mistakes} a_t + ||g|| A) / a_min   check
//     A = ||f_{T+1}|| + sum_U ||delta_t|| + eta lambda sum_t ||f_t||
//   bogd_expectation        E[M] <= D_1(g) + (lambda T/2 + 1/(2 eta))||g||^2
//                                    + E[(eta/2) sum ||grad_t||^2 - (lambda/2) sum ||f_t||^2 + sum ||delta_t||^2/(2 eta)]
//     (unbiased removal, B >= 2): kind "expectation", never a verdict on one run.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "bounds/bounds.hpp"
#include "bounds/families.hpp"
#include "bounds/formulas.hpp"
#include "bounds/profile.hpp"
#include "core/format.hpp"

namespace plab::bounds {

namespace {

// What the rows read off a run (docs/bounds.md#budget-ogd-bounds).
struct StepFacts {
  std::size_t T = 0, M = 0;
  std::vector<double> m_all, m_upd, a_upd;  // unit margins y g0(x)/||g0||; those of U and their steps a_t
  double a_min = kInf, a_max = 0.0, a_margin = 0.0;  // min a_t on mistakes, max on U, sum on U \ mistakes
  double A = 0.0;                            // ||f_{T+1}|| + sum ||delta_t|| + eta lambda sum ||f_t||
  double G2 = 0.0, F2 = 0.0, D2 = 0.0;       // sum ||grad_t||^2, sum ||f_t||^2, sum ||delta_t||^2
  std::string missing;                       // why the records cannot be read ("" when they can)
};

// An online gradient learner's own eta, lambda or cap (BOGD, BOGD++, FOGD, NOGD); 0 for a learner
// that does not declare it (then no shrink term).
double own_real(const RunFacts& f, const char* name) {
  const LearnerInfo* learner = find_learner(f.algo);
  const nlohmann::json& own = f.options.own;
  return learner && learner->own_row(name) && own.contains(name) ? own.at(name).get<double>() : 0.0;
}
// The run's budget B; 0 where the learner takes none.
std::size_t own_budget(const RunFacts& f) {
  const LearnerInfo* learner = find_learner(f.algo);
  return learner ? own_value<std::size_t>(*learner, f.options, "budget", 0) : 0;
}

StepFacts collect_steps(const Records& R, const RunFacts& f, double lambda) {
  StepFacts s;
  s.T = R.size();
  const double eta = own_real(f, "eta");
  double prev = 0.0, sum_f = 0.0, sum_delta = 0.0;  // prev = ||f_t||^2 before round t
  for (const RoundRecord& r : R) {
    const double m = f.g_norm > 0 ? r.y * r.g / f.g_norm : 0.0;
    s.m_all.push_back(m);
    const bool step = !std::isnan(r.tau);
    if (r.mistake) {
      ++s.M;
      if (!step || !(r.tau > 0)) s.missing = "a mistake round without a step tau > 0 (round " + std::to_string(r.t) + ")";
      else s.a_min = std::min(s.a_min, r.tau);
    }
    const double delta = std::isnan(r.delta_norm) ? 0.0 : r.delta_norm;
    if (step) {
      s.m_upd.push_back(m);
      s.a_upd.push_back(r.tau);
      s.a_max = std::max(s.a_max, r.tau);
      if (!r.mistake) s.a_margin += r.tau;
      sum_delta += delta;
      s.D2 += delta * delta;
    }
    // ||grad_t||^2 of (lambda/2)||f||^2 + max(0, 1 - y f(x)) at f_t (docs/bounds.md#norma_ogd)
    const double sig = step ? 1.0 : 0.0;
    s.G2 += lambda * lambda * prev - 2.0 * lambda * sig * r.y * r.score + sig * r.kxx;
    s.F2 += prev;
    sum_f += std::sqrt(prev);
    prev = std::isnan(r.f_norm2) ? prev : r.f_norm2;
  }
  const double fT2 = !std::isnan(f.f_norm2_exact) ? f.f_norm2_exact : prev;
  s.A = std::sqrt(std::max(0.0, fT2)) + sum_delta + eta * lambda * sum_f;
  if (s.M == 0) s.a_min = s.a_max > 0 ? s.a_max : 1.0;  // no mistake: every row is >= 0 = M
  return s;
}

// A row for bound `id` (bounds/bound_ids.cpp gives its name, tag and kind); parameter c = s/||g0||.
BoundResult make_row(const std::string& id, const RunFacts& f, const StepFacts& s) {
  const BoundId* info = find_bound(id);
  if (!info) throw std::logic_error("bound id '" + id + "' is not in bounds/bound_ids.cpp");
  BoundResult b;
  b.id = info->id; b.name = info->name; b.tag = info->tag; b.kind = info->kind;
  b.param_name = "c";
  b.empirical = static_cast<double>(s.M);
  b.comparator = f.comparator;
  b.rounds = s.T;
  b.hard = info->tag != "M" && info->kind != "expectation";
  return b;
}

void set_not_applicable(Out& out, BoundResult b, const std::string& why) {
  b.applicable = false;
  b.why_not = why;
  out.push_back(std::move(b));
}

double to_c(double s, const RunFacts& f) { return f.g_norm > 0 ? s / f.g_norm : kNone; }

// The infimum over s = ||g|| of fn (docs/bounds.md#infimum); false when no finite value was found.
bool infimum(BoundResult& b, const BoundFn& fn, const std::vector<double>& breaks, bool pwl, const RunFacts& f,
             Minimum& mn) {
  const double s_max = default_s_max(breaks);
  mn = minimize_segments([&](double s) { return fn(s, Sum::prefix); }, breaks, s_max, pwl);
  if (std::isfinite(mn.value)) mn = polish_minimum(fn, breaks, s_max, mn);
  if (!std::isfinite(mn.value)) return false;
  b.applicable = true;
  b.value = mn.value;
  b.param = to_c(mn.s, f);
  b.vacuous = !(mn.s > 0) || b.value >= static_cast<double>(b.rounds);
  return true;
}

}  // namespace

void budget_gradient_rows(Out& out, const Records& R, const RunFacts& f) {
  const StepFacts s = collect_steps(R, f, own_real(f, "lambda"));
  BoundResult all_t = make_row("budget_ogd_all_t", f, s), cert = make_row("budget_ogd_certificate", f, s);
  if (!s.missing.empty()) {
    set_not_applicable(out, all_t, s.missing);
    return set_not_applicable(out, cert, s.missing);
  }
  const MarginProfile PT(s.m_all), PU(s.m_upd, s.a_upd);
  const auto bT = PT.breakpoints();
  const double A = s.A, a_min = s.a_min, a_max = s.a_max, a_margin = s.a_margin;
  const BoundFn fn_all = [&](double g, Sum h) { return (a_max * PT.l1(g, h) + g * A) / a_min; };
  const BoundFn fn_cert = [&](double g, Sum h) { return (PU.l1(g, h) - a_margin + g * A) / a_min; };
  all_t.note = cert.note = "A=" + format_g(A, 6) + ", a_min=" + format_g(a_min, 6);
  Minimum mn;
  if (!infimum(all_t, fn_all, bT, true, f, mn)) {
    set_not_applicable(out, all_t, "no finite value of the bound on the search range (overflow)");
    mn.s = 0.0;
  } else {
    all_t.holds = within(all_t.empirical, all_t.value);
    out.push_back(all_t);
  }
  // The certificate at the all-T argmin, and >= M on the whole grid (docs/bounds.md#predictive-vs-check).
  auto bU = PU.breakpoints();
  const double s_max = std::max(default_s_max(bT), default_s_max(bU));
  const GridCheck grid = check_grid(fn_cert, bU, s_max, cert.empirical);
  cert.value = fn_cert(mn.s, Sum::direct);
  if (!std::isfinite(cert.value)) return set_not_applicable(out, cert, "the bound is not finite at the reported parameter");
  cert.applicable = true;
  cert.param = to_c(mn.s, f);
  cert.holds = grid.holds && within(cert.empirical, cert.value);
  cert.vacuous = !(mn.s > 0) || cert.value >= static_cast<double>(cert.rounds);
  if (!grid.holds) cert.note += "; grid minimum " + format_g(grid.worst_value, 6) + " at c=" + format_g(to_c(grid.worst_s, f), 6);
  out.push_back(cert);
}

void unbiased_removal_rows(Out& out, const Records& R, const RunFacts& f) {
  const double eta = own_real(f, "eta"), lambda = own_real(f, "lambda");
  const StepFacts s = collect_steps(R, f, lambda);
  BoundResult b = make_row("bogd_expectation", f, s);
  const std::size_t budget = own_budget(f);
  if (budget < 2) return set_not_applicable(out, b, "needs budget B >= 2 (with B = 1 the removal is not unbiased)");
  if (own_real(f, "cap") > 0.0)  // the cap's factor depends on the support drawn: E[f_{t+1}] is no longer the unbudgeted step
    return set_not_applicable(out, b, "the coefficient cap (cap > 0) makes the removal biased (cap 0 for this bound)");
  const MarginProfile PT(s.m_all);
  const double T = static_cast<double>(s.T);
  const double G2 = s.G2 + s.D2 / (eta * eta);  // the removals enter as (1/(2 eta)) sum ||delta_t||^2
  const BoundFn fn = [&](double g, Sum h) { return norma_ogd(PT.l1(g, h), g, lambda, T, eta, G2, s.F2, 1.0); };
  Minimum mn;
  if (!infimum(b, fn, PT.breakpoints(), false, f, mn))
    return set_not_applicable(out, b, "no finite value of the bound on the search range (overflow)");
  // A statement about the mean over the removal draws: one run above it is no violation.
  b.holds = true;
  b.note = std::string("in expectation over the removals; this run: M=") + std::to_string(s.M) +
           (within(b.empirical, b.value) ? " within" : " above") + ", sum||delta||^2=" + format_g(s.D2, 6);
  out.push_back(b);
}

}  // namespace plab::bounds
