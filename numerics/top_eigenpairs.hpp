// The k largest eigenpairs of a symmetric positive semi-definite matrix (NOGD's switch,
// algorithms/nogd.hpp; docs/learners.md#nogd).
// Represents: a partial eigendecomposition. Requires: K symmetric (the lower half is read), n x n,
// column-major. Ensures: values descending, vectors[i] unit-norm and K v_i = lambda_i v_i to the
// solver's tolerance; the same bits for the same K on every run and thread count (single-threaded,
// fixed starting vector).
#pragma once
#include <cstddef>
#include <vector>

namespace plab {

struct Eigenpairs {
  std::vector<double> values;                // descending
  std::vector<std::vector<double>> vectors;  // vectors[i]: the eigenvector of values[i], n entries
  bool partial = false;                      // true: from the Lanczos solver, false: the full one
};

// The min(k, n) largest eigenpairs of K. For k well below n, implicitly restarted Lanczos
// (Spectra's SymEigsSolver, tolerance 1e-12 relative, O(n^2) a restart); otherwise, or when it does
// not converge, Eigen's full SelfAdjointEigenSolver (O(n^3)). A zero K gives all-zero values.
Eigenpairs top_eigenpairs(const double* K, std::size_t n, std::size_t k);

}  // namespace plab
