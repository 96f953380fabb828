// The floor of one pass of a binary learner (docs/learners.md#floors): the operations its rule
// cannot skip, counted from the pass's own records by the learner's declared floor_ops (its
// registry entry's FloorOps; the score's kernel row without one), in FMA-pipe operations (an fma
// or a product; the adds of the same formulas run beside them and are not counted) and in bytes
// of the data streamed once. make bench-report turns them into time at the measured FMA peak and
// memory bandwidth and states the larger.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "datasets/dataset.hpp"

namespace plab::bench {

// One Gaussian kernel value and its term of the score, computed from the dot product: exp's 19
// fma and products (numerics/fast_exp.cpp: the reduction 3, Horner 13, the scaling 3), the
// product by -gamma and the coefficient's fma; the dot product itself costs nnz(x) fma more.
constexpr double kRbfTermOps = 21.0;
// The same term where x and the supports are binary (docs/learners.md#binary): the table's lookup
// and the coefficient's product; the count beside them, nnz(x) / 64 a support (each of x's
// features tested for 64 supports by one 64-bit operation).
constexpr double kBinaryTermOps = 2.0;

// What the floor reads of a round's record.
struct PassRound {
  std::size_t support_size;  // after the round
  bool step;                 // the round changed f
  bool removed;              // the round removed a support
};

struct PassFloor {
  double ops = 0.0;    // FMA-pipe operations
  double bytes = 0.0;  // the data read once: indices, values, label and norm of every row
};

// rounds[t]: round t of the pass over data in `order` by the learner `algo` configured as `options`.
inline PassFloor pass_floor(const std::string& algo, const LearnerOptions& options, const Dataset& data,
                            const std::vector<std::size_t>& order, const std::vector<PassRound>& rounds) {
  PassFloor f;
  const FloorOps floor = learner_info(algo, "algo").floor;
  bool binary = true;  // every support is a row of the data: binary when every row is
  for (std::size_t k = 0; k < data.val.size(); ++k) binary = binary && data.val[k] == 1.0;
  for (std::size_t t = 0; t < rounds.size(); ++t) {
    const std::size_t b = data.rowptr[order[t]], e = data.rowptr[order[t] + 1];
    FloorRound r;
    r.nnz = static_cast<double>(e - b);
    for (std::size_t k = b; k < e; ++k) r.scaled += data.val[k] != 1.0;
    r.term = binary ? r.nnz / 64.0 + kBinaryTermOps : r.nnz + kRbfTermOps;
    r.n = t == 0 ? 0.0 : static_cast<double>(rounds[t - 1].support_size);
    r.step = rounds[t].step;
    r.removed = rounds[t].removed;
    r.options = &options;
    f.bytes += 12.0 * r.nnz + 24.0;
    f.ops += floor ? floor(r) : r.n * r.term;
  }
  return f;
}

}  // namespace plab::bench
