#include "bounds/bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>

#include "algorithms/norma.hpp"
#include "algorithms/projectron.hpp"
#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "bounds/families.hpp"
#include "bounds/formulas.hpp"
#include "core/format.hpp"
#include "core/json_text.hpp"
#include "bounds/profile.hpp"

namespace plab {

using bounds::kInf;
using bounds::MarginProfile;
using bounds::Sum;
using Fn = bounds::BoundFn;

namespace {

// meta[key] when present, after checking its JSON type; a wrong type names the key
// (docs/inputs.md#trace-checks).
const nlohmann::json* typed(const nlohmann::json& obj, const char* key, const std::string& at,
                            nlohmann::json::value_t want) {
  if (!obj.contains(key)) return nullptr;
  const nlohmann::json& v = obj.at(key);
  const bool ok = want == nlohmann::json::value_t::number_float ? v.is_number() : v.type() == want;
  if (!ok) {
    const char* what = want == nlohmann::json::value_t::string   ? "a string"
                       : want == nlohmann::json::value_t::object ? "an object"
                                                                 : "a number";
    throw std::invalid_argument("trace metadata: \"" + at + key + "\" must be " + what + ", got " +
                                json_excerpt(v));
  }
  return &v;
}

}  // namespace

RunFacts RunFacts::from_meta(const nlohmann::json& meta) {
  using T = nlohmann::json::value_t;
  RunFacts f;
  if (!meta.is_object()) throw std::invalid_argument("trace metadata: must be a JSON object, got " + json_excerpt(meta));
  if (const auto* v = typed(meta, "algo", "", T::string)) f.algo = v->get<std::string>();
  typed(meta, "options", "", T::object);  // its values: facts_from_meta (config/recorded_options.hpp)
  if (const auto* cmp = typed(meta, "comparator", "", T::object)) {
    if (const auto* v = typed(*cmp, "name", "comparator.", T::string)) f.comparator = v->get<std::string>();
    if (const auto* v = typed(*cmp, "norm", "comparator.", T::number_float)) f.g_norm = v->get<double>();
  }
  if (const auto* v = typed(meta, "r2", "", T::number_float)) f.kxx_max = v->get<double>();
  // null: not recomputed (a run without bounds, or a learner without any: `plab run` writes its NaN so).
  if (!(meta.contains("f_norm2_exact") && meta.at("f_norm2_exact").is_null()))
    if (const auto* v = typed(meta, "f_norm2_exact", "", T::number_float)) f.f_norm2_exact = v->get<double>();
  return f;
}

namespace {

using Rounds = std::vector<RoundRecord>;

// Shared per-run quantities of a set of rounds (docs/bounds.md#round-log "end of run" facts).
struct RunData {
  std::size_t T = 0, M = 0;
  std::vector<double> m_all, m_mist;  // unit-comparator margins y g0(x)/||g0||
  double r2 = 0.0, r2_I = 0.0, S2_I = 0.0, kxx_min = kInf;
  double fT = 0.0;
  bool have_g = true;
  int unit_exp = 0;  // margins, r and ||f_T|| are in units of 2^unit_exp (docs/bounds.md#scale)
};

// Exponent e of the unit 2^e of the data's own scale r = sqrt(max k(x,x)): the power of two
// nearest r, or 0 while r is within 2^(+-8) of 1 (where the search is accurate in absolute units
// and ordinary runs keep their bits). Powers of two rescale exactly (docs/bounds.md#scale).
int unit_exponent(double r2) {
  if (!(r2 > 0) || !std::isfinite(r2)) return 0;
  const int e = std::ilogb(r2) / 2;
  return std::abs(e) <= 8 ? 0 : e;
}

// Expresses the Perceptron quantities of d in units of the data's scale: margins and norms by
// 2^-e, squared norms by 2^-2e, all exact (docs/bounds.md#scale).
void to_data_units(RunData& d) {
  const int e = unit_exponent(d.r2);
  d.unit_exp = e;
  if (e == 0) return;
  for (double& m : d.m_all) m = std::ldexp(m, -e);
  for (double& m : d.m_mist) m = std::ldexp(m, -e);
  d.r2 = std::ldexp(d.r2, -2 * e);
  d.r2_I = std::ldexp(d.r2_I, -2 * e);
  d.S2_I = std::ldexp(d.S2_I, -2 * e);
  d.fT = std::ldexp(d.fT, -e);
}

RunData collect(const Rounds& R, std::size_t n, const RunFacts& f) {
  RunData d;
  d.T = n;
  double lemma1 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const RoundRecord& r = R[i];
    if (std::isnan(r.g)) d.have_g = false;
    const double m = f.g_norm > 0 && !std::isnan(r.g) ? r.y * r.g / f.g_norm : 0.0;
    const double k = std::isnan(r.kxx) ? f.kxx_max : r.kxx;
    d.m_all.push_back(m);
    d.r2 = std::max(d.r2, k);
    d.kxx_min = std::min(d.kxx_min, k);
    if (r.mistake) {
      ++d.M;
      d.m_mist.push_back(m);
      d.r2_I = std::max(d.r2_I, k);
      d.S2_I += k;
      lemma1 += k + 2.0 * r.y * r.score;  // MR Lemma 1 increment (docs/bounds.md#lemma1)
    }
  }
  if (!std::isnan(f.kxx_max)) d.r2 = std::max(d.r2, f.kxx_max);
  // ||f_T|| from the learner's running norm, else from MR Lemma 1 (Perceptron rounds only).
  // The exact alpha^T K alpha of the final hypothesis (trace metadata) wins over the running
  // value when the bounds cover the whole run.
  const double fn2 = n == R.size() && !std::isnan(f.f_norm2_exact) ? f.f_norm2_exact
                     : n > 0                                       ? R[n - 1].f_norm2
                                                                   : 0.0;
  d.fT = std::sqrt(std::max(0.0, std::isnan(fn2) ? lemma1 : fn2));
  return d;
}

struct Ctx {
  const RunFacts& f;
  const RunData& d;
  std::vector<BoundResult>& out;
  std::string note;
  bool a_posteriori = false;  // the non-check rows need quantities of this run (docs/bounds.md#kinds)
};

// A row for bound `id` (bounds/bound_ids.cpp gives its display name, tag and default kind).
BoundResult make(const Ctx& c, const std::string& id, const std::string& pname) {
  const BoundId* info = find_bound(id);
  if (!info) throw std::logic_error("bound id '" + id + "' is not in bounds/bound_ids.cpp");
  BoundResult b;
  b.id = info->id; b.name = info->name; b.tag = info->tag; b.param_name = pname;
  b.kind = c.a_posteriori && info->kind == "a_priori" ? "a_posteriori" : info->kind;
  b.empirical = static_cast<double>(c.d.M);
  b.comparator = c.f.comparator;
  b.rounds = c.d.T;
  b.note = c.note;
  b.hard = info->tag != "M";
  return b;
}

void not_applicable(Ctx& c, BoundResult b, const std::string& why) {
  b.applicable = false;
  b.holds = true;
  b.why_not = why;
  c.out.push_back(std::move(b));
}

// A row that does not apply carries no value, parameter or vacuity: a value left on it (say a
// uniform-update row's, "vacuous": true) would read as a bound that was evaluated.
void mark_not_applicable(BoundResult& b, const std::string& why) {
  b.applicable = false;
  b.holds = true;
  b.vacuous = false;
  b.value = b.param = kNone;
  b.why_not = why;
}

// Parameter as reported: rho/gamma = 1/s, c = s/||g0||, s back from units 2^e (docs/bounds.md#scale).
double report_param(const std::string& pname, double s, double g_norm, int e) {
  if (pname == "c") return g_norm > 0 ? std::ldexp(s, -e) / g_norm : kNone;
  return s > 0 ? std::ldexp(1.0 / s, e) : kInf;
}

// Vacuous (docs/bounds.md#vacuous): no better than one mistake per covered round, or the
// parameter sits at the trivial limit s = 0 (rho -> infinity, c -> 0) of an infimum.
bool vacuous(const BoundResult& b, bool trivial_limit) {
  return trivial_limit || b.value >= static_cast<double>(b.rounds);
}

// Predictive row: infimum over s in [0, s_max], searched with the prefix sums; the reported value
// is evaluated again at the argmin with direct summation (docs/bounds.md#infimum). Returns the argmin.
double predictive(Ctx& c, BoundResult b, const Fn& fn, const std::vector<double>& breaks, double s_max,
                  bool pwl = false) {
  auto mn = bounds::minimize_segments([&](double s) { return fn(s, Sum::prefix); }, breaks, s_max, pwl);
  if (std::isfinite(mn.value)) mn = bounds::polish_minimum(fn, breaks, s_max, mn);
  if (!std::isfinite(mn.value)) {  // a numeric failure is n/a, never a verdict (docs/bounds.md#non-finite)
    not_applicable(c, std::move(b), "no finite value of the bound on the search range (overflow)");
    return 0.0;
  }
  b.applicable = true;
  b.value = mn.value;
  b.param = report_param(b.param_name, mn.s, c.f.g_norm, c.d.unit_exp);
  b.holds = bounds::within(b.empirical, b.value);
  b.vacuous = vacuous(b, !(mn.s > 0));
  c.out.push_back(std::move(b));
  return mn.s;
}

// Check row: value at s_at, holds = value >= M and f >= M on the grid (docs/bounds.md#predictive-vs-check).
void check_row(Ctx& c, BoundResult b, const Fn& fn, const std::vector<double>& breaks, double s_max,
               double s_at) {
  const auto g = bounds::check_grid(fn, breaks, s_max, b.empirical);
  b.value = fn(s_at, Sum::direct);
  if (std::isnan(b.value)) {  // docs/bounds.md#non-finite
    b.value = kNone;
    return not_applicable(c, std::move(b), "the bound is not a number at the reported parameter (overflow)");
  }
  b.applicable = true;
  b.param = report_param(b.param_name, s_at, c.f.g_norm, c.d.unit_exp);
  b.holds = g.holds && bounds::within(b.empirical, b.value);
  b.vacuous = vacuous(b, !(s_at > 0));
  if (!g.holds) {
    std::ostringstream os;
    os << "grid minimum " << g.worst_value << " at " << b.param_name << "="
       << report_param(b.param_name, g.worst_s, c.f.g_norm, c.d.unit_exp);
    b.note += (b.note.empty() ? "" : "; ") + os.str();
  }
  c.out.push_back(std::move(b));
}

std::string fmt(double v) { return format_g(v, 6); }

// --- Perceptron family (docs/bounds.md#perceptron-bounds) -----------------------------------------------------
// Novikoff (docs/bounds.md#novikoff) [R]: needs a separating comparator.
void novikoff_rows(Ctx& c, const MarginProfile& PT, const MarginProfile& PI) {
  const RunData& d = c.d;
  const double r = std::sqrt(d.r2), rI = std::sqrt(d.r2_I), SI = std::sqrt(d.S2_I);
  const double rho = PT.min_margin(), rhoI = PI.min_margin();  // in units 2^unit_exp
  const auto real = [&](double m) { return std::ldexp(m, d.unit_exp); };
  BoundResult n0 = make(c, "novikoff", "rho");
  BoundResult n2 = make(c, "novikoff_n2", "rho");
  BoundResult n1 = make(c, "novikoff_n1", "rho");
  if (rho > 0 && c.f.g_norm > 0) {
    n0.applicable = true; n0.param = real(rho); n0.value = bounds::novikoff(r, rho);
    n0.holds = bounds::within(n0.empirical, n0.value);
    n0.vacuous = vacuous(n0, false);
    c.out.push_back(n0);
  } else {
    not_applicable(c, n0, "comparator does not separate all rounds (min margin " + fmt(real(rho)) + ")");
  }
  if (rhoI > 0 && c.f.g_norm > 0) {
    n2.applicable = n1.applicable = true;
    n2.param = n1.param = real(rhoI);
    n2.value = bounds::novikoff(rI, rhoI);
    n1.value = bounds::novikoff_n1(SI, rhoI);
    n2.holds = bounds::within(n2.empirical, n2.value);
    n1.holds = bounds::within(n1.empirical, n1.value);
    n2.vacuous = vacuous(n2, false);
    n1.vacuous = vacuous(n1, false);
    c.out.push_back(n2);
    c.out.push_back(n1);
  } else {
    const std::string why = "comparator does not separate the update rounds (min margin " + fmt(real(rhoI)) + ")";
    not_applicable(c, n2, why);
    not_applicable(c, n1, why);
  }
}

// Blum (docs/bounds.md#blum_simplified): Blum's algorithm runs on normalised inputs.
void blum_rows(Ctx& c, const MarginProfile& PT, const std::vector<double>& bT, double smax) {
  const RunData& d = c.d;
  BoundResult be = make(c, "blum_exact", "gamma");
  BoundResult bs = make(c, "blum_simplified", "gamma");
  const double r2 = std::ldexp(d.r2, 2 * d.unit_exp);  // k(x,x) as recorded (kxx_min is never rescaled)
  if (d.T > 0 && std::abs(r2 - 1.0) <= 1e-9 && std::abs(d.kxx_min - 1.0) <= 1e-9) {
    const double T = static_cast<double>(d.T);
    predictive(c, be, [&](double s, Sum h) { return s > 0 ? bounds::blum_exact(1.0 / s, PT.l1(s, h) / s) : T; }, bT, smax);
    predictive(c, bs, [&](double s, Sum h) { return s > 0 ? bounds::blum_simplified(1.0 / s, PT.l1(s, h) / s) : 2.0 * T; },
               bT, smax);
  } else {
    const std::string why = "Blum's algorithm runs on normalised inputs; this run has k(x,x) in [" +
                            fmt(d.kxx_min) + ", " + fmt(r2) + "]";
    not_applicable(c, be, why);
    not_applicable(c, bs, why);
  }
}

void perceptron_bounds(Ctx& c) {
  const RunData& d = c.d;
  const double r = std::sqrt(d.r2), rI = std::sqrt(d.r2_I), SI = std::sqrt(d.S2_I);
  const MarginProfile PT(d.m_all), PI(d.m_mist);
  const auto bT = PT.breakpoints(), bI = PI.breakpoints();
  const double smax = bounds::default_s_max(bT);

  novikoff_rows(c, PT, PI);

  // Predictive all-T forms (docs/bounds.md#fs_thm2_all_t, docs/bounds.md#mr4_all_t, docs/bounds.md#mr6_all_t).
  const double sFS = predictive(c, make(c, "fs_thm2_all_t", "gamma"),
                                [&](double s, Sum h) { return bounds::freund_schapire(PT.l2(s, h), r, s); }, bT, smax);
  const double s4 = predictive(c, make(c, "mr4_all_t", "rho"),
                               [&](double s, Sum h) { return bounds::mr4(PT.l1(s, h), r, s); }, bT, smax);
  const double s6 = predictive(c, make(c, "mr6_all_t", "rho"),
                               [&](double s, Sum h) { return bounds::mr6(PT.l2sq(s, h), r, s); }, bT, smax);

  blum_rows(c, PT, bT, smax);

  // I-restricted consistency checks (docs/bounds.md#mr-thm2, docs/bounds.md#predictive-vs-check, docs/bounds.md#cs_certificate), each evaluated at the optimum
  // of its all-T counterpart: (3),(4) and CS at (4) all-T; (5),(6) at (6); (7),(8) at FS.
  const double smaxI = std::max(smax, bounds::default_s_max(bI));
  check_row(c, make(c, "mr3_i", "rho"),
            [&](double s, Sum h) { return bounds::mr3(PI.l1(s, h), SI, s); }, bI, smaxI, s4);
  check_row(c, make(c, "mr4_i", "rho"),
            [&](double s, Sum h) { return bounds::mr4(PI.l1(s, h), rI, s); }, bI, smaxI, s4);
  check_row(c, make(c, "mr5_i", "rho"),
            [&](double s, Sum h) { return bounds::mr5(PI.l2sq(s, h), rI, SI, s); }, bI, smaxI, s6);
  check_row(c, make(c, "mr6_i", "rho"),
            [&](double s, Sum h) { return bounds::mr6(PI.l2sq(s, h), rI, s); }, bI, smaxI, s6);
  check_row(c, make(c, "mr7_i", "rho"),
            [&](double s, Sum h) { return bounds::mr7(PI.l2(s, h), SI, s); }, bI, smaxI, sFS);
  check_row(c, make(c, "mr8_i", "rho"),
            [&](double s, Sum h) { return bounds::mr8(PI.l2(s, h), rI, s); }, bI, smaxI, sFS);
  check_row(c, make(c, "cs_certificate", "rho"),
            [&](double s, Sum h) { return bounds::cs_certificate(PI.l1(s, h), s, d.fT); }, bI, smaxI, s4);
}

// --- Projectron / Projectron++ (docs/bounds.md#projectron-bounds, docs/bounds.md#projectronpp-bounds) ------------------------------------------
struct ProjFacts {
  double eta = 0.0;        // eta entering the theorems
  std::string eta_source;
  double delta_M = 0.0;    // sum ||delta|| over projected mistakes
  double eta_eff = 0.0;    // max ||delta|| over projected mistakes
  bool eta_from_run = false;  // eta read off the run (eta_eff), not fixed in advance
  bool unit = false;       // k(x,x) <= 1 on every round
};

// The Projectron(++)'s own options of the run (eta, eta_convention, U, margin_threshold; absent
// ones at their defaults).
ProjectronOptions proj_opts(const RunFacts& f) { return options_from<ProjectronPP::Options>(f.options.own); }

ProjFacts projectron_facts(const Rounds& R, const RunFacts& f, const RunData& d) {
  ProjFacts p;
  for (const auto& r : R)
    if (r.mistake && r.update == UpdateKind::project && !std::isnan(r.delta_norm)) {
      p.delta_M += r.delta_norm;
      p.eta_eff = std::max(p.eta_eff, r.delta_norm);
    }
  p.unit = d.r2 <= 1.0 + 1e-9;
  if (proj_opts(f).convention() == EtaConvention::paper && !(proj_opts(f).U > 0)) {
    // The theorems need ||delta_t|| <= eta on every projected mistake; a projection forced by the
    // learner's numerical guard may exceed a tiny eta, so never use less than what happened.
    // A Projectron++ run with margin threshold 2eta tests l - ||delta||/(2 eta) on margin errors: it
    // is a run of JMLR Thm 4 with parameter 2 eta (its projected mistakes have ||delta|| <= eta <= 2 eta,
    // its tau rule is the theorem's at 2 eta), so the theorems take 2 eta (docs/bounds.md#projectron-eta).
    const bool twice = f.algo == "projectron++" && proj_opts(f).margin_threshold == "2eta";
    const double eta = twice ? 2.0 * proj_opts(f).eta : proj_opts(f).eta;
    p.eta = std::max(eta, p.eta_eff);
    p.eta_from_run = p.eta > eta;
    p.eta_source = "eta=" + fmt(p.eta) + (p.eta > eta ? " (max ||delta_t|| > option eta)"
                                                      : twice ? " (2 eta: margin threshold 2eta)" : " (paper)");
  } else {
    p.eta = p.eta_eff;
    p.eta_from_run = true;
    p.eta_source = "eta_eff=max||delta_t||=" + fmt(p.eta_eff) + (proj_opts(f).U > 0 ? " (per-round eta_t)" : " (dogma)");
  }
  return p;
}

// argmin over s of ||g||^2 + D_1 + ||g|| sqrt(D_1) (JMLR Thm 3 at eta = 0, docs/bounds.md#projectron_jmlr_thm3).
double perceptron_form_argmin(const MarginProfile& PT, double smax) {
  return bounds::minimize_segments([&](double s) { return bounds::jmlr_thm3(s, PT.l1(s), 0.0); },
                                   PT.breakpoints(), smax, false).s;
}

double domain_max(double smax, double limit) {
  return std::isfinite(limit) ? std::min(smax, limit * (1.0 - 1e-9)) : smax;
}

// What the Projectron and Projectron++ rows share: eta, the margin profile over all rounds and
// the domain of the comparator scale.
struct ProjCommon {
  ProjFacts p;
  MarginProfile PT;
  std::vector<double> bT;
  double smax, eta, inv_eta;
  std::string not_unit;
  ProjCommon(Ctx& c, const Rounds& R)
      : p(projectron_facts(R, c.f, c.d)), PT(c.d.m_all), bT(PT.breakpoints()),
        smax(bounds::default_s_max(bT)), eta(p.eta), inv_eta(eta > 0 ? 1.0 / eta : kInf),
        not_unit("needs k(x,x) <= 1; max k(x,x) = " + fmt(c.d.r2)) {
    c.note = p.eta_source;
    // eta_eff is read off the run (dogma convention, per-round eta_t, or a forced projection).
    c.a_posteriori = p.eta_from_run;
  }
};

// Projectron (docs/bounds.md#projectron_icml_thm2 .. #projectron_certificate).
void projectron_bounds(Ctx& c, const Rounds& R) {
  const RunData& d = c.d;
  const ProjCommon pc(c, R);
  const ProjFacts& p = pc.p;
  const MarginProfile& PT = pc.PT;
  const MarginProfile PM(d.m_mist);
  const auto& bT = pc.bT;
  const auto bM = PM.breakpoints();
  const double smax = pc.smax, eta = pc.eta, inv_eta = pc.inv_eta, R2 = d.r2, Rr = std::sqrt(d.r2);
  const std::string& not_unit = pc.not_unit;
  {
    BoundResult t2 = make(c, "projectron_icml_thm2", "c");
    if (R2 < 2.0)
      predictive(c, t2, [&](double s, Sum h) { return bounds::icml_thm2(s, PT.l1(s, h), R2, eta); }, bT,
                 domain_max(smax, eta > 0 ? (2.0 - R2) / (2.0 * eta) : kInf));
    else
      not_applicable(c, t2, "needs R^2 = max k(x,x) < 2; got " + fmt(R2));

    BoundResult c1 = make(c, "projectron_icml_cor1", "c");
    c1.kind = "a_priori";  // 2||g||^2 + 4 D_1 needs no eta, only U fixed in advance
    if (!(proj_opts(c.f).U > 0)) not_applicable(c, c1, "run did not use the per-round eta_t of ICML Eq. (13) (U = 0)");
    else if (!p.unit) not_applicable(c, c1, not_unit);
    else predictive(c, c1, [&](double s, Sum h) { return bounds::icml_cor1(s, PT.l1(s, h)); }, bT, proj_opts(c.f).U);

    double s3 = 0.0;
    BoundResult t3 = make(c, "projectron_jmlr_thm3", "c");
    BoundResult pt = make(c, "projectron_tight", "c");
    if (p.unit) {
      s3 = predictive(c, t3, [&](double s, Sum h) { return bounds::jmlr_thm3(s, PT.l1(s, h), eta); }, bT,
                      domain_max(smax, inv_eta));
      predictive(c, pt, [&](double s, Sum h) { return bounds::projectron_tight(s, PT.l1(s, h), eta); }, bT,
                 domain_max(smax, inv_eta));
    } else {
      not_applicable(c, t3, not_unit);
      not_applicable(c, pt, not_unit);
    }
    predictive(c, make(c, "projectron_icml_thm3_recon", "c"),
               [&](double s, Sum h) { return bounds::icml_thm3_recon(s, PT.l1(s, h), eta, Rr); }, bT,
               domain_max(smax, inv_eta));
    // Evaluated at the Thm 3 optimum, or, when that is the trivial c -> 0, at the optimum of
    // the eta = 0 (kernel Perceptron) form of Thm 3, so the reported number is informative.
    if (!(s3 > 0)) s3 = perceptron_form_argmin(PT, smax);
    check_row(c, make(c, "projectron_certificate", "c"),
              [&](double s, Sum h) { return bounds::projectron_certificate(PM.l1(s, h), s, p.delta_M, d.fT); }, bM,
              std::max(smax, bounds::default_s_max(bM)), s3);
  }
}

// Projectron++ (docs/bounds.md#projectronpp_jmlr_thm4 .. #projectronpp_certificate).
void projectron_pp_bounds(Ctx& c, const Rounds& R) {
  const RunData& d = c.d;
  const ProjCommon pc(c, R);
  const MarginProfile& PT = pc.PT;
  const auto& bT = pc.bT;
  const double smax = pc.smax, eta = pc.eta, inv_eta = pc.inv_eta;
  const ProjFacts& p = pc.p;
  const std::string& not_unit = pc.not_unit;
  // Projectron++: B = sum of beta_t over margin updates (JMLR Thm 4), certificate 4.3 sums.
  double B = 0.0, tau_delta = 0.0, tau_margin = 0.0;
  std::vector<double> m_upd, w_upd;
  for (std::size_t i = 0; i < d.T; ++i) {
    const RoundRecord& r = R[i];
    if (!changed(r.update)) continue;
    const bool margin = r.update == UpdateKind::margin_project;
    const double tau = r.mistake ? 1.0 : (std::isnan(r.tau) ? 0.0 : r.tau);
    m_upd.push_back(d.m_all[i]);
    w_upd.push_back(tau);
    if (r.update == UpdateKind::project || margin) tau_delta += tau * r.delta_norm;  // add: delta = 0
    if (margin) {
      tau_margin += tau;
      if (eta > 0) B += bounds::pp_beta(tau, 1.0 - r.y * r.score, r.pk2, r.delta_norm, eta);
    }
  }
  const MarginProfile PU(m_upd, w_upd);
  double s4 = 0.0;
  BoundResult t4 = make(c, "projectronpp_jmlr_thm4", "c");
  BoundResult t4i = make(c, "projectronpp_thm4_implicit", "c");  // a_posteriori: B sums the run's beta_t
  std::string why;
  // Multiclass (Kesler): JMLR Thm 6 states Thm 4 under ||k((x,y),.)|| <= 1/2, i.e. k(x,x) <= 1/4
  // (r2 here is 2 max k(x,x)), which gives ||z_t|| <= 1 by the triangle inequality.
  const bool multiclass = learner_info(c.f.algo).multiclass;
  if (multiclass && d.r2 > 0.5 + 1e-9) why = "needs ||k((x,y),.)|| <= 1/2, i.e. k(x,x) <= 1/4; max k(x,x) = " + fmt(d.r2 / 2.0);
  else if (!p.unit) why = not_unit;
  else if (proj_opts(c.f).convention() != EtaConvention::paper) why = "DOGMA tau rule (||delta||^2/eta): Thm 4 not shown for it; see certificate 4.3";
  else if (proj_opts(c.f).U > 0) why = "per-round eta_t run: Thm 4 is stated for a fixed eta";
  else if (!(eta > 0)) why = "needs eta > 0";
  if (why.empty()) {
    t4.note = t4i.note = c.note + ", B=" + fmt(B);
    s4 = predictive(c, t4, [&](double s, Sum h) { return bounds::jmlr_thm4(s, PT.l1(s, h), eta, B); }, bT,
                    domain_max(smax, inv_eta));
    predictive(c, t4i, [&](double s, Sum h) { return bounds::jmlr_thm4_implicit(s, PT.l1(s, h), eta, B); }, bT,
               domain_max(smax, inv_eta));
  } else {
    not_applicable(c, t4, why);
    not_applicable(c, t4i, why);
  }
  const auto bU = PU.breakpoints();
  if (!(s4 > 0)) s4 = perceptron_form_argmin(PT, smax);  // as for certificate 3.5
  check_row(c, make(c, "projectronpp_certificate", "c"),
            [&](double s, Sum h) { return bounds::pp_certificate(PU.l1(s, h), s, tau_delta, d.fT, tau_margin); }, bU,
            std::max(smax, bounds::default_s_max(bU)), s4);
}

// --- Forgetron [M] (docs/bounds.md#forgetron) -------------------------------------------------------
void forgetron_bounds(Ctx& c, const Rounds&) {
  BoundResult b = make(c, "forgetron", "c");
  b.hard = false;
  const MarginProfile PT(c.d.m_all);
  const LearnerInfo* learner = find_learner(c.f.algo);
  const std::size_t budget = learner ? own_value<std::size_t>(*learner, c.f.options, "budget", 0) : 0;
  if (budget < 83) return not_applicable(c, b, "needs budget B >= 83 (B = " + std::to_string(budget) + ")");
  if (c.d.r2 > 1.0 + 1e-9) return not_applicable(c, b, "needs k(x,x) <= 1");
  const double U = bounds::forgetron_U(static_cast<double>(budget));
  b.note = "[M] recalled, report only; U(B)=" + fmt(U);
  predictive(c, b, [&](double s, Sum h) { return bounds::forgetron_bound(s, PT.l1(s, h)); }, PT.breakpoints(), U);
}

// --- NORMA online gradient [D] (docs/bounds.md#norma_ogd) -------------------------------------------
void norma_bounds(Ctx& c, const Rounds& R) {
  c.a_posteriori = true;  // sum ||grad_t||^2 and sum ||f_t||^2 are the run's
  BoundResult b = make(c, "norma_ogd", "c");
  const Norma::Options f = options_from<Norma::Options>(c.f.options.own);  // the family is NORMA's alone
  if (f.task != "classification") return not_applicable(c, b, "only for --task classification");
  if (f.bias || f.nu >= 0 || f.truncate > 0 || f.decay_rate)
    return not_applicable(c, b, "needs no bias, fixed rho (nu off), no truncation, constant learning rate");
  if (!(f.rho > 0)) return not_applicable(c, b, "needs rho > 0 (a mistake costs rho)");
  double G2 = 0.0, F2 = 0.0, prev = 0.0;
  for (std::size_t i = 0; i < c.d.T; ++i) {
    const RoundRecord& r = R[i];
    const double sig = r.margin_error ? 1.0 : 0.0;
    // ||grad_t||^2 = lambda^2 ||f_t||^2 - 2 lambda sigma y f_t(x) + sigma k(x,x) (docs/bounds.md#norma_ogd)
    G2 += f.lambda * f.lambda * prev - 2.0 * f.lambda * sig * r.y * r.score + sig * r.kxx;
    F2 += prev;
    prev = std::isnan(r.f_norm2) ? prev : r.f_norm2;
  }
  const MarginProfile PT(c.d.m_all);
  auto br = PT.breakpoints();
  for (double& x : br) x *= f.rho;  // l_t(g) = rho max(0, 1 - (s/rho) m_t)
  const double T = static_cast<double>(c.d.T);
  b.note = "sum||grad||^2=" + fmt(G2);
  predictive(c, b, [&](double s, Sum h) {
    return bounds::norma_ogd(f.rho * PT.l1(s / f.rho, h), s, f.lambda, T, f.learning_rate, G2, F2, f.rho);
  }, br, bounds::default_s_max(br));
}

// Length of the prefix on which the run is a conservative kernel Perceptron: every mistake
// adds (or updates, primal) and nothing else changes f (bounds.hpp, "Which bounds apply").
std::size_t perceptron_prefix(const Rounds& R) {
  for (std::size_t i = 0; i < R.size(); ++i) {
    const RoundRecord& r = R[i];
    const bool ok = r.mistake ? (r.update == UpdateKind::add || r.update == UpdateKind::update)
                              : !changed(r.update);
    if (!ok) return i;
  }
  return R.size();
}

// The Perceptron family on the rounds where the run is a conservative Perceptron: all of them
// (family perceptron) or the longest such prefix (family perceptron_prefix).
void perceptron_family(std::vector<BoundResult>& out, const Rounds& rounds, const RunFacts& facts, bool prefix) {
  const std::size_t n = prefix ? perceptron_prefix(rounds) : rounds.size();
  RunData d = collect(rounds, n, facts);
  to_data_units(d);  // the Perceptron bounds are scale-free; other families read absolute eta, rho
  Ctx c{facts, d, out, "", prefix};  // a budget learner's prefix length is known only after the run
  if (n < rounds.size()) c.note = "Perceptron prefix: rounds 1.." + std::to_string(n);
  if (!prefix && perceptron_prefix(rounds) < rounds.size())
    c.note = "warning: records are not those of a conservative Perceptron";
  perceptron_bounds(c);
}

// The families that cover the whole run (bounds.hpp, "Which bounds apply").
void whole_run(std::vector<BoundResult>& out, const Rounds& R, const RunFacts& f, void (*rows)(Ctx&, const Rounds&)) {
  const RunData d = collect(R, R.size(), f);
  Ctx c{f, d, out, "", false};
  rows(c, R);
}

}  // namespace

// The evaluators named by the family table (bounds/families.hpp, bounds/bound_ids.cpp).
namespace bounds {

void perceptron_rows(Out& out, const Records& R, const RunFacts& f) { perceptron_family(out, R, f, false); }
void perceptron_prefix_rows(Out& out, const Records& R, const RunFacts& f) { perceptron_family(out, R, f, true); }
void projectron_rows(Out& out, const Records& R, const RunFacts& f) { whole_run(out, R, f, projectron_bounds); }
void projectron_pp_rows(Out& out, const Records& R, const RunFacts& f) { whole_run(out, R, f, projectron_pp_bounds); }
void forgetron_rows(Out& out, const Records& R, const RunFacts& f) { whole_run(out, R, f, forgetron_bounds); }
void norma_rows(Out& out, const Records& R, const RunFacts& f) { whole_run(out, R, f, norma_bounds); }

// A learner that is not ours (algo "external", docs/bounds.md#external): the Perceptron rows on
// every round as a reference for it, never a verdict on it. ||f_T|| only when the run supplies
// it (no MR Lemma 1 fallback: that identity is the Perceptron's).
void perceptron_reference_rows(Out& out, const Records& R, const RunFacts& f) {
  const std::size_t first = out.size();
  RunData d = collect(R, R.size(), f);
  to_data_units(d);
  Ctx c{f, d, out, "reference: a theorem about the Perceptron", false};
  perceptron_bounds(c);
  const bool have_fT = !std::isnan(f.f_norm2_exact) || (!R.empty() && !std::isnan(R.back().f_norm2));
  for (std::size_t i = first; i < out.size(); ++i) {
    out[i].kind = "reference";
    out[i].hard = false;
    if (out[i].id == "cs_certificate" && !have_fT)
      mark_not_applicable(out[i], "the run supplies no ||f_T|| (trace column f_norm2 or metadata f_norm2_exact)");
  }
}

}  // namespace bounds

namespace {

// Why round r cannot be evaluated in floating point ("" when it can): k(x_t,x_t) absent, not
// finite, or underflowed next to a non-zero score (docs/bounds.md#non-finite, #underflow).
std::string round_numeric_problem(const RoundRecord& r, const RunFacts& f, bool reads_score) {
  const auto bad = [](double v) { return std::isinf(v); };
  if (bad(r.score) || (reads_score && std::isnan(r.score))) return "score f(x_t) = " + fmt(r.score);
  if (!std::isfinite(r.g)) return std::isnan(r.g) ? "comparator score g(x_t) absent" : "comparator score g(x_t) = " + fmt(r.g);
  if (bad(r.kxx)) return "k(x_t,x_t) = " + fmt(r.kxx);
  if (std::isnan(r.kxx) && std::isnan(f.kxx_max)) return "k(x_t,x_t) absent (and no r2 in the metadata)";
  // |g(x_t)| <= ||g0|| sqrt(k(x_t,x_t)) (no comparator has a bias): k = 0 next to g != 0, or a
  // subnormal k, is an underflow, not data.
  const bool lost = r.kxx != 0.0 ? std::abs(r.kxx) < std::numeric_limits<double>::min() : r.g != 0.0;
  if (lost) return "k(x_t,x_t) = " + fmt(r.kxx) + " underflows (next to g(x_t) = " + fmt(r.g) + ")";
  if (bad(r.f_norm2) || bad(r.delta_norm) || bad(r.pk2) || bad(r.tau)) return "a norm of the update is infinite";
  if (f.g_norm > 0 && !std::isfinite(r.y * r.g / f.g_norm)) return "unit margin y g(x_t)/||g0|| overflows";
  return "";
}

// "" when every input the bounds read is finite, else what is not (docs/bounds.md#non-finite).
// NaN marks an absent optional field; comparator scores and norms are never absent, scores only
// for a family that does not read them (a learner not ours).
std::string non_finite_input(const Rounds& R, const RunFacts& f, bool reads_score) {
  if (!f.bad_input.empty()) return f.bad_input;
  if (!std::isfinite(f.g_norm)) return "comparator norm ||g0|| = " + fmt(f.g_norm);
  if (std::isinf(f.kxx_max) || std::isinf(f.f_norm2_exact)) return "r^2 or ||f_T||^2 of the run is infinite";
  for (std::size_t i = 0; i < R.size(); ++i)
    if (const std::string why = round_numeric_problem(R[i], f, reads_score); !why.empty())
      return why + " at round " + std::to_string(i + 1);
  return "";
}

// A multiclass run as the binary run of the Kesler construction (docs/bounds.md#multiclass): the
// update direction z_t = phi(x_t,y_t) - phi(x_t,competitor) has <f, z_t> = f_y - f_competitor (the
// record's score, label 1) and ||z_t||^2 = 2 k(x_t,x_t); the comparator's multiclass margin (column
// g) is a lower bound on <U, z_t>; ||f||^2 and the Projectron++ fields are recorded in these terms.
Rounds kesler(const Rounds& R) {
  Rounds K = R;
  for (RoundRecord& r : K) {
    r.y = 1.0;
    r.kxx *= 2.0;
  }
  return K;
}

// Why the Kesler reduction does not cover a multiclass run ("" when it does).
std::string kesler_not_applicable(const RunFacts& f) {
  // The uniform step has <f, z_t> = f_y - mean_{r != y} f_r, which can be > 0 on a mistake.
  if (f.options.own.value("update_rule", "") == "uniform")  // the multiclass Perceptron's own option
    return "uniform update: <f, z_t> <= 0 on mistakes fails, the Perceptron analysis does not apply";
  return "";
}

// Every row of one family, not applicable for `why` (the rounds and mistakes of `d`).
void family_not_applicable(std::vector<BoundResult>& out, BoundFamily family, const RunFacts& facts, const RunData& d,
                           const std::string& why) {
  Ctx c{facts, d, out, "", false};
  for (const BoundId* row : family_rows(family)) not_applicable(c, make(c, row->id, ""), why);
}

// The rows of one family (bounds/bound_ids.cpp): every one n/a when an input is not finite,
// else those of the family's evaluator.
void family_bounds(std::vector<BoundResult>& out, BoundFamily family, const Rounds& rounds, const RunFacts& facts) {
  const BoundFamilyInfo& info = bound_family(family);
  if (const std::string why = non_finite_input(rounds, facts, info.reads_score); !why.empty()) {
    RunData d;
    d.T = rounds.size();
    family_not_applicable(out, family, facts, d, "inputs not finite: " + why);
    return;
  }
  info.evaluate(out, rounds, facts);
}

// An applicable row whose value is not finite is a numeric failure: n/a, never a verdict or a
// JSON null (docs/bounds.md#non-finite).
void overflow_rows_not_applicable(std::vector<BoundResult>& rs) {
  for (BoundResult& b : rs)
    if (b.applicable && !std::isfinite(b.value)) mark_not_applicable(b, "the bound's value overflows (" + fmt(b.value) + ")");
}

}  // namespace

const LearnerInfo* find_bounds_learner(const std::string& algo) {
  static const LearnerInfo external = [] {
    LearnerInfo e;
    e.name = kExternalAlgo;
    e.summary = "a learner not in this suite (docs/bounds.md#external)";
    e.bounds = {BoundFamily::perceptron_reference};
    return e;
  }();
  return algo == kExternalAlgo ? &external : find_learner(algo);
}

std::vector<BoundResult> evaluate_bounds(const std::vector<RoundRecord>& rounds, const RunFacts& facts) {
  std::vector<BoundResult> out;
  const LearnerInfo* found = find_bounds_learner(facts.algo);
  const LearnerInfo& learner = found ? *found : learner_info(facts.algo, "bounds: algo");
  // No comparator at all: one row. A score missing on some rounds only names the round
  // (non_finite_input, every row n/a).
  bool have_g = false;
  for (const auto& r : rounds) if (!std::isnan(r.g)) { have_g = true; break; }
  if (!have_g) {
    BoundResult b;
    b.id = "all";
    b.name = "all bounds";
    b.why_not = "trace has no comparator scores (column g)";
    b.comparator = facts.comparator;
    b.rounds = rounds.size();
    out.push_back(b);
    return out;
  }
  if (!learner.multiclass) {
    for (const BoundFamily family : learner.bounds) family_bounds(out, family, rounds, facts);
    overflow_rows_not_applicable(out);
    return out;
  }
  // Multiclass runs: the binary families on the Kesler construction (docs/bounds.md#multiclass).
  const std::string why = kesler_not_applicable(facts);
  RunFacts kf = facts;
  if (!std::isnan(kf.kxx_max)) kf.kxx_max *= 2.0;
  const Rounds K = kesler(rounds);
  for (const BoundFamily family : learner.bounds) {
    const std::size_t first = out.size();
    family_bounds(out, family, K, kf);
    for (std::size_t i = first; i < out.size(); ++i) {
      BoundResult& b = out[i];
      b.note = "multiclass (Kesler)" + (b.note.empty() ? std::string() : "; " + b.note);
      const BoundId& entry = *find_bound(b.id);
      if (!entry.kesler_tag.empty()) b.tag = entry.kesler_tag;
      if (!entry.kesler_name.empty()) b.name = entry.kesler_name;
      if (!why.empty()) mark_not_applicable(b, why);
    }
  }
  overflow_rows_not_applicable(out);
  return out;
}

std::vector<BoundResult> bounds_not_applicable(const RunFacts& facts, std::size_t rounds, std::size_t mistakes,
                                               const std::string& why) {
  std::vector<BoundResult> out;
  const LearnerInfo* found = find_bounds_learner(facts.algo);
  RunData d;
  d.T = rounds;
  d.M = mistakes;
  for (const BoundFamily family : (found ? *found : learner_info(facts.algo, "bounds: algo")).bounds)
    family_not_applicable(out, family, facts, d, why);
  return out;
}

nlohmann::json to_json(const BoundResult& b) {
  const auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j = {{"id", b.id}, {"name", b.name}, {"tag", b.tag}, {"kind", b.kind}, {"vacuous", b.vacuous},
                      {"value", num(b.value)},
                      {"param", num(b.param)}, {"param_name", b.param_name}, {"applicable", b.applicable},
                      {"why_not", b.why_not}, {"holds", b.holds}, {"hard", b.hard},
                      {"empirical", num(b.empirical)}, {"comparator", b.comparator},
                      {"rounds", b.rounds}, {"note", b.note}};
  if (std::isinf(b.param)) j["param_note"] = "infinite (trivial limit)";
  return j;
}

bool any_hard_violation(const std::vector<BoundResult>& results) {
  for (const auto& b : results)
    if (b.applicable && b.hard && !b.holds) return true;
  return false;
}

void print_bounds_table(std::ostream& os, const std::vector<BoundResult>& results) {
  os << fmt::format("{:<50} {:<3} {:<12} {:>14} {:>14} {:>10}  {}\n", "bound", "tag", "kind", "value", "param",
                    "empirical", "status");
  for (const auto& b : results) {
    std::string status;
    if (!b.applicable) status = "n/a: " + b.why_not;
    else if (b.kind == "reference") status = b.holds ? "within (reference)" : "above (reference, not a check)";
    else if (b.kind == "expectation") status = "in expectation (no verdict on one run)";
    else if (b.holds) status = b.hard ? "holds" : "holds (report only)";
    else status = b.hard ? "*** VIOLATED ***" : "violated (report only, [M])";
    if (b.applicable && b.vacuous) status += " (vacuous)";
    if (b.applicable && !b.note.empty()) status += "  [" + b.note + "]";
    const std::string param = b.applicable ? (b.param_name + "=" + fmt(b.param)) : "";
    const std::string value = b.applicable ? fmt::format("{:.6f}", b.value) : "-";
    os << fmt::format("{:<50} {:<3} {:<12} {:>14} {:>14} {:>10.0f}  {}\n", b.name, b.tag, b.kind, value, param,
                      b.empirical, status);
  }
}

}  // namespace plab
