#include "algorithms/fast_exp.hpp"

#include <cmath>

namespace plab {
void rbf_from_dots(double gamma, double xs, const double* __restrict sq, double* __restrict out,
                   std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const double d2 = sq[i] + xs - 2.0 * out[i];
    out[i] = std::exp(-gamma * (d2 > 0.0 ? d2 : 0.0));  // clamp round-off below zero
  }
}
}  // namespace plab
