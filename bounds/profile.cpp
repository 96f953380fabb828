#include "bounds/profile.hpp"

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "bounds/formulas.hpp"

namespace plab::bounds {

Loss hinge_loss() {
  return {"rho-hinge", [](double m, double s) { return std::max(0.0, 1.0 - m * s); },
          [](double) { return 1.0; }, [](double s, double) { return s; }};
}
Loss squared_hinge_loss() {
  return {"squared rho-hinge",
          [](double m, double s) { const double l = std::max(0.0, 1.0 - m * s); return l * l; },
          [](double) { return 1.0; }, [](double s, double r) { return 2.0 * (r * s * s + s); }};
}

MarginProfile::MarginProfile(const std::vector<double>& margins, const std::vector<double>& weights) {
  if (!weights.empty() && weights.size() != margins.size())
    throw std::invalid_argument("MarginProfile: weights and margins differ in length");
  std::vector<std::size_t> ord(margins.size());
  std::iota(ord.begin(), ord.end(), 0);
  std::stable_sort(ord.begin(), ord.end(), [&](std::size_t a, std::size_t b) { return margins[a] < margins[b]; });
  m_.reserve(ord.size());
  p0_.assign(1, 0.0); p1_.assign(1, 0.0); p2_.assign(1, 0.0);
  for (std::size_t i : ord) {
    const double m = margins[i], w = weights.empty() ? 1.0 : weights[i];
    if (!std::isfinite(m)) throw std::invalid_argument("MarginProfile: non-finite margin");
    m_.push_back(m);
    w_.push_back(w);
    p0_.push_back(p0_.back() + w);
    p1_.push_back(p1_.back() + w * m);
    p2_.push_back(p2_.back() + w * m * m);
  }
}

namespace {
// max(0, v) that keeps a NaN (std::max(0.0, NaN) is 0: an overflow would read as a zero loss,
// docs/bounds.md#non-finite).
double nonneg(double v) { return std::isnan(v) ? v : std::max(0.0, v); }
}  // namespace

std::size_t MarginProfile::active(double s) const {
  // m s < 1 is monotone along the ascending margins for s >= 0.
  const auto it = std::partition_point(m_.begin(), m_.end(), [s](double m) { return m * s < 1.0; });
  return static_cast<std::size_t>(it - m_.begin());
}
double MarginProfile::direct(double s, int power) const {
  // Neumaier summation; each loss 1 - m s is formed by one fma, so it is correctly rounded.
  double sum = 0.0, comp = 0.0;
  for (std::size_t i = 0; i < m_.size(); ++i) {
    const double l = std::fma(-m_[i], s, 1.0);
    if (!(l > 0.0)) break;  // margins ascend: every later loss is 0 as well
    const double term = w_[i] * (power == 1 ? l : l * l);
    const double t = sum + term;
    comp += std::abs(sum) >= std::abs(term) ? (sum - t) + term : (term - t) + sum;
    sum = t;
  }
  return nonneg(sum + comp);
}
double MarginProfile::l1(double s, Sum how) const {
  if (how == Sum::direct) return direct(s, 1);
  const std::size_t k = active(s);
  return nonneg(p0_[k] - s * p1_[k]);
}
double MarginProfile::l2sq(double s, Sum how) const {
  if (how == Sum::direct) return direct(s, 2);
  const std::size_t k = active(s);
  return nonneg(p0_[k] - 2.0 * s * p1_[k] + s * s * p2_[k]);
}
double MarginProfile::l2(double s, Sum how) const { return std::sqrt(l2sq(s, how)); }
double MarginProfile::min_margin() const { return m_.empty() ? kInf : m_.front(); }

std::vector<double> MarginProfile::breakpoints() const {
  std::vector<double> b;
  for (auto it = m_.rbegin(); it != m_.rend() && *it > 0.0; ++it) {
    const double v = 1.0 / *it;
    if (b.empty() || v > b.back()) b.push_back(v);
  }
  return b;
}

double default_s_max(const std::vector<double>& breaks) {
  return breaks.empty() ? 1.0 : 4.0 * breaks.back();
}

namespace {
double safe(const std::function<double(double)>& f, double s) {
  const double v = f(s);
  return std::isfinite(v) ? v : kInf;
}

// A breakpoint 1/m rounds to either side of its kink, and a search can also end a few ulps below
// it. 8 ulps above it the loss 1 - s m is 0, also at the parameter reported (c = s/||g0||, read
// back with its own rounding); where a square root of the losses starts at the kink (JMLR Thm 3's
// ||g|| sqrt(D_1)), the side below reads sqrt(1e-16) = 1e-8 above the minimum. So a minimum at or
// just below a breakpoint moves above it unless that is higher by more than rounding
// (docs/bounds.md#infimum).
Minimum above_kink(const std::function<double(double)>& f, const std::vector<double>& breaks, double s_max,
                   Minimum m) {
  const auto it = std::lower_bound(breaks.begin(), breaks.end(), m.s);
  if (it == breaks.end() || !(*it > 0.0) || m.s < *it * (1.0 - 0x1p-48)) return m;
  const double up = *it * (1.0 + 0x1p-50);  // 8 ulps
  if (!(up < s_max)) return m;
  const double v = safe(f, up);
  return v <= m.value * (1.0 + 1e-12) ? Minimum{up, v} : m;
}

}  // namespace

Minimum minimize_segments(const std::function<double(double)>& f, const std::vector<double>& breaks,
                          double s_max, bool piecewise_linear) {
  Minimum best{0.0, safe(f, 0.0)};
  const auto consider = [&](double s, double v) {
    if (v < best.value) best = {s, v};
  };
  std::vector<double> pts{0.0};
  for (double b : breaks)
    if (b > 0.0 && b < s_max) pts.push_back(b);
  pts.push_back(s_max);
  for (std::size_t i = 1; i < pts.size(); ++i) consider(pts[i], safe(f, pts[i]));
  if (piecewise_linear) return above_kink(f, breaks, s_max, best);
  // Brent inside every segment. Boost caps the requested bits at digits/2 = 26 for double
  // (below that, f cannot resolve the argument: near a smooth minimum f(s*(1+e)) - f(s*) ~ e^2,
  // under the rounding of f for e < 2^-26). So the argmin is found to about 2^-26 relative and
  // its value to O(2^-52) relative on a smooth segment; a looser argmin only makes the reported
  // bound looser, never invalid (docs/bounds.md#infimum).
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const double a = pts[i], b = pts[i + 1];
    if (!(b > a)) continue;
    std::uintmax_t iters = 60;
    const auto r = boost::math::tools::brent_find_minima([&](double s) { return safe(f, s); }, a, b, 26, iters);
    consider(r.first, r.second);
  }
  // Samples, then Brent between the neighbours of the lowest: every segment's midpoint, 401
  // log-spaced points from s_max down to 1e-6 s_max and 101 evenly spaced ones. Nothing changes
  // where f is quasi-convex on each segment; Projectron++ JMLR Thm 4 is not (its square root
  // switches on inside a segment), and one Brent run there can miss the lower side
  // (docs/bounds.md#infimum).
  std::vector<double> smp(pts);
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) smp.push_back(0.5 * (pts[i] + pts[i + 1]));
  for (int i = 0; i <= 400 && std::isfinite(s_max); ++i) smp.push_back(s_max * std::pow(1e-6, i / 400.0));
  for (int i = 1; i <= 100 && std::isfinite(s_max); ++i) smp.push_back(s_max * i / 100.0);
  std::sort(smp.begin(), smp.end());
  smp.erase(std::unique(smp.begin(), smp.end()), smp.end());
  std::size_t low = 0;
  double low_v = kInf;
  for (std::size_t i = 0; i < smp.size(); ++i) {
    const double v = safe(f, smp[i]);
    consider(smp[i], v);
    if (v < low_v) { low_v = v; low = i; }
  }
  const double a = smp[low > 0 ? low - 1 : 0], b = smp[std::min(low + 1, smp.size() - 1)];
  if (std::isfinite(low_v) && b > a) {
    std::uintmax_t iters = 60;
    const auto r = boost::math::tools::brent_find_minima([&](double s) { return safe(f, s); }, a, b, 26, iters);
    consider(r.first, r.second);
  }
  return above_kink(f, breaks, s_max, best);
}

Minimum polish_minimum(const BoundFn& f, const std::vector<double>& breaks, double s_max, Minimum m) {
  const auto direct = [&](double s) { return safe([&](double x) { return f(x, Sum::direct); }, s); };
  m.value = direct(m.s);
  const auto consider = [&](double s, double v) {
    if (v < m.value * (1.0 - 1e-10)) m = {s, v};
  };
  // Brent again only where the prefix values disagree with the direct ones (cost O(n) per
  // evaluation); where they agree the prefix search was already exact.
  const auto inexact = [&](double s) {
    const double p = safe([&](double x) { return f(x, Sum::prefix); }, s), d = direct(s);
    return std::isfinite(d) && !(std::abs(p - d) <= 1e-12 * std::abs(d));
  };
  // Around the argmin: the breakpoints strictly below and above it (0 and s_max at the ends)
  // and Brent between them; again around a moved argmin (it may have moved onto a breakpoint
  // whose other side is lower), a few times at most.
  for (int round = 0; round < 4; ++round) {
    const double s0 = m.s;
    const auto hi_it = std::upper_bound(breaks.begin(), breaks.end(), m.s);
    auto lo_it = std::lower_bound(breaks.begin(), breaks.end(), m.s);
    const double lo = lo_it == breaks.begin() ? 0.0 : *(--lo_it);
    const double hi = hi_it == breaks.end() ? s_max : std::min(*hi_it, s_max);
    const bool refine = inexact(m.s) || inexact(lo) || inexact(hi);
    consider(lo, direct(lo));
    if (hi > lo) consider(hi, direct(hi));
    if (hi > lo && refine) {
      std::uintmax_t iters = 60;
      const auto r = boost::math::tools::brent_find_minima(direct, lo, hi, 26, iters);
      consider(r.first, r.second);
    }
    if (m.s == s0) break;
  }
  return above_kink(direct, breaks, s_max, m);
}

GridCheck check_grid(const BoundFn& f, const std::vector<double>& breaks, double s_max, double M) {
  GridCheck g{true, 0.0, kInf};
  const auto probe = [&](double s) {
    double v = f(s, Sum::prefix);
    if (!within(M, v)) v = f(s, Sum::direct);  // the prefix form may have cancelled
    if (std::isnan(v)) return;
    if (v < g.worst_value) { g.worst_value = v; g.worst_s = s; }
    if (!within(M, v)) g.holds = false;
  };
  probe(0.0);
  for (double b : breaks) if (b <= s_max) probe(b);
  const double lo = breaks.empty() ? s_max * 1e-4 : std::min(breaks.front(), s_max) * 1e-2;
  const int n = 200;
  for (int i = 0; i <= n; ++i) probe(lo * std::pow(s_max / lo, static_cast<double>(i) / n));
  return g;
}

}  // namespace plab::bounds
