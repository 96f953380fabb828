// Multiclass comparators U = (u_1..u_m) for the multiclass mistake bounds
// (docs/multiclass_comparator.md). Through the Kesler construction the binary bounds need of U
// only ||U|| = sqrt(sum_c ||u_c||_H^2) and its multiclass margin on every round,
// m_t(U) = u_{y_t}(x_t) - max_{r != y_t} u_r(x_t). Any U gives valid bounds.
// Kinds:
//   "svm"   Crammer-Singer multiclass SVM without bias (Crammer and Singer, JMLR 2001, eq. (8)
//           with a hinge on the margin) by the sequential dual method of Keerthi, Sundararajan,
//           Chang, Hsieh, Lin (KDD 2008), on a seeded subsample of <= kSvmSubsample rows of the
//           run order; u_c = sum_i alpha_ic k(x_i,.)
//   "zero"  U = 0 (trivial bounds; a sanity check)
// Options: those of the binary comparators (comparator_options(), bounds/comparator.hpp).
// Labels: Dataset::y holds class indices 0..num_classes-1 (as doubles).
// Deterministic: the only randomness is plab::Rng(seed) (subsample, then coordinate order).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "numerics/kernel.hpp"
#include "bounds/comparator.hpp"
#include "datasets/dataset.hpp"

namespace plab {

struct MulticlassComparator {
  std::string name;             // "svm" | "zero"
  double norm = 0.0;            // ||U||
  std::vector<double> margins;  // m_t(U) in run order (order[t] is the data row of round t+1)
};

// order: the rows of `data` in run order. num_classes >= 2, every label of `order` an integer in
// [0, num_classes). C_svm > 0. Throws std::invalid_argument on bad input or an unknown kind.
MulticlassComparator make_multiclass_comparator(const std::string& kind, const Dataset& data,
                                                const std::vector<std::size_t>& order, const Kernel& k,
                                                std::size_t num_classes, double C_svm = kDefaultSvmC, uint64_t seed = 1);

// The fit behind kind "svm", exposed for the tests and for diagnostics.
struct MulticlassSvmOptions {
  double C = 1.0;
  double eps = 1e-3;      // stop when max_i v_i < eps (KKT violation, see multiclass_comparator.cpp)
  int max_epochs = 1000;  // epoch cap (an unconverged U is still a valid comparator)
  // Work cap: epochs x rows x classes x (1 + log2 classes) (a sort of the m class values per row)
  // at most this, so that thousands of classes do not take minutes (docs/multiclass_comparator.md).
  double max_work = 1e9;
};

struct MulticlassSvmFit {
  std::vector<std::size_t> rows;  // data rows of the subsample, ascending
  std::size_t num_classes = 0;
  std::vector<double> alpha;      // alpha[i * num_classes + c] = alpha_ic: u_c = sum_i alpha_ic k(x_rows[i], .)
  double norm2 = 0.0;             // ||U||^2 = sum_c alpha_c^T K alpha_c
  double primal = 0.0;            // P(U) = (1/2)||U||^2 + C sum_i max(0, 1 - m_i(U)) on the subsample
  double dual = 0.0;              // D(alpha) = sum_i alpha_{i,y_i} - (1/2)||U||^2 <= P (weak duality)
  double max_violation = 0.0;     // max_i v_i at exit, from scores recomputed exactly
  int epochs = 0;
  bool converged = false;         // max_violation < eps before the epoch cap
};

// Subsample (as make_multiclass_comparator does) and solve. Inputs as above.
MulticlassSvmFit fit_multiclass_svm(const Dataset& data, const std::vector<std::size_t>& order, const Kernel& k,
                                    std::size_t num_classes, const MulticlassSvmOptions& opt, uint64_t seed);

// m_t(U) on every round of `order` for the U of `fit`, from the kernel rows of its supports: each
// lowered by its rounding error bound, so that it is at most the exact margin
// (docs/bounds.md#comparator-rounding).
std::vector<double> multiclass_margins(const MulticlassSvmFit& fit, const Dataset& data,
                                       const std::vector<std::size_t>& order, const Kernel& k);

// An upper bound on ||U|| for the U of `fit`: sqrt(fit.norm2) raised by its rounding error bound.
double multiclass_norm_upper(const MulticlassSvmFit& fit, const Dataset& data, const Kernel& k);

}  // namespace plab
