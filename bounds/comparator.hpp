// Comparators g0 for the bounds (docs/bounds.md#comparator): a fixed function whose scores g0(x_t)
// on every round of a run, and RKHS norm ||g0||, are all the bounds need (they optimise the scale c).
// Kinds:
//   "truth"     the generating unit hyperplane of a synthetic set (linear kernel only)
//   "svm"       hinge-loss SVM without bias by dual coordinate descent (Hsieh et al. 2008, the
//               LIBLINEAR method). Linear kernel: primal w on all rounds, normalised to ||w|| = 1.
//               Other kernels: on a seeded subsample of <= 3000 rounds, g0 = sum beta_j k(z_j,.),
//               ||g0|| = sqrt(beta^T K beta) (docs/bounds.md#comparator item 3)
//   "multipass" final hypothesis of a 5-epoch (kernel) Perceptron over the run order
//               (docs/bounds.md#comparator item 2); ||g0||^2 = alpha^T K alpha
//   "zero"      g0 = 0 (trivial bounds; a sanity check)
// Every score is moved by its rounding error bound towards the wrong side of its label and every
// norm raised by its own, so the margins are at most the exact ones (docs/bounds.md#comparator-rounding).
// Deterministic: the only randomness is plab::Rng(seed).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "numerics/kernel.hpp"
#include "datasets/dataset.hpp"

namespace plab {

struct OptionDecl;       // core/option_decl.hpp
class FourierFeatures;  // numerics/fourier_features.hpp
class KernelExpansion;  // numerics/support_set.hpp

// Default C of the SVM comparators (binary and multiclass): the one place.
inline constexpr double kDefaultSvmC = 1.0;
// Default comparator kind: the one place (the declaration and ComparatorRequest read it).
inline constexpr const char* kDefaultComparator = "auto";
// comparator_seed's default: the seed of the run's permutation, 0 in file order (plab run's
// --shuffle, Python's shuffle=, a reproduce cell's permutation seed), so one seed fixes a run.
inline uint64_t default_comparator_seed(std::optional<uint64_t> permutation_seed) {
  return permutation_seed.value_or(0);
}

// The comparator options (bounds/comparator.cpp; the multiclass comparators take the same):
// "comparator" selects the kind (auto | truth | svm | multipass | zero); "svm_C" (> 0) and
// "comparator_seed" (its subsample) are options of the svm kind, and of auto, which may pick it.
const std::vector<OptionDecl>& comparator_options();

// The comparator a run asks for (run_comparator, experiments/run/pipeline.hpp).
struct ComparatorRequest {
  std::string kind = kDefaultComparator;  // auto (truth on synthetic linear data, else svm) | truth | svm | multipass | zero
  double svm_C = kDefaultSvmC;
  uint64_t seed = 0;          // the comparator's subsample stream is derive_seed(seed, 0xC0)
};

// What `kind` is on `data` with kernel k: "auto" is the generating hyperplane ("truth") of linear
// synthetic binary data, else "svm"; any other kind is itself.
std::string resolve_comparator(const std::string& kind, const Dataset& data, const Kernel& k);

struct Comparator {
  std::string name;
  double norm = 0.0;            // ||g0||
  std::vector<double> scores;   // g0(x_t) in run order
};

// order: the rows of `data` in run order (as given to run_online). C_svm > 0.
Comparator make_comparator(const std::string& kind, const Dataset& data, const std::vector<std::size_t>& order,
                           const Kernel& k, double C_svm = kDefaultSvmC, uint64_t seed = 1);

// The comparator g0 = f (an expansion over data rows), its scores on the rows `order` of data:
// lower margin scores and an upper bound on ||f|| (docs/bounds.md#comparator-rounding).
Comparator expansion_comparator(const std::string& name, const KernelExpansion& f, const Dataset& data,
                                const std::vector<std::size_t>& order);

// The comparator of a learner whose hypotheses live in the random-feature space of z (FOGD): the
// kernel comparator g0 = sum beta_i k(s_i,.) of `kind` (svm | multipass; or zero) mapped to
// u0 = sum beta_i z(s_i)/D, with scores u0.z(x_t) and norm ||u0|| (docs/bounds.md#fogd-comparator).
// Any fixed u0 gives the feature-space bounds; this one follows g0 as z.z/D follows k.
Comparator make_feature_comparator(const std::string& kind, const Dataset& data, const std::vector<std::size_t>& order,
                                   const Kernel& k, const FourierFeatures& z, double C_svm = kDefaultSvmC,
                                   uint64_t seed = 1);

// Subsample size of the kernel SVM (a9a: 3000^2 Gram entries, a few seconds).
inline constexpr std::size_t kSvmSubsample = 3000;

}  // namespace plab
