// Input preprocessing (datasets/preprocess.hpp, docs/conventions.md#preprocess): the parser, each
// step's values on rows worked out by hand, the composition order, and the spec key.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "datasets/preprocess.hpp"
#include "experiments/cell/cell.hpp"
#include "experiments/spec/spec.hpp"

using namespace plab;

namespace {

// Rows of `dense` (each of length d) as a data set with labels 0, 1, ... and two classes.
Dataset rows(const std::vector<std::vector<double>>& dense) {
  Dataset d;
  d.name = "hand";
  for (std::size_t t = 0; t < dense.size(); ++t) d.push_dense(dense[t], static_cast<double>(t % 2));
  d.classes = {3.0, 7.0};
  return d;
}

std::vector<double> dense(const Dataset& d, std::size_t t) {
  std::vector<double> x(d.dim, 0.0);
  const Example e = d[t];
  for (std::size_t k = 0; k < e.idx.size(); ++k) x[e.idx[k]] = e.val[k];
  return x;
}

std::string parse_error(const std::string& text) {
  try {
    Preprocess::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Preprocess, ParsesNamesAndKeepsTheirOrder) {
  EXPECT_TRUE(Preprocess::parse("none").none());
  EXPECT_EQ(Preprocess::parse("none").name(), "none");
  EXPECT_EQ(Preprocess::parse("unit-norm").steps, std::vector<PreprocessStep>{PreprocessStep::unit_norm});
  const Preprocess p = Preprocess::parse("pm1-to-01,unit-norm");
  EXPECT_EQ(p.steps, (std::vector<PreprocessStep>{PreprocessStep::pm1_to_01, PreprocessStep::unit_norm}));
  EXPECT_EQ(p.name(), "pm1-to-01,unit-norm");
}

TEST(Preprocess, BadValuesNameTheOptionAndTheValue) {
  EXPECT_EQ(parse_error("unit_norm"),
            "--preprocess: unknown preprocessing 'unit_norm' (accepted: none | pm1-to-01 | unit-norm, or a "
            "comma-separated list of the last two)");
  EXPECT_NE(parse_error("").find("unknown preprocessing ''"), std::string::npos);
  EXPECT_NE(parse_error("unit-norm,").find("unknown preprocessing ''"), std::string::npos);
  EXPECT_EQ(parse_error("none,unit-norm"), "--preprocess: 'none' cannot be combined with other steps");
}

TEST(Preprocess, UnitNormDividesByTheEuclideanNorm) {
  Dataset d = rows({{3, 4}, {1, 1, 1, 1}, {0, 0, 0, 0}, {0, -2, 0, 0}});
  apply_preprocess(d, Preprocess::parse("unit-norm"));
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(dense(d, 0), (std::vector<double>{3.0 / 5.0, 4.0 / 5.0, 0, 0}));  // ||(3,4)|| = 5
  EXPECT_EQ(dense(d, 1), (std::vector<double>{0.5, 0.5, 0.5, 0.5}));          // ||.|| = sqrt(4) = 2
  EXPECT_EQ(dense(d, 2), (std::vector<double>{0, 0, 0, 0}));                  // a zero row stays zero
  EXPECT_EQ(d[2].idx.size(), 0u);
  EXPECT_EQ(dense(d, 3), (std::vector<double>{0, -1, 0, 0}));
  EXPECT_EQ(d.sqnorm[1], 1.0);
  EXPECT_EQ(d.sqnorm[3], 1.0);
  EXPECT_EQ(d.y, (std::vector<double>{0, 1, 0, 1}));  // labels and classes kept
  EXPECT_EQ(d.classes, (std::vector<double>{3.0, 7.0}));
  EXPECT_EQ(d.dim, 4u);
}

TEST(Preprocess, UnitNormDivisorIsTheFmaSumInIndexOrder) {
  EXPECT_EQ(unit_norm_divisor({3.0, 4.0}), 5.0);
  EXPECT_EQ(unit_norm_divisor({}), 0.0);
  // b = 0x1.00000204f9p+0 after 1 (= 1^2): the exact sum 1 + b^2 rounds once (fma) to
  // 0x1.00000204f9021p+1; rounding b^2 first would give 0x1.00000204f9020p+1 (exact rational check).
  EXPECT_EQ(unit_norm_divisor({1.0, 0x1.00000204f9p+0}), std::sqrt(0x1.00000204f9021p+1));
  EXPECT_NE(std::sqrt(0x1.00000204f9021p+1), std::sqrt(0x1.00000204f9020p+1));
}

TEST(Preprocess, Pm1To01MapsEveryFeatureIncludingAbsentOnes) {
  // Feature 2 is absent (0) in the stored row: it becomes 1/2; -1 becomes 0 and is not stored.
  Dataset d = rows({{-1, 0, 1, 0.5}});
  apply_preprocess(d, Preprocess::parse("pm1-to-01"));
  EXPECT_EQ(dense(d, 0), (std::vector<double>{0, 0.5, 1, 0.75}));
  EXPECT_EQ(d[0].idx.size(), 3u);
  EXPECT_EQ(d.sqnorm[0], 0.25 + 1 + 0.5625);
  EXPECT_EQ(pm1_to_01(-0.25), 0.375);
}

TEST(Preprocess, Pm1To01RefusesValuesOutsideMinusOneOne) {
  Dataset d = rows({{0.5, 0.5}, {0.5, 1.5}});
  try {
    apply_preprocess(d, Preprocess::parse("pm1-to-01"));
    FAIL() << "accepted 1.5";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "hand: row 2: feature 2 = 1.5 is outside [-1, 1]; --preprocess pm1-to-01 needs data in [-1, 1]");
  }
}

TEST(Preprocess, StepsApplyLeftToRight) {
  // (x + 1)/2 = (0, 1, 1, 1, 1), norm 2 -> (0, 1/2, 1/2, 1/2, 1/2); the other order differs.
  Dataset a = rows({{-1, 1, 1, 1, 1}});
  apply_preprocess(a, Preprocess::parse("pm1-to-01,unit-norm"));
  EXPECT_EQ(dense(a, 0), (std::vector<double>{0, 0.5, 0.5, 0.5, 0.5}));
  Dataset b = rows({{-1, 1, 1, 1, 1}});  // norm sqrt(5): (-1, 1, 1, 1, 1)/sqrt(5), then (x + 1)/2
  apply_preprocess(b, Preprocess::parse("unit-norm,pm1-to-01"));
  const double r = std::sqrt(5.0);
  EXPECT_EQ(dense(b, 0)[0], (-1.0 / r + 1.0) / 2.0);
  EXPECT_EQ(dense(b, 0)[1], (1.0 / r + 1.0) / 2.0);
}

TEST(Preprocess, SpecKeyReachesTheCellAndItsKey) {
  const auto spec = [](const std::string& pre) {
    return parse_spec(nlohmann::json::parse(R"({"figure": "F", "permutations": 1,
      "datasets": [{"id": "d", "data": "synthetic:dekel:n=10")" + pre + R"(}],
      "algorithms": [{"id": "p", "algo": "kernel-perceptron"}]})"), false, "inline");
  };
  const Spec with = spec(R"(, "preprocess": "unit-norm")");
  EXPECT_EQ(with.datasets[0].preprocess, "unit-norm");
  const Spec without = spec("");
  EXPECT_EQ(without.datasets[0].preprocess, "none");
  const auto cw = expand_independent(with), cn = expand_independent(without);
  ASSERT_EQ(cw.size(), 1u);
  ASSERT_EQ(cn.size(), 1u);
  EXPECT_EQ(cw[0].canonical().at("preprocess"), "unit-norm");
  EXPECT_FALSE(cn[0].canonical().contains("preprocess"));  // keys of every other figure unchanged
  EXPECT_THROW(spec(R"(, "preprocess": "unit-norm,none")"), std::invalid_argument);
}

TEST(Preprocess, CellDataArePreprocessedOnce) {
  const auto cells = [](const std::string& pre) {
    return expand_independent(parse_spec(nlohmann::json::parse(R"({"figure": "F", "permutations": 1,
      "datasets": [{"id": "d", "data": "synthetic:dekel:n=20", "test": "halves")" + pre + R"(}],
      "algorithms": [{"id": "p", "algo": "kernel-perceptron"}]})"), false, "inline"));
  };
  DataCache cache;
  const CellData unit = cache.get(cells(R"(, "preprocess": "unit-norm")")[0]);
  const CellData raw = cache.get(cells("")[0]);  // same data, labels and test: a separate cache entry
  ASSERT_EQ(unit.train->size(), 10u);
  ASSERT_EQ(unit.test->size(), 10u);
  bool raw_not_unit = false;
  for (std::size_t t = 0; t < 10; ++t) {
    EXPECT_NEAR(unit.train->sqnorm[t], 1.0, 1e-15);
    EXPECT_NEAR(unit.test->sqnorm[t], 1.0, 1e-15);  // the test half too
    raw_not_unit |= std::abs(raw.train->sqnorm[t] - 1.0) > 1e-3;
  }
  EXPECT_TRUE(raw_not_unit);
}

// A test row's image is defined by the training data's feature space, not by the widest row of its
// own file: [-1 at feature 1] is {0 at 1, 0.5 at 2, 0.5 at 3} in a space of dimension 3, whether
// its file also has a row reaching feature 3 or not (before: {0 at 1} alone in the narrow file).
TEST(Preprocess, ATestRowIsMappedInTheTrainingSpace) {
  using I = std::vector<uint32_t>;
  using V = std::vector<double>;
  plab::Dataset narrow, wide;
  narrow.push_back(I{0}, V{-1.0}, 1.0);
  wide.push_back(I{0}, V{-1.0}, 1.0);
  wide.push_back(I{2}, V{1.0}, -1.0);
  const auto pre = plab::Preprocess::parse("pm1-to-01");
  plab::apply_preprocess(narrow, pre, 3);
  plab::apply_preprocess(wide, pre, 3);
  for (const plab::Dataset* d : {&narrow, &wide}) {
    const plab::Example e = (*d)[0];
    ASSERT_EQ(e.idx.size(), 2u);
    EXPECT_EQ(e.idx[0], 1u);
    EXPECT_EQ(e.val[0], 0.5);
    EXPECT_EQ(e.idx[1], 2u);
    EXPECT_EQ(e.val[1], 0.5);
    EXPECT_EQ(d->dim, 3u);
  }
  // A feature beyond the training space maps where present only (0.5 is not filled in there).
  plab::Dataset beyond;
  beyond.push_back(I{4}, V{1.0}, 1.0);
  plab::apply_preprocess(beyond, pre, 2);
  const plab::Example b = beyond[0];
  ASSERT_EQ(b.idx.size(), 3u);  // 0.5 at features 1 and 2, 1 at feature 5
  EXPECT_EQ(b.idx[2], 4u);
  EXPECT_EQ(b.val[2], 1.0);
  EXPECT_EQ(beyond.dim, 5u);
}
