// Independent brute-force evaluation of the bound rows of docs/bounds.md, for the property tests
// (tests/test_bounds_properties.cpp): the end-of-run facts are recomputed from the round records,
// every loss sum is a direct long-double sum over the rounds, every formula is written out again
// from its docs/bounds.md section (nothing from bounds/profile or bounds/formulas is called), and
// the infimum is taken over a dense grid plus every breakpoint. Not a test file (no test_ prefix).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/round_record.hpp"
#include "bounds/bounds.hpp"

namespace plab::bounds_reference {

using LD = long double;
inline constexpr LD kInfL = std::numeric_limits<LD>::infinity();

// What the bounds of one run read, recomputed from its records (docs/bounds.md#round-log).
struct Facts {
  std::size_t T = 0, M = 0;
  LD G = 0;                           // ||g0||
  std::vector<LD> m;                  // unit-comparator margins, every covered round
  std::vector<char> mistake;
  LD r2 = 0, r2I = 0, S2I = 0, fT = 0;
  // Projectron / Projectron++ quantities.
  LD eta = 0, deltaM = 0, B = 0, tau_delta = 0, tau_margin = 0;
  std::vector<LD> w_upd;              // tau_t on update rounds (0 elsewhere)
  LD U = 0;
};

// Perceptron prefix of a budget learner (docs/bounds.md#applicability).
inline std::size_t prefix_length(const std::vector<RoundRecord>& R) {
  for (std::size_t i = 0; i < R.size(); ++i) {
    const RoundRecord& r = R[i];
    const bool add = r.update == UpdateKind::add || r.update == UpdateKind::update;
    if (r.mistake ? !add : changed(r.update)) return i;
  }
  return R.size();
}

inline Facts facts(const std::vector<RoundRecord>& R, std::size_t n, const RunFacts& f) {
  Facts x;
  x.T = n;
  x.G = f.g_norm;
  x.U = f.options.own.value("U", 0.0);  // the Projectron's own options (absent: their defaults)
  LD lemma1 = 0, eta_eff = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const RoundRecord& r = R[i];
    const LD k = std::isnan(r.kxx) ? f.kxx_max : r.kxx;
    x.m.push_back(x.G > 0 ? static_cast<LD>(r.y) * r.g / x.G : 0);
    x.mistake.push_back(r.mistake ? 1 : 0);
    x.r2 = std::max(x.r2, k);
    if (r.mistake) {
      ++x.M;
      x.r2I = std::max(x.r2I, k);
      x.S2I += k;
      lemma1 += k + 2 * static_cast<LD>(r.y) * r.score;
      if (r.update == UpdateKind::project && !std::isnan(r.delta_norm)) {
        x.deltaM += r.delta_norm;
        eta_eff = std::max<LD>(eta_eff, r.delta_norm);
      }
    }
  }
  if (!std::isnan(f.kxx_max)) x.r2 = std::max<LD>(x.r2, f.kxx_max);
  const double fn2 = n == R.size() && !std::isnan(f.f_norm2_exact) ? f.f_norm2_exact : n > 0 ? R[n - 1].f_norm2 : 0.0;
  x.fT = std::sqrt(std::max<LD>(0, std::isnan(fn2) ? lemma1 : fn2));
  // eta of the Projectron theorems (docs/bounds.md#projectron-eta).
  const bool paper = f.options.own.value("eta_convention", "paper") == "paper" && !(x.U > 0);
  // A Projectron++ run with margin threshold 2eta is a Theorem 4 run at 2 eta.
  const LD eta = (f.algo == "projectron++" && f.options.own.value("margin_threshold", "eta") == "2eta" ? 2 : 1) *
                 static_cast<LD>(f.options.own.value("eta", 0.1));
  x.eta = paper ? std::max<LD>(eta, eta_eff) : eta_eff;
  // Projectron++ (docs/bounds.md#projectronpp_jmlr_thm4, #projectronpp_certificate).
  x.w_upd.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const RoundRecord& r = R[i];
    if (!changed(r.update)) continue;
    const bool margin = r.update == UpdateKind::margin_project;
    const LD tau = r.mistake ? 1 : (std::isnan(r.tau) ? 0 : r.tau);
    x.w_upd[i] = tau;
    if (r.update == UpdateKind::project || margin) x.tau_delta += tau * r.delta_norm;
    if (margin) {
      x.tau_margin += tau;
      if (x.eta > 0) x.B += tau * (2 * (1 - static_cast<LD>(r.y) * r.score) - tau * r.pk2 - 2 * r.delta_norm / x.eta);
    }
  }
  return x;
}

enum class Set { all, mistakes, updates };

// sum_t w_t max(0, 1 - m_t s)^power over the set, summed directly.
inline LD loss(const Facts& x, LD s, int power, Set set) {
  LD sum = 0;
  for (std::size_t i = 0; i < x.T; ++i) {
    LD w = 1;
    if (set == Set::mistakes && !x.mistake[i]) continue;
    if (set == Set::updates) w = x.w_upd[i];
    const LD l = std::max<LD>(0, 1 - x.m[i] * s);
    sum += w * (power == 1 ? l : l * l);
  }
  return sum;
}

// The row `id` at scale s (s = 1/rho, 1/gamma or ||g||), written out from docs/bounds.md.
// nullopt: not covered here.
inline std::optional<LD> value(const std::string& id, const Facts& x, LD s) {
  const LD r = std::sqrt(x.r2), rI = std::sqrt(x.r2I), SI = std::sqrt(x.S2I), T = static_cast<LD>(x.T);
  const auto sq = [](LD v) { return v * v; };
  const LD L1 = loss(x, s, 1, Set::all), L2sq = loss(x, s, 2, Set::all);
  const LD L1I = loss(x, s, 1, Set::mistakes), L2sqI = loss(x, s, 2, Set::mistakes);
  const LD a = 1 - x.eta * s;  // Projectron a = 1 - eta ||g||
  if (id == "fs_thm2_all_t") return sq(r * s + std::sqrt(L2sq));                         // ((R + D)/gamma)^2
  if (id == "mr4_all_t") return sq(r * s / 2 + std::sqrt(sq(r * s) / 4 + L1));            // MR (4)
  if (id == "mr6_all_t") {                                                                 // MR (6)
    const LD c = r * (r * s * s + s);
    return sq(c + std::sqrt(c * c + L2sq));
  }
  if (id == "blum_exact" || id == "blum_simplified") {
    if (s == 0) return id == "blum_exact" ? T : 2 * T;  // limits gamma -> infinity
    const LD gamma = 1 / s, TD = L1 * gamma;  // TD = sum max(0, gamma - m_t)
    if (id == "blum_simplified") return 1 / sq(gamma) + 2 * TD / gamma;
    return sq((1 + std::sqrt(1 + 4 * gamma * TD)) / (2 * gamma));
  }
  if (id == "mr3_i") return L1I + SI * s;
  if (id == "mr4_i") return sq(rI * s / 2 + std::sqrt(sq(rI * s) / 4 + L1I));
  if (id == "mr5_i") return L2sqI + 2 * (rI * s * s + s) * SI;
  if (id == "mr6_i") {
    const LD c = rI * (rI * s * s + s);
    return sq(c + std::sqrt(c * c + L2sqI));
  }
  if (id == "mr7_i") return sq(std::sqrt(L2sqI) / 2 + std::sqrt(L2sqI / 4 + SI * s));
  if (id == "mr8_i") return sq(rI * s + std::sqrt(L2sqI));
  if (id == "cs_certificate") return L1I + s * x.fT;
  if (id == "projectron_icml_thm2") {
    const LD den = 2 - x.r2 - 2 * x.eta * s;
    return den > 0 ? (s * s + 2 * L1) / den : kInfL;
  }
  if (id == "projectron_icml_cor1") return 2 * s * s + 4 * L1;
  if (a <= 0 && (id.rfind("projectron_", 0) == 0 || id.rfind("projectronpp_jmlr", 0) == 0 ||
                 id == "projectronpp_thm4_implicit") &&
      id != "projectron_certificate")
    return kInfL;
  if (id == "projectron_jmlr_thm3") return s * s / (a * a) + L1 / a + (s / a) * std::sqrt(L1 / a);
  if (id == "projectron_tight") return sq((s + std::sqrt(s * s + 4 * a * L1)) / (2 * a));
  if (id == "projectron_icml_thm3_recon") return sq((r * s + std::sqrt(x.r2 * s * s + 4 * L1)) / (2 * a));
  if (id == "projectron_certificate") return L1I + s * x.deltaM + s * x.fT;
  if (id == "projectronpp_jmlr_thm4")
    return s * s / (a * a) + L1 / a + (s / a) * std::sqrt(std::max<LD>(0, L1 / a - x.B));
  if (id == "projectronpp_thm4_implicit") {
    const LD first = (s * s + L1) / a, disc = s * s + 4 * a * L1 - 4 * a * a * x.B;
    return disc < 0 ? first : std::max(first, (2 * a * L1 + s * s + s * std::sqrt(disc)) / (2 * a * a));
  }
  if (id == "projectronpp_certificate")
    return loss(x, s, 1, Set::updates) + s * x.tau_delta + s * x.fT - x.tau_margin;
  return std::nullopt;
}

// Upper end of the scale for the row's infimum: the side condition of its theorem, and past the
// largest breakpoint every loss is 0, so larger s only grows these forms.
inline LD domain(const std::string& id, const Facts& x) {
  LD bmax = 0;
  for (LD m : x.m)
    if (m > 0) bmax = std::max(bmax, 1 / m);
  LD hi = bmax > 0 ? 4 * bmax : 1;
  const auto cut = [&](LD lim) { hi = std::min(hi, lim * (1 - 1e-9L)); };
  if (id == "projectron_icml_thm2" && x.eta > 0) cut((2 - x.r2) / (2 * x.eta));
  if (id == "projectron_icml_cor1") hi = x.U;
  if ((id == "projectron_jmlr_thm3" || id == "projectron_tight" || id == "projectron_icml_thm3_recon" ||
       id == "projectronpp_jmlr_thm4" || id == "projectronpp_thm4_implicit") && x.eta > 0)
    cut(1 / x.eta);
  return hi;
}

// min of the row over a grid of 400 log-spaced and 100 linear points of (0, hi], s = 0, every
// breakpoint 1/m_t and the midpoints between consecutive breakpoints.
inline LD grid_min(const std::string& id, const Facts& x) {
  const LD hi = domain(id, x);
  std::vector<LD> pts{0, hi};
  std::vector<LD> br;
  for (LD m : x.m)
    if (m > 0 && 1 / m < hi) br.push_back(1 / m);
  std::sort(br.begin(), br.end());
  for (std::size_t i = 0; i < br.size(); ++i) {
    pts.push_back(br[i]);
    if (i + 1 < br.size()) pts.push_back((br[i] + br[i + 1]) / 2);
  }
  for (int i = 0; i <= 400; ++i) pts.push_back(hi * std::pow(1e-6L, static_cast<LD>(i) / 400));
  for (int i = 1; i <= 100; ++i) pts.push_back(hi * i / 100);
  LD best = kInfL;
  for (LD s : pts) {
    const auto v = value(id, x, s);
    if (v && std::isfinite(*v)) best = std::min(best, *v);
  }
  return best;
}

// The scale s behind a row's reported parameter (rho/gamma = 1/s, c = s/||g0||).
inline LD scale_of(const BoundResult& b, const Facts& x) {
  if (b.param_name == "c") return static_cast<LD>(b.param) * x.G;
  return std::isinf(b.param) ? 0 : 1 / static_cast<LD>(b.param);
}

}  // namespace plab::bounds_reference
