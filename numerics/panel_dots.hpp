// The dot products of a block of rounds with a tile of 64 supports stored feature-major: the hot
// loop of the dense kernel rows of a block of rounds (SupportSet's dense layout, support_set.hpp;
// docs/learners.md#layout).
//
// The rounds go through the tile in pairs (RoundPairs) that share features, and the tile's feature
// rows in chunks of kPanelRows rows (64 rows x 512 bytes: they stay in L1 while every pair passes
// over them). A pair walks the union of its two rounds' features in the chunk once: each support
// value is loaded once for both rounds (2 x 64 sums in 16 AVX-512 registers), a round that lacks
// the feature contributing x_j = 0. Between chunks the sums wait in a contiguous buffer, so each
// chain keeps its order; a one-round walk would load a value per fma and its loads, not the fmas,
// would bound it (measured: docs/learners.md#layout).
//
// Why a zero term leaves the bits alone: fma(0, s, acc) = acc + (+-0) exactly, which is acc for a
// finite s and acc != 0. Only a zero's sign can differ (a chain that underflowed to -0 turns +0 at
// such a term), and every dot path ends with + 0.0, which makes each zero +0. So each sum is the
// chain acc = fma(x_j, s_ij, acc) from +0 over x's own features in order, then + 0.0: the same bits
// whatever the pairing, the chunking, the instruction set or the number of rounds.
// Requires: finite support values and x (the loaders refuse others, docs/inputs.md; 0 * inf = NaN).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab {

inline constexpr std::size_t kPanelSupports = 64;  // one tile: 8 AVX-512 registers a round
inline constexpr std::size_t kPanelRows = 64;      // feature rows a chunk: 64 x 512 B = 32 KB of L1

// Represents: a block of m rounds split into pairs, each with the union of its two rounds'
// features below `rows` (ascending), cut into chunks of kPanelRows rows.
// Ensures: lane[2 q + r] is the round (index into xs) of lane r of pair q, or kNoRound for the
// empty lane of an odd m. Pair q's features in chunk c are u in [at[c P + q], at[c P + q + 1])
// (P = pairs()), feature j at row offset offset[u] = j * stride, val[2 u + r] = x_j of lane r's
// round (0 where it lacks j or the lane is empty). line[line_at[c] ..line_at[c + 1]) are the
// offsets of the 64-byte lines of chunk c's rows that some pair uses, prefetched one chunk ahead,
// pf_step[c] of them a pair. acc is the kernel's scratch for the sums (not thread-safe).
struct RoundPairs {
  static constexpr uint32_t kNoRound = UINT32_MAX;
  std::size_t chunks = 0;
  std::vector<uint32_t> lane;
  std::vector<std::size_t> at, offset, line, line_at, pf_step;
  std::vector<double> val;
  mutable std::vector<double> acc;
  std::size_t pairs() const { return lane.size() / 2; }
  double* sums() const;  // 2 pairs() x kPanelSupports values in acc, 64-byte aligned
};

// Pairs the m rounds xs[0..m) for tiles of `rows` feature rows `stride` values apart. Greedy and
// deterministic: the lowest round left takes the round left whose feature set differs least from
// its own (fewest features in one but not the other; the lowest on ties), compared as bitsets
// when rows <= kPairBitsetRows, else rounds are paired in order. Cost O(m^2 rows / 64 + nnz):
// callers pass blocks of at most 192 rounds (MNIST: 109 us).
inline constexpr std::size_t kPairBitsetRows = 8192;
RoundPairs pair_rounds(const Example* xs, std::size_t m, std::size_t rows, std::size_t stride);

// Whether panel_dots writes out by streaming (non-temporal) stores: when the rows are 64-byte
// aligned (out and ld) and the block's rows, m ld doubles, reach kStreamBytes. Rows that large
// leave the caches before they are read anyway, and a store that misses the cache first reads its
// line from memory (measured on MNIST, 96 rounds x 19000 supports = 14.6 MB: 7% faster streamed;
// 2000 supports, 1.5-3 MB: 1-3% slower streamed; docs/learners.md#layout). The bits are the same.
inline constexpr std::size_t kStreamBytes = std::size_t{8} << 20;
bool streams(const RoundPairs& g, const double* out, std::size_t ld);

// out[l * ld + i] = <s_i, xs[l]> for i < kPanelSupports and every round l of g, where
// tile[j * stride + i] = feature j of support i (the stride g was made for). `next`, when not null,
// is the next tile: the first chunk's rows are prefetched from it during the last chunk.
void panel_dots(const double* tile, const double* next, const RoundPairs& g, double* out, std::size_t ld);
// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void panel_dots_on(const std::string& isa, const double* tile, const double* next, const RoundPairs& g, double* out,
                   std::size_t ld);

}  // namespace plab
