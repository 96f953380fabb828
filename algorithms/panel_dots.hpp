// The dot products of a block of rounds with a tile of 32 supports stored feature-major: the hot loop
// of the dense kernel rows of a block of rounds (SupportSet's dense layout, support_set.hpp;
// docs/learners.md#layout).
//
// The rounds go through the tile in groups of kGroupRounds (RoundGroups): a group walks the union
// of its rounds' features once, each support value is loaded once and used by every round of the
// group (a register-blocked product: 6 rounds x 32 supports of sums held in registers), a round
// that lacks the feature contributing x_j = 0. The rounds are grouped by feature overlap, so that
// few of those fmas multiply a zero.
//
// Why a zero term leaves the bits alone: fma(0, s, acc) = acc + (+-0) exactly, which is acc for a
// finite s and acc != 0. Only a zero's sign can differ (a chain that underflowed to -0 turns +0 at
// such a term), and every dot path ends with + 0.0, which makes each zero +0. So each sum is the
// chain acc = fma(x_j, s_ij, acc) from +0 over x's own features in order, then + 0.0: the same bits
// whatever the grouping, the instruction set or the number of rounds.
// Requires: finite support values and x (the loaders refuse others, docs/inputs.md; 0 * inf = NaN).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab {

inline constexpr std::size_t kPanelSupports = 32;  // one tile: 4 AVX-512 registers a round
inline constexpr std::size_t kGroupRounds = 6;     // rounds sharing each load of a support value

// Represents: a block of m rounds split into groups of up to kGroupRounds, each with the union of
// its rounds' features below `rows` (ascending) and their values.
// Ensures: lane[g R + r] is the round (index into xs) of lane r of group g, or kNoRound for an
// empty lane; group g's features are u in [begin[g], begin[g+1]), feature j at row offset
// offset[u] = j * stride, and val[u R + r] = x_j of lane r's round (0 where it lacks j or the lane
// is empty). line holds the offsets of the 64-byte lines of every row some group uses, ascending.
struct RoundGroups {
  static constexpr uint32_t kNoRound = UINT32_MAX;
  std::vector<uint32_t> lane;
  std::vector<std::size_t> begin{0}, offset, line;
  std::vector<double> val;
  std::size_t groups() const { return begin.size() - 1; }
};

// Groups the m rounds xs[0..m) for tiles of `rows` feature rows `stride` values apart. Greedy and
// deterministic: a group starts at the lowest round left and takes, one at a time, the round that
// adds the fewest new features (the lowest on ties; feature sets compared as bitsets when rows <=
// kGroupBitsetRows, else the rounds are taken in order). Cost O(m^2 rows / 64): callers pass
// blocks of at most 96 rounds.
inline constexpr std::size_t kGroupBitsetRows = 8192;
RoundGroups group_rounds(const Example* xs, std::size_t m, std::size_t rows, std::size_t stride);

// out[l * ld + i] = <s_i, xs[l]> for i < kPanelSupports and every round l of g, where
// tile[j * stride + i] = feature j of support i (the stride g was made for). `next`, when not null,
// is the next tile: the rows g uses are prefetched from it, one line per step of the groups (its
// first pass would otherwise wait on DRAM at every scattered row).
void panel_dots(const double* tile, const double* next, const RoundGroups& g, double* out, std::size_t ld);
// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void panel_dots_on(const std::string& isa, const double* tile, const double* next, const RoundGroups& g, double* out,
                   std::size_t ld);

}  // namespace plab
