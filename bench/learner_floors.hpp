// The floor of one pass of a binary learner (docs/learners.md#floors): the operations its rule
// cannot skip, counted from the pass's own records, in FMA-pipe operations (an fma or a product;
// the adds of the same formulas run beside them and are not counted) and in bytes of the data
// streamed once. make bench-report turns them into time at the measured FMA peak and memory
// bandwidth and states the larger.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab::bench {

// One Gaussian kernel value and its term of the score, computed from the dot product: exp's 19
// fma and products (numerics/fast_exp.cpp: the reduction 3, Horner 13, the scaling 3), the
// product by -gamma and the coefficient's fma; the dot product itself costs nnz(x) fma more.
constexpr double kRbfTermOps = 21.0;
// The same term where x and the supports are binary (docs/learners.md#binary): an AND and a
// popcount per 64-bit word of x, the table's lookup and the coefficient's fma.
constexpr double kBinaryTermOps = 2.0;
// cos and sin of one chain u_i.x (numerics/fast_trig.cpp): the reduction 6, the sine's Horner 7
// and tail 7, the cosine's Horner 6 and tail 4, and the square 1.
constexpr double kSinCosOps = 31.0;

// What the floor reads of a round's record.
struct PassRound {
  std::size_t support_size;  // after the round
  bool step;                 // the round changed f
  bool removed;              // the round removed a support
};

// The operations a budget learner's rule does beyond its score's kernel row (docs/learners.md#floors),
// with n supports before the round and `term` the operations of one kernel term: its removal's
// search, its rescaling, the kernel rows it reads of a support, its per-support running sums.
// Counted as the scoring row's terms are (fma and products; adds, compares and the sum's adds
// not), each the least the rule's formula takes, so the total stays a floor.
inline double upkeep_ops(const std::string& algo, double n, const PassRound& r, double term) {
  if (algo == "forgetron" || algo == "forgetron-basic")  // f'(x_r) over the n + 1 supports, phi f'
    return r.removed ? (n + 1.0) * term + (n + 1.0) : 0.0;
  if (algo == "cks")  // F_i += y k_it; at a removal its kernel row, F_i -= a_r k_ir and the argmax's product
    return !r.step ? 0.0 : n + (r.removed ? n * term + 2.0 * n : 0.0);
  if (algo == "norma") return n;  // every coefficient decays, one fma each
  if (algo == "bpa-s")            // q_r = a_r^2 (k_rr - k_rt^2 / k_tt): three products a candidate
    return r.removed ? 3.0 * n : 0.0;
  if (algo == "bpa-nn")  // x_t offered both ways (2n); at a removal q_r of the pair (12 products and a division)
    return !r.step ? 0.0 : 2.0 * n + (r.removed ? 13.0 * n : 0.0);
  if (algo == "bogd")  // the shrink every round; at a removal the cap's maximum and the rescaling instead
    return r.removed ? 2.0 * n : n;
  if (algo == "bogd++")  // at a removal its probabilities and factors (a division each), the cap, the rescaling
    return r.removed ? 4.0 * n : n;
  return 0.0;
}

struct PassFloor {
  double ops = 0.0;    // FMA-pipe operations
  double bytes = 0.0;  // the data read once: indices, values, label and norm of every row
};

// rounds[t]: round t of the pass over data in `order`. budget: B of the budget
// learners (NOGD: the switch to its map); features: FOGD's D; rank: NOGD's k.
inline PassFloor pass_floor(const std::string& algo, const Dataset& data, const std::vector<std::size_t>& order,
                            const std::vector<PassRound>& rounds, std::size_t budget, std::size_t features,
                            std::size_t rank) {
  PassFloor f;
  const bool solves = algo == "projectron" || algo == "projectron++";
  bool binary = true;  // every support is a row of the data: binary when every row is
  for (std::size_t k = 0; k < data.val.size(); ++k) binary = binary && data.val[k] == 1.0;
  for (std::size_t t = 0; t < rounds.size(); ++t) {
    const std::size_t b = data.rowptr[order[t]], e = data.rowptr[order[t] + 1];
    const auto nnz = static_cast<double>(e - b);
    double words = 0.0;  // x's non-zero 64-bit words (indices ascend)
    for (std::size_t k = b; k < e; ++k) words += k == b || data.idx[k] / 64 != data.idx[k - 1] / 64;
    const double term = binary ? 2.0 * words + kBinaryTermOps : nnz + kRbfTermOps;
    f.bytes += 12.0 * nnz + 24.0;
    const double n = t == 0 ? 0.0 : static_cast<double>(rounds[t - 1].support_size);
    const bool step = rounds[t].step;
    if (algo == "perceptron") {  // w.x, and w += y x on a mistake
      f.ops += nnz * (step ? 2.0 : 1.0);
    } else if (algo == "fogd") {  // the map (a product a term), its cos and sin, w.z, and w += eta y z
      const auto D = static_cast<double>(features);
      f.ops += D * (nnz + kSinCosOps) + 2.0 * D * (step ? 2.0 : 1.0);
    } else if (algo == "nogd" && n == static_cast<double>(budget)) {  // after the switch: k_B(x), M k, w.phi
      f.ops += n * term + static_cast<double>(rank) * (n + 1.0);
    } else {  // every kernel expansion: the kernel row of its score, and what its rule does beyond
      f.ops += n * term + upkeep_ops(algo, n, rounds[t], term);
      if (solves) f.ops += n * (n + 1.0) / 2.0;  // z_t = L^{-1} k_t (#projectronpp-floor)
    }
  }
  return f;
}

}  // namespace plab::bench
