// Rounding of a comparator's scores and norm (docs/bounds.md#comparator-rounding).
//
// A comparator is computed in floating point: its scores g(x_t) and its norm ||g|| carry rounding
// errors, and where the sums cancel (a Perceptron comparator on a rank-one kernel, whose +-alpha
// terms nearly annul) a computed margin y g(x_t)/||g|| can exceed the exact one, even exceed
// Cauchy-Schwarz's sqrt(k(x_t,x_t)). A bound that is tight for the exact comparator then reads
// below M. So every comparator bounds its own errors (first order in the unit roundoff u, times 2
// for the dropped higher-order terms), moves each score by its bound towards the wrong side of the
// label and raises the norm by its own: every margin the bounds read is then at most the exact
// one, and every bound, non-increasing in each margin, stays a bound.
#pragma once
#include <cmath>
#include <cstddef>

#include "numerics/kernel.hpp"

namespace plab::rounding {

inline constexpr double kUnit = 0x1p-53;  // unit roundoff of double

// gamma_n = n u / (1 - n u): the relative error of a sum or dot product of n terms (Higham, Accuracy
// and Stability of Numerical Algorithms, 2nd ed., Lemma 3.1 and Sec. 3.1).
inline double gamma(double n) { return n * kUnit / (1.0 - n * kUnit); }

// A bound on |k~(s,x) - k(s,x)| for every support s of a set: rel |k~(s,x)| + abs. k~ is the value
// computed from the dot product and the squared norms (numerics/kernel.hpp's from_dot) of x (squared
// norm sqx) and a support (squared norm at most sq_max), n their non-zeros together at most. The
// dot product errs by at most gamma_n sum |s_j x_j| <= gamma_n ||s|| ||x||; a power is correctly
// rounded (poly_pow.hpp); exp (also vectorised) is allowed 8 ulps.
struct KernelError {
  double rel = 0.0, abs = 0.0;
};
inline KernelError kernel_value_error(const Kernel& k, double sq_max, double sqx, double n) {
  const double sx = std::sqrt(sq_max * sqx), gn = gamma(n + 4);
  switch (k.type) {
    case Kernel::Type::linear: return {0.0, gn * sx};
    case Kernel::Type::poly: {  // base b = gamma <s,x> + coef0, |b| <= B; |b^p - b~^p| <= p db (B + db)^(p-1)
      const double B = std::abs(k.gamma) * sx + std::abs(k.coef0), p = k.degree;
      return {2 * kUnit, p * gn * std::pow(B * (1 + gn), p)};
    }
    case Kernel::Type::rbf:  // exponent -gamma (sqs + sqx - 2 <s,x>) errs by at most dE
      return {std::expm1(k.gamma * gn * 2 * (sq_max + sqx)) + 8 * kUnit, 0.0};
  }
  return {INFINITY, INFINITY};
}

// The error bound of a computed expansion value v = sum_i a_i k~_i over n terms: the sum's
// gamma_n sum |a_i k~_i| (= abs_terms) and the kernel values' own (sum_abs_a = sum |a_i|).
inline double expansion_error(const KernelError& ke, double n, double abs_terms, double sum_abs_a) {
  const double gn = gamma(n);
  return gn * abs_terms + (1 + gn) * (ke.rel * abs_terms + ke.abs * sum_abs_a);
}

// The computed score v with error bound e moved towards the wrong side of label y: y times the
// result is at most y g(x) exactly. The slack of this subtraction and of the bounds' later
// division by the norm, 4 u |v|, is added here.
inline double lower_margin_score(double v, double e, double y) {
  const double total = 2 * e + 4 * kUnit * std::abs(v);
  return y >= 0 ? v - total : v + total;
}

// An upper bound on sqrt(n2) for a computed squared norm n2 with absolute error bound e.
inline double upper_norm(double n2, double e) {
  const double hi = (n2 + 2 * e) * (1 + 4 * kUnit);
  return hi > 0 ? std::sqrt(hi) * (1 + 2 * kUnit) : 0.0;
}

}  // namespace plab::rounding
