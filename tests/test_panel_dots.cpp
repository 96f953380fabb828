// The blocked dense dot-product kernel (algorithms/panel_dots.hpp) and SupportSet's dense rows:
// every path continues the fma chain over x's features in order, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/panel_dots.hpp"
#include "algorithms/support_set.hpp"
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

// panel_dots on every path continues given partial sums over the chunks, skipping the features at
// or past the tile's rows, exactly as the scalar chain does (a tile inside a wider row stride).
TEST(PanelDots, EveryPathContinuesTheChain) {
  Rng rng(test_seed(31));
  const std::size_t rows = 250, dim = 300, m = 37, C = (rows + kDotChunk - 1) / kDotChunk;
  const Rows sup = random_rows(rng, kPanelSupports, rows, 0.3), xs = random_rows(rng, m, dim, 0.25);
  const std::size_t stride = kPanelSupports + 13, off = 5;  // the tile starts at column 5 of wider rows
  std::vector<double> panel(rows * stride, 0.0);
  for (double& v : panel) v = 1e300;  // the columns outside the tile must never be read into a sum
  for (std::size_t j = 0; j < rows; ++j)
    for (std::size_t i = 0; i < kPanelSupports; ++i) panel[j * stride + off + i] = 0.0;
  for (std::size_t i = 0; i < kPanelSupports; ++i)
    for (std::size_t k = 0; k < sup.idx[i].size(); ++k) panel[sup.idx[i][k] * stride + off + i] = sup.val[i][k];
  std::vector<uint32_t> cut(m * (C + 1));
  for (std::size_t l = 0; l < m; ++l)
    for (std::size_t c = 0; c <= C; ++c) {
      const std::size_t lim = std::min(c * kDotChunk, rows);
      uint32_t q = 0;
      while (q < xs.idx[l].size() && xs.idx[l][q] < lim) ++q;
      cut[l * (C + 1) + c] = q;
    }
  const std::size_t ld = kPanelSupports + 3;
  std::vector<double> start(m * ld);
  for (double& v : start) v = rng.uniform();
  int checked = 0;
  for (const std::string isa : {"scalar", "avx2", "avx512"}) {
    std::vector<double> out = start;
    try {
      panel_dots_on(isa, panel.data() + off, stride, rows, xs.ex.data(), m, cut.data(), C, out.data(), ld);
    } catch (const std::invalid_argument&) {
      std::printf("%s: not on this CPU, skipped\n", isa.c_str());
      continue;
    }
    ++checked;
    for (std::size_t l = 0; l < m; ++l) {
      // the features past the panel's rows are not part of the chain
      Example x = xs.ex[l];
      x.idx = x.idx.first(cut[l * (C + 1) + C]);
      x.val = x.val.first(cut[l * (C + 1) + C]);
      for (std::size_t i = 0; i < kPanelSupports; ++i)
        ASSERT_TRUE(same_bits(out[l * ld + i], chain(x, sup.ex[i], start[l * ld + i]))) << isa << " l " << l << " i " << i;
      for (std::size_t i = kPanelSupports; i < ld; ++i) ASSERT_EQ(out[l * ld + i], start[l * ld + i]);  // untouched
    }
  }
  EXPECT_GE(checked, 1);
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
  ASSERT_NE(sv.size() % 32, 0u);
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
