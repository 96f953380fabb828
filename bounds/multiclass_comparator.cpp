#include "bounds/multiclass_comparator.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <utility>

#include "bounds/comparator_rounding.hpp"
#include "core/random.hpp"
#include "numerics/support_set.hpp"

namespace plab {
namespace {

using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Throws unless every round's row exists and carries a class index in [0, m).
void check_input(const Dataset& data, const std::vector<std::size_t>& order, std::size_t m) {
  if (m < 2) throw std::invalid_argument("multiclass comparator: num_classes must be >= 2 (got " + std::to_string(m) + ")");
  for (std::size_t t = 0; t < order.size(); ++t) {
    const std::size_t i = order[t];
    if (i >= data.size())
      throw std::invalid_argument("multiclass comparator: order[" + std::to_string(t) + "] = " + std::to_string(i) +
                                  " is out of range (data set has " + std::to_string(data.size()) + " rows)");
    const double y = data.y[i];
    if (!(y >= 0.0 && y < static_cast<double>(m) && y == std::floor(y)))
      throw std::invalid_argument("multiclass comparator: row " + std::to_string(i) + " has label " + std::to_string(y) +
                                  ", expected a class index in 0.." + std::to_string(m - 1));
  }
}

std::size_t label(const Dataset& data, std::size_t row) { return static_cast<std::size_t>(data.y[row]); }

// The rows of a seeded subsample of at most kSvmSubsample rounds, ascending (as the binary kernel
// SVM comparator draws it, bounds/comparator.cpp).
std::vector<std::size_t> subsample(const std::vector<std::size_t>& order, Rng& rng) {
  if (order.size() <= kSvmSubsample) {
    std::vector<std::size_t> all = order;
    std::sort(all.begin(), all.end());
    return all;
  }
  const auto perm = rng.permutation(order.size());
  std::vector<std::size_t> pick(kSvmSubsample);
  for (std::size_t i = 0; i < kSvmSubsample; ++i) pick[i] = order[perm[i]];
  std::sort(pick.begin(), pick.end());
  return pick;
}

// m_t = s_y - max_{r != y} s_r; any maximiser gives the same value, so ties need no rule.
double margin_of(const double* s, std::size_t m, std::size_t y) {
  double other = -INFINITY;
  for (std::size_t r = 0; r < m; ++r)
    if (r != y) other = std::max(other, s[r]);
  return s[y] - other;
}

// out = A B with out(i, r) = sum over k ascending of A(i, k) B(k, r), each product rounded, then
// each sum: the same bits on every machine. (Eigen's product blocks its sums by the cache sizes it
// reads from the CPU, so another machine orders them differently: R4K's comparator moved in the
// 16th digit between two machines, and the bounds optimised over it in the 9th.)
// B (the dual alpha) is sparse: a row's alpha is non-zero on its class and a few competitors, so
// only B's non-zeros are visited (n x nnz(B), not n x K x m: 500 rows x 4000 classes took 20 s).
// A skipped term a x 0 would add a zero to a sum that starts at +0, which changes no bit (and a
// non-finite a x 0, NaN, is no term of U).
template <class MA, class MB, class MO>
void fixed_product(const MA& A, const MB& B, MO& out) {
  const Eigen::Index n = A.rows(), K = A.cols(), m = B.cols();
  std::vector<std::vector<std::pair<Eigen::Index, double>>> nz(static_cast<std::size_t>(K));
  for (Eigen::Index k = 0; k < K; ++k)
    for (Eigen::Index r = 0; r < m; ++r)
      if (B(k, r) != 0.0) nz[static_cast<std::size_t>(k)].emplace_back(r, B(k, r));
  std::vector<double> acc(static_cast<std::size_t>(m));
  for (Eigen::Index i = 0; i < n; ++i) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (Eigen::Index k = 0; k < K; ++k) {
      const double a = A(i, k);
      for (const auto& [r, b] : nz[static_cast<std::size_t>(k)]) acc[static_cast<std::size_t>(r)] += a * b;
    }
    for (Eigen::Index r = 0; r < m; ++r) out(i, r) = acc[static_cast<std::size_t>(r)];
  }
}

// Rows of `rows` as a SupportSet (its columns give the fast kernel rows).
SupportSet support_of(const Dataset& data, const std::vector<std::size_t>& rows) {
  SupportSet sv(data.dim);
  sv.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) sv.add(data[rows[i]], static_cast<int64_t>(i));
  return sv;
}

// out(b, j) = k(s_j, x_{rows[b]}) for every support j, in blocks of rounds (SupportSet::kernel_rows
// loads each tile of support values once for a group of the block's rounds). Calls sink(first, count, block).
constexpr std::size_t kBlock = 64;
void kernel_blocks(const SupportSet& sv, const Kernel& k, const Dataset& data, const std::vector<std::size_t>& rows,
                   const std::function<void(std::size_t, std::size_t, const double*)>& sink) {
  std::vector<double> out(kBlock * sv.size());
  std::vector<Example> xs;
  xs.reserve(kBlock);
  for (std::size_t b = 0; b < rows.size(); b += kBlock) {
    const std::size_t cnt = std::min(kBlock, rows.size() - b);
    xs.clear();
    for (std::size_t l = 0; l < cnt; ++l) xs.push_back(data[rows[b + l]]);
    sv.kernel_rows(k, xs.data(), cnt, out.data(), sv.size());
    sink(b, cnt, out.data());
  }
}

// Gram matrix of the subsample, K(i, j) = k(x_i, x_j).
RowMat gram(const Dataset& data, const std::vector<std::size_t>& rows, const Kernel& k) {
  const SupportSet sv = support_of(data, rows);
  const auto n = static_cast<Eigen::Index>(rows.size());
  RowMat K(n, n);
  kernel_blocks(sv, k, data, rows, [&](std::size_t b, std::size_t cnt, const double* blk) {
    std::copy_n(blk, cnt * rows.size(), K.data() + b * rows.size());
  });
  return K;
}

// The per-example dual subproblem (Keerthi et al., KDD 2008, the sub-problem of the sequential dual
// method; Crammer and Singer, JMLR 2001, the reduced problem; LIBLINEAR's Solver_MCSVM_CS):
// min_a (A/2) sum_r a_r^2 + sum_r B_r a_r s.t. sum_r a_r = 0, a_r <= C_r (C_y = C, else 0).
// KKT: a_r = min(C_r, (beta - B_r)/A) with beta = (sum_{r in F} D_r - A C)/|F|, D_r = B_r + A C_r,
// F the top |F| of D (sorted descending), grown while beta < D_next.
void solve_subproblem(double A, const double* B, std::size_t m, std::size_t y, double C, double* a,
                      std::vector<double>& D) {
  D.assign(B, B + m);
  D[y] += A * C;
  std::sort(D.begin(), D.end(), std::greater<double>());
  double sum = D[0] - A * C;
  std::size_t f = 1;
  while (f < m && sum < static_cast<double>(f) * D[f]) sum += D[f++];
  const double beta = sum / static_cast<double>(f);
  for (std::size_t r = 0; r < m; ++r) a[r] = std::min(r == y ? C : 0.0, (beta - B[r]) / A);
  // a_y in [0, C] exactly (a rounded (beta - B_y)/A can fall 1e-17 below 0); sum_r a_r = 0 then
  // holds up to rounding. Exact bounds keep violation()'s free set sound: an a_y a hair below C
  // would count as free and stall the stopping rule (seen before this clamp).
  a[y] = std::max(0.0, a[y]);
}

// KKT violation of example i (Keerthi et al. 2008, the optimality condition of the subproblem):
// v_i = max_r g_r - min_{r: a_r < C_r} g_r with g_r = u_r(x_i) + e_r (e_y = 0, else 1), the
// gradient of the dual objective. Raising a free a_q by d and lowering a_r by d (keeps the sum)
// changes the objective by d (g_q - g_r), so example i is optimal iff v_i <= 0.
double violation(const double* g, const double* a, std::size_t m, std::size_t y, double C) {
  double gmax = -INFINITY, gmin = INFINITY;
  for (std::size_t r = 0; r < m; ++r) {
    gmax = std::max(gmax, g[r]);
    if (a[r] < (r == y ? C : 0.0)) gmin = std::min(gmin, g[r]);
  }
  return gmax - gmin;
}

struct DualState {
  std::size_t n, m;
  std::vector<std::size_t> y;  // class of subsample row i
  Eigen::MatrixXd alpha;       // n x m
  Eigen::MatrixXd S;           // n x m, S(j, r) = u_r(x_j) = sum_i K(j, i) alpha(i, r)
};

// g_r = u_r(x_i) + e_r for example i.
void gradient(const DualState& st, std::size_t i, double* g) {
  for (std::size_t r = 0; r < st.m; ++r)
    g[r] = st.S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r)) + (r == st.y[i] ? 0.0 : 1.0);
}

// Largest violation over all examples (from the current S).
double max_violation(const DualState& st, const RowMat& K, double C) {
  std::vector<double> g(st.m), a(st.m);
  double v = 0.0;
  for (std::size_t i = 0; i < st.n; ++i) {
    if (K(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) <= 0.0) continue;  // k(x_i,.) = 0: fixed
    gradient(st, i, g.data());
    for (std::size_t r = 0; r < st.m; ++r) a[r] = st.alpha(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r));
    v = std::max(v, violation(g.data(), a.data(), st.m, st.y[i], C));
  }
  return v;
}

// One epoch of the sequential dual method over a random permutation; returns max_i v_i as met.
double dual_epoch(DualState& st, const RowMat& K, double C, double eps, Rng& rng) {
  std::vector<double> g(st.m), B(st.m), a_old(st.m), a_new(st.m), D;
  double vmax = 0.0;
  for (std::size_t i : rng.permutation(st.n)) {
    const auto ii = static_cast<Eigen::Index>(i);
    const double A = K(ii, ii);
    if (A <= 0.0) continue;  // k(x_i,.) = 0: closed form set up front
    gradient(st, i, g.data());
    for (std::size_t r = 0; r < st.m; ++r) a_old[r] = st.alpha(ii, static_cast<Eigen::Index>(r));
    const double v = violation(g.data(), a_old.data(), st.m, st.y[i], C);
    vmax = std::max(vmax, v);
    if (v < eps) continue;  // nothing this example can gain beyond the stopping tolerance
    for (std::size_t r = 0; r < st.m; ++r) B[r] = g[r] - A * a_old[r];
    solve_subproblem(A, B.data(), st.m, st.y[i], C, a_new.data(), D);
    for (std::size_t r = 0; r < st.m; ++r) {
      const double d = a_new[r] - a_old[r];
      if (d == 0.0) continue;
      st.alpha(ii, static_cast<Eigen::Index>(r)) = a_new[r];
      st.S.col(static_cast<Eigen::Index>(r)).noalias() += d * K.row(ii).transpose();  // K symmetric
    }
  }
  return vmax;
}

// Rows with k(x_i,x_i) = 0 have k(x_i,.) = 0 (Cauchy-Schwarz in H): their subproblem is linear,
// min -a_y, so a_y = C and one competitor takes -C; U is unchanged, the dual gains C.
void degenerate_rows(DualState& st, const RowMat& K, double C) {
  for (std::size_t i = 0; i < st.n; ++i) {
    const auto ii = static_cast<Eigen::Index>(i);
    if (K(ii, ii) < 0.0)
      throw std::invalid_argument("multiclass comparator: k(x,x) < 0 on a subsample row: the kernel is not positive "
                                  "semi-definite (check --kernel, gamma, coef0)");
    if (K(ii, ii) > 0.0) continue;
    st.alpha(ii, static_cast<Eigen::Index>(st.y[i])) = C;
    st.alpha(ii, static_cast<Eigen::Index>((st.y[i] + 1) % st.m)) = -C;
  }
}

// Primal and dual values, ||U||^2, from S = K alpha.
void objectives(const DualState& st, double C, MulticlassSvmFit& fit) {
  const double n2 = std::max(0.0, (st.alpha.array() * st.S.array()).sum());
  std::vector<double> s(st.m);
  double hinge = 0.0, dual_lin = 0.0;
  for (std::size_t i = 0; i < st.n; ++i) {
    for (std::size_t r = 0; r < st.m; ++r) s[r] = st.S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r));
    hinge += std::max(0.0, 1.0 - margin_of(s.data(), st.m, st.y[i]));
    dual_lin += st.alpha(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(st.y[i]));
  }
  fit.norm2 = n2;
  fit.primal = 0.5 * n2 + C * hinge;  // Crammer-Singer primal with the margin hinge
  fit.dual = dual_lin - 0.5 * n2;     // -f(alpha): sum_i sum_r e_r alpha_ir = -sum_i alpha_{i,y_i}
}

}  // namespace

// Stopping rule: the first epoch in which every row met has v_i < opt.eps (1e-3, margin units),
// or opt.max_epochs (1000). Measured (USPS, 7291 rows -> 3000, unit-norm rows, poly
// ((<x,x'>+1)/2)^13, C = 1, seed 1): 39 epochs, P - D = 0.328 of P = 272.59 (relative 1.2e-3);
// MNIST train (poly degree 7): 35 epochs, relative gap 8.0e-4.
MulticlassSvmFit fit_multiclass_svm(const Dataset& data, const std::vector<std::size_t>& order, const Kernel& k,
                                    std::size_t num_classes, const MulticlassSvmOptions& opt, uint64_t seed) {
  check_input(data, order, num_classes);
  if (!(opt.C > 0.0) || !std::isfinite(opt.C))
    throw std::invalid_argument("fit_multiclass_svm: C must be finite and > 0 (svm_C's range, checked by configure)");
  if (!(opt.eps > 0.0)) throw std::invalid_argument("multiclass comparator: eps must be > 0");
  Rng rng(seed);
  MulticlassSvmFit fit;
  fit.rows = subsample(order, rng);
  fit.num_classes = num_classes;
  const std::size_t n = fit.rows.size(), m = num_classes;
  DualState st{n, m, {}, Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m)), {}};
  for (std::size_t row : fit.rows) st.y.push_back(label(data, row));
  const RowMat K = n ? gram(data, fit.rows, k) : RowMat();
  degenerate_rows(st, K, opt.C);
  st.S = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m));
  fixed_product(K, st.alpha, st.S);  // zero unless degenerate rows (whose K rows are zero)
  double v = n ? INFINITY : 0.0;
  // 500 rows x 4000 classes: 1000 epochs took 61 s; the cap leaves MNIST's and USPS's 1000.
  const double epoch_work = static_cast<double>(n) * static_cast<double>(m) * (1.0 + std::log2(static_cast<double>(m)));
  const int max_epochs = static_cast<int>(std::clamp(opt.max_work / std::max(1.0, epoch_work), 1.0,
                                                     static_cast<double>(opt.max_epochs)));
  while (fit.epochs < max_epochs && v >= opt.eps) {
    v = dual_epoch(st, K, opt.C, opt.eps, rng);
    ++fit.epochs;
  }
  fixed_product(K, st.alpha, st.S);  // exact scores: no drift from the incremental updates
  fit.max_violation = n ? max_violation(st, K, opt.C) : 0.0;
  fit.converged = fit.max_violation < opt.eps;
  objectives(st, opt.C, fit);
  fit.alpha.resize(n * m);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t r = 0; r < m; ++r)
      fit.alpha[i * m + r] = st.alpha(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r));
  return fit;
}

namespace {

// U's support rows (rows with a non-zero alpha: alpha_{i,y} = 0 forces the others to 0), their
// alpha, and what the error bounds of U's scores need (bounds/comparator_rounding.hpp): with
// amax_i = max_r |alpha_ir|, every u_r(x) = sum_i alpha_ir k(s_i, x) errs by at most
// sum_i amax_i ((gamma_n + rel) |k~_i| + abs) (rounding::expansion_error).
struct Supports {
  std::vector<std::size_t> rows;
  std::vector<double> alpha, amax, l1;  // l1_i = sum_r |alpha_ir|
  double amax_sum = 0.0, sq_max = 0.0, nnz_max = 0.0;

  Supports(const MulticlassSvmFit& fit, const Dataset& data) {
    const std::size_t m = fit.num_classes;
    for (std::size_t i = 0; i < fit.rows.size(); ++i) {
      const double* a = fit.alpha.data() + i * m;
      if (std::none_of(a, a + m, [](double v) { return v != 0.0; })) continue;
      rows.push_back(fit.rows[i]);
      alpha.insert(alpha.end(), a, a + m);
      double mx = 0.0, s = 0.0;
      for (std::size_t r = 0; r < m; ++r) { mx = std::max(mx, std::abs(a[r])); s += std::abs(a[r]); }
      amax.push_back(mx);
      l1.push_back(s);
      amax_sum += mx;
      const Example x = data[fit.rows[i]];
      sq_max = std::max(sq_max, x.sqnorm);
      nnz_max = std::max(nnz_max, static_cast<double>(x.idx.size()));
    }
  }
  // The error bound of every class score u_r(x), from x's kernel row krow.
  double score_error(const Kernel& k, const Example& x, const double* krow) const {
    double a = 0.0;
    for (std::size_t i = 0; i < rows.size(); ++i) a += amax[i] * std::abs(krow[i]);
    const auto ke = rounding::kernel_value_error(k, sq_max, x.sqnorm, nnz_max + static_cast<double>(x.idx.size()));
    return rounding::expansion_error(ke, static_cast<double>(rows.size()), a, amax_sum);
  }
};

}  // namespace

std::vector<double> multiclass_margins(const MulticlassSvmFit& fit, const Dataset& data,
                                       const std::vector<std::size_t>& order, const Kernel& k) {
  const std::size_t m = fit.num_classes;
  check_input(data, order, m);
  const Supports S(fit, data);
  std::vector<double> margins(order.size(), 0.0);
  if (S.rows.empty()) return margins;  // U = 0
  const SupportSet sv = support_of(data, S.rows);
  const Eigen::Map<const RowMat> alpha(S.alpha.data(), static_cast<Eigen::Index>(S.rows.size()),
                                       static_cast<Eigen::Index>(m));
  RowMat scores(static_cast<Eigen::Index>(kBlock), static_cast<Eigen::Index>(m));
  kernel_blocks(sv, k, data, order, [&](std::size_t b, std::size_t cnt, const double* blk) {
    const Eigen::Map<const RowMat> Kb(blk, static_cast<Eigen::Index>(cnt), static_cast<Eigen::Index>(sv.size()));
    auto top = scores.topRows(static_cast<Eigen::Index>(cnt));
    fixed_product(Kb, alpha, top);  // u_r(x_t) = sum_i alpha_ir k(x_i, x_t)
    for (std::size_t l = 0; l < cnt; ++l) {
      const double e = S.score_error(k, data[order[b + l]], blk + l * sv.size());
      // the margin's two scores err by e each (docs/bounds.md#comparator-rounding)
      margins[b + l] = rounding::lower_margin_score(margin_of(scores.data() + l * m, m, label(data, order[b + l])),
                                                    2 * e, 1.0);
    }
  });
  return margins;
}

double multiclass_norm_upper(const MulticlassSvmFit& fit, const Dataset& data, const Kernel& k) {
  // ||U||^2 = sum_ir alpha_ir S_ir, S = K alpha: each S_ir errs by at most e_i (score_error), the
  // sum by gamma_nm sum |alpha_ir S_ir| <= gamma_nm sum_i l1_i sum_j amax_j |K_ij|.
  const Supports S(fit, data);
  if (S.rows.empty()) return 0.0;
  const SupportSet sv = support_of(data, S.rows);
  const double gnm = rounding::gamma(static_cast<double>(S.rows.size() * fit.num_classes));
  double err = 0.0;
  kernel_blocks(sv, k, data, S.rows, [&](std::size_t b, std::size_t cnt, const double* blk) {
    for (std::size_t l = 0; l < cnt; ++l) {
      const double* krow = blk + l * sv.size();
      double p = 0.0;
      for (std::size_t j = 0; j < sv.size(); ++j) p += S.amax[j] * std::abs(krow[j]);
      err += S.l1[b + l] * (S.score_error(k, data[S.rows[b + l]], krow) + gnm * p);
    }
  });
  return rounding::upper_norm(fit.norm2, err);
}

MulticlassComparator make_multiclass_comparator(const std::string& kind, const Dataset& data,
                                                const std::vector<std::size_t>& order, const Kernel& k,
                                                std::size_t num_classes, double C_svm, uint64_t seed) {
  if (kind != "svm" && kind != "zero")
    throw std::invalid_argument("multiclass comparator: unknown kind '" + kind + "' (available: svm, zero)");
  check_input(data, order, num_classes);
  if (kind == "zero") return {"zero", 0.0, std::vector<double>(order.size(), 0.0)};
  MulticlassSvmOptions opt;
  opt.C = C_svm;
  const MulticlassSvmFit fit = fit_multiclass_svm(data, order, k, num_classes, opt, seed);
  return {"svm", multiclass_norm_upper(fit, data, k), multiclass_margins(fit, data, order, k)};
}

}  // namespace plab
