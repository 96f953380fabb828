// The blocked dense dot-product kernel (numerics/panel_dots.hpp) and SupportSet's dense rows:
// every path continues the fma chain over x's features in order, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <span>
#include <string>
#include <vector>

#include "numerics/panel_dots.hpp"
#include "numerics/support_set.hpp"
#include "core/random.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using test_util::same_bits;
using test_util::test_seed;

namespace {

struct Rows {
  std::vector<std::vector<uint32_t>> idx;
  std::vector<std::vector<double>> val;
  std::vector<Example> ex;
};

// n sparse rows over features [0, dim), each feature present with probability p.
Rows random_rows(Rng& rng, std::size_t n, std::size_t dim, double p) {
  Rows r;
  r.idx.resize(n);
  r.val.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < dim; ++j)
      if (rng.uniform() < p) { r.idx[i].push_back(j); r.val[i].push_back(rng.uniform() * 2.0 - 1.0); }
  for (std::size_t i = 0; i < n; ++i) {
    double sq = 0.0;
    for (double v : r.val[i]) sq += v * v;
    r.ex.push_back({r.idx[i], r.val[i], sq, 0.0});
  }
  return r;
}

// <s, x> by the definition: fma(x_j, s_j, acc) from acc over x's features in order.
double chain(const Example& x, const Example& s, double acc = 0.0) {
  for (std::size_t q = 0; q < x.idx.size(); ++q)
    for (std::size_t k = 0; k < s.idx.size(); ++k)
      if (s.idx[k] == x.idx[q]) acc = std::fma(x.val[q], s.val[k], acc);
  return acc;
}

}  // namespace

// panel_dots on every path gives the chain over x's features below the tile's rows, for rounds in
// pairs with an empty lane (m = 37), over chunks with a partial last one (250 rows), on a tile
// inside a wider row stride, whose other columns are never read into a sum nor written; into rows
// stored plainly and into rows it streams (streaming stores, panel_dots.hpp).
TEST(PanelDots, EveryPathGivesTheChain) {
  Rng rng(test_seed(31));
  const std::size_t rows = 250, dim = 300, m = 37;
  const Rows sup = random_rows(rng, kPanelSupports, rows, 0.3), xs = random_rows(rng, m, dim, 0.25);
  const std::size_t stride = kPanelSupports + 13, off = 5;  // the tile starts at column 5 of wider rows
  std::vector<double> panel(rows * stride, 1e300);
  for (std::size_t j = 0; j < rows; ++j)
    for (std::size_t i = 0; i < kPanelSupports; ++i) panel[j * stride + off + i] = 0.0;
  for (std::size_t i = 0; i < kPanelSupports; ++i)
    for (std::size_t k = 0; k < sup.idx[i].size(); ++k) panel[sup.idx[i][k] * stride + off + i] = sup.val[i][k];
  const RoundPairs g = pair_rounds(xs.ex.data(), m, rows, stride);
  int checked = 0;
  // Rows stored plainly (ld = 67), and rows that panel_dots streams (aligned, m ld >= kStreamBytes).
  const std::size_t wide = (kStreamBytes / (g.lane.size() * sizeof(double)) + 8) / 8 * 8;
  for (const std::size_t ld : {kPanelSupports + 3, wide})
    for (const std::string isa : {"scalar", "avx2", "avx512"}) {
      std::vector<double, HugePageAllocator<double>> out(m * ld, -7.0);  // 64-byte aligned
      ASSERT_EQ(streams(g, out.data(), ld), ld == wide) << ld;
      try {
        panel_dots_on(isa, panel.data() + off, panel.data() + off, g, out.data(), ld);  // prefetching itself
      } catch (const std::invalid_argument&) {
        std::printf("%s: not on this CPU, skipped\n", isa.c_str());
        continue;
      }
      ++checked;
      for (std::size_t l = 0; l < m; ++l) {
        Example x = xs.ex[l];  // the features past the tile's rows are not part of the chain
        std::size_t q = 0;
        while (q < x.idx.size() && x.idx[q] < rows) ++q;
        x.idx = x.idx.first(q);
        x.val = x.val.first(q);
        for (std::size_t i = 0; i < kPanelSupports; ++i)
          ASSERT_TRUE(same_bits(out[l * ld + i], chain(x, sup.ex[i]))) << isa << " ld " << ld << " l " << l << " i " << i;
        for (std::size_t i = kPanelSupports; i < ld; ++i) ASSERT_EQ(out[l * ld + i], -7.0) << ld;  // untouched
      }
    }
  EXPECT_GE(checked, 1);
}

// The pairs: every round in exactly one lane, the padding lane last, and each pair's entries, chunk
// after chunk, the ascending union of its rounds' features below `rows`, each in its chunk, each
// value the round's own (0 where it lacks the feature); paired by bitsets and, past
// kPairBitsetRows, in order. Every row an entry reads has its lines in its chunk's prefetch list.
TEST(PanelDots, PairsHoldEveryRoundOnceWithItsFeatures) {
  Rng rng(test_seed(33));
  for (const std::size_t rows : {std::size_t{200}, kPairBitsetRows + 100}) {
    const std::size_t m = 23, stride = 41;
    const Rows xs = random_rows(rng, m, rows + 50, 40.0 / static_cast<double>(rows));
    const RoundPairs g = pair_rounds(xs.ex.data(), m, rows, stride);
    const std::size_t P = (m + 1) / 2;
    ASSERT_EQ(g.pairs(), P);
    ASSERT_EQ(g.chunks, (rows + kPanelRows - 1) / kPanelRows);
    ASSERT_EQ(g.at.size(), g.chunks * P + 1);
    EXPECT_EQ(g.at.front(), 0u);
    EXPECT_EQ(g.at.back(), g.offset.size());
    EXPECT_EQ(g.val.size(), 2 * g.offset.size());
    EXPECT_TRUE(std::is_sorted(g.at.begin(), g.at.end()));
    std::vector<int> seen(m, 0);
    for (std::size_t k = 0; k < g.lane.size(); ++k) {
      if (g.lane[k] == RoundPairs::kNoRound) { EXPECT_EQ(k, g.lane.size() - 1) << "padding before the last lane"; continue; }
      ++seen[g.lane[k]];
    }
    for (std::size_t l = 0; l < m; ++l) EXPECT_EQ(seen[l], 1) << "round " << l;
    if (rows > kPairBitsetRows) {
      for (std::size_t l = 0; l < m; ++l) EXPECT_EQ(g.lane[l], l) << "rounds in order past the bitset limit";
    }
    for (std::size_t q = 0; q < P; ++q) {
      std::vector<uint32_t> want;
      for (std::size_t r = 0; r < 2; ++r)
        if (const uint32_t l = g.lane[2 * q + r]; l != RoundPairs::kNoRound) {
          for (uint32_t j : xs.idx[l])
            if (j < rows) want.push_back(j);
        }
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      std::size_t got = 0;
      for (std::size_t c = 0; c < g.chunks; ++c)
        for (std::size_t u = g.at[c * P + q]; u < g.at[c * P + q + 1]; ++u, ++got) {
          ASSERT_LT(got, want.size()) << "pair " << q;
          const uint32_t j = want[got];
          ASSERT_EQ(g.offset[u], static_cast<std::size_t>(j) * stride) << "pair " << q << " entry " << got;
          ASSERT_EQ(j / kPanelRows, c) << "feature " << j << " in chunk " << c;
          const std::size_t line = j * stride;  // its first line is in the chunk's prefetch list
          EXPECT_TRUE(std::find(g.line.begin() + static_cast<std::ptrdiff_t>(g.line_at[c]),
                                g.line.begin() + static_cast<std::ptrdiff_t>(g.line_at[c + 1]), line) !=
                      g.line.begin() + static_cast<std::ptrdiff_t>(g.line_at[c + 1]));
          for (std::size_t r = 0; r < 2; ++r) {
            const uint32_t l = g.lane[2 * q + r];
            double v = 0.0;
            if (l != RoundPairs::kNoRound)
              for (std::size_t k = 0; k < xs.idx[l].size(); ++k) if (xs.idx[l][k] == j) v = xs.val[l][k];
            ASSERT_EQ(g.val[2 * u + r], v) << "pair " << q << " feature " << j << " lane " << r;
          }
        }
      ASSERT_EQ(got, want.size()) << "pair " << q;
    }
  }
}

// SupportSet in the dense layout: rows of many rounds at once (the blocked kernel), of one round and
// single values agree bit for bit with the chain, across a partial last tile, a dimension that grows
// (new features after the first supports) and removals.
TEST(PanelDots, SupportRowsAgreeAcrossGrowthAndRemovals) {
  Rng rng(test_seed(32));
  const Rows first = random_rows(rng, 70, 60, 0.3), later = random_rows(rng, 60, 500, 0.2), xs = random_rows(rng, 45, 520, 0.2);
  SupportSet sv(60, SupportLayout::dense);
  std::vector<const Example*> kept;
  for (std::size_t i = 0; i < first.ex.size(); ++i) { sv.add(first.ex[i], static_cast<int64_t>(i)); kept.push_back(&first.ex[i]); }
  for (std::size_t i = 0; i < later.ex.size(); ++i) { sv.add(later.ex[i], static_cast<int64_t>(100 + i)); kept.push_back(&later.ex[i]); }
  for (std::size_t r = 0; r < 25; ++r) {  // remove random slots; the last moves into the hole
    const std::size_t j = rng.below(kept.size());
    const std::size_t moved = sv.remove(j);
    kept[j] = kept[moved];
    kept.pop_back();
  }
  ASSERT_EQ(sv.layout(), SupportLayout::dense);
  ASSERT_NE(sv.size() % kPanelSupports, 0u);
  const std::size_t n = sv.size(), m = xs.ex.size();
  std::vector<double> block(m * n), one(n);
  sv.kernel_rows(Kernel::linear(), xs.ex.data(), m, block.data(), n);
  for (std::size_t l = 0; l < m; ++l) {
    sv.kernel_row(Kernel::linear(), xs.ex[l], one.data());
    for (std::size_t i = 0; i < n; ++i) {
      const double want = chain(xs.ex[l], *kept[i]);
      ASSERT_TRUE(same_bits(block[l * n + i], want)) << "block l " << l << " i " << i;
      ASSERT_TRUE(same_bits(one[i], want)) << "row l " << l << " i " << i;
      ASSERT_TRUE(same_bits(sv.kernel_one(Kernel::linear(), xs.ex[l], i), want)) << "one l " << l << " i " << i;
    }
  }
}

// Greedy pairing by hand (rows 200: 4 chunks of 64 rows, the last of 8): rounds 0 = {0..9},
// 1 = {100..109}, 2 = {0..8, 50}, 3 = 4 = {100..109}. Round 0 differs from 2 by 2 features and
// from 1, 3, 4 by 20: pair (0, 2); round 1 differs from 3 and 4 by 0: the lower, pair (1, 3); round
// 4 is left alone. Pair 0's union {0..9, 50} is 11 entries in chunk 0; pairs 1 and 2 have 10 each
// in chunk 1.
TEST(PanelDots, PairsGatherRoundsThatShareFeatures) {
  std::vector<std::vector<uint32_t>> idx(5);
  for (uint32_t j = 0; j < 10; ++j) {
    idx[0].push_back(j);
    idx[1].push_back(100 + j);
    if (j < 9) idx[2].push_back(j);
  }
  idx[2].push_back(50);
  idx[3] = idx[4] = idx[1];
  std::vector<double> ones(10, 1.0);
  std::vector<Example> xs;
  for (const auto& f : idx) xs.push_back({f, std::span<const double>(ones.data(), f.size()), 10.0, 0.0});
  const RoundPairs g = pair_rounds(xs.data(), xs.size(), 200, 1);
  EXPECT_EQ(g.lane, (std::vector<uint32_t>{0, 2, 1, 3, 4, RoundPairs::kNoRound}));
  EXPECT_EQ(g.at, (std::vector<std::size_t>{0, 11, 11, 11, 11, 21, 31, 31, 31, 31, 31, 31, 31}));
  EXPECT_EQ(g.val[2 * 9], 1.0);  // feature 9: round 0 has it,
  EXPECT_EQ(g.val[2 * 9 + 1], 0.0);  // round 2 does not
  EXPECT_EQ(g.offset[10], 50u);
  EXPECT_EQ(g.val[2 * 10], 0.0);
  EXPECT_EQ(g.val[2 * 10 + 1], 1.0);
}

// A dot product that underflows to -0 (2^-600 x -2^-600) reads +0 by every path: the paired kernel
// may add the other round's zero terms (-0 + (+0) = +0), so every path ends with + 0.0. 70 supports
// (the first with the tiny value, the others 1 on feature 1), so the block goes through the paired
// kernel and a partial tile, and rounds with and without a zero term. Also a dense
// support set whose capacity is not a multiple of 8 (reserve(37): the partial tile cannot be read
// past the columns, so it takes the per-round path) gives the chain's bits.
TEST(PanelDots, UnderflowToMinusZeroAndOddCapacityGiveTheSameBitsEverywhere) {
  const std::vector<uint32_t> f0{0}, f1{1};
  const std::vector<double> tiny{0x1p-600}, minus_tiny{-0x1p-600}, one{1.0};
  for (const SupportLayout layout : {SupportLayout::dense, SupportLayout::sparse}) {
    SupportSet sv(2, layout);
    sv.add({f0, minus_tiny, 0.0, 0.0}, 0);  // ||x||^2 underflows too (a linear kernel does not read it)
    for (int i = 1; i < 70; ++i) sv.add({f1, one, 1.0, 0.0}, i);
    std::vector<Example> xs{{f0, tiny, 0.0, 0.0}, {f0, tiny, 0.0, 0.0}};  // a pair with no zero term
    for (int l = 0; l < 5; ++l) xs.push_back({f1, one, 1.0, 0.0});
    xs.push_back({f0, tiny, 0.0, 0.0});  // paired with a round on feature 1: a zero term
    const std::size_t n = sv.size();
    std::vector<double> block(xs.size() * n);
    sv.kernel_rows(Kernel::linear(), xs.data(), xs.size(), block.data(), n);
    std::vector<double> row(n, 1.0);
    sv.kernel_row(Kernel::linear(), xs[0], row.data());
    for (const std::size_t l : {0, 1, 7}) EXPECT_TRUE(same_bits(block[l * n], 0.0)) << "block, round " << l;
    EXPECT_TRUE(same_bits(row[0], 0.0)) << "row";
    EXPECT_TRUE(same_bits(sv.kernel_one(Kernel::linear(), xs[0], 0), 0.0)) << "one";
  }
  Rng rng(test_seed(34));
  const Rows sup = random_rows(rng, 37, 40, 0.3), xs = random_rows(rng, 12, 40, 0.3);
  SupportSet sv(40, SupportLayout::dense);
  sv.reserve(37);
  for (std::size_t i = 0; i < sup.ex.size(); ++i) sv.add(sup.ex[i], static_cast<int64_t>(i));
  std::vector<double> block(xs.ex.size() * sv.size());
  sv.kernel_rows(Kernel::linear(), xs.ex.data(), xs.ex.size(), block.data(), sv.size());
  for (std::size_t l = 0; l < xs.ex.size(); ++l)
    for (std::size_t i = 0; i < sv.size(); ++i)
      ASSERT_TRUE(same_bits(block[l * sv.size() + i], chain(xs.ex[l], sup.ex[i]) + 0.0)) << "l " << l << " i " << i;
}
