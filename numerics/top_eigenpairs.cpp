#include "numerics/top_eigenpairs.hpp"

#include <Eigen/Dense>
#include <Spectra/MatOp/DenseSymMatProd.h>
#include <Spectra/SymEigsSolver.h>
#include <algorithm>
#include <stdexcept>

namespace plab {

namespace {

using Map = Eigen::Map<const Eigen::MatrixXd>;

Eigenpairs full(const Map& K, std::size_t k) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(K);
  if (es.info() != Eigen::Success) throw std::runtime_error("the eigensolver of the kernel matrix failed");
  const auto n = static_cast<Eigen::Index>(K.rows());
  Eigenpairs e;
  for (Eigen::Index i = n - 1; i >= 0 && e.values.size() < k; --i) {  // Eigen's are ascending
    e.values.push_back(es.eigenvalues()(i));
    const auto v = es.eigenvectors().col(i);
    e.vectors.emplace_back(v.data(), v.data() + n);
  }
  return e;
}

}  // namespace

Eigenpairs top_eigenpairs(const double* K, std::size_t n, std::size_t k) {
  const Map M(K, static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  k = std::min(k, n);
  if (n == 0 || k == 0) return {};
  bool zero = true;  // the lower half, as the solvers read it
  for (std::size_t j = 0; j < n && zero; ++j)
    for (std::size_t i = j; i < n && zero; ++i) zero = K[j * n + i] == 0.0;
  if (zero) {
    Eigenpairs e;
    e.values.assign(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
      e.vectors.emplace_back(n, 0.0);
      e.vectors.back()[i] = 1.0;
    }
    return e;
  }
  // Lanczos pays when its subspace (ncv = 2k + 1, at least 20) is well below n.
  const auto nev = static_cast<Eigen::Index>(k), ncv = std::max<Eigen::Index>(2 * nev + 1, 20);
  if (3 * ncv > static_cast<Eigen::Index>(n)) return full(M, k);
  Spectra::DenseSymMatProd<double> op(M);
  Spectra::SymEigsSolver<Spectra::DenseSymMatProd<double>> solver(op, nev, ncv);
  solver.init();  // Spectra's fixed-seed starting vector: the same run every time
  solver.compute(Spectra::SortRule::LargestAlge, 1000, 1e-12, Spectra::SortRule::LargestAlge);
  if (solver.info() != Spectra::CompInfo::Successful) return full(M, k);
  const Eigen::VectorXd lam = solver.eigenvalues();
  const Eigen::MatrixXd V = solver.eigenvectors();
  if (lam.size() != nev) return full(M, k);
  Eigenpairs e;
  e.partial = true;
  for (Eigen::Index i = 0; i < nev; ++i) {
    e.values.push_back(lam(i));
    e.vectors.emplace_back(V.col(i).data(), V.col(i).data() + n);
  }
  return e;
}

}  // namespace plab
