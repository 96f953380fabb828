// The bounds of BPA-S, BPA-NN, BOGD, BOGD++ and NOGD (docs/bounds.md#budget-ogd-bounds) on random runs of the
// real learners: the recorded step error ||delta_t|| against an independent kernel double sum over
// the expansions before and after each round; every hard row holds and its value is the formula
// written out again here; BOGD's in-expectation bound against the mean over removal seeds.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "core/random.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

using test_util::noisy_sequence;

// A function sum_i c_i k(e_i, .), its examples copied (a learner reuses its support storage).
struct Terms {
  std::vector<std::vector<uint32_t>> idx;
  std::vector<std::vector<double>> val;
  std::vector<double> sq, c;
  void add(const Example& x, double coef) {
    idx.emplace_back(x.idx.begin(), x.idx.end());
    val.emplace_back(x.val.begin(), x.val.end());
    sq.push_back(x.sqnorm);
    c.push_back(coef);
  }
  void add(const KernelExpansion& f, double scale) {
    for (std::size_t i = 0; i < f.size(); ++i) add(f.sv.row(i), scale * f.alpha[i]);
  }
  Example at(std::size_t i) const { return Example{idx[i], val[i], sq[i], 0.0}; }
};
// ||sum_i c_i k(e_i,.)||^2 by the double sum, in long double, and the scale of its terms.
long double norm2(const Terms& t, const Kernel& k, long double* scale) {
  long double q = 0, a = 0;
  for (std::size_t i = 0; i < t.c.size(); ++i)
    for (std::size_t j = 0; j < t.c.size(); ++j) {
      const long double v = static_cast<long double>(t.c[i]) * t.c[j] * k(t.at(i), t.at(j));
      q += v;
      a += std::abs(v);
    }
  *scale = a;
  return q;
}

// The hinge sum of g = s u over the rounds with weights w (all 1: D_1), by a direct sum.
long double hinge(const std::vector<double>& m, const std::vector<double>& w, double s) {
  long double l = 0;
  for (std::size_t t = 0; t < m.size(); ++t) l += w[t] * std::max(0.0L, 1.0L - static_cast<long double>(m[t]) * s);
  return l;
}

struct BudgetRun {
  std::vector<RoundRecord> R;
  std::vector<BoundResult> res;
  std::size_t M = 0;
};

// Runs `algo` with comparator scores g (norm gn), checking the recorded ||delta_t|| on every round
// when `check_delta`; returns the records and the bound rows.
BudgetRun run(const std::string& algo, const LearnerOptions& o, const Dataset& data, const std::vector<double>& g, double gn,
        bool check_delta) {
  const auto L = test_util::configured_learner(algo, o);
  const bool shrinks = find_learner(algo)->uses("lambda");
  const double c = shrinks ? 1.0 - o.own.value("eta", 0.0) * o.own.value("lambda", 0.0) : 1.0;
  BudgetRun out;
  for (std::size_t t = 0; t < data.size(); ++t) {
    Terms before;
    if (check_delta) before.add(*L->expansion(), -c);
    RoundRecord r = L->learn(data[t], static_cast<int64_t>(t + 1));
    r.g = g[t];
    out.M += r.mistake;
    if (check_delta) {
      // delta_t = f_{t+1} - (c f_t + tau y k(x_t,.)) (docs/bounds.md#budget_ogd_all_t)
      Terms d = before;
      d.add(*L->expansion(), 1.0);
      if (!std::isnan(r.tau)) d.add(data[t], -r.tau * r.y);
      long double scale = 0;
      const long double want = std::sqrt(std::max(0.0L, norm2(d, o.kernel, &scale)));
      const double got = std::isnan(r.delta_norm) ? 0.0 : r.delta_norm;
      RC_ASSERT(std::isnan(r.tau) == !(r.y * r.score < 1.0));  // a step exactly on the hinge-loss rounds
      if (std::abs(got - static_cast<double>(want)) > 1e-6 * std::sqrt(static_cast<double>(scale)) + 1e-9) {
        RC_LOG() << algo << " round " << t + 1 << ": ||delta|| recorded " << got << ", double sum " << static_cast<double>(want) << "\n";
        RC_FAIL("recorded ||delta_t|| differs from the double sum");
      }
    }
    out.R.push_back(r);
  }
  RunFacts f;
  f.algo = algo; f.options = o; f.comparator = "svm"; f.g_norm = gn;
  f.f_norm2_exact = L->norm2_exact();
  out.res = evaluate_bounds(out.R, f);
  return out;
}

const BoundResult& row(const BudgetRun& r, const std::string& id) {
  for (const auto& b : r.res)
    if (b.id == id) return b;
  throw std::logic_error("no row " + id);
}

Kernel gen_kernel() {
  if (*rc::gen::arbitrary<bool>()) return Kernel::rbf(*rc::gen::inRange(2, 40) / 10.0);
  return Kernel::poly(*rc::gen::inRange(2, 12) / 10.0, *rc::gen::inRange(0, 10) / 10.0, 2);
}

RC_GTEST_PROP(BudgetBounds, StepErrorRecordedAndHardRowsHold, ()) {
  Rng rng(*rc::gen::arbitrary<uint64_t>());
  const int T = *rc::gen::inRange(10, 60), d = *rc::gen::inRange(1, 4);
  const Dataset data = noisy_sequence(rng, T, d, *rc::gen::inRange(0, 30) / 100.0);
  LearnerOptions o;
  o.dim = data.dim;
  o.kernel = gen_kernel();
  o.own["budget"] = static_cast<std::size_t>(*rc::gen::inRange(1, 9));
  o.own["seed"] = rng.bits();
  const double eta = *rc::gen::inRange(5, 150) / 100.0, lambda = *rc::gen::element(0.0, 0.001, 0.05, 0.3);
  const double cap = *rc::gen::element(0.0, 0.5, 1.0, 2.0, 16.0);  // BOGD's cap: in delta_t, every hard row still holds
  o.own["C"] = *rc::gen::inRange(1, 40) / 10.0;
  const auto rank = static_cast<std::size_t>(*rc::gen::inRange(1, 10));
  RC_PRE(eta * lambda < 1.0);
  const std::string algo = *rc::gen::element<std::string>("bpa-s", "bpa-nn", "bogd", "bogd++", "nogd");
  if (algo == "bogd" || algo == "bogd++") o.own.update(nlohmann::json{{"eta", eta}, {"lambda", lambda}, {"cap", cap}});
  if (algo == "nogd") o.own.update(nlohmann::json{{"eta", eta}, {"rank", rank}});
  std::vector<std::size_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  const Comparator cmp = make_comparator("svm", data, order, o.kernel, 1.0, 7);
  const BudgetRun r = run(algo, o, data, cmp.scores, cmp.norm, true);
  for (const auto& b : r.res) {
    if (b.applicable && b.hard && !b.holds) {
      RC_LOG() << b.id << " value " << b.value << " M " << b.empirical << " " << b.note << "\n";
      RC_FAIL("hard bound violated: " + b.id);
    }
  }
  // The all-T row written out again: (a_max D_1(s) + s A)/a_min at the reported c, and its
  // infimum no higher than the value at any grid point.
  const bool shrinks = algo == "bogd" || algo == "bogd++";
  double a_min = 1e300, a_max = 0, prev = 0, sum_f = 0, sum_d = 0;
  std::vector<double> m, ones;
  for (const auto& rec : r.R) {
    m.push_back(cmp.norm > 0 ? rec.y * rec.g / cmp.norm : 0.0);
    ones.push_back(1.0);
    if (rec.mistake) a_min = std::min(a_min, rec.tau);
    if (!std::isnan(rec.tau)) { a_max = std::max(a_max, rec.tau); sum_d += std::isnan(rec.delta_norm) ? 0 : rec.delta_norm; }
    sum_f += std::sqrt(prev);
    prev = rec.f_norm2;
  }
  if (r.M == 0) return;
  const BoundResult& all_t = row(r, "budget_ogd_all_t");
  RC_ASSERT(all_t.applicable);
  RC_ASSERT(all_t.kind == "a_posteriori");
  // ||f_{T+1}|| from the learner's exact norm, as run() passes it
  const auto L = test_util::configured_learner(algo, o);
  for (std::size_t t = 0; t < data.size(); ++t) L->learn(data[t], static_cast<int64_t>(t + 1));
  const double Aref = std::sqrt(std::max(0.0, L->norm2_exact())) + sum_d + (shrinks ? eta * lambda * sum_f : 0.0);
  const auto bound = [&](double s) { return (a_max * hinge(m, ones, s) + s * static_cast<long double>(Aref)) / a_min; };
  const double s_at = cmp.norm > 0 ? all_t.param * cmp.norm : 0.0;
  const long double ref = bound(s_at);
  RC_ASSERT(std::abs(static_cast<long double>(all_t.value) - ref) <= 1e-9L * (1 + ref));
  for (int i = 0; i <= 400; ++i) {
    const double s = 1e-4 * std::pow(1e6, i / 400.0);
    RC_ASSERT(all_t.value <= bound(s) * (1 + 1e-9L) + 1e-9L);
  }
}

// BOGD's in-expectation bound (docs/bounds.md#bogd_expectation) against the mean over removal
// seeds, the comparator fixed in advance (an SVM on the sequence: it does not see the draws). For a
// fixed s the bound is a(s) + X(run), X not depending on s, so E[M] <= E[inf_s Q] and the mean of
// M - Q over n seeds has expectation <= 0. Tolerance: 6 standard errors of that mean (a normal
// approximation over n = 64 independent runs: a false failure has probability about 1e-9 per case).
TEST(BudgetBounds, BogdExpectationHoldsOnTheMeanOverSeeds) {
  Rng rng(2024);
  double worst_ratio = 0.0;
  for (int c = 0; c < 16; ++c) {
    const Dataset data = noisy_sequence(rng, 60 + static_cast<int>(rng.below(60)), 2, 0.1 + 0.1 * rng.uniform());
    LearnerOptions o;
    o.dim = data.dim;
    o.kernel = Kernel::rbf(0.5 + 2.0 * rng.uniform());
    o.own["budget"] = 2 + rng.below(6);
    const double eta = 0.2 + rng.uniform();
    const double lambda = c % 3 == 0 ? 0.0 : 0.05 * rng.uniform();
    o.own.update(nlohmann::json{{"eta", eta}, {"lambda", lambda}, {"cap", 0.0}});  // the cap makes the removal biased: the row is not applicable with it
    std::vector<std::size_t> order(data.size());
    std::iota(order.begin(), order.end(), 0);
    const Comparator cmp = make_comparator("svm", data, order, o.kernel, 1.0, 11);
    for (const std::string algo : {"bogd", "bogd++"}) {
      const int n = 64;
      double sum = 0, sum2 = 0, mean_bound = 0, mean_M = 0;
      for (int k = 0; k < n; ++k) {
        o.own["seed"] = 1000 * static_cast<uint64_t>(c) + static_cast<uint64_t>(k);
        const BudgetRun r = run(algo, o, data, cmp.scores, cmp.norm, false);
        const BoundResult& b = row(r, "bogd_expectation");
        ASSERT_TRUE(b.applicable) << b.why_not;
        ASSERT_EQ(b.kind, "expectation");
        ASSERT_FALSE(b.hard);
        ASSERT_TRUE(b.holds);  // no verdict on one run
        const double x = static_cast<double>(r.M) - b.value;
        sum += x;
        sum2 += x * x;
        mean_bound += b.value / n;
        mean_M += static_cast<double>(r.M) / n;
      }
      const double mean = sum / n, sd = std::sqrt(std::max(0.0, sum2 / n - mean * mean) * n / (n - 1));
      EXPECT_LE(mean, 6.0 * sd / std::sqrt(static_cast<double>(n)) + 1e-9)
          << algo << " case " << c << ": mean M " << mean_M << ", mean bound " << mean_bound;
      worst_ratio = std::max(worst_ratio, mean_M / mean_bound);
    }
  }
  EXPECT_GT(worst_ratio, 0.0);  // the runs make mistakes: the comparison is not vacuous in M
}

}  // namespace
}  // namespace plab
