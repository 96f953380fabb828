// synthetic:margins — sequences with a prescribed margin structure for the L1-vs-L2 figure T3
// (docs/bounds.md#ordering: MR (4) and (8) are not ordered at a fixed rho; many small hinge losses
// favour (8), one big loss favours (4)).
//
// synthetic:margins:n=N,d=D,rho=RHO,r=R,small=S,eps=E,wrong=W,depth=DP,seed=SEED
//   u = d normals normalised; point i (before the final shuffle) has label y = ±1 (one uniform)
//   and comparator margin y<u,x> = m_i:
//     i < S              m = rho (1 - eps)        (loss eps at rho: "many small losses")
//     S <= i < S + W     m = -depth               (loss 1 + depth/rho: "one big loss")
//     i = S + W          m = rho                  (the bulk's margin is attained)
//     otherwise          m = rho + (r - rho) t,   t uniform
//   plus, for d >= 2, a component orthogonal to u of length sqrt(r^2 - m^2) * uniform, so
//   ||x|| <= r. Draw order per point: y, t, then d normals and one uniform (d >= 2). Finally a
//   seeded permutation sets the order. truth = u (comparator "truth").
#include <cmath>
#include <stdexcept>

#include "core/random.hpp"
#include "datasets/synthetic.hpp"

namespace plab {

Dataset make_margins(std::size_t n, std::size_t d, double rho, double r, std::size_t small, double eps,
                     std::size_t wrong, double depth, uint64_t seed) {
  if (n == 0) throw std::invalid_argument("n must be >= 1");
  if (d == 0) throw std::invalid_argument("d must be >= 1");
  if (!(r > 0.0) || !std::isfinite(r)) throw std::invalid_argument("r must be > 0");
  if (!(rho > 0.0 && rho <= r)) throw std::invalid_argument("rho must be in (0, r]");
  if (!(eps >= 0.0 && eps <= 1.0)) throw std::invalid_argument("eps must be in [0, 1]");
  if (!(depth >= 0.0 && depth <= r)) throw std::invalid_argument("depth must be in [0, r]");
  if (small + wrong >= n) throw std::invalid_argument("small + wrong must be < n");
  Rng rng(seed);
  std::vector<double> u(d);
  double s2 = 0.0;
  for (auto& v : u) { v = rng.normal(); s2 += v * v; }
  for (auto& v : u) v /= std::sqrt(s2);
  std::vector<std::vector<double>> xs(n, std::vector<double>(d));
  std::vector<double> ys(n);
  std::vector<double> g(d);
  for (std::size_t i = 0; i < n; ++i) {
    const double y = rng.uniform() < 0.5 ? 1.0 : -1.0;
    const double t = rng.uniform();
    double m = rho + (r - rho) * t;
    if (i < small) m = rho * (1.0 - eps);
    else if (i < small + wrong) m = -depth;
    else if (i == small + wrong) m = rho;
    auto& x = xs[i];
    for (std::size_t k = 0; k < d; ++k) x[k] = y * m * u[k];
    if (d >= 2) {
      double c = 0.0, gn = 0.0;
      for (auto& v : g) v = rng.normal();
      for (std::size_t k = 0; k < d; ++k) c += g[k] * u[k];
      for (std::size_t k = 0; k < d; ++k) { g[k] -= c * u[k]; gn += g[k] * g[k]; }
      const double len = std::sqrt(std::max(0.0, r * r - m * m)) * rng.uniform();
      for (std::size_t k = 0; k < d; ++k) x[k] += len * g[k] / std::sqrt(gn);
    }
    ys[i] = y;
  }
  const auto perm = rng.permutation(n);
  Dataset ds;
  ds.name = "synthetic:margins";
  for (std::size_t t = 0; t < n; ++t) ds.push_dense(xs[perm[t]], ys[perm[t]]);
  ds.truth = u;
  return ds;
}


}  // namespace plab
