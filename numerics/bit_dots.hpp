// Binary features (every stored value 1.0: a9a, w8a, mushrooms): the dot products of an x with
// every support as popcounts of bitsets, and kernel values from those whole numbers by table
// (SupportSet's bitset index, support_set.hpp; docs/learners.md#binary).
//
// Why the bits are today's: for 0/1 vectors every path's chain fma(x_j, s_ij, acc) from +0 adds
// 1 * 1 = 1 exactly for each common feature and 1 * 0 = +0 for the others, so the sum is the count
// of common features, a whole number below 2^53, exact at every step; + 0.0 leaves it. The
// popcount converted to double is that number. With sq = ||s||^2 = |s| and ||x||^2 = |x| also
// whole, the Gaussian's (sq + ||x||^2) - 2 <s, x> is the Hamming distance h exactly, so its value
// is one of exp(-gamma h), h = 0 .. |x| + max |s|: a table made by rbf_from_dots itself holds
// each with the bits rbf_from_dots gives (one fixed sequence of operations per element); the
// polynomial kernel's value is a function of the count alone, likewise tabled by poly_from_dots.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"
#include "numerics/kernel.hpp"
#include "numerics/lane_sum.hpp"

namespace plab {

// Whether x's stored values are all 1.0 and ||x||^2 is their count (then every dot product with
// a binary support is a popcount and the kernel's argument a whole number).
// v == 1.0 exactly when v's bits are 1.0's (one encoding, NaN never equal): the bits' differences
// OR-ed, a loop the compiler vectorises (a chain of FP compares, one a value, took 3% of an RBP pass
// on a9a; it runs more than once a round).
inline bool binary_example(const Example& x) {
  uint64_t diff = 0;
  for (const double v : x.val) diff |= std::bit_cast<uint64_t>(v) ^ std::bit_cast<uint64_t>(1.0);
  return diff == 0 && x.sqnorm == static_cast<double>(x.val.size());
}

// x's features below 64 `words` as the non-zero 64-bit words of its bitset: word at[k] holds
// bits[k] (feature j is bit j % 64 of word j / 64).
struct WordsOf {
  std::vector<uint32_t> at;
  std::vector<uint64_t> bits;
  void set(const Example& x, std::size_t words);
};

// out[i - b] = sum_k popcount(words[x.at[k] * ld + i] & x.bits[k]) for b <= i < e, as doubles:
// <s_i, x> when words[w * ld + i] is word w of support i's bitset (feature-block-major).
void bit_dots(const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b, std::size_t e, double* out);
// The same on a named path ("scalar"; "avx2": Mula's nibble lookup, VPSHUFB + VPSADBW; "avx512":
// VPOPCNTQ; tests). Every path gives the same whole numbers. Throws std::invalid_argument when the
// CPU lacks the path.
void bit_dots_on(const std::string& isa, const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b,
                 std::size_t e, double* out);
// The path bit_dots runs on this CPU: "avx512" where the AVX-512 path is chosen (numerics/simd.hpp)
// and the CPU has VPOPCNTQ, else "avx2" where AVX2 is chosen or AVX-512 lacks VPOPCNTQ, else
// "scalar" (PLAB_SIMD=avx2 or scalar caps it). Decided once.
std::string bit_dots_isa();

// out[i] <- k(s_i, x) from out[i] = <s_i, x> (whole numbers) for a binary x (||x||^2 = xs) and
// binary supports (sq[i] = |s_i| <= max_count), by a table of the values the kernel's own row
// functions give (rbf_from_dots, poly_from_dots): the same bits. Returns false, doing nothing,
// for the linear kernel and when the table would have more entries than n / 2 and this thread has
// not made it yet (then the direct functions are as fast; once made, a lookup is cheaper than an
// exp even for one value, as for the terms a block of rounds appends).
bool kernel_from_counts(const Kernel& k, double xs, const double* sq, std::size_t max_count, double* out,
                        std::size_t n);
// The same on a named path (tests): "scalar", AVX2's "permute" (the table's halves in registers,
// the path on AMD CPUs) or "gather" (on Intel's), "avx512". Every path gives the same bits; throws
// std::invalid_argument when the CPU lacks the path.
bool kernel_from_counts_on(const std::string& path, const Kernel& k, double xs, const double* sq,
                           std::size_t max_count, double* out, std::size_t n);

// The score's terms fused: s.add_term(i, alpha[i], k(s_i, x)) for b <= i < e, k(s_i, x) from the
// popcount by the kernel's table (x binary with |x| = xs, support i binary with sq[i] = |s_i| <=
// max_count, words as bit_dots reads them): the same bits as bit_dots, then kernel_from_counts (or
// the direct row function: the table holds its bits), then LaneSum::add, without the row in
// memory. Given row, each value is also stored to row[i] (b <= i < e): the kernel row the same
// sum reads, for a learner that reads it after its score. Returns false, doing nothing, for the
// linear kernel and where bit_scores_fused() is false.
bool bit_scores(const Kernel& k, const uint64_t* words, std::size_t ld, const WordsOf& x, double xs, const double* sq,
                std::size_t max_count, const double* alpha, std::size_t b, std::size_t e, LaneSum& s,
                double* row = nullptr);
// Whether bit_scores runs: on the AVX-512 popcount path (elsewhere the row apart is as fast or
// faster).
bool bit_scores_fused();
// The same on a named path ("scalar" or "avx512"; tests), for any kernel but the linear one.
bool bit_scores_on(const std::string& isa, const Kernel& k, const uint64_t* words, std::size_t ld, const WordsOf& x,
                   double xs, const double* sq, std::size_t max_count, const double* alpha, std::size_t b, std::size_t e,
                   LaneSum& s, double* row = nullptr);

// Binary supports' bit columns, which SupportSet keeps beside the bitsets where
// byte_columns_wanted(): bit i % 64 of cols[j * cw + i / 64] is set when support i has feature j,
// counts[i] = |s_i|, for the features j < rows; columns readable 8 words past their last
// support's word and counts 64 bytes past their end (a last block reads beyond its slots). The
// counts of common features of 256 (AVX2) or 512 (AVX-512) supports are then the bit planes of
// nnz(x) columns added a bit at a time (plane p: bit p of each count; about 2 log2 nnz(x) logic
// operations a column), spread to a byte a support by masked byte adds (AVX-512) or shuffles and
// compares (AVX2): a byte per feature and support of x read as a bit, where AVX2's nibble
// popcounts cost about nine operations for four supports and word of x, and AVX-512's VPOPCNTQ
// path three vector operations for eight supports and word besides the count's conversion and
// its table index (docs/learners.md#binary).
// Whether they are kept: on the AVX2 path, and on the AVX-512 path where the CPU has AVX-512 BW.
bool byte_columns_wanted();
// Byte columns beside them (AVX2): sums[j * sld + i] = 1 when support i has feature j, else 0, for
// the features j < rows, each readable 32 bytes past its last support. The AVX2 path then adds
// the counts of 32 supports a byte each from x's nk columns (nk loads and byte adds), where the
// bit planes take a shuffle and four other operations a plane, on the pipes the table's lookup
// needs (the a9a passes 9-17% faster, docs/learners.md#binary). x of more than kByteSumFeatures
// features in the columns takes the planes, whose cost grows more slowly with nk (a bound by
// operation counts, not measured: 32 features are 64 loads and adds a block, about the 8 planes'
// cost). Eight times the bit
// columns' memory: kept on the AVX2 path only (AVX-512 spreads the planes by masked adds).
bool byte_sums_wanted();
constexpr std::size_t kByteSumFeatures = 32;
// Whether SupportSet forms the kernel rows that its fused scores' pass does not (a range of
// supports, a row split between threads; SupportSet::fused_rows) from them: on the AVX2 path (on
// AVX-512 by VPOPCNTQ).
bool byte_rows_wanted();
// Whether the byte path serves x (|x| = xs) against supports of at most max_count features: every
// count and Hamming distance fits a byte (|x| + max_count <= 255).
bool byte_counts_fit(double xs, std::size_t max_count);
// out[i - b] = <s_i, x> for b <= i < e from the bit columns: the whole numbers bit_dots gives
// (x binary, byte_counts_fit).
void byte_dots(const uint64_t* cols, std::size_t cw, std::size_t rows, const Example& x, std::size_t b, std::size_t e,
               double* out, const uint8_t* sums = nullptr, std::size_t sld = 0);
// bit_scores from the bit columns (x binary, byte_counts_fit; counts[i] = |s_i| <= max_count):
// the same bits, the row (given) too. False, doing nothing, for the linear kernel. With sums
// (the byte columns, sld apart) the AVX2 path counts from them: the same bits.
bool byte_scores(const Kernel& k, const uint64_t* cols, std::size_t cw, std::size_t rows, const Example& x,
                 const uint8_t* counts, std::size_t max_count, const double* alpha, std::size_t b, std::size_t e,
                 LaneSum& s, double* row = nullptr, const uint8_t* sums = nullptr, std::size_t sld = 0);
// The same with a named way to the table ("gather": AVX2's VGATHERDPD; "loads": AVX2, scalar
// loads two to a 128-bit half; "permute": the table's halves in AVX2 registers, as
// kernel_from_counts on AMD; "planes": AVX2, the table of up to 64 entries as byte planes, looked
// up by VPSHUFB and transposed back to doubles (larger tables by loads); "avx512": 64 supports a
// block, the table of up to 64 entries in AVX-512 registers; "avx512-halves": the same, its
// entries' 32-bit halves looked up for 16 supports at once (AVX-512 VBMI and GFNI); "scalar";
// tests). byte_scores takes on the AVX-512 path "avx512" on Intel CPUs (whose permutes share one
// port) or without VBMI and GFNI and "avx512-halves" elsewhere, on AVX2 "gather" on Intel CPUs and "planes" elsewhere (AMD's gathers are about as
// slow as a scalar loop).
bool byte_scores_on(const std::string& lookup, const Kernel& k, const uint64_t* cols, std::size_t cw,
                    std::size_t rows, const Example& x, const uint8_t* counts, std::size_t max_count,
                    const double* alpha, std::size_t b, std::size_t e, LaneSum& s, double* row = nullptr,
                    const uint8_t* sums = nullptr, std::size_t sld = 0);

}  // namespace plab
