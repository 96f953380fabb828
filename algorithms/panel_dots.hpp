// The dot products of sparse rounds with a tile of 32 supports stored feature-major: the hot loop
// of the dense kernel rows of a block of rounds (SupportSet's dense layout, support_set.hpp;
// docs/learners.md#layout).
//
// Represents: tile[j * stride + i] = feature j of support i, for i < kPanelSupports and j < rows.
// Requires: out[l * ld + i] (i < kPanelSupports) holds the partial sums of round l on entry (+0 the
// first time); cut[l * (C + 1) + c] is the position in xs[l]'s features (ascending) of its first
// feature at or past chunk c (chunks of kDotChunk features), cut[l * (C + 1) + C] its end (at most
// rows).
// Ensures: for every round l and support i, out[l * ld + i] continues the chain
// acc = fma(x_j, s_ij, acc) over x's features j in order -- the same bits whatever the instruction
// set, the chunking or the number of rounds. The loop order is what is blocked: chunk by chunk
// (kDotChunk x kPanelSupports values, 24 KB, kept in L1 while every round's features in the chunk
// are applied, the next chunk prefetched meanwhile).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "datasets/dataset.hpp"

namespace plab {

inline constexpr std::size_t kPanelSupports = 32;  // 8 AVX2 accumulators per round
inline constexpr std::size_t kDotChunk = 96;  // 96 x 32 x 8 B = 24 KB of the 32 KB L1 (64 and 128: slower)

void panel_dots(const double* tile, std::size_t stride, std::size_t rows, const Example* xs, std::size_t m,
                const uint32_t* cut, std::size_t C, double* out, std::size_t ld);
// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void panel_dots_on(const std::string& isa, const double* tile, std::size_t stride, std::size_t rows,
                   const Example* xs, std::size_t m, const uint32_t* cut, std::size_t C, double* out, std::size_t ld);

}  // namespace plab
