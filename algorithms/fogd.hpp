// FOGD, Fourier Online Gradient Descent (Lu, Hoi, Wang, Zhao, Liu, JMLR 17 (2016), "Large Scale
// Online Kernel Learning", Sec. 4.1, Algorithm 1; docs/learners.md#fogd). Random Fourier features
// of the Gaussian kernel k(x,x') = exp(-gamma ||x - x'||^2) = E_u[cos(u.(x - x'))], u ~ N(0, 2 gamma I)
// (Rahimi, Recht 2007): D frequencies u_1..u_D and the map
//   z(x) = (cos(u_1.x), ..., cos(u_D.x), sin(u_1.x), ..., sin(u_D.x))   (unnormalised, as Algorithm 1)
// then online gradient descent on the hinge loss in R^{2D}: f(x) = w.z(x); on y s < 1, w += eta y z(x).
// Not a kernel expansion: the state is w (support_size 0). The frequencies are drawn from the seed
// feature by feature: column j of U (u_1[j] .. u_D[j]) is D normals of Rng(derive_seed(seed, j)),
// drawn the first time an input has feature j, so U is the same for any input dimension and order.
// Only the Gaussian kernel is taken (the registry refuses the others).
#pragma once
#include <cmath>
#include <memory>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/random.hpp"

namespace plab {

inline const std::vector<OptionInfo>& fogd_options() {
  static const std::vector<OptionInfo> v = {
      learner_option("FOGD options", "features", &LearnerOptions::features,
                     "FOGD: D random Fourier frequencies (2D features)", at_least(1)),
  };
  return v;
}

class FourierOnlineGradientDescent final : public Learner {
 public:
  explicit FourierOnlineGradientDescent(const LearnerOptions& o)
      : kernel_(o.kernel), D_(o.features), eta_(o.ogd_eta), seed_(o.seed), w_(2 * o.features, 0.0) {}

  double score(const Example& x) const override {
    map(x);
    return dot_w();
  }
  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r;
    r.t = t; r.y = x.y; r.kxx = kernel_.self(x.sqnorm);
    r.score = score(x);
    r.mistake = x.y * r.score <= 0.0;
    const double ys = x.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (ys < 1.0) {  // Algorithm 1: w <- w - eta grad l, l = max(0, 1 - y w.z)
      const double a = eta_ * x.y;
      for (std::size_t i = 0; i < w_.size(); ++i) w_[i] += a * z_[i];
      norm2_ = norm2_exact();
      r.coef = a;
      r.eta_t = eta_;
      r.update = UpdateKind::update;
    }
    r.support_size = 0;
    r.f_norm2 = norm2_;
    return r;
  }
  std::size_t support_size() const override { return 0; }
  // ||w||^2, the norm in the random-feature space (not the RKHS norm of the exact kernel).
  double norm2() const override { return norm2_; }
  double norm2_exact() const override {
    double s = 0.0;
    for (double v : w_) s += v * v;
    return s;
  }
  // w and its norm; the frequencies follow from the seed.
  void save_state(StateWriter& w) const override {
    w.put("w", w_);
    w.put_one("norm2", norm2_);
  }
  void load_state(const StateReader& r) override {
    w_ = r.get<double>("w", 2 * D_);
    for (double v : w_) require_state(std::isfinite(v), "w: a non-finite weight");
    norm2_ = r.get_one<double>("norm2");
  }

 private:
  // z_ = z(x); u.x is the chain over x's features in order.
  void map(const Example& x) const {
    std::vector<double> d(D_, 0.0);
    for (std::size_t k = 0; k < x.idx.size(); ++k) {
      const double* u = column(x.idx[k]);
      for (std::size_t i = 0; i < D_; ++i) d[i] += x.val[k] * u[i];
    }
    z_.resize(2 * D_);
    for (std::size_t i = 0; i < D_; ++i) {
      z_[i] = std::cos(d[i]);
      z_[D_ + i] = std::sin(d[i]);
    }
  }
  double dot_w() const {
    double s = 0.0;
    for (std::size_t i = 0; i < w_.size(); ++i) s += w_[i] * z_[i];
    return s;
  }
  const double* column(uint32_t j) const {
    if (j >= U_.size()) U_.resize(static_cast<std::size_t>(j) + 1);
    if (!U_[j]) {
      Rng rng(derive_seed(seed_, j));
      const double sd = std::sqrt(2.0 * kernel_.gamma);
      U_[j] = std::make_unique<std::vector<double>>(D_);
      for (double& v : *U_[j]) v = sd * rng.normal();
    }
    return U_[j]->data();
  }

  Kernel kernel_;
  std::size_t D_;
  double eta_;
  uint64_t seed_;
  std::vector<double> w_;
  double norm2_ = 0.0;
  mutable std::vector<std::unique_ptr<std::vector<double>>> U_;  // U_[j]: feature j's frequencies
  mutable std::vector<double> z_;
};

}  // namespace plab
