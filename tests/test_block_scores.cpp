// The block scores of the append-only kernel learners (KernelExpansion::scores, learner.hpp's
// learn_block_appending; docs/learners.md#block-scores): up to 24 rounds' chains alpha . k_t
// advance together over tiles of supports, and each must be the chain score() computes, bit for
// bit. Real-valued rows and coefficients (not 0/1 and +-1) make every sum depend on its order, so
// a reordered chain would show. Seeds are printed; PLAB_TEST_SEED overrides them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/random.hpp"
#include "experiments/run/run.hpp"
#include "numerics/panel_solve.hpp"
#include "numerics/support_set.hpp"
#include "tests/test_util.hpp"

using namespace plab;

namespace block_scores_test {

// n rows of dimension dim with about `active` non-zeros each: values 0.5..1.5, or 1 (binary: the
// bitset index), labels random (so about half the rounds of a Perceptron are mistakes).
Dataset random_rows(std::size_t n, std::size_t dim, double active, bool binary, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<uint32_t> ix;
    std::vector<double> vx;
    for (uint32_t j = 0; j < dim; ++j)
      if (rng.uniform() < active / static_cast<double>(dim)) {
        ix.push_back(j);
        vx.push_back(binary ? 1.0 : 0.5 + rng.uniform());
      }
    d.push_back(ix, vx, rng.uniform() < 0.5 ? 1.0 : -1.0);
  }
  d.dim = dim;
  return d;
}

struct LayoutCase {
  SupportLayout layout;
  bool binary;
  const char* name;
};
const LayoutCase kLayouts[] = {{SupportLayout::dense, false, "dense"},
                               {SupportLayout::sparse, false, "sparse"},
                               {SupportLayout::bits, true, "bits"}};
const Kernel kKernels[] = {Kernel::rbf(0.3), Kernel::poly(0.2, 1.0, 3), Kernel::linear()};

// f.scores(xs, m) against f.score(x) for every m = 1..kPanelLanes, starting at several offsets.
void expect_scores_are_score(const KernelExpansion& f, const Dataset& q) {
  std::vector<Example> xs;
  for (std::size_t t = 0; t < q.size(); ++t) xs.push_back(q[t]);
  double s[kPanelLanes];
  for (std::size_t m = 1; m <= kPanelLanes; ++m)
    for (std::size_t b = 0; b + m <= xs.size(); b += 7 * m) {
      f.scores(xs.data() + b, m, s);
      for (std::size_t l = 0; l < m; ++l)
        ASSERT_TRUE(test_util::same_bits(s[l], f.score(xs[b + l])))
            << "m " << m << " lane " << l << ": " << s[l] << " vs " << f.score(xs[b + l]);
    }
}

}  // namespace block_scores_test

using namespace block_scores_test;

// Support counts below one tile, at its edge and across two tile boundaries (kScoreTile 2048),
// coefficients of both signs and many magnitudes, every layout and kernel.
TEST(BlockScores, ScoresEqualScoreBitForBit) {
  const uint64_t seed = test_util::test_seed(41);
  Rng rng(seed);
  for (const LayoutCase& lc : kLayouts)
    for (const Kernel& k : kKernels)
      for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{37}, KernelExpansion::kScoreTile,
                                  2 * KernelExpansion::kScoreTile + 101}) {
        SCOPED_TRACE(std::string(lc.name) + " " + k.describe() + " n " + std::to_string(n));
        const Dataset sup = random_rows(n, 40, 6.0, lc.binary, seed + n);
        const Dataset q = random_rows(3 * kPanelLanes, 40, 6.0, lc.binary, seed + n + 1);
        KernelExpansion f(k, sup.dim, lc.layout);
        for (std::size_t i = 0; i < n; ++i) f.add(sup[i], static_cast<int64_t>(i + 1), (rng.uniform() - 0.5) * 3.0);
        if (n > 0 && lc.layout == SupportLayout::bits) {
          ASSERT_TRUE(f.sv.bitset());
        }
        expect_scores_are_score(f, q);
      }
}

// The append-only learners (kernel, averaged and voted Perceptrons, PA-I, Stoptron) through learn_block (blocks of odd sizes, a support
// appended inside a block extends the later rounds' chains) against learn() round by round, with
// more supports than one tile.
TEST(BlockScores, AppendingLearnersLearnBlockEqualsLearn) {
  const uint64_t seed = test_util::test_seed(42);
  const std::size_t sizes[] = {1, 2, 3, 5, 23, 24, 25, 96};
  for (const LayoutCase& lc : kLayouts)
    for (const std::string algo : {"kernel-perceptron", "averaged-perceptron", "voted-perceptron", "pa1", "stoptron"}) {
      const Kernel& k = kKernels[algo == "kernel-perceptron" ? 0 : 1];
      SCOPED_TRACE(algo + " " + lc.name + " " + k.describe());
      const Dataset d = random_rows(5000, 40, 6.0, lc.binary, seed);
      set_support_layout_default(lc.layout);
      LearnerOptions o;
      o.kernel = k;
      o.dim = d.dim;
      o.own["budget"] = 2300;  // the Stoptron freezes past a tile boundary
      auto one = test_util::configured_learner(algo, o), blk = test_util::configured_learner(algo, o);
      const std::vector<RoundRecord> a = test_util::records(*one, d);
      std::vector<RoundRecord> b(d.size());
      std::vector<Example> xs;
      for (std::size_t t = 0, c = 0; t < d.size(); ++c) {
        const std::size_t n = std::min(sizes[c % std::size(sizes)], d.size() - t);
        xs.clear();
        for (std::size_t i = 0; i < n; ++i) xs.push_back(d[t + i]);
        blk->learn_block(xs.data(), n, static_cast<int64_t>(t + 1), b.data() + t);
        t += n;
      }
      set_support_layout_default(SupportLayout::automatic);
      ASSERT_GT(one->support_size(), KernelExpansion::kScoreTile);  // the chains cross a tile boundary
      for (std::size_t t = 0; t < d.size(); ++t) {
        ASSERT_TRUE(test_util::same_bits(a[t].score, b[t].score)) << "round " << t + 1;
        ASSERT_TRUE(test_util::same_bits(a[t].f_norm2, b[t].f_norm2)) << "round " << t + 1;
        ASSERT_EQ(a[t].update, b[t].update) << "round " << t + 1;
        ASSERT_EQ(a[t].support_size, b[t].support_size) << "round " << t + 1;
      }
      for (const std::string& h : one->hypotheses())
        EXPECT_TRUE(test_util::same_bits(one->score_as(h, d[0]), blk->score_as(h, d[0]))) << h;
    }
}
