// Random Fourier features of the Gaussian kernel k(x,x') = exp(-gamma ||x - x'||^2)
// = E_u[cos(u.(x - x'))], u ~ N(0, 2 gamma I) (Rahimi, Recht, NIPS 2007): D frequencies
// u_1..u_D and the unnormalised map of FOGD (Lu et al., JMLR 2016, Algorithm 1)
//   z(x) = (cos(u_1.x), ..., cos(u_D.x), sin(u_1.x), ..., sin(u_D.x)),   z(x).z(x') = sum_i cos(u_i.(x - x'))
// so z(x).z(x')/D estimates k(x,x'). The frequencies are drawn from the seed feature by feature:
// column j of U (u_1[j] .. u_D[j]) is D normals of Rng(derive_seed(seed, j)), drawn the first time
// an input has feature j, so U is the same for any input dimension and order. One map is the
// learner's (algorithms/fogd.hpp) and, built from the same (gamma, D, seed), the comparator's
// (bounds/comparator.hpp, make_feature_comparator): the same z bit for bit. cos and sin are our
// own (numerics/fast_trig.hpp, within 0.7 ulp), not libm's (docs/learners.md#fogd).
// Not thread-safe (the columns are drawn lazily, the chains kept in a scratch): each user owns its map.
#pragma once
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/random.hpp"
#include "datasets/dataset.hpp"
#include "numerics/fast_trig.hpp"

namespace plab {

class FourierFeatures {
 public:
  FourierFeatures(double gamma, std::size_t D, uint64_t seed) : gamma_(gamma), D_(D), seed_(seed) {}

  std::size_t frequencies() const { return D_; }
  // z = z(x), 2D values; u.x is the chain over x's features in order, cos and sin are
  // numerics/fast_trig.hpp's (the same bits on every vector path). No allocation once z and the
  // scratch have their size.
  void map(const Example& x, std::vector<double>& z) const {
    d_.assign(D_, 0.0);
    double* d = d_.data();
    for (std::size_t k = 0; k < x.idx.size(); ++k) {
      const double* u = column(x.idx[k]);
      const double v = x.val[k];
      for (std::size_t i = 0; i < D_; ++i) d[i] += v * u[i];
    }
    z.resize(2 * D_);
    sincos_array(d, D_, z.data(), z.data() + D_);
  }

 private:
  const double* column(uint32_t j) const {
    if (j >= U_.size()) U_.resize(static_cast<std::size_t>(j) + 1);
    if (!U_[j]) {
      Rng rng(derive_seed(seed_, j));
      const double sd = std::sqrt(2.0 * gamma_);
      U_[j] = std::make_unique<std::vector<double>>(D_);
      for (double& v : *U_[j]) v = sd * rng.normal();
    }
    return U_[j]->data();
  }

  double gamma_;
  std::size_t D_;
  uint64_t seed_;
  mutable std::vector<std::unique_ptr<std::vector<double>>> U_;  // U_[j]: feature j's frequencies
  mutable std::vector<double> d_;  // scratch: the D chains u_i.x
};

}  // namespace plab
