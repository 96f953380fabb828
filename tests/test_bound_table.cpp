// The bound table (bounds/bound_ids.cpp, docs/bounds.md#families): every entry names a family
// with an evaluator, every family's rows are exactly its entries in table order (evaluated, and
// n/a on non-finite inputs), and the rows of a learner that is not ours (algo "external",
// docs/bounds.md#external) against hand-computed values, through the C++ API and `plab bounds`.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "bounds/bounds.hpp"
#include "datasets/registry.hpp"
#include "test_util.hpp"

namespace plab {
namespace {

// Every value of BoundFamily (the enum has no count: its last value ends the loop).
std::vector<BoundFamily> all_families() {
  std::vector<BoundFamily> v;
  for (int i = 0; i <= static_cast<int>(BoundFamily::unbiased_removal); ++i) v.push_back(static_cast<BoundFamily>(i));
  return v;
}

// The ids of the entries naming `family`, read off the table here (not through family_rows).
std::vector<std::string> table_ids(BoundFamily family) {
  std::vector<std::string> ids;
  for (const BoundId& b : bound_ids())
    if (b.family == family) ids.push_back(b.id);
  return ids;
}

std::vector<std::string> ids_of(const std::vector<BoundResult>& rows) {
  std::vector<std::string> v;
  for (const auto& b : rows) v.push_back(b.id);
  return v;
}

TEST(BoundTable, EveryEntryNamesAFamilyWithAnEvaluator) {
  std::set<std::string> seen;
  for (const BoundId& b : bound_ids()) {
    EXPECT_TRUE(seen.insert(b.id).second) << "duplicate id " << b.id;
    ASSERT_TRUE(b.family.has_value()) << b.id << " names no family";
    EXPECT_NE(bound_family(*b.family).evaluate, nullptr) << b.id;
    EXPECT_TRUE(b.tag == "V" || b.tag == "R" || b.tag == "D" || b.tag == "M") << b.id;
    EXPECT_TRUE(b.kind == "a_priori" || b.kind == "a_posteriori" || b.kind == "check" ||
                b.kind == "expectation") << b.id;
    EXPECT_FALSE(b.name.empty()) << b.id;
  }
}

TEST(BoundTable, EveryFamilyHasOneEntryAnEvaluatorAndRows) {
  for (const BoundFamily f : all_families()) {
    std::size_t entries = 0;
    for (const auto& info : bound_families()) entries += info.family == f;
    EXPECT_EQ(entries, 1u) << "family " << static_cast<int>(f);
    const BoundFamilyInfo& info = bound_family(f);
    EXPECT_NE(info.evaluate, nullptr) << info.name;
    EXPECT_FALSE(family_rows(f).empty()) << info.name;
    EXPECT_FALSE(info.columns.empty()) << info.name;
  }
  // Every entry is evaluated by some family.
  std::size_t covered = 0;
  for (const BoundFamily f : all_families())
    if (bound_family(f).rows == f) covered += table_ids(f).size();
  EXPECT_EQ(covered, bound_ids().size());
}

struct LearnerRun {
  std::vector<RoundRecord> R;
  RunFacts f;
};

// A learner's records on d beside a fixed comparator score g(x_t) = 0.1 y_t of norm 1 (only the
// rows' ids are compared here, not their values).
LearnerRun run_learner(const std::string& algo, const Dataset& d) {
  LearnerRun r;
  r.f.algo = algo;
  r.f.options.dim = d.dim;
  r.f.options.own["budget"] = 100;  // the budget learners' (Forgetron rows apply from B = 83)
  if (!find_learner(algo)->takes(r.f.options.kernel)) r.f.options.kernel = Kernel::rbf(1.0);  // fogd: rbf only
  r.f.comparator = "fixed";
  r.f.g_norm = 1.0;
  r.R = test_util::records(*test_util::configured_learner(algo, r.f.options), d);
  for (RoundRecord& x : r.R) x.g = 0.1 * x.y;
  return r;
}

// The rows of a learner are its families' table entries in table order, whether evaluated or
// n/a because an input is not finite: an entry appended to the table and not produced by its
// evaluator fails here, and so would a row the evaluator makes that the table lacks.
TEST(BoundTable, RowsOfEveryLearnerAreItsFamiliesEntriesInOrder) {
  const Dataset d = load_dataset("synthetic:dekel:n=60,seed=2");
  std::set<BoundFamily> exercised;
  for (const LearnerInfo& L : learners()) {
    if (L.multiclass || L.bounds.empty()) continue;
    LearnerRun r = run_learner(L.name, d);
    std::vector<std::string> want;
    for (const BoundFamily f : L.bounds) {
      const auto ids = table_ids(bound_family(f).rows);
      want.insert(want.end(), ids.begin(), ids.end());
      exercised.insert(f);
    }
    EXPECT_EQ(ids_of(evaluate_bounds(r.R, r.f)), want) << L.name;
    r.R[7].kxx = std::numeric_limits<double>::infinity();
    const auto na = evaluate_bounds(r.R, r.f);
    EXPECT_EQ(ids_of(na), want) << L.name << " (non-finite input)";
    for (const auto& b : na) EXPECT_FALSE(b.applicable) << L.name << " " << b.id;
  }
  LearnerRun ext = run_learner("kernel-perceptron", d);
  ext.f.algo = kExternalAlgo;
  EXPECT_EQ(ids_of(evaluate_bounds(ext.R, ext.f)), table_ids(BoundFamily::perceptron));
  exercised.insert(BoundFamily::perceptron_reference);
  EXPECT_EQ(exercised.size(), all_families().size()) << "a family no learner uses is not tested here";
}

// --- A learner that is not ours -------------------------------------------------------------
// T = 8 rounds, k(x,x) = 1 (r = 1), a comparator of norm 1 with margin y g(x_t) = 0.5 on every
// round. Hand values (docs/bounds.md#external): Novikoff (r/rho)^2 = (1/0.5)^2 = 4. FS
// (r s + ||L_s||_2)^2 with ||L_s||_2 = sqrt(8) max(0, 1 - s/2) decreases to 4 at s = 2 (rho =
// 0.5), then s^2 grows. MR (4) all-T: (s/2 + sqrt(s^2/4 + 8 max(0, 1 - s/2)))^2, also 4 at s = 2
// (at s = 1.9 it is 4.37). Blum: gamma = 0.5 has total deviation 0, so exact = simplified =
// 1/gamma^2 = 4. The learner errs on rounds `mistakes`: on I = {1, 2, 5}, r_I = 1, S_I =
// sqrt(3), rho_I = 0.5: N2 = 4, N1 = sqrt(3)/0.5; the Cauchy-Schwarz certificate at rho = 0.5
// (the MR (4) optimum, g = u/rho): D^M + ||g|| ||f_T|| = 0 + 2 sqrt(3) when ||f_T||^2 = 3 is supplied.
std::vector<RoundRecord> foreign_rounds(const std::vector<int>& mistakes, bool with_score) {
  std::vector<RoundRecord> R(8);
  for (std::size_t i = 0; i < R.size(); ++i) {
    RoundRecord& r = R[i];
    r.t = static_cast<int64_t>(i + 1);
    r.y = i % 2 ? -1.0 : 1.0;
    r.kxx = 1.0;
    r.g = 0.5 * r.y;
    for (int m : mistakes) r.mistake = r.mistake || m == r.t;
    r.score = with_score ? (r.mistake ? -0.25 : 0.25) * r.y : kNone;
    r.update = r.mistake ? UpdateKind::add : UpdateKind::none;
  }
  return R;
}

RunFacts foreign_facts() {
  RunFacts f;
  f.algo = kExternalAlgo;
  f.comparator = "hand";
  f.g_norm = 1.0;
  return f;
}

const BoundResult& row(const std::vector<BoundResult>& rs, const std::string& id) {
  for (const auto& b : rs)
    if (b.id == id) return b;
  throw std::runtime_error("no row " + id);
}

TEST(ExternalLearner, ReferenceRowsMatchHandValues) {
  const auto rs = evaluate_bounds(foreign_rounds({1, 2, 5}, false), foreign_facts());  // scores absent
  ASSERT_EQ(ids_of(rs), table_ids(BoundFamily::perceptron));
  for (const auto& b : rs) {
    EXPECT_EQ(b.kind, "reference") << b.id;
    EXPECT_FALSE(b.hard) << b.id;
    EXPECT_EQ(b.empirical, 3.0) << b.id;
    EXPECT_EQ(b.rounds, 8u) << b.id;
  }
  for (const char* id : {"novikoff", "fs_thm2_all_t", "mr4_all_t", "blum_exact", "blum_simplified", "novikoff_n2"}) {
    EXPECT_TRUE(row(rs, id).applicable) << id << ": " << row(rs, id).why_not;
    EXPECT_NEAR(row(rs, id).value, 4.0, 1e-9) << id;
    EXPECT_NEAR(row(rs, id).param, 0.5, 1e-9) << id;
    EXPECT_TRUE(row(rs, id).holds) << id;
  }
  EXPECT_NEAR(row(rs, "novikoff_n1").value, std::sqrt(3.0) / 0.5, 1e-12);
  EXPECT_FALSE(row(rs, "cs_certificate").applicable);  // no ||f_T|| in the run
  EXPECT_NE(row(rs, "cs_certificate").why_not.find("||f_T||"), std::string::npos);
  EXPECT_FALSE(any_hard_violation(rs));

  RunFacts f = foreign_facts();
  f.f_norm2_exact = 3.0;
  const auto with_f = evaluate_bounds(foreign_rounds({1, 2, 5}, false), f);
  ASSERT_TRUE(row(with_f, "cs_certificate").applicable);
  EXPECT_NEAR(row(with_f, "cs_certificate").value, 2.0 * std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(row(with_f, "cs_certificate").param, 0.5, 1e-9);  // rho = 1/s
}

TEST(ExternalLearner, MoreMistakesThanThePerceptronBoundIsNoViolation) {
  const auto rs = evaluate_bounds(foreign_rounds({1, 2, 3, 5, 8}, true), foreign_facts());
  const BoundResult& n = row(rs, "novikoff");
  EXPECT_TRUE(n.applicable);
  EXPECT_NEAR(n.value, 4.0, 1e-12);
  EXPECT_EQ(n.empirical, 5.0);
  EXPECT_FALSE(n.holds);  // reported ...
  EXPECT_FALSE(any_hard_violation(rs));  // ... never a hard verdict
  std::ostringstream table;
  print_bounds_table(table, rs);
  EXPECT_NE(table.str().find("above (reference, not a check)"), std::string::npos) << table.str();
  EXPECT_EQ(table.str().find("VIOLATED"), std::string::npos) << table.str();
}

TEST(ExternalLearner, OurLearnersNeedTheScoreTheExternalOneDoesNot) {
  RunFacts f = foreign_facts();
  f.algo = "kernel-perceptron";
  for (const auto& b : evaluate_bounds(foreign_rounds({1, 2, 5}, false), f)) {
    EXPECT_FALSE(b.applicable) << b.id;
    EXPECT_NE(b.why_not.find("score f(x_t) = nan at round 1"), std::string::npos) << b.why_not;
  }
}

// `plab bounds` on a trace whose metadata says "algo": "external", written here by hand.
TEST(ExternalLearner, PlabBoundsReadsAnExternalTrace) {
  test_util::TempDir dir("bound_table");
  const auto R = foreign_rounds({1, 2, 3, 5, 8}, true);
  std::ofstream out(dir.p / "ext.csv");
  out << R"(# {"algo":"external","rounds":8,"comparator":{"name":"hand","norm":1}})" << "\n";
  out << "t,y,score,mistake,update,support_size,kxx,g\n";
  for (const auto& r : R)
    out << r.t << "," << r.y << "," << r.score << "," << r.mistake << "," << to_string(r.update) << ",,1," << r.g << "\n";
  out.close();
  const std::string json = (dir.p / "ext.json").string();
  const auto res = test_util::run_cli("bounds --strict --trace " + (dir.p / "ext.csv").string() + " --json " + json);
  EXPECT_EQ(res.status, 0) << res.output;  // above the Perceptron's bound: not a violation
  EXPECT_NE(res.output.find("algo external"), std::string::npos) << res.output;
  const auto j = nlohmann::json::parse(test_util::read_text(json));
  ASSERT_EQ(j.at("bounds").size(), table_ids(BoundFamily::perceptron).size());
  for (const auto& b : j.at("bounds")) {
    EXPECT_EQ(b.at("kind"), "reference");
    EXPECT_EQ(b.at("hard"), false);
  }
  EXPECT_EQ(j["bounds"][0]["id"], "novikoff");
  EXPECT_NEAR(j["bounds"][0]["value"].get<double>(), 4.0, 1e-12);
  EXPECT_EQ(j["bounds"][0]["empirical"].get<double>(), 5.0);
  EXPECT_EQ(j["bounds"][0]["holds"], false);

  // The trace must still carry the columns the reference rows read.
  std::ofstream bad(dir.p / "nog.csv");
  bad << R"(# {"algo":"external","rounds":1,"comparator":{"name":"hand","norm":1}})" << "\nt,y,score,mistake,update,support_size,kxx\n1,1,-1,1,add,,1\n";
  bad.close();
  const auto r2 = test_util::run_cli("bounds --trace " + (dir.p / "nog.csv").string());
  EXPECT_EQ(r2.status, 2) << r2.output;
  EXPECT_NE(r2.output.find("missing column 'g'"), std::string::npos) << r2.output;
}

}  // namespace
}  // namespace plab
