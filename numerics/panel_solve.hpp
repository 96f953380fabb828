// Forward substitution with a packed lower-triangular factor L for several right-hand sides at
// once (the Projectron's z_t = L^{-1} k_t for a block of upcoming rounds; projectron.hpp).
//
// Represents: rows [b, e) of the solve L Z = K, in place. Z is row-major with `stride` lanes per
// row (Z[j * stride + l] = component j of right-hand side l); rows < b already hold solved values,
// rows [b, e) hold K on entry and Z on exit. L is packed row by row: row i = L(i, 0..i) at offset
// i (i + 1) / 2.
// Ensures: every lane is computed by the same scalar recurrence, an fma chain cut into chunks of
// kPanelChunk columns at fixed (absolute) positions whose totals are summed in order,
//   acc = part = 0
//   for j = 0 .. i-1: part = fma(L(i,j), Z(j), part); if (j + 1) % kPanelChunk == 0: acc += part, part = 0
//   Z(i) = (K(i) - (acc + part)) / L(i,i),
// whatever the instruction set, the stride, the lane or the split of rows into calls. So solving
// the block's rows at once, one round alone (stride 1), or one new row at a time after a support
// is added gives bit-identical z, and results do not depend on the block size or the machine's
// vector width (tested in test_block_solve.cpp). Vectorising across lanes, not along j, is what
// keeps that order fixed.
// Accuracy: a single chain's rounding error grows like i eps, the chunked one like (kPanelChunk +
// i / kPanelChunk) eps -- what a blocked Cholesky gets. Measured on 10^4 Gaussian-kernel supports
// (gamma 0.1, cond(K) 6.9e8): ||K Kinv - I||_2 of the grown factor 4.2e-8 with one chain, 8.2e-9
// chunked, 9.3e-9 for a fresh blocked factorisation of K (Eigen LLT); speed unchanged within the
// benchmarks' noise. Rows i < kPanelChunk are exactly the single chain.
// Speed: with 24 lanes the packed factor is read once per 24 rounds and the solve runs at the FMA
// rate instead of the cache bandwidth (bench/bench_projectron.cpp).
#pragma once
#include <cstddef>
#include <string>

namespace plab {

// Lanes of the block path (3 AVX-512 registers per row; AVX2 runs them in two halves of 3 registers).
inline constexpr std::size_t kPanelLanes = 24;
// Columns per partial sum of the chunked recurrence (below); ~sqrt of the supports of interest.
inline constexpr std::size_t kPanelChunk = 64;

// stride must be 1 or kPanelLanes.
void forward_panel(const double* packed, std::size_t b, std::size_t e, double* Z, std::size_t stride);

// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void forward_panel_on(const std::string& isa, const double* packed, std::size_t b, std::size_t e,
                      double* Z, std::size_t stride);

// Layout moves between lane-major rows (src[l * ld + j], one right-hand side per lane) and the
// panel: Z[j * stride + l] = src[l * ld + j] for j < rows and l < m, 0 for m <= l < stride; and
// back, dst[l * ld + j] = Z[j * stride + l] for l < m. Pure copies (4 x 4 register transposes
// where the CPU has AVX2).
void to_panel(const double* src, std::size_t ld, std::size_t m, std::size_t rows, double* Z, std::size_t stride);
void from_panel(const double* Z, std::size_t stride, std::size_t m, std::size_t rows, double* dst, std::size_t ld);

// The code path forward_panel uses: "avx512", "avx2" or "scalar". The best the CPU supports,
// unless PLAB_SIMD names a lower one (tests compare the paths bit for bit).
std::string panel_isa();

}  // namespace plab
