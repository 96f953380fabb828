// Underflowing data is refused, never reported as a violated theorem
// (docs/bounds.md#underflow); the Perceptron-family infimum does not depend on the data's scale
// (docs/bounds.md#scale); a numeric failure gives n/a naming the round (docs/bounds.md#non-finite).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bounds/bounds.hpp"
#include "datasets/dataset.hpp"
#include "experiments/run/trace.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using plab::test_util::TempDir;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A linear-kernel Perceptron run on noisy data (so FS, MR (4) and (6) are non-trivial infima),
// read back from its trace.
Trace noisy_perceptron_trace(const TempDir& dir) {
  const std::string p = (dir.p / "noisy.csv").string();
  const auto r = test_util::run_cli("run --algo perceptron --data synthetic:dekel:n=400,seed=5,flip=0.1 "
                                    "--comparator svm --quiet --trace " + p);
  EXPECT_EQ(r.status, 0) << r.output;
  return read_trace(p);
}

// The same run on the data scaled by lam (linear kernel): k(x,x), scores and ||f||^2 scale by
// lam^2, comparator scores g = <w,x> by lam with ||w|| fixed. Every Perceptron bound is invariant.
std::vector<RoundRecord> scaled(std::vector<RoundRecord> R, double lam) {
  for (RoundRecord& r : R) {
    r.kxx *= lam * lam;
    r.score *= lam * lam;
    r.f_norm2 *= lam * lam;
    r.g *= lam;
  }
  return R;
}

const BoundResult& row(const std::vector<BoundResult>& rs, const std::string& id) {
  for (const auto& b : rs) if (b.id == id) return b;
  throw std::runtime_error("no row " + id);
}

}  // namespace

// An infimum computed in absolute units would put FS at 1e6 off by ~1e-7 relative, at 1e150 by a factor 2.
TEST(ScaleInvariance, ScaledCopiesGiveTheSameInfimumAndScaledParameter) {
  TempDir dir("scale_inv");
  const Trace tr = noisy_perceptron_trace(dir);
  RunFacts f = trace_facts(tr);
  f.f_norm2_exact = kNone;  // the running f_norm2 column scales with the copy
  const auto base = evaluate_bounds(tr.rounds, f);
  const std::vector<std::string> ids = {"fs_thm2_all_t", "mr4_all_t", "mr6_all_t", "mr3_i", "mr5_i", "mr7_i",
                                        "cs_certificate"};
  for (const auto& id : ids) ASSERT_TRUE(row(base, id).applicable) << id;
  // 1e-145 and 1e150: k(x,x) near 1e-290 and 1e300, the ends of what the readers accept.
  for (const double lam : {1e6, 1e8, 0x1p400, 1e-145, 1e150, 3e-100}) {
    const auto got = evaluate_bounds(scaled(tr.rounds, lam), f);
    for (const auto& id : ids) {
      const BoundResult& a = row(base, id);
      const BoundResult& b = row(got, id);
      ASSERT_TRUE(b.applicable) << id << " at " << lam << ": " << b.why_not;
      // A check row is evaluated at the argmin of its all-T form, located to 2^-26 relative
      // (docs/bounds.md#infimum), so its value moves to first order: 1e-7; an infimum moves to
      // second order: 1e-9 (the suite's reference tolerance).
      const double tol = a.kind == "check" ? 1e-7 : 1e-9;
      EXPECT_NEAR(b.value, a.value, tol * a.value) << id << " at scale " << lam;
      // rho = 1/s scales with the data (argmin located to 2^-26 relative, docs/bounds.md#infimum).
      if (a.kind != "check") {
        EXPECT_NEAR(b.param / lam, a.param, 1e-6 * a.param) << id << " at " << lam;
      }
      EXPECT_EQ(b.holds, a.holds) << id;
    }
  }
}

// A power-of-two scale is exact: the search sees the same numbers, so the same bits.
TEST(ScaleInvariance, PowerOfTwoScalesGiveIdenticalBits) {
  TempDir dir("scale_bits");
  const Trace tr = noisy_perceptron_trace(dir);
  RunFacts f = trace_facts(tr);
  f.f_norm2_exact = kNone;
  const auto a = evaluate_bounds(scaled(tr.rounds, 0x1p100), f);
  const auto b = evaluate_bounds(scaled(tr.rounds, 0x1p-300), f);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].applicable) {
      EXPECT_EQ(a[i].value, b[i].value) << a[i].id;
    }
  }
}

// Squared norms of 1e-340 flush to 0 and the Perceptron would err on every round and print "A
// PROVEN MISTAKE BOUND IS VIOLATED" with exit 3: such data is refused at load, exit 2.
TEST(Underflow, GeneratedDataBelowTheLimitIsRefusedNamingTheRow) {
  const auto r = test_util::run_cli(
      "run --algo perceptron --data synthetic:separable:n=300,r=1e-170,rho=1e-171 --comparator truth --strict");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, "row 1: squared norm ||x||^2 underflows")) << r.output;
  EXPECT_FALSE(has(r.output, "VIOLATED")) << r.output;
}

TEST(Underflow, LimitIsTwoToTheMinus969AndZeroRowsStayLegal) {
  // 2^-969 = 2^-1022 * 2^53: below it a product that moves ||x||^2 by one rounding step is subnormal.
  Dataset d;
  const double at = std::sqrt(0x1p-969), below = std::sqrt(0x1p-971);
  const std::vector<uint32_t> ix{0};
  d.push_back(ix, std::vector<double>{at}, 1.0);
  d.push_back({}, {}, -1.0);  // an all-zero row has ||x||^2 = 0 exactly
  d.push_back(ix, std::vector<double>{0.0}, -1.0);
  EXPECT_EQ(d.size(), 3u);
  try {
    d.push_back(ix, std::vector<double>{below}, 1.0, "f.svm:9");
    ADD_FAILURE() << "accepted";
  } catch (const DataError& e) {
    EXPECT_TRUE(has(e.what(), "f.svm:9: squared norm ||x||^2 underflows")) << e.what();
  }
  EXPECT_EQ(d.size(), 3u);
}

TEST(Underflow, LibsvmFileBelowTheLimitIsRefusedWithFileAndLine) {
  TempDir dir("underflow_file");
  const std::string p = (dir.p / "tiny.svm").string();
  std::ofstream(p) << "+1 1:1\n-1 1:1e-150 2:1e-150\n";
  const auto r = test_util::run_cli("run --algo perceptron --data " + p);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, p + ":2: squared norm ||x||^2 underflows")) << r.output;
}

// Records whose k(x,x) underflowed to 0 next to non-zero comparator scores (what the run of item 1
// recorded): every row n/a naming the round, never VIOLATED.
TEST(Underflow, UnderflowedRecordsAreNotApplicableNeverViolated) {
  std::vector<RoundRecord> R(300);
  for (std::size_t t = 0; t < R.size(); ++t) {
    RoundRecord& r = R[t];
    r.t = static_cast<int64_t>(t + 1);
    r.y = t % 2 ? 1.0 : -1.0;
    r.score = 0.0;
    r.kxx = 0.0;
    r.mistake = true;
    r.update = UpdateKind::update;
    r.f_norm2 = 0.0;
    r.g = r.y * 1e-171;
  }
  RunFacts f;
  f.algo = "perceptron";
  f.comparator = "truth";
  f.g_norm = 1.0;
  const auto rs = evaluate_bounds(R, f);
  EXPECT_FALSE(any_hard_violation(rs));
  for (const auto& b : rs) {
    EXPECT_FALSE(b.applicable) << b.id;
    EXPECT_TRUE(has(b.why_not, "underflows")) << b.id << ": " << b.why_not;
    EXPECT_TRUE(has(b.why_not, "at round 1")) << b.why_not;
  }
}

// One missing comparator score among 1000 rounds is named by its round, not read as a trace
// having none.
TEST(NonFiniteRounds, OneMissingComparatorScoreNamesItsRound) {
  TempDir dir("one_nan_g");
  const Trace tr = noisy_perceptron_trace(dir);
  auto R = tr.rounds;
  R[122].g = kNone;
  const auto rs = evaluate_bounds(R, trace_facts(tr));
  ASSERT_GT(rs.size(), 1u);
  for (const auto& b : rs) {
    EXPECT_FALSE(b.applicable);
    EXPECT_TRUE(has(b.why_not, "round 123")) << b.why_not;
  }
}
