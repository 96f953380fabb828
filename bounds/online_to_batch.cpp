#include "bounds/online_to_batch.hpp"

#include <cmath>
#include <stdexcept>

namespace plab::bounds {

namespace {
void check(std::size_t T, double delta) {
  if (T == 0) throw std::invalid_argument("online-to-batch: T must be >= 1");
  if (!(delta > 0.0 && delta < 1.0)) throw std::invalid_argument("online-to-batch: delta must be in (0,1)");
}
}  // namespace

double o2b_deviation(std::size_t T, double delta) {
  check(T, delta);
  const double t = static_cast<double>(T);
  return 6.0 * std::sqrt(std::log(2.0 * (t + 1.0) / delta) / t);  // CCG 2004; docs/bounds.md#online-to-batch
}

double o2b_penalty(std::size_t T, std::size_t i, double delta) {
  check(T, delta);
  if (i < 1 || i > T) throw std::invalid_argument("online-to-batch: i must be in [1,T]");
  const double t = static_cast<double>(T), n = static_cast<double>(T - i + 1);
  return std::sqrt(std::log(t * (t + 1.0) / delta) / (2.0 * n));  // docs/bounds.md#online-to-batch selection rule
}

O2BSelection o2b_select(std::size_t T, double delta,
                        const std::function<double(std::size_t, std::size_t)>& loss) {
  check(T, delta);
  O2BSelection best{0, INFINITY, 0.0};
  for (std::size_t i = 1; i <= T; ++i) {
    double sum = 0.0;
    for (std::size_t t = i; t <= T; ++t) {
      const double l = loss(i, t);
      if (!(l >= 0.0 && l <= 1.0)) throw std::invalid_argument("online-to-batch: losses must lie in [0,1]");
      sum += l;
    }
    const double emp = sum / static_cast<double>(T - i + 1);
    const double crit = emp + o2b_penalty(T, i, delta);
    if (crit < best.criterion) best = {i, crit, emp};
  }
  return best;
}

}  // namespace plab::bounds
