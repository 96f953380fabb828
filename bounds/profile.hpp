// Loss sums of a comparator as functions of its scale, and the 1-D minimiser of
// docs/bounds.md#infimum. MarginProfile holds the unit-comparator margins m_t = y_t g0(x_t)/||g0||
// of a set of rounds (optionally weighted, e.g. by tau_t) sorted, with prefix sums, so that for
// every s >= 0 both
//   L1(s)  = sum_t w_t max(0, 1 - m_t s)      and   L2sq(s) = sum_t w_t max(0, 1 - m_t s)^2
// cost O(log n): the active terms (m_t s < 1) are a prefix of the sorted margins.
// The prefix-sum forms cancel when the active losses are small (p0 - 2 s p1 + s^2 p2 loses every
// digit when 1 - m_t s ~ 1e-8), so they only guide the search; every value that is reported or
// compared with M is evaluated with Sum::direct: compensated summation of the active losses
// (docs/bounds.md#infimum).
#pragma once
#include <functional>
#include <vector>

namespace plab::bounds {

// How a loss sum is evaluated: from the prefix sums (O(log n), may cancel) or by compensated
// summation of max(0, 1 - m_t s) over the active terms (O(n), error a few ulps of the sum).
enum class Sum { prefix, direct };

class MarginProfile {
 public:
  MarginProfile() = default;
  explicit MarginProfile(const std::vector<double>& margins, const std::vector<double>& weights = {});
  std::size_t size() const { return m_.size(); }
  double l1(double s, Sum how = Sum::prefix) const;
  double l2sq(double s, Sum how = Sum::prefix) const;
  double l2(double s, Sum how = Sum::prefix) const;
  double min_margin() const;         // +inf when empty
  // 1/m_t for the positive margins, ascending and unique: where L1/L2sq change form.
  std::vector<double> breakpoints() const;

 private:
  std::size_t active(double s) const;  // number of terms with m_t s < 1
  double direct(double s, int power) const;  // sum w_t max(0, 1 - m_t s)^power, compensated
  std::vector<double> m_, w_, p0_, p1_, p2_;  // sorted margins and weights; prefix sums of w, w m, w m^2
};

struct Minimum {
  double s = 0.0;      // argmin (0 = the trivial limit rho -> infinity / c -> 0)
  double value = 0.0;  // f(s)
};

// Global minimum of f on [0, s_max] for f quasi-convex on every segment between consecutive
// breakpoints (docs/bounds.md#infimum): f at 0, at every breakpoint and at s_max, plus Brent's method
// (Boost.Math brent_find_minima) inside each segment unless `piecewise_linear` (then the
// breakpoints are exact). Non-finite values count as +inf (outside a side condition).
Minimum minimize_segments(const std::function<double(double)>& f, const std::vector<double>& breaks,
                          double s_max, bool piecewise_linear);

// A bound as a function of s whose loss sums are evaluated as `how` says.
using BoundFn = std::function<double(double s, Sum how)>;

// The minimum `m` found with the prefix sums, evaluated with Sum::direct and refined where the
// prefix sums were too inexact to guide the search: the ends of the segment(s) around m.s, and
// a Brent search on them with direct sums where prefix and direct values differ by more than
// 1e-12 relative (docs/bounds.md#infimum). A refined point replaces m.s
// only when it is lower by more than 1e-10 relative, so on ordinary data the argmin stays the one
// of the prefix search.
Minimum polish_minimum(const BoundFn& f, const std::vector<double>& breaks, double s_max, Minimum m);

// The upper end of the search range: a few times the largest breakpoint (docs/bounds.md#infimum).
double default_s_max(const std::vector<double>& breaks);

// Consistency check of an I-restricted bound (docs/bounds.md#predictive-vs-check): f(s) >= M (with
// the suite's tolerance) at s = 0, every breakpoint and a log grid on (0, s_max]. Each point is
// probed with the prefix sums and, when that probe falls below M, evaluated again with Sum::direct,
// which decides. Returns the smallest value.
struct GridCheck {
  bool holds = true;
  double worst_s = 0.0;
  double worst_value = 0.0;
};
GridCheck check_grid(const BoundFn& f, const std::vector<double>& breaks, double s_max, double M);

// Tolerance of every "empirical <= bound" check (docs/bounds.md#tolerance).
inline bool within(double empirical, double bound) {
  return empirical <= bound * (1.0 + 1e-9) + 1e-9;
}

}  // namespace plab::bounds
