#include "bounds/comparator.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "algorithms/perceptron.hpp"
#include "bounds/comparator_rounding.hpp"
#include "core/option_decl.hpp"
#include "core/random.hpp"
#include "numerics/fourier_features.hpp"
#include "numerics/support_set.hpp"

namespace plab {
namespace {

double dense_dot(const std::vector<double>& w, const Example& x) {
  double s = 0.0;
  for (std::size_t k = 0; k < x.idx.size(); ++k)
    if (x.idx[k] < w.size()) s += w[x.idx[k]] * x.val[k];
  return s;
}

// Every comparator's scores are lower margin scores and its norm an upper bound
// (bounds/comparator_rounding.hpp, docs/bounds.md#comparator-rounding).

// w.x with its error bound gamma_nnz sum |w_j x_j|.
double dense_dot_error(const std::vector<double>& w, const Example& x) {
  double a = 0.0;
  for (std::size_t k = 0; k < x.idx.size(); ++k)
    if (x.idx[k] < w.size()) a += std::abs(w[x.idx[k]] * x.val[k]);
  return rounding::gamma(static_cast<double>(x.idx.size())) * a;
}

// normalise: the scores of w/||w||, norm 1.
Comparator linear_scores(const std::string& name, const std::vector<double>& w, const Dataset& data,
                         const std::vector<std::size_t>& order, bool normalise) {
  double n2 = 0.0;
  for (double v : w) n2 += v * v;
  const double n2_err = rounding::gamma(static_cast<double>(w.size() + 1)) * n2;  // positive terms
  const double n = std::sqrt(n2), n_hi = rounding::upper_norm(n2, n2_err);
  const bool unit = normalise && n > 0;
  Comparator c{name, unit ? 1.0 : n_hi, {}};
  c.scores.reserve(order.size());
  for (std::size_t i : order) {
    const Example x = data[i];
    const double v = dense_dot(w, x), e = dense_dot_error(w, x);
    // (y v - e)/n_hi <= y w.x/||w||: the unit score of the lower margin score, and its division's slack
    c.scores.push_back(unit ? rounding::lower_margin_score(rounding::lower_margin_score(v, e, x.y) / n_hi, 0.0, x.y)
                            : rounding::lower_margin_score(v, e, x.y));
  }
  return c;
}

// f(x) = alpha . k_x with its error bound (rounding::expansion_error).
double expansion_score(const KernelExpansion& f, const Example& x, std::vector<double>& row, double sq_max,
                       double nnz_max, double sum_abs_alpha, double& err) {
  const std::size_t n = f.size();
  row.resize(n);
  if (n) f.sv.kernel_row(f.kernel, x, row.data());
  double v = 0.0, a = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = f.alpha[i] * row[i];
    v += t;
    a += std::abs(t);
  }
  const auto ke = rounding::kernel_value_error(f.kernel, sq_max, x.sqnorm, nnz_max + static_cast<double>(x.idx.size()));
  err = rounding::expansion_error(ke, static_cast<double>(n), a, sum_abs_alpha);
  return v;
}

}  // namespace

Comparator expansion_comparator(const std::string& name, const KernelExpansion& f, const Dataset& data,
                                const std::vector<std::size_t>& order) {
  double sq_max = 0.0, nnz_max = 0.0, sum_abs = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    sq_max = std::max(sq_max, f.sv.sqnorm(i));
    nnz_max = std::max(nnz_max, static_cast<double>(f.sv.row(i).idx.size()));
    sum_abs += std::abs(f.alpha[i]);
  }
  // ||f||^2 = sum_i alpha_i f(s_i): each f(s_i) errs by e_i, the sum by gamma_n sum |alpha_i f(s_i)|.
  std::vector<double> row;
  double n2 = 0.0, a2 = 0.0, e2 = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    double ei = 0.0;
    const double t = f.alpha[i] * expansion_score(f, f.sv.row(i), row, sq_max, nnz_max, sum_abs, ei);
    n2 += t;
    a2 += std::abs(t);
    e2 += std::abs(f.alpha[i]) * ei;
  }
  Comparator c{name, rounding::upper_norm(n2, rounding::gamma(static_cast<double>(f.size())) * a2 + e2), {}};
  c.scores.reserve(order.size());
  for (std::size_t i : order) {
    const Example x = data[i];
    double e = 0.0;
    const double v = expansion_score(f, x, row, sq_max, nnz_max, sum_abs, e);
    c.scores.push_back(rounding::lower_margin_score(v, e, x.y));
  }
  return c;
}

namespace {

// g0 = f mapped into the random-feature space of z: u0 = sum_i alpha_i z(s_i)/D, scores u0.z(x_t),
// norm ||u0|| (docs/bounds.md#fogd-comparator). u0 is the comparator, whatever rounding formed it,
// and z the learner's own map: the scores err by their dot product's gamma_2D sum |u_j z_j|.
Comparator feature_scores(const std::string& name, const KernelExpansion& f, const Dataset& data,
                          const std::vector<std::size_t>& order, const FourierFeatures& z) {
  const double D = static_cast<double>(z.frequencies());
  std::vector<double> u(2 * z.frequencies(), 0.0), zx;
  for (std::size_t i = 0; i < f.size(); ++i) {
    z.map(f.sv.row(i), zx);
    for (std::size_t j = 0; j < u.size(); ++j) u[j] += f.alpha[i] / D * zx[j];
  }
  double n2 = 0.0;
  for (double v : u) n2 += v * v;
  const double g2D = rounding::gamma(static_cast<double>(u.size()));
  Comparator c{name + " in FOGD's features",
               rounding::upper_norm(n2, rounding::gamma(static_cast<double>(u.size() + 1)) * n2), {}};
  c.scores.reserve(order.size());
  for (std::size_t t : order) {
    z.map(data[t], zx);
    double s = 0.0, a = 0.0;
    for (std::size_t j = 0; j < u.size(); ++j) {
      s += u[j] * zx[j];
      a += std::abs(u[j] * zx[j]);
    }
    c.scores.push_back(rounding::lower_margin_score(s, g2D * a, data[t].y));
  }
  return c;
}

// Dual coordinate descent for min_w (1/2)||w||^2 + C sum max(0, 1 - y w.x) (L1-loss SVM, no
// bias; Hsieh, Chang, Lin, Keerthi, Sathiyamoorthi, ICML 2008, Algorithm 1) on a Gram matrix Q
// with Q_ij = y_i y_j K_ij. Returns alpha in [0, C].
Eigen::VectorXd svm_dual_cd(const Eigen::MatrixXd& Q, double C, Rng& rng) {
  const auto n = Q.rows();
  Eigen::VectorXd alpha = Eigen::VectorXd::Zero(n), grad = -Eigen::VectorXd::Ones(n);  // grad = Q a - 1
  for (int epoch = 0; epoch < 300; ++epoch) {
    double pg_max = -INFINITY, pg_min = INFINITY;
    for (std::size_t idx : rng.permutation(static_cast<std::size_t>(n))) {
      const auto i = static_cast<Eigen::Index>(idx);
      const double g = grad[i];
      double pg = g;
      if (alpha[i] <= 0.0) pg = std::min(g, 0.0);
      else if (alpha[i] >= C) pg = std::max(g, 0.0);
      pg_max = std::max(pg_max, pg);
      pg_min = std::min(pg_min, pg);
      if (pg == 0.0 || Q(i, i) <= 0.0) continue;
      const double old = alpha[i];
      alpha[i] = std::clamp(old - g / Q(i, i), 0.0, C);
      const double d = alpha[i] - old;
      if (d != 0.0) grad.noalias() += d * Q.col(i);
    }
    if (pg_max - pg_min < 1e-3) break;  // projected-gradient stopping rule (LIBLINEAR, eps = 1e-3)
  }
  return alpha;
}

Comparator linear_svm(const Dataset& data, const std::vector<std::size_t>& order, double C, uint64_t seed) {
  // Primal-dual CD keeps w = sum alpha_i y_i x_i; O(nnz) per coordinate.
  std::vector<double> w(data.dim, 0.0), alpha(order.size(), 0.0);
  Rng rng(seed);
  for (int epoch = 0; epoch < 1000; ++epoch) {
    double pg_max = -INFINITY, pg_min = INFINITY;
    for (std::size_t p : rng.permutation(order.size())) {
      const Example x = data[order[p]];
      if (x.sqnorm <= 0.0) continue;
      const double g = x.y * dense_dot(w, x) - 1.0;
      double pg = g;
      if (alpha[p] <= 0.0) pg = std::min(g, 0.0);
      else if (alpha[p] >= C) pg = std::max(g, 0.0);
      pg_max = std::max(pg_max, pg);
      pg_min = std::min(pg_min, pg);
      if (pg == 0.0) continue;
      const double old = alpha[p];
      alpha[p] = std::clamp(old - g / x.sqnorm, 0.0, C);
      const double d = (alpha[p] - old) * x.y;
      for (std::size_t k = 0; k < x.idx.size(); ++k) w[x.idx[k]] += d * x.val[k];
    }
    if (pg_max - pg_min < 1e-3) break;
  }
  return linear_scores("svm", w, data, order, true);
}

// The kernel SVM's g0 = sum beta_j k(z_j,.) on its subsample (docs/bounds.md#comparator item 3).
KernelExpansion kernel_svm(const Dataset& data, const std::vector<std::size_t>& order, const Kernel& k, double C,
                           uint64_t seed) {
  Rng rng(seed);
  std::vector<std::size_t> sub = order;
  if (sub.size() > kSvmSubsample) {
    const auto perm = rng.permutation(sub.size());
    std::vector<std::size_t> pick;
    for (std::size_t i = 0; i < kSvmSubsample; ++i) pick.push_back(order[perm[i]]);
    std::sort(pick.begin(), pick.end());
    sub = pick;
  }
  const auto n = static_cast<Eigen::Index>(sub.size());
  KernelExpansion all(k, data.dim);
  for (std::size_t i = 0; i < sub.size(); ++i) all.add(data[sub[i]], static_cast<int64_t>(i), 0.0);
  Eigen::MatrixXd Q(n, n);
  std::vector<double> row(sub.size());
  for (Eigen::Index i = 0; i < n; ++i) {
    const Example xi = data[sub[static_cast<std::size_t>(i)]];
    all.sv.kernel_row(k, xi, row.data());
    for (Eigen::Index j = 0; j < n; ++j)
      Q(i, j) = xi.y * data.y[sub[static_cast<std::size_t>(j)]] * row[static_cast<std::size_t>(j)];
  }
  const Eigen::VectorXd alpha = svm_dual_cd(Q, C, rng);
  KernelExpansion g(k, data.dim);
  for (Eigen::Index i = 0; i < n; ++i)
    if (alpha[i] > 0.0) {
      const Example xi = data[sub[static_cast<std::size_t>(i)]];
      g.add(xi, static_cast<int64_t>(i), alpha[i] * xi.y);  // beta_i = alpha_i y_i
    }
  return g;
}

// The final hypothesis of `epochs` kernel Perceptron passes over the run order.
KernelExpansion multipass_expansion(const Dataset& data, const std::vector<std::size_t>& order, const Kernel& k,
                                    int epochs) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = data.dim;
  KernelPerceptron p(o);
  for (int e = 0; e < epochs; ++e)
    for (std::size_t t = 0; t < order.size(); ++t) p.learn(data[order[t]], static_cast<int64_t>(t + 1));
  return *p.expansion();
}

Comparator multipass(const Dataset& data, const std::vector<std::size_t>& order, const Kernel& k, int epochs) {
  LearnerOptions o;
  o.kernel = k;
  o.dim = data.dim;
  if (k.type == Kernel::Type::linear) {
    PrimalPerceptron p(o);
    for (int e = 0; e < epochs; ++e)
      for (std::size_t t = 0; t < order.size(); ++t) p.learn(data[order[t]], static_cast<int64_t>(t + 1));
    return linear_scores("multipass", p.weights(), data, order, false);
  }
  return expansion_comparator("multipass", multipass_expansion(data, order, k, epochs), data, order);
}

// The data with its features renumbered 0..m-1 in ascending order (m distinct features): a
// linear comparator's dense w then takes 8 m bytes instead of 8 dim (a 5-row file with index 10^7
// would need 80 MB). The renumbering keeps every row's order, and w_j = 0 terms add nothing, so
// w's values, scores and norm have the same bits (docs/learners.md#layout).
Dataset compact_features(const Dataset& data) {
  std::vector<uint32_t> feats(data.idx.begin(), data.idx.end());
  std::sort(feats.begin(), feats.end());
  feats.erase(std::unique(feats.begin(), feats.end()), feats.end());
  std::vector<uint32_t> idx(data.idx.begin(), data.idx.end());
  for (auto& j : idx)
    j = static_cast<uint32_t>(std::lower_bound(feats.begin(), feats.end(), j) - feats.begin());
  Dataset c = data;  // rowptr and val shared when borrowed; idx owned
  c.idx = std::move(idx);
  c.dim = feats.size();
  c.truth.clear();
  return c;
}

// Renumbers when the dense w would outweigh the data's own non-zeros.
bool worth_compacting(const Dataset& data) { return data.dim > data.idx.size(); }

}  // namespace

const std::vector<OptionDecl>& comparator_options() {
  using T = OptionDecl::Type;
  const std::string g = "Comparator options";
  static const std::vector<OptionDecl> v = {
      declare("comparator", g, "comparator", T::text, kDefaultComparator, {},
              "Comparator for the bounds: auto (truth on synthetic linear data, else svm) | truth | svm | multipass | zero",
              {}, {"auto", "truth", "svm", "multipass", "zero"}),
      declare("comparator", g, "svm_C", T::real, kDefaultSvmC, {"auto", "svm"}, "C of the hinge-loss SVM comparator",
              above(0)),
      declare("comparator", g, "comparator_seed", T::count, nullptr, {"auto", "svm"},
              "Seed of the SVM comparator's subsample (default: the --shuffle seed, 0 in file order; a reproduce "
              "cell uses its permutation seed)"),
  };
  return v;
}

std::string resolve_comparator(const std::string& kind, const Dataset& data, const Kernel& k) {
  if (kind != "auto") return kind;
  if (data.multiclass()) return "svm";
  return !data.truth.empty() && k.type == Kernel::Type::linear ? "truth" : "svm";
}

Comparator make_comparator(const std::string& kind, const Dataset& data, const std::vector<std::size_t>& order,
                           const Kernel& k, double C_svm, uint64_t seed) {
  for (std::size_t i : order)
    if (i >= data.size()) throw std::invalid_argument("make_comparator: order index out of range");
  if (kind == "zero") return {"zero", 0.0, std::vector<double>(order.size(), 0.0)};
  // The rules of a kind and its options are the configuration step's (configure_comparator): what
  // is left here are the preconditions of the computation, for a caller that skipped it.
  if (kind == "truth") {
    if (k.type != Kernel::Type::linear || data.truth.empty())
      throw std::invalid_argument("make_comparator: truth needs the linear kernel and data with a generating hyperplane");
    return linear_scores("truth", data.truth, data, order, false);
  }
  if (kind == "svm") {
    if (!(C_svm > 0.0)) throw std::invalid_argument("make_comparator: C_svm must be > 0");
    if (k.type != Kernel::Type::linear) return expansion_comparator("svm", kernel_svm(data, order, k, C_svm, seed), data, order);
    return worth_compacting(data) ? linear_svm(compact_features(data), order, C_svm, seed)
                                  : linear_svm(data, order, C_svm, seed);
  }
  if (kind == "multipass")
    return k.type == Kernel::Type::linear && worth_compacting(data) ? multipass(compact_features(data), order, k, 5)
                                                                    : multipass(data, order, k, 5);
  throw std::invalid_argument("make_comparator: unknown kind '" + kind + "' (expected truth, svm, multipass, zero)");
}

Comparator make_feature_comparator(const std::string& kind, const Dataset& data, const std::vector<std::size_t>& order,
                                   const Kernel& k, const FourierFeatures& z, double C_svm, uint64_t seed) {
  for (std::size_t i : order)
    if (i >= data.size()) throw std::invalid_argument("make_comparator: order index out of range");
  if (kind == "zero") return {"zero", 0.0, std::vector<double>(order.size(), 0.0)};
  if (k.type == Kernel::Type::linear || (kind != "svm" && kind != "multipass"))  // its learner's kernel is Gaussian
    throw std::invalid_argument("make_feature_comparator: svm, multipass or zero on a Gaussian kernel, not " + kind);
  if (kind == "svm") {
    if (!(C_svm > 0.0)) throw std::invalid_argument("make_feature_comparator: C_svm must be > 0");
    return feature_scores("svm", kernel_svm(data, order, k, C_svm, seed), data, order, z);
  }
  return feature_scores("multipass", multipass_expansion(data, order, k, 5), data, order, z);
}

}  // namespace plab
