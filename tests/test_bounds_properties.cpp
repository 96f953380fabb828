// Property tests: every hard bound of docs/bounds.md holds on random runs of the real learners
// (the bounds are theorems, so any violation is a bug in a learner or in a bound routine).
// Each property runs 1000 cases (max_success=1000 is merged into the caller's RC_PARAMS unless
// they set max_success); RapidCheck prints the seed to replay a failure (RC_PARAMS="seed=...").
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/projectron.hpp"
#include "algorithms/registry.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "bounds/multiclass_comparator.hpp"
#include "bounds/prefix_bounds.hpp"
#include "bounds_reference.hpp"
#include "core/random.hpp"

namespace plab {
namespace {

// Runs before RapidCheck reads its configuration (lazily, at the first property). The caller's
// RC_PARAMS (e.g. "seed=X") are kept; max_success=1000 is added unless they set it.
const bool kConfigured = [] {
  const char* env = std::getenv("RC_PARAMS");
  std::string p = env ? env : "";
  if (p.find("max_success") == std::string::npos) p += (p.empty() ? "" : " ") + std::string("max_success=1000");
  setenv("RC_PARAMS", p.c_str(), 1);
  return true;
}();

enum class Order { given, by_label, by_margin, repeated };

struct Seq {
  Dataset data;
  std::vector<double> u;  // linear comparator (unit)
};

// Random points in [-1,1]^d labelled by a random unit u; `noise` flips labels, `gap` rejects
// points with |u.x| < gap (separable with margin gap when noise = 0).
Seq make_seq(uint64_t seed, int T, int d, double gap, double noise, bool normalise, Order order) {
  Rng rng(seed);
  Seq s;
  s.u.resize(static_cast<std::size_t>(d));
  double n = 0;
  for (double& v : s.u) { v = rng.normal(); n += v * v; }
  for (double& v : s.u) v /= std::sqrt(n);
  std::vector<std::pair<std::vector<double>, double>> pts;
  while (static_cast<int>(pts.size()) < T) {
    std::vector<double> x(static_cast<std::size_t>(d));
    for (double& v : x) v = 2 * rng.uniform() - 1;
    if (normalise) {
      double q = 0;
      for (double v : x) q += v * v;
      if (q < 1e-6) continue;
      for (double& v : x) v /= std::sqrt(q);
    }
    const double m = std::inner_product(x.begin(), x.end(), s.u.begin(), 0.0);
    if (std::abs(m) < gap) continue;
    double y = m > 0 ? 1 : -1;
    if (rng.uniform() < noise) y = -y;
    pts.push_back({x, y});
    if (order == Order::repeated && rng.uniform() < 0.3) pts.push_back(pts.back());
  }
  const auto margin = [&](const auto& p) { return p.second * std::inner_product(p.first.begin(), p.first.end(), s.u.begin(), 0.0); };
  if (order == Order::by_label) std::stable_sort(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.second > b.second; });
  if (order == Order::by_margin) std::stable_sort(pts.begin(), pts.end(), [&](auto& a, auto& b) { return margin(a) < margin(b); });
  for (const auto& [x, y] : pts) s.data.push_dense(x, y);
  s.data.dim = static_cast<std::size_t>(d);
  return s;
}

double lin(const std::vector<double>& u, const Example& x) {
  double v = 0;
  for (std::size_t k = 0; k < x.idx.size(); ++k) v += u[x.idx[k]] * x.val[k];
  return v;
}

// Random RKHS comparator g0 = sum_j beta_j k(z_j, .) on a few data points, with its scores on
// every row and its norm as every comparator gives them (lower margin scores, an upper norm:
// docs/bounds.md#comparator-rounding).
struct Comp { std::vector<double> g; double norm = 0.0; };
Comp random_rkhs_comparator(const Dataset& d, Rng& rng, const Kernel& k) {
  KernelExpansion g(k, d.dim);
  const std::size_t n = 1 + rng.below(std::min<std::size_t>(8, d.size()));
  for (std::size_t j = 0; j < n; ++j) g.add(d[rng.below(d.size())], static_cast<int64_t>(j), rng.normal());
  std::vector<std::size_t> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  const Comparator c = expansion_comparator("random", g, d, order);
  return {c.scores, c.norm};
}

void assert_all_hold(const std::vector<BoundResult>& res) {
  for (const auto& b : res) {
    if (b.applicable && b.hard && !b.holds) {
      RC_LOG() << b.name << " value " << b.value << " param " << b.param << " M " << b.empirical << " " << b.note << "\n";
      RC_FAIL("hard bound violated: " + b.name);
    }
  }
}

// Every point `plab plot --bounds` draws (bounds/prefix_bounds.hpp: the hard rows on the prefixes
// 1..t, t = 1, 2, 4, ..., T) holds: the mistakes of the rounds it covers, counted here, are at most
// its value (docs/bounds.md#tolerance), and the point says so.
void assert_prefix_points_hold(const std::vector<RoundRecord>& R, const RunFacts& f) {
  const std::vector<BoundPoint> pts = prefix_bound_points(R, f);
  for (const BoundPoint& p : pts) {
    RC_ASSERT(p.rounds >= 1u && p.rounds <= p.t && p.t <= R.size());
    double M = 0.0;
    for (std::size_t i = 0; i < p.rounds; ++i) M += R[i].mistake ? 1.0 : 0.0;
    RC_ASSERT(p.mistakes == M);
    if (!(M <= p.value * (1 + 1e-9) + 1e-9) || !p.holds) {
      RC_LOG() << p.name << " on rounds 1.." << p.rounds << " (prefix " << p.t << "): value " << p.value << ", M " << M << "\n";
      RC_FAIL("hard bound violated on a prefix: " + p.name);
    }
  }
}

Order gen_order() { return static_cast<Order>(*rc::gen::inRange(0, 4)); }

RC_GTEST_PROP(BoundProperties, SeparableNovikoffHolds, ()) {
  const int T = *rc::gen::inRange(1, 80), d = *rc::gen::inRange(1, 6);
  const double gap = *rc::gen::inRange(5, 40) / 100.0;
  const Seq s = make_seq(*rc::gen::arbitrary<uint64_t>(), T, d, gap, 0.0, false, gen_order());
  LearnerOptions o; o.dim = s.data.dim;
  PrimalPerceptron p(o);
  std::vector<RoundRecord> R;
  double lemma1 = 0;
  for (std::size_t t = 0; t < s.data.size(); ++t) {
    RoundRecord r = p.learn(s.data[t], static_cast<int64_t>(t + 1));
    r.g = lin(s.u, s.data[t]);
    if (r.mistake) lemma1 += r.kxx + 2 * r.y * r.score;
    R.push_back(r);
  }
  // MR Lemma 1 (docs/bounds.md#lemma1): ||w_T||^2 = sum_I (||x||^2 + 2 y <w,x>), and <= S_I^2.
  RC_ASSERT(std::abs(p.norm2_exact() - lemma1) <= 1e-9 * (1 + lemma1));
  RunFacts f; f.algo = "perceptron"; f.comparator = "u"; f.g_norm = 1.0;
  const auto res = evaluate_bounds(R, f);
  int novikoff = 0;
  for (const auto& b : res)
    if (b.name.rfind("Novikoff", 0) == 0) { RC_ASSERT(b.applicable); ++novikoff; }
  RC_ASSERT(novikoff == 3);
  assert_all_hold(res);
  assert_prefix_points_hold(R, f);
}

RC_GTEST_PROP(BoundProperties, NoisyPerceptronFamilyHolds, ()) {
  const int T = *rc::gen::inRange(1, 120), d = *rc::gen::inRange(1, 6);
  const bool gaussian = *rc::gen::arbitrary<bool>();
  const bool normalise = *rc::gen::arbitrary<bool>();
  const double noise = *rc::gen::inRange(0, 40) / 100.0;
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Seq s = make_seq(seed, T, d, 0.0, noise, normalise, gen_order());
  LearnerOptions o; o.dim = s.data.dim;
  o.kernel = gaussian ? Kernel::rbf(*rc::gen::inRange(1, 40) / 10.0) : Kernel::linear();
  KernelPerceptron p(o);
  Rng rng(seed ^ 0x5eed);
  const Comp g = gaussian ? random_rkhs_comparator(s.data, rng, o.kernel) : Comp{{}, 1.0};
  const double gn = g.norm;
  std::vector<RoundRecord> R;
  for (std::size_t t = 0; t < s.data.size(); ++t) {
    RoundRecord r = p.learn(s.data[t], static_cast<int64_t>(t + 1));
    r.g = gaussian ? g.g[t] : lin(s.u, s.data[t]);
    R.push_back(r);
  }
  // ||f_T||^2 running (Lemma 1 increments) equals alpha^T K alpha.
  RC_ASSERT(std::abs(p.norm2() - p.norm2_exact()) <= 1e-8 * (1 + p.norm2_exact()));
  RunFacts f; f.algo = "kernel-perceptron"; f.comparator = "random"; f.g_norm = gn;
  const auto res = evaluate_bounds(R, f);
  bool blum = false;
  for (const auto& b : res) if (b.name.rfind("Blum", 0) == 0 && b.applicable) blum = true;
  if (gaussian || (normalise && T > 0)) RC_ASSERT(blum);  // unit feature norms => Blum applies
  assert_all_hold(res);
  assert_prefix_points_hold(R, f);
}

RC_GTEST_PROP(BoundProperties, ProjectronEtaSweepHolds, ()) {
  const int T = *rc::gen::inRange(1, 100), d = *rc::gen::inRange(1, 4);
  const bool pp = *rc::gen::arbitrary<bool>();
  const bool dogma = *rc::gen::arbitrary<bool>();
  const double eta = *rc::gen::inRange(0, 120) / 100.0;
  const double noise = *rc::gen::inRange(0, 30) / 100.0;
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Seq s = make_seq(seed, T, d, 0.0, noise, false, gen_order());
  LearnerOptions o; o.dim = s.data.dim; o.own["eta"] = eta;
  o.own["eta_convention"] = dogma ? EtaConvention::dogma : EtaConvention::paper;
  o.kernel = Kernel::rbf(*rc::gen::inRange(2, 40) / 10.0);
  std::unique_ptr<Learner> L = pp ? std::unique_ptr<Learner>(new ProjectronPP(o)) : std::unique_ptr<Learner>(new Projectron(o));
  Rng rng(seed ^ 0xabc);
  const Comp g = random_rkhs_comparator(s.data, rng, o.kernel);
  const double gn = g.norm;
  std::vector<RoundRecord> R;
  for (std::size_t t = 0; t < s.data.size(); ++t) {
    RoundRecord r = L->learn(s.data[t], static_cast<int64_t>(t + 1));
    r.g = g.g[t];
    R.push_back(r);
  }
  // Projectron certificate identity (docs/bounds.md#projectron_certificate): the running ||f_T||^2
  // equals alpha^T K alpha, up to the rounding of that sum, n u |alpha|^T |K| |alpha| (x 10 for
  // alpha's own backward solve): supports clustered within 1e-2 (the guard bounds each pivot of L,
  // not their product) gave max |alpha| 2e7 and a sum of 4.1 from terms of 1e14 (docs/learners.md#projectron).
  const KernelExpansion& fT = *L->expansion();
  double cancel = 0.0;
  for (std::size_t i = 0; i < fT.size(); ++i)
    for (std::size_t j = 0; j < fT.size(); ++j)
      cancel += std::abs(fT.alpha[i] * fT.alpha[j] * o.kernel(fT.sv.row(i), fT.sv.row(j)));
  RC_ASSERT(std::abs(L->norm2() - L->norm2_exact()) <=
            1e-6 * (1 + L->norm2_exact()) + 10 * static_cast<double>(fT.size()) * 0x1p-53 * cancel);
  RunFacts f; f.algo = pp ? "projectron++" : "projectron"; f.options.own["eta"] = eta;
  f.options.own["eta_convention"] = dogma ? EtaConvention::dogma : EtaConvention::paper; f.comparator = "random"; f.g_norm = gn;
  const auto res = evaluate_bounds(R, f);
  RC_ASSERT(!res.empty());
  assert_all_hold(res);
  assert_prefix_points_hold(R, f);
}

// --- Values pinned against the brute-force evaluator (tests/bounds_reference.hpp) --------------
// Every applicable row the reference covers must (a) never be below the exact value at its
// reported parameter by more than 1e-12 relative, (b) agree with it to 1e-9, and (c) for the
// infimum rows not exceed the reference's grid minimum (docs/bounds.md#mutation-check).

void assert_pinned(const std::vector<RoundRecord>& R, const RunFacts& f, const std::vector<BoundResult>& res) {
  namespace br = bounds_reference;
  std::map<std::size_t, br::Facts> cache;
  for (const auto& b : res) {
    RC_ASSERT(b.kind == "a_priori" || b.kind == "a_posteriori" || b.kind == "check");
    if (!b.applicable) { RC_ASSERT(!b.vacuous); continue; }
    if (!cache.count(b.rounds)) cache.emplace(b.rounds, br::facts(R, b.rounds, f));
    const br::Facts& x = cache.at(b.rounds);
    RC_ASSERT(x.M == static_cast<std::size_t>(b.empirical));
    br::LD ref;
    bool trivial = false;
    if (b.id.rfind("novikoff", 0) == 0) {
      const bool all = b.id == "novikoff";
      br::LD rho = br::kInfL;
      for (std::size_t i = 0; i < x.T; ++i)
        if (all || x.mistake[i]) rho = std::min(rho, x.m[i]);
      ref = b.id == "novikoff_n1" ? std::sqrt(x.S2I) / rho : (all ? x.r2 : x.r2I) / (rho * rho);
    } else {
      const br::LD s = br::scale_of(b, x);
      const auto v = br::value(b.id, x, s);
      if (!v) continue;  // forgetron [M], norma: not covered by the reference
      ref = *v;
      trivial = !(s > 0);
      if (b.kind != "check") {
        const br::LD gm = br::grid_min(b.id, x);
        if (!(b.value <= gm * (1 + 1e-9L) + 1e-9L)) {
          RC_LOG() << std::setprecision(17) << b.id << " value " << b.value << " at " << b.param_name << "=" << b.param
                   << " above the grid minimum " << static_cast<double>(gm) << "\n";
          RC_FAIL("infimum not found: " + b.id);
        }
      }
    }
    if (!(b.value >= ref * (1 - 1e-12L) - 1e-12L && b.value <= ref * (1 + 1e-9L) + 1e-9L)) {
      RC_LOG() << b.id << " value " << b.value << " param " << b.param << " reference " << static_cast<double>(ref)
               << " M " << b.empirical << " " << b.note << "\n";
      RC_FAIL("value differs from the independent evaluation: " + b.id);
    }
    RC_ASSERT(b.vacuous == (trivial || b.value >= static_cast<double>(b.rounds)));
  }
}

// Comparator scores g0(x_t) and ||g0||: a random RKHS expansion (or the generating u, linear),
// or the suite's SVM / multipass comparator.
Comp gen_comparator(const Seq& s, const Kernel& k, uint64_t seed) {
  const int kind = *rc::gen::inRange(0, 3);
  Comp c;
  if (kind == 0) {
    if (k.type == Kernel::Type::linear) {
      for (std::size_t t = 0; t < s.data.size(); ++t) c.g.push_back(lin(s.u, s.data[t]));
      c.norm = 1.0;
    } else {
      Rng rng(seed);
      c = random_rkhs_comparator(s.data, rng, k);
    }
    return c;
  }
  std::vector<std::size_t> order(s.data.size());
  std::iota(order.begin(), order.end(), 0);
  const Comparator cmp = make_comparator(kind == 1 ? "svm" : "multipass", s.data, order, k, 1.0, seed);
  return {cmp.scores, cmp.norm};
}

Kernel gen_kernel(bool allow_linear) {
  switch (*rc::gen::inRange(allow_linear ? 0 : 1, 3)) {
    case 0: return Kernel::linear();
    case 1: return Kernel::rbf(*rc::gen::inRange(2, 40) / 10.0);
    default: return Kernel::poly(*rc::gen::inRange(2, 12) / 10.0, *rc::gen::inRange(0, 10) / 10.0, *rc::gen::inRange(2, 4));
  }
}

// Runs `algo` on the sequence with comparator scores filled in.
std::vector<RoundRecord> run_with(const std::string& algo, const LearnerOptions& o, const Seq& s, const Comp& c) {
  const auto L = test_util::configured_learner(algo, o);
  std::vector<RoundRecord> R;
  for (std::size_t t = 0; t < s.data.size(); ++t) {
    RoundRecord r = L->learn(s.data[t], static_cast<int64_t>(t + 1));
    r.g = c.g[t];
    R.push_back(r);
  }
  RC_ASSERT(!R.empty());
  return R;
}

// Runs `algo` against a generated comparator, checks that every hard row holds and pins every
// row; returns the rows and the records.
struct Pinned { std::vector<RoundRecord> R; std::vector<BoundResult> res; };
Pinned run_pinned(const std::string& algo, const LearnerOptions& o, const Seq& s, uint64_t seed) {
  const Comp c = gen_comparator(s, o.kernel, seed);
  Pinned p;
  p.R = run_with(algo, o, s, c);
  RunFacts f; f.algo = algo; f.options = o; f.comparator = "random"; f.g_norm = c.norm;
  p.res = evaluate_bounds(p.R, f);
  assert_all_hold(p.res);
  assert_pinned(p.R, f, p.res);
  assert_prefix_points_hold(p.R, f);
  return p;
}

RC_GTEST_PROP(BoundProperties, PerceptronFamilyPinned, ()) {
  const int T = *rc::gen::inRange(20, 100), d = *rc::gen::inRange(1, 6);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Seq s = make_seq(seed, T, d, 0.0, *rc::gen::inRange(0, 30) / 100.0, *rc::gen::arbitrary<bool>(), gen_order());
  LearnerOptions o; o.dim = s.data.dim; o.kernel = gen_kernel(true);
  const std::string algo = o.kernel.type == Kernel::Type::linear && *rc::gen::arbitrary<bool>() ? "perceptron" : "kernel-perceptron";
  const Pinned p = run_pinned(algo, o, s, seed ^ 0x77);
  for (const auto& b : p.res) RC_ASSERT(b.kind != "a_posteriori");
}

RC_GTEST_PROP(BoundProperties, ProjectronRowsPinned, ()) {
  const int T = *rc::gen::inRange(20, 100), d = *rc::gen::inRange(1, 4);
  const bool pp = *rc::gen::arbitrary<bool>();
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Seq s = make_seq(seed, T, d, 0.0, *rc::gen::inRange(0, 30) / 100.0, false, gen_order());
  LearnerOptions o; o.dim = s.data.dim; o.kernel = gen_kernel(false);
  o.own["eta"] = *rc::gen::inRange(0, 120) / 100.0;
  o.own["eta_convention"] = *rc::gen::arbitrary<bool>() ? EtaConvention::dogma : EtaConvention::paper;
  if (*rc::gen::inRange(0, 4) == 0) o.own["U"] = *rc::gen::inRange(5, 30) / 10.0;  // per-round eta_t (ICML Eq. 13)
  if (pp && *rc::gen::arbitrary<bool>()) o.own["margin_threshold"] = "2eta";  // both margin thresholds
  const std::string algo = pp ? "projectron++" : "projectron";
  const Pinned p = run_pinned(algo, o, s, seed ^ 0x99);
  for (const auto& b : p.res) {
    if (b.id.rfind("projectronpp_jmlr", 0) == 0 || b.id == "projectronpp_thm4_implicit") RC_ASSERT(b.kind == "a_posteriori");
    if (b.id == "projectron_jmlr_thm3" && (o.own.value("U", 0.0) > 0 || o.own.value("eta_convention", "paper") == "dogma"))
      RC_ASSERT(b.kind == "a_posteriori");
  }
}

RC_GTEST_PROP(BoundProperties, BudgetPrefixPinned, ()) {
  const int T = *rc::gen::inRange(20, 100), d = *rc::gen::inRange(1, 4);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Seq s = make_seq(seed, T, d, 0.0, *rc::gen::inRange(0, 30) / 100.0, false, gen_order());
  LearnerOptions o; o.dim = s.data.dim; o.kernel = gen_kernel(false);
  o.own["budget"] = static_cast<std::size_t>(*rc::gen::inRange(1, 12));
  o.own["seed"] = seed;
  const std::string algo = *rc::gen::element<std::string>("stoptron", "forgetron", "rbp", "cks");
  const Pinned p = run_pinned(algo, o, s, seed ^ 0x55);
  for (const auto& b : p.res) {
    RC_ASSERT(b.rounds == bounds_reference::prefix_length(p.R) || b.id == "forgetron");
    if (b.id != "forgetron") RC_ASSERT(b.kind == "check" || b.kind == "a_posteriori");
  }
}

// Theorem 4 applicable on every case (paper convention, Gaussian kernel, eta > 0, no U), so
// that the beta_t sum B enters the pinned values as often as possible; under both margin thresholds
// (a 2eta run is evaluated as a Theorem 4 run at 2 eta, and must hold there).
RC_GTEST_PROP(BoundProperties, ProjectronPPTheorem4Pinned, ()) {
  const int T = *rc::gen::inRange(20, 100), d = *rc::gen::inRange(1, 4);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Seq s = make_seq(seed, T, d, 0.0, *rc::gen::inRange(5, 30) / 100.0, false, gen_order());
  LearnerOptions o; o.dim = s.data.dim; o.kernel = Kernel::rbf(*rc::gen::inRange(2, 40) / 10.0);
  o.own["eta"] = *rc::gen::inRange(5, 120) / 100.0;
  if (*rc::gen::arbitrary<bool>()) o.own["margin_threshold"] = "2eta";
  const Pinned p = run_pinned("projectron++", o, s, seed ^ 0x33);
  for (const auto& b : p.res)
    if (b.id == "projectronpp_jmlr_thm4") RC_ASSERT(b.applicable);
}

namespace {

// A random m-class sequence of T points in [-1, 1]^d: the class is the arg max of m random linear
// functions, and a fraction `noise` of the rounds is relabelled at random.
Dataset random_multiclass_sequence(int T, int d, std::size_t m, double noise, Rng& rng) {
  std::vector<std::vector<double>> w(m, std::vector<double>(static_cast<std::size_t>(d)));
  for (auto& wc : w) for (double& v : wc) v = rng.normal();
  Dataset data;
  for (int t = 0; t < T; ++t) {
    std::vector<double> x(static_cast<std::size_t>(d));
    for (double& v : x) v = 2 * rng.uniform() - 1;
    std::size_t y = 0;
    for (std::size_t c = 1; c < m; ++c)
      if (std::inner_product(x.begin(), x.end(), w[c].begin(), 0.0) > std::inner_product(x.begin(), x.end(), w[y].begin(), 0.0)) y = c;
    if (rng.uniform() < noise) y = rng.below(m);
    data.push_dense(x, static_cast<double>(y));
  }
  data.dim = static_cast<std::size_t>(d);
  for (std::size_t c = 0; c < m; ++c) data.classes.push_back(static_cast<double>(c));
  return data;
}

// A random comparator: an RKHS expansion per class over 1..6 of the data's points. Returns its
// multiclass margins g_t = u_y(x_t) - max_{c != y} u_c(x_t) and sets `norm` to its norm.
std::vector<double> random_expansion_margins(const Dataset& data, std::size_t m, const Kernel& k, Rng& rng,
                                             double& norm) {
  const std::size_t n = 1 + rng.below(6);
  std::vector<std::size_t> z(n);
  std::vector<std::vector<double>> beta(n, std::vector<double>(m));
  for (std::size_t j = 0; j < n; ++j) {
    z[j] = rng.below(data.size());
    for (double& b : beta[j]) b = rng.normal();
  }
  double n2 = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t c = 0; c < m; ++c) n2 += beta[i][c] * beta[j][c] * k(data[z[i]], data[z[j]]);
  norm = std::sqrt(std::max(0.0, n2));
  std::vector<double> g(data.size());
  for (std::size_t t = 0; t < data.size(); ++t) {
    std::vector<double> u(m, 0.0);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t c = 0; c < m; ++c) u[c] += beta[j][c] * k(data[z[j]], data[t]);
    const std::size_t y = static_cast<std::size_t>(data.y[t]);
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < m; ++c) if (c != y) best = std::max(best, u[c]);
    g[t] = u[y] - best;
  }
  return g;
}

}  // namespace

// --- Multiclass runs: the Kesler construction (docs/bounds.md#multiclass) ---------------------------
// A random m-class sequence (class = arg max of m random linear functions, `noise` relabels) and a
// comparator U: a random RKHS expansion per class, or the Crammer-Singer SVM. Every hard row holds,
// and every row equals the independent evaluator on the records rewritten here by hand as the
// Kesler construction's binary records (label 1, k(x,x) -> 2 k(x,x), g = the multiclass margin).
RC_GTEST_PROP(BoundProperties, MulticlassKeslerPinned, ()) {
  const int T = *rc::gen::inRange(20, 100), d = *rc::gen::inRange(1, 4);
  const std::size_t m = static_cast<std::size_t>(*rc::gen::inRange(2, 6));
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  Rng rng(seed);
  const double noise = *rc::gen::inRange(0, 30) / 100.0;
  const Dataset data = random_multiclass_sequence(T, d, m, noise, rng);
  LearnerOptions o; o.dim = data.dim; o.classes = m; o.kernel = gen_kernel(true);
  const std::string algo = *rc::gen::element<std::string>("multiclass-perceptron", "mrbp", "multiclass-projectron++");
  o.own["budget"] = static_cast<std::size_t>(*rc::gen::inRange(1, 12));
  o.own["seed"] = seed;
  o.own["eta"] = *rc::gen::inRange(0, 150) / 100.0;
  o.own["eta_convention"] = *rc::gen::arbitrary<bool>() ? EtaConvention::dogma : EtaConvention::paper;
  // The comparator's multiclass margins and norm.
  std::vector<double> g(static_cast<std::size_t>(T));
  double norm = 0.0;
  std::vector<std::size_t> order(static_cast<std::size_t>(T));
  std::iota(order.begin(), order.end(), 0);
  if (*rc::gen::arbitrary<bool>()) {
    const MulticlassComparator U = make_multiclass_comparator("svm", data, order, o.kernel, m, 1.0, seed ^ 0x11);
    g = U.margins;
    norm = U.norm;
  } else {
    g = random_expansion_margins(data, m, o.kernel, rng, norm);
  }
  const auto L = test_util::configured_learner(algo, o);
  std::vector<RoundRecord> R;
  for (std::size_t t = 0; t < data.size(); ++t) {
    RoundRecord r = L->learn(data[t], static_cast<int64_t>(t + 1));
    r.g = g[t];
    R.push_back(r);
  }
  RunFacts f; f.algo = algo; f.options = o; f.comparator = "random"; f.g_norm = norm;
  const std::vector<BoundResult> res = evaluate_bounds(R, f);
  RC_ASSERT(!res.empty());
  assert_all_hold(res);
  assert_prefix_points_hold(R, f);
  std::vector<RoundRecord> K = R;
  for (RoundRecord& r : K) { r.y = 1.0; r.kxx = 2.0 * r.kxx; }
  assert_pinned(K, f, res);
}

TEST(BoundProperties, ConfiguredForThousandCases) {
  EXPECT_TRUE(kConfigured);
  EXPECT_NE(std::getenv("RC_PARAMS"), nullptr);
}

}  // namespace
}  // namespace plab
