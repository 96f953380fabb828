// FOGD, Fourier Online Gradient Descent (Lu, Hoi, Wang, Zhao, Liu, JMLR 17 (2016), "Large Scale
// Online Kernel Learning", Sec. 4.1, Algorithm 1; docs/learners.md#fogd). The random Fourier map z
// of the Gaussian kernel (numerics/fourier_features.hpp: D frequencies from the seed, 2D features,
// unnormalised as Algorithm 1; cos and sin from numerics/fast_trig.hpp, not libm, so the same bits on
// every vector path and, as a change of rule, not those of earlier runs: docs/learners.md#fogd),
// then online gradient descent on the hinge loss in R^{2D}: f(x) = w.z(x); on y s < 1,
// w += eta y z(x). Not a kernel expansion: the state is w (support_size 0).
// Recorded for the bounds (docs/bounds.md#budget_ogd_all_t, in the feature space): tau = eta on a
// step and delta_norm = 0 (nothing is removed), and kxx = ||z(x)||^2 = D. Only the Gaussian kernel is taken (the registry
// refuses the others).
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/learner.hpp"
#include "numerics/fourier_features.hpp"

namespace plab {

class FourierOnlineGradientDescent final : public Learner {
 public:
  // Its options: the seed of the frequencies' draws, the step and D; the defaults are LIBOL KOL's.
  struct Options {
    std::size_t seed = 1;
    double eta = kOgdEta;
    std::size_t features = 400;
    static std::vector<OptionMember<Options>> rows() {
      return {seed_option<Options>(&Options::seed), ogd_eta_option(&Options::eta),
              {"features", &Options::features,
               "FOGD: D random Fourier frequencies (2D features; each costs 2 weights and dim + 1 map values: "
               "(dim + 3) x 8 bytes)", {1.0, 16777216.0, false, false}}};
    }
  };
  // cos and sin of one chain u_i.x (numerics/fast_trig.cpp): the reduction 6, the sine's Horner 7
  // and tail 7, the cosine's Horner 6 and tail 4, and the square 1.
  static constexpr double kSinCosOps = 31.0;
  // Its floor (docs/learners.md#floors): the map (a product a frequency and feature of a value
  // other than 1: 1 u = u, though only rows of all 1s skip the product), its cos and sin, w.z, and
  // w += eta y z on a step.
  static double floor_ops(const FloorRound& r) {
    const auto D = static_cast<double>(options_from<Options>(r.options->own).features);
    return D * (r.scaled + kSinCosOps) + 2.0 * D * (r.step ? 2.0 : 1.0);
  }
  FourierOnlineGradientDescent(const LearnerOptions& o, const Options& own)
      : D_(own.features), eta_(own.eta), z_map_(o.kernel.gamma, own.features, own.seed), w_(2 * own.features, 0.0),
        keep_norm_(o.record_norms) {}

  // The oracle's frequencies in place of the seed's (FourierFeatures::set_frequencies).
  void set_frequencies(const std::vector<std::vector<double>>& columns) { z_map_.set_frequencies(columns); }

  double score(const Example& x) const override {
    z_.resize(2 * D_);
    z_map_.map_rows(&x, 1, z_.data());
    return dot_w();
  }
  RoundRecord learn(const Example& x, int64_t t) override {
    z_.resize(2 * D_);
    z_map_.map_rows(&x, 1, z_.data());
    return learn_mapped(x, t, z_.data());
  }
  // The maps of up to kMapRows rounds at once (FourierFeatures::map_rows: the same bits), then the
  // rounds one by one.
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    constexpr std::size_t kMapRows = 16;
    zs_.resize(2 * D_ * std::min(n, kMapRows));
    for (std::size_t b = 0; b < n; b += kMapRows) {
      const std::size_t m = std::min(kMapRows, n - b);
      z_map_.map_rows(xs + b, m, zs_.data());
      for (std::size_t r = 0; r < m; ++r) {
        const int64_t t = t0 + static_cast<int64_t>(b + r);
        emplace_record(out + b + r, [&] { return learn_mapped(xs[b + r], t, zs_.data() + 2 * D_ * r); });
      }
    }
  }
  std::size_t support_size() const override { return 0; }
  // ||w||^2, the norm in the random-feature space (not the RKHS norm of the exact kernel).
  double norm2() const override { return keep_norm_ ? norm2_ : std::numeric_limits<double>::quiet_NaN(); }
  bool keeps_norm() const override { return keep_norm_; }
  double norm2_exact() const override {
    double s = 0.0;
    for (double v : w_) s += v * v;
    return s;
  }
  // w and its norm; the frequencies follow from the seed.
  void save_state(StateWriter& w) const override {
    w.put("w", std::span<const double>(w_));
    w.put_one("norm2", keep_norm_ ? norm2_ : norm2_exact());
  }
  void load_state(const StateReader& r) override {
    const std::vector<double> w = r.get<double>("w", 2 * D_);
    w_.assign(w.begin(), w.end());
    for (double v : w_) require_state(std::isfinite(v), "w: a non-finite weight");
    norm2_ = r.get_one<double>("norm2");
    require_state(norm2_ == norm2_exact(), "norm2: " + std::to_string(norm2_) + " is not ||w||^2 = " + std::to_string(norm2_exact()));
  }

 private:
  // w.z in lane sums (numerics/lane_sum.hpp, docs/learners.md#fogd): one serial chain of 2D adds
  // was a third of an a9a pass at D = 400.
  double dot_w(const double* z) const { return lane_dot(w_.data(), z, w_.size()); }
  double dot_w() const { return dot_w(z_.data()); }

  // One round on its map z = z(x).
  RoundRecord learn_mapped(const Example& x, int64_t t, const double* z) {
    RoundRecord r;
    r.t = t; r.y = x.y; r.kxx = static_cast<double>(D_);  // ||z(x)||^2 = sum cos^2 + sin^2: the space's k(x,x)
    r.score = dot_w(z);
    r.mistake = x.y * r.score <= 0.0;
    const double ys = x.y * r.score;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (ys < 1.0) {  // Algorithm 1: w <- w - eta grad l, l = max(0, 1 - y w.z)
      const double a = eta_ * x.y;
      for (std::size_t i = 0; i < w_.size(); ++i) w_[i] += a * z[i];
      if (keep_norm_) norm2_ = norm2_exact();  // O(D): only for the bounds (docs/learners.md#bookkeeping)
      r.coef = a;
      r.eta_t = eta_;
      r.tau = eta_;
      r.delta_norm = 0.0;
      r.update = UpdateKind::update;
    }
    r.support_size = 0;
    r.f_norm2 = norm2();
    return r;
  }

  std::size_t D_;
  double eta_;
  FourierFeatures z_map_;
  // w and the maps 64-byte aligned (core/huge_pages.hpp): the map's stores and w.z's loads take
  // whole cache lines (each row's cos and sin halves too when D is a multiple of 8).
  AlignedVector<double> w_;
  double norm2_ = 0.0;
  bool keep_norm_ = true;
  mutable AlignedVector<double> z_;
  AlignedVector<double> zs_;  // learn_block's maps, 2D values a row
};

}  // namespace plab
