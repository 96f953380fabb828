// The support set's two layouts (numerics/support_set.hpp, docs/learners.md#layout): the same
// bits in every kernel value and every round record whichever layout holds the supports (as the
// SIMD paths are tested), the automatic choice by density, and memory that follows the non-zeros
// (a 5-row file with feature index 10^7).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "datasets/registry.hpp"
#include "numerics/bit_dots.hpp"
#include "numerics/fast_exp.hpp"
#include "numerics/poly_pow.hpp"
#include "numerics/support_set.hpp"
#include "core/random.hpp"
#include "datasets/synthetic.hpp"
#include "experiments/run/run.hpp"
#include "test_util.hpp"

using namespace plab;

namespace {

// Rows shaped like a9a (14 binary-ish features of 123, real values so sums depend on the order).
Dataset a9a_like(std::size_t n, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> x(123, 0.0);
    for (int k = 0; k < 14; ++k) x[rng.below(123)] = rng.normal();
    d.push_dense(x, rng.uniform() < 0.5 ? 1.0 : -1.0);
  }
  return d;
}

bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

const std::vector<Kernel>& kernels() {
  static const std::vector<Kernel> k = {Kernel::linear(), Kernel::rbf(0.3), Kernel::poly(0.5, 1.0, 3)};
  return k;
}

// Every query of the interface, bit for bit, on three sets holding the same supports.
void expect_same_queries(const SupportSet& a, const SupportSet& b, const Dataset& probe) {
  ASSERT_EQ(a.size(), b.size());
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(a.id(i), b.id(i));
    ASSERT_TRUE(same_bits(a.sqnorm(i), b.sqnorm(i)));
    const Example ra = a.row(i), rb = b.row(i);
    ASSERT_TRUE(std::equal(ra.idx.begin(), ra.idx.end(), rb.idx.begin(), rb.idx.end()));
  }
  std::vector<Example> xs;
  for (std::size_t q = 0; q < probe.size(); ++q) xs.push_back(probe[q]);
  for (const Kernel& k : kernels()) {
    SCOPED_TRACE(k.describe());
    const std::size_t m = xs.size();
    std::vector<double> ra(m * n + 1), rb(m * n + 1);
    a.kernel_rows(k, xs.data(), m, ra.data(), n);
    b.kernel_rows(k, xs.data(), m, rb.data(), n);
    for (std::size_t j = 0; j < m * n; ++j) ASSERT_TRUE(same_bits(ra[j], rb[j])) << "entry " << j;
    for (std::size_t q = 0; q < m; ++q) {
      std::vector<double> row(n + 1), range(n + 1);
      b.kernel_row(k, xs[q], row.data());
      const std::size_t lo = n / 3, hi = n - n / 4;
      b.kernel_range(k, xs[q], lo, hi, range.data());
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(same_bits(row[i], ra[q * n + i])) << "kernel_row, slot " << i;
        ASSERT_TRUE(same_bits(b.kernel_one(k, xs[q], i), ra[q * n + i])) << "kernel_one, slot " << i;
        if (i >= lo && i < hi) { ASSERT_TRUE(same_bits(range[i - lo], ra[q * n + i])) << "kernel_range, slot " << i; }
      }
    }
  }
}

// Adds, removals (the last slot moves into the hole) and re-adds, the same on every layout. The
// last `probes` rows are the probes (for binary data also an empty row and one whose features no
// support has). Returns how many checks found the bitset index kept.
std::size_t exercise(const Dataset& d, std::size_t dim, std::size_t probes = 7) {
  SupportSet dense(dim, SupportLayout::dense), sparse(dim, SupportLayout::sparse), automatic(dim),
      bits(dim, SupportLayout::bits);
  EXPECT_EQ(dense.layout(), SupportLayout::dense);
  Rng rng(11);
  Dataset probe;
  for (std::size_t t = d.size() - probes; t < d.size(); ++t) {
    const Example x = d[t];
    probe.push_back(x.idx, x.val, x.y);
  }
  const std::vector<uint32_t> beyond = {static_cast<uint32_t>(d.dim + 70), static_cast<uint32_t>(d.dim + 200)};
  const std::vector<double> one = {1.0, 1.0};
  probe.push_back({}, {}, 1.0);
  probe.push_back(beyond, one, -1.0);
  expect_same_queries(dense, bits, probe);  // no supports yet
  std::size_t kept = 0;
  for (std::size_t t = 0; t + probes < d.size(); ++t) {
    for (SupportSet* s : {&dense, &sparse, &automatic, &bits}) s->add(d[t], static_cast<int64_t>(t + 1));
    if (t % 5 == 4) {
      const std::size_t i = rng.below(dense.size()), last = dense.size() - 1;
      for (SupportSet* s : {&dense, &sparse, &automatic, &bits}) EXPECT_EQ(s->remove(i), last);
    }
    if (t % 37 == 0 || t + probes + 1 == d.size()) {
      expect_same_queries(dense, sparse, probe);
      expect_same_queries(dense, automatic, probe);
      expect_same_queries(dense, bits, probe);
      kept += bits.bitset();
    }
  }
  EXPECT_EQ(dense.layout(), SupportLayout::dense);
  EXPECT_EQ(sparse.layout(), SupportLayout::sparse);
  EXPECT_EQ(sparse.nnz(), dense.nnz());
  EXPECT_FALSE(dense.bitset() || sparse.bitset());
  return kept;
}

// Rows of dim features, each present with probability p and of value 1.0; a fraction `real` of
// the rows (and of every 9th row's values) normal instead: mixed binary and non-binary rounds.
Dataset binary_rows(std::size_t n, std::size_t dim, double p, double real, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    const bool mixed = rng.uniform() < real;
    std::vector<double> x(dim, 0.0);
    for (std::size_t j = 0; j < dim; ++j)
      if (rng.uniform() < p) x[j] = mixed && j % 9 == 0 ? rng.normal() : 1.0;
    d.push_dense(x, rng.uniform() < 0.5 ? 1.0 : -1.0);
  }
  return d;
}

TEST(SupportLayout, SameBitsOnA9aLikeRows) { exercise(a9a_like(300, 1), 123); }

// Binary rows (numerics/bit_dots.hpp): popcounts and tabled kernel values against both layouts'
// fma chains, bit for bit, on dimensions at and across 64-bit word boundaries, with removals.
TEST(SupportLayout, BitsetSameBitsOnBinaryRows) {
  const uint64_t seed = test_util::test_seed(29);
  for (const std::size_t dim : {1, 63, 64, 65, 123, 130, 300}) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    const Dataset d = binary_rows(260, dim, dim < 64 ? 0.3 : 0.1, 0.0, seed + dim);
    EXPECT_GT(exercise(d, dim), 0u) << "the bitset index was never kept";
  }
}

// Some rows have non-binary values: rounds and supports fall back to the fma chains (the index is
// dropped while a non-binary support is held), with the same bits throughout.
TEST(SupportLayout, BitsetSameBitsOnMixedRows) {
  const uint64_t seed = test_util::test_seed(30);
  for (const double real : {0.02, 0.3}) {
    SCOPED_TRACE("non-binary fraction " + std::to_string(real));
    exercise(binary_rows(260, 150, 0.1, real, seed), 150, 12);
  }
}

// The index follows the rule: kept from the first add for binary rows of a9a's density, dropped
// at once by a non-binary support, never kept for real values or forced layouts.
TEST(SupportLayout, BitsetFollowsTheValuesAndTheDensity) {
  const Dataset b = binary_rows(40, 123, 0.11, 0.0, 7), sparse_b = binary_rows(40, 4000, 0.001, 0.0, 8);
  SupportSet a(123), lo(4000), dense(123, SupportLayout::dense);
  for (std::size_t t = 0; t < 40; ++t) {
    a.add(b[t], static_cast<int64_t>(t));
    lo.add(sparse_b[t], static_cast<int64_t>(t));
    dense.add(b[t], static_cast<int64_t>(t));
    ASSERT_TRUE(a.bitset()) << "t=" << t;
    ASSERT_FALSE(lo.bitset() || dense.bitset()) << "t=" << t;
    ASSERT_TRUE(dense.columns()) << "t=" << t;
  }
  // a9a's density takes the dense layout at 16 and 32 supports; the bitsets answer, so its
  // columns are not held until a non-binary support drops them.
  EXPECT_EQ(a.layout(), SupportLayout::dense);
  EXPECT_FALSE(a.columns());
  const std::vector<uint32_t> ix = {3, 9};
  const std::vector<double> vx = {1.0, 0.5};
  a.add(Example{ix, vx, 1.25, 1.0}, 99);
  EXPECT_FALSE(a.bitset());
  EXPECT_TRUE(a.columns());
  const std::vector<double> v1 = {1.0, 1.0};
  a.add(Example{ix, v1, 1.0, 1.0}, 100);  // a binary row whose norm is not its count: not binary
  a.remove(40);
  EXPECT_FALSE(a.bitset());
}

// The popcount kernel's vector paths (AVX2's nibble lookup, AVX-512's VPOPCNTQ) against the scalar
// one on random words, odd ranges and tails included; x with more words than a byte of AVX2's
// counts can sum (31), and all-ones words (every byte count at its largest).
TEST(SupportLayout, BitDotsPathsAgree) {
  Rng rng(test_util::test_seed(31));
  const std::size_t ld = 77;
  int ran = 0;
  for (const std::string isa : {"avx2", "avx512"}) {
    double probe = 0.0;
    try {
      bit_dots_on(isa, nullptr, ld, WordsOf{}, 0, 0, &probe);
    } catch (const std::invalid_argument&) {
      continue;  // the CPU lacks this path
    }
    ++ran;
    for (const std::size_t words : {1, 5, 31, 32, 70}) {
      for (const bool ones : {false, true}) {
        SCOPED_TRACE(isa + ", " + std::to_string(words) + " words" + (ones ? ", all ones" : ""));
        std::vector<uint64_t> w(words * ld);
        for (auto& v : w) v = ones ? ~uint64_t{0} : rng.bits();
        WordsOf x;
        for (std::size_t k = 0; k < words; k += words > 31 ? 1 : 2) {
          x.at.push_back(static_cast<uint32_t>(k));
          x.bits.push_back(ones ? ~uint64_t{0} : rng.bits());
        }
        for (const auto& [b, e] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {0, 77}, {3, 70}, {5, 6}, {8, 40}, {9, 9}, {1, 18}, {2, 21}, {0, 35}, {60, 77}}) {
          std::vector<double> s(e - b + 1, -1.0), v(e - b + 1, -1.0);
          bit_dots_on("scalar", w.data(), ld, x, b, e, s.data());
          bit_dots_on(isa, w.data(), ld, x, b, e, v.data());
          for (std::size_t i = 0; i <= e - b; ++i) ASSERT_TRUE(same_bits(s[i], v[i])) << b << ".." << e << " slot " << i;
          EXPECT_EQ(v[e - b], -1.0) << "wrote past the range";
        }
      }
    }
  }
  if (ran == 0) GTEST_SKIP() << "no vector popcount path here";
}

// The fused score terms (bit_scores_on) against the row they replace: the scalar popcounts, the
// kernel's row function itself (not its table) and LaneSum::add, lane for lane, on the scalar path
// and on AVX-512 where the CPU has it; supports dense enough for every table size (16, 32, 64
// entries and the gather), ranges that start and end off a vector and sums that continue from
// earlier terms.
TEST(SupportLayout, BitScoresAreTheRowsLaneSums) {
  Rng rng(test_util::test_seed(32));
  const std::size_t ld = 93, nw = 2;
  for (const std::string isa : {"scalar", "avx512"}) {
    try {
      if (isa != "scalar") bit_dots_on(isa, nullptr, ld, WordsOf{}, 0, 0, nullptr);
    } catch (const std::invalid_argument&) {
      continue;  // the CPU lacks this path
    }
    for (const double density : {0.02, 0.1, 0.2, 0.5}) {
      std::vector<uint64_t> w(nw * ld, 0);
      for (auto& v : w)
        for (int bit = 0; bit < 64; ++bit) v |= uint64_t{rng.uniform() < density} << bit;
      std::vector<double> sq(ld), alpha(ld);
      std::size_t max_count = 0;
      for (std::size_t i = 0; i < ld; ++i) {
        std::size_t c = 0;
        for (std::size_t k = 0; k < nw; ++k) c += static_cast<std::size_t>(std::popcount(w[k * ld + i]));
        sq[i] = static_cast<double>(c);
        max_count = std::max(max_count, c);
        alpha[i] = rng.normal();
      }
      WordsOf x;
      double xs = 0.0;
      for (std::size_t k = 0; k < nw; ++k) {
        uint64_t bits = 0;
        for (int bit = 0; bit < 64; ++bit) bits |= uint64_t{rng.uniform() < density} << bit;
        if (bits == 0) continue;
        x.at.push_back(static_cast<uint32_t>(k));
        x.bits.push_back(bits);
        xs += std::popcount(bits);
      }
      Kernel poly;
      poly.type = Kernel::Type::poly;
      poly.gamma = 0.25;
      poly.coef0 = 1.0;
      poly.degree = 3;
      Kernel rbf;
      rbf.type = Kernel::Type::rbf;
      rbf.gamma = 0.04;
      for (const Kernel& k : {rbf, poly}) {
        for (const auto& [b, e] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 93}, {3, 80}, {16, 48}, {17, 18}, {5, 5}}) {
          SCOPED_TRACE(isa + ", density " + std::to_string(density) + ", " + k.type_name() + ", " + std::to_string(b) +
                       ".." + std::to_string(e));
          LaneSum want, got;
          for (std::size_t l = 0; l < kSumLanes; ++l) want.acc[l] = got.acc[l] = rng.normal();
          std::vector<double> row(e - b + 1);
          bit_dots_on("scalar", w.data(), ld, x, b, e, row.data());
          if (k.type == Kernel::Type::rbf) rbf_from_dots_on("scalar", k.gamma, xs, sq.data() + b, row.data(), e - b);
          else poly_from_dots_on("scalar", k.gamma, k.coef0, k.degree, row.data(), e - b);
          want.add(alpha.data() + b, row.data(), e - b, b);
          const LaneSum start = got;
          ASSERT_TRUE(bit_scores_on(isa, k, w.data(), ld, x, xs, sq.data(), max_count, alpha.data(), b, e, got));
          for (std::size_t l = 0; l < kSumLanes; ++l) ASSERT_TRUE(same_bits(want.acc[l], got.acc[l])) << "lane " << l;
          // With the row asked for: the same sums, and the row's own values in slots b..e-1 alone.
          got = start;
          std::vector<double> out(ld + 1, -7.0);
          ASSERT_TRUE(bit_scores_on(isa, k, w.data(), ld, x, xs, sq.data(), max_count, alpha.data(), b, e, got, out.data()));
          for (std::size_t l = 0; l < kSumLanes; ++l) ASSERT_TRUE(same_bits(want.acc[l], got.acc[l])) << "lane " << l;
          for (std::size_t i = 0; i <= ld; ++i)
            ASSERT_TRUE(same_bits(out[i], i >= b && i < e ? row[i - b] : -7.0)) << "row, slot " << i;
        }
      }
    }
  }
}

// The kernel values from counts by table on every path (kernel_from_counts_on: the scalar
// lookup, AVX2's permuted registers and gather, AVX-512's permutes or gather) against the row
// functions themselves: tables of up to 16, 32, 64 and more entries, lengths off the vectors.
TEST(SupportLayout, CountsTableLookupsAreTheRowFunctions) {
  Rng rng(test_util::test_seed(34));
  Kernel poly;
  poly.type = Kernel::Type::poly;
  poly.gamma = 0.25;
  poly.coef0 = 1.0;
  poly.degree = 3;
  for (const std::string path : {"scalar", "permute", "gather", "avx512"}) {
    for (const std::size_t max_count : {5, 12, 40, 90}) {
      for (const Kernel& k : {Kernel::rbf(0.04), poly}) {
        const std::size_t n = 2 * (max_count + max_count / 2 + 1) + 7;  // room for the table (n / 2 entries)
        const auto xs = static_cast<double>(max_count / 2);
        std::vector<double> sq(n), counts(n), want(n), got(n);
        for (std::size_t i = 0; i < n; ++i) {
          sq[i] = static_cast<double>(rng.below(max_count + 1));
          counts[i] = static_cast<double>(rng.below(static_cast<uint64_t>(std::min(sq[i], xs)) + 1));
        }
        want = counts;
        if (k.type == Kernel::Type::rbf) rbf_from_dots_on("scalar", k.gamma, xs, sq.data(), want.data(), n);
        else poly_from_dots_on("scalar", k.gamma, k.coef0, k.degree, want.data(), n);
        got = counts;
        SCOPED_TRACE(path + ", max count " + std::to_string(max_count) + ", " + k.type_name());
        try {
          ASSERT_TRUE(kernel_from_counts_on(path, k, xs, sq.data(), max_count, got.data(), n));
        } catch (const std::invalid_argument&) {
          break;  // the CPU lacks this path
        }
        for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(same_bits(want[i], got[i])) << "slot " << i;
      }
    }
  }
}

// The lookups byte_scores_on takes on this CPU ("scalar", "permute", "gather", "loads", "planes",
// "avx512", "avx512-halves").
std::vector<std::string> byte_lookups() {
  std::vector<std::string> out;
  for (const std::string lookup : {"scalar", "permute", "gather", "loads", "planes", "avx512", "avx512-halves"}) {
    try {
      LaneSum probe;
      const uint8_t none[1] = {0};
      const uint64_t no_bits[1] = {0};
      byte_scores_on(lookup, Kernel::rbf(1.0), no_bits, 1, 0, Example{}, none, 0, nullptr, 0, 0, probe);
      out.push_back(lookup);
    } catch (const std::invalid_argument&) {
      // the CPU lacks AVX2 or AVX-512 BW
    }
  }
  return out;
}

// ld supports' bit columns and byte columns over `rows` features (each feature with probability
// p), their counts |s_i| and coefficients.
struct BitColumns {
  std::size_t ld, rows, cw, sld;
  std::vector<uint64_t> cols;
  std::vector<uint8_t> sums;
  std::vector<uint8_t> counts;
  std::vector<double> alpha;
  std::size_t max_count = 0;
  BitColumns(Rng& rng, std::size_t ld_, std::size_t rows_, double p)
      : ld(ld_), rows(rows_), cw((ld_ + 63) / 64 + 8), sld(ld_ + 32), cols(rows_ * cw, 0), sums(rows_ * sld, 0),
        counts(ld_ + 64, 0), alpha(ld_) {  // + 8 words, + 32 bytes: the slack byte_scores reads
    for (std::size_t i = 0; i < ld; ++i) {
      std::size_t c = 0;
      for (std::size_t j = 0; j < rows; ++j)
        if (rng.uniform() < p) {
          cols[j * cw + i / 64] |= uint64_t{1} << (i % 64);
          sums[j * sld + i] = 1;
          ++c;
        }
      counts[i] = static_cast<uint8_t>(c);
      max_count = std::max(max_count, c);
      alpha[i] = rng.normal();
    }
  }
  bool has(std::size_t j, std::size_t i) const { return (cols[j * cw + i / 64] >> (i % 64)) & 1u; }
};

// byte_dots and byte_scores_on(lookup) of x (binary, features idx) over supports [b, e) against
// the definition: the count of common features, the kernel's row function and LaneSum::add;
// counted from the bit columns, or from the byte columns where `sums`.
void expect_byte_terms(Rng& rng, const BitColumns& s, const std::string& lookup, const Kernel& k,
                       const std::vector<uint32_t>& idx, std::size_t b, std::size_t e, bool sums) {
  const uint8_t* bytes = sums ? s.sums.data() : nullptr;
  const std::vector<double> ones(idx.size(), 1.0);
  const Example x{idx, ones, static_cast<double>(idx.size()), 1.0};
  ASSERT_TRUE(byte_counts_fit(x.sqnorm, s.max_count)) << idx.size() << " + " << s.max_count;
  std::vector<double> row(e - b + 1), dots(e - b + 1), sq(s.ld);
  for (std::size_t i = b; i < e; ++i) {
    unsigned c = 0;
    for (const uint32_t j : idx) c += j < s.rows ? s.has(j, i) : 0;
    row[i - b] = static_cast<double>(c);
  }
  byte_dots(s.cols.data(), s.cw, s.rows, x, b, e, dots.data(), bytes, s.sld);
  for (std::size_t i = b; i < e; ++i) ASSERT_TRUE(same_bits(dots[i - b], row[i - b])) << "count, slot " << i;
  for (std::size_t i = 0; i < s.ld; ++i) sq[i] = s.counts[i];
  if (k.type == Kernel::Type::rbf) rbf_from_dots_on("scalar", k.gamma, x.sqnorm, sq.data() + b, row.data(), e - b);
  else poly_from_dots_on("scalar", k.gamma, k.coef0, k.degree, row.data(), e - b);
  LaneSum want, got;
  for (std::size_t l = 0; l < kSumLanes; ++l) want.acc[l] = got.acc[l] = rng.normal();
  want.add(s.alpha.data() + b, row.data(), e - b, b);
  const LaneSum start = got;
  ASSERT_TRUE(byte_scores_on(lookup, k, s.cols.data(), s.cw, s.rows, x, s.counts.data(), s.max_count, s.alpha.data(), b, e, got,
                             nullptr, bytes, s.sld));
  for (std::size_t l = 0; l < kSumLanes; ++l) ASSERT_TRUE(same_bits(want.acc[l], got.acc[l])) << "lane " << l;
  // With the row asked for: the same sums, and the row's own values in slots b..e-1 alone.
  got = start;
  std::vector<double> out(s.ld + 1, -7.0);
  ASSERT_TRUE(byte_scores_on(lookup, k, s.cols.data(), s.cw, s.rows, x, s.counts.data(), s.max_count, s.alpha.data(), b, e,
                             got, out.data(), bytes, s.sld));
  for (std::size_t l = 0; l < kSumLanes; ++l) ASSERT_TRUE(same_bits(want.acc[l], got.acc[l])) << "lane " << l;
  for (std::size_t i = 0; i <= s.ld; ++i)
    ASSERT_TRUE(same_bits(out[i], i >= b && i < e ? row[i - b] : -7.0)) << "row, slot " << i;
}

// The bit columns' score terms and counts (byte_scores_on, byte_dots; the AVX2 path) against
// the row they replace, computed from the definition: the count of common features, the kernel's
// row function itself and LaneSum::add, lane for lane, for every way to the table (scalar, AVX2's
// permuted registers, gather, loads and byte planes, AVX-512's blocks of 64 by doubles and by
// 32-bit halves), counted from the bit columns and from the byte columns; tables of up to 16, 32,
// 64 and more entries (to |x| + max |s| = 180 or so, near a byte's 255), x of up to 15 features in the
// columns (4 bit planes) and more (8), x with features past the columns, 1100 supports (blocks
// of 256 and 512 supports, and part of one), ranges that start and end off a block of 32 or 64
// and sums that continue from earlier terms.
TEST(SupportLayout, ByteScoresAreTheRowsLaneSums) {
  Rng rng(test_util::test_seed(33));
  Kernel poly;
  poly.type = Kernel::Type::poly;
  poly.gamma = 0.25;
  poly.coef0 = 1.0;
  poly.degree = 3;
  for (const std::string& lookup : byte_lookups())
    for (const double density : {0.02, 0.08, 0.15, 0.3, 0.6}) {
      const BitColumns s(rng, 1100, 192, density / 4);
      std::vector<uint32_t> idx;
      for (uint32_t j = 0; j < s.rows + 40; ++j)  // features past the columns count 0
        if (rng.uniform() < (density < 0.05 ? 0.05 : density)) idx.push_back(j);
      for (const Kernel& k : {Kernel::rbf(0.04), poly})
        for (const auto& [b, e] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {0, 1100}, {3, 1090}, {64, 600}, {500, 1037}, {16, 80}, {17, 18}, {5, 5}}) {
          for (const bool sums : {false, true}) {
            SCOPED_TRACE(lookup + ", density " + std::to_string(density) + ", " + k.type_name() + ", " +
                         std::to_string(b) + ".." + std::to_string(e) + (sums ? ", byte columns" : ""));
            expect_byte_terms(rng, s, lookup, k, idx, b, e, sums);
          }
        }
    }
}

// x of every number of features in the columns from 0 to 20 and 30 to 33: the columns are added
// into the bit planes two or three at a time, so every remainder, and 4 planes (up to 15
// features) and 8 (more); the byte columns two at a time, up to kByteSumFeatures (32) features
// (33 takes the planes).
TEST(SupportLayout, ByteScoresForEveryFeatureCount) {
  Rng rng(test_util::test_seed(34));
  const BitColumns s(rng, 1100, 64, 0.4);
  std::vector<uint32_t> all(s.rows);
  for (uint32_t j = 0; j < s.rows; ++j) all[j] = j;
  for (const std::string& lookup : byte_lookups())
    for (std::size_t nk = 0; nk <= 33; nk += nk == 20 ? 10 : 1) {
      for (std::size_t j = 0; j < nk; ++j) std::swap(all[j], all[j + rng.below(s.rows - j)]);
      std::vector<uint32_t> idx(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(nk));
      std::sort(idx.begin(), idx.end());
      for (const bool sums : {false, true}) {
        SCOPED_TRACE(lookup + ", " + std::to_string(nk) + " features" + (sums ? ", byte columns" : ""));
        expect_byte_terms(rng, s, lookup, Kernel::rbf(0.04), idx, 0, 1100, sums);
        expect_byte_terms(rng, s, lookup, Kernel::rbf(0.04), idx, 3, 1037, sums);
      }
    }
}

TEST(SupportLayout, SameBitsOnHighDimensionalRows) { exercise(make_sparse(300, 5000, 60, 0.0, 2), 5000); }

// Examples with features no support has, and supports beyond the dimension announced.
TEST(SupportLayout, SameBitsWhenTheDimensionGrows) { exercise(make_sparse(200, 800, 90, 0.0, 3), 10); }

// The automatic choice follows the measured density: dense for a9a's 14 of 123 features, sparse
// for 500 of 1.3 million; a dense set that meets much sparser supports turns sparse at once.
TEST(SupportLayout, AutomaticFollowsTheDensity) {
  const Dataset a = a9a_like(50, 4), h = make_sparse(50, 1300000, 500, 0.0, 5);
  SupportSet sa(123), sh(1300000);
  for (std::size_t t = 0; t < 50; ++t) {
    sa.add(a[t], static_cast<int64_t>(t));
    sh.add(h[t], static_cast<int64_t>(t));
    ASSERT_EQ(sa.layout(), SupportLayout::dense) << "t=" << t;
    ASSERT_EQ(sh.layout(), SupportLayout::sparse) << "t=" << t;
  }
  // Density of sa: ~14/123; one support with feature 10^7 makes it ~1.4e-6 * 50 < half the threshold.
  const std::vector<uint32_t> ix = {3, 10000000};
  const std::vector<double> vx = {1.0, 2.0};
  sa.add(Example{ix, vx, 5.0, 1.0}, 99);
  EXPECT_EQ(sa.layout(), SupportLayout::sparse);
  EXPECT_EQ(sa.dim(), 10000001u);
}

// Every registered learner writes the same records, bit for bit, on data d whichever of `layouts`
// holds its supports (the layout is a speed and memory choice only).
void expect_same_records(const Dataset& d, const std::vector<SupportLayout>& layouts) {
  const auto order = make_order(d.size(), 3);
  for (const auto& info : learners()) {
    for (const Kernel& k : kernels()) {
      if (!info.takes(k)) continue;
      SCOPED_TRACE(info.name + " " + k.describe());
      LearnerOptions o;
      o.kernel = k;
      o.dim = d.dim;
      Dataset dc;  // multiclass learners: the ±1 labels as classes 0, 1
      if (info.multiclass) {
        dc = d;
        index_classes(dc);
        o.classes = 2;
      }
      const Dataset& data = info.multiclass ? dc : d;
      if (info.uses("budget")) o.own["budget"] = 25;
      if (info.name == "norma") o.own = {{"rho", 0.5}, {"lambda", 0.01}};  // its own options
      if (info.uses("eta")) o.own["eta"] = 0.3;
      std::vector<RunResult> runs;
      for (const SupportLayout l : layouts) {
        set_support_layout_default(l);
        auto L = test_util::configured_learner(info.name, o);
        runs.push_back(run_online(*L, data, order));
      }
      set_support_layout_default(SupportLayout::automatic);
      for (std::size_t r = 1; r < runs.size(); ++r) {
        SCOPED_TRACE("layout " + std::to_string(static_cast<int>(layouts[r])));
        ASSERT_EQ(runs[0].rounds.size(), runs[r].rounds.size());
        for (std::size_t t = 0; t < runs[0].rounds.size(); ++t) {
          const RoundRecord &p = runs[0].rounds[t], &q = runs[r].rounds[t];
          const double a[] = {p.score, p.kxx, p.f_norm2, p.delta_norm, p.pk2, p.tau, p.eta_t, p.phi, p.psi, p.Q,
                              p.sigma_r, p.f_r, p.rho, p.coef, p.trunc_norm, p.trunc_bound};
          const double b[] = {q.score, q.kxx, q.f_norm2, q.delta_norm, q.pk2, q.tau, q.eta_t, q.phi, q.psi, q.Q,
                              q.sigma_r, q.f_r, q.rho, q.coef, q.trunc_norm, q.trunc_bound};
          for (std::size_t f = 0; f < std::size(a); ++f)
            ASSERT_TRUE(same_bits(a[f], b[f])) << "round " << t + 1 << " field " << f << ": " << a[f] << " vs " << b[f];
          ASSERT_EQ(p.update, q.update) << "round " << t + 1;
          ASSERT_EQ(p.support_size, q.support_size) << "round " << t + 1;
          ASSERT_EQ(p.removed, q.removed) << "round " << t + 1;
        }
      }
    }
  }
}

TEST(SupportLayout, EveryLearnerSameRecordsOnBothLayouts) {
  expect_same_records(make_sparse(500, 300, 12, 0.1, 6), {SupportLayout::dense, SupportLayout::sparse});
}

// Binary rows (w8a's shape: 12 of 300 features) with a few non-binary ones: the bitset index too.
TEST(SupportLayout, EveryLearnerSameRecordsOnBinaryRows) {
  expect_same_records(binary_rows(500, 300, 0.04, 0.01, test_util::test_seed(32)),
                      {SupportLayout::dense, SupportLayout::sparse, SupportLayout::bits});
}

// Peak resident memory of `plab ARGS` run as a child process (wait4's rusage), in MB.
double child_peak_mb(const std::vector<std::string>& args, int* status) {
  const char* bin = std::getenv("PLAB_BIN");
  if (!bin) bin = PLAB_BIN_PATH;
  std::vector<char*> argv = {const_cast<char*>(bin)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(bin, argv.data());
    _exit(127);
  }
  rusage ru{};
  wait4(pid, status, 0, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // kB on Linux
}

// A 5-row LIBSVM file whose largest feature index is 10^7 would take 5.6 GB (1.9 GB with
// --no-bounds) with the supports stored densely. Memory follows the non-zeros: the
// whole `plab run` (reading, kernel Perceptron, comparator, bounds, trace) stays in a few MB above
// the program's own size (measured: 10 MB).
TEST(SupportLayout, FiveRowFileWithIndex1e7RunsInLittleMemory) {
  test_util::TempDir dir("layout_mem");
  const std::string data = (dir.p / "five.svm").string(), trace = (dir.p / "t.csv").string();
  std::ofstream(data) << "+1 1:0.5 10000000:1\n-1 2:1 10000000:0.5\n+1 3:1\n-1 1:1 5:2\n+1 10000000:1\n";
#if defined(__SANITIZE_ADDRESS__)
  const double limit = 256.0;  // the sanitizer's shadow memory and quarantine
#else
  const double limit = 48.0;
#endif
  for (const std::string kernel : {"linear", "rbf"}) {
    for (const std::string algo : {"kernel-perceptron", "projectron++"}) {
      int status = 0;
      const double mb =
          child_peak_mb({"run", "--algo", algo, "--data", data, "--kernel", kernel, "--trace", trace}, &status);
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << algo << " " << kernel << " failed";
      EXPECT_LT(mb, limit) << algo << " " << kernel << ": peak resident memory " << mb << " MB";
      EXPECT_NE(test_util::read_text(trace).find("\n5,"), std::string::npos) << "no round 5 in the trace";
    }
  }
}

TEST(SupportLayout, UnknownLayoutNameIsAnError) {
  const std::string cmd = "PLAB_LAYOUT=diagonal " + std::string(PLAB_BIN_PATH) +
                          " run --algo kernel-perceptron --data synthetic:xor:n=10 --no-bounds 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  test_util::CliResult r{0, ""};
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("PLAB_LAYOUT must be dense, sparse, bits or auto, not 'diagonal'"), std::string::npos) << r.output;
}

}  // namespace

// KernelExpansion::prepare: a block's dot products computed together, the slots added or
// replaced since recomputed alone, give every budget learner the records of round-by-round
// learning bit for bit. Rows shaped like ijcnn1 (13 real features of 22, dense layout), a budget
// small enough that most mistakes replace a support within the block.
TEST(PreparedDots, BlockRecordsEqualRoundByRound) {
  Rng rng(5);
  Dataset d;
  for (std::size_t i = 0; i < 900; ++i) {
    std::vector<double> x(22, 0.0);
    for (int k = 0; k < 13; ++k) x[rng.below(22)] = rng.normal();
    d.push_dense(x, rng.uniform() < 0.5 ? 1.0 : -1.0);
  }
  std::vector<Example> xs;
  for (std::size_t t = 0; t < d.size(); ++t) xs.push_back(d[t]);
  for (const std::string algo : {"rbp", "forgetron", "stoptron", "cks", "bpa-s", "bpa-nn", "bogd", "bogd++", "nogd",
                                 "norma", "kernel-perceptron"}) {
    SCOPED_TRACE(algo);
    LearnerOptions o;
    o.dim = d.dim;
    o.kernel = Kernel::rbf(0.2);
    o.own["budget"] = 40;
    o.own["rank"] = 8;
    if (algo == "norma") {  // its own options
      o.own["lambda"] = 0.01;
      o.own["truncate"] = 50;
    }
    auto one = test_util::configured_learner(algo, o), blk = test_util::configured_learner(algo, o);
    std::vector<RoundRecord> b(d.size());
    for (std::size_t t0 = 0; t0 < d.size(); t0 += 96) {
      const std::size_t n = std::min<std::size_t>(96, d.size() - t0);
      blk->learn_block(xs.data() + t0, n, static_cast<int64_t>(t0 + 1), b.data() + t0);
    }
    std::size_t mistakes = 0;
    for (std::size_t t = 0; t < d.size(); ++t) {
      const RoundRecord r = one->learn(d[t], static_cast<int64_t>(t + 1));
      ASSERT_EQ(std::bit_cast<uint64_t>(r.score), std::bit_cast<uint64_t>(b[t].score)) << "t=" << t + 1;
      ASSERT_EQ(r.update, b[t].update) << "t=" << t + 1;
      ASSERT_EQ(r.support_size, b[t].support_size) << "t=" << t + 1;
      mistakes += r.mistake;
    }
    EXPECT_GT(mistakes, 100u);  // the budget is reached and supports are replaced within blocks
  }
}
