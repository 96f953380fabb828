// Calibration of the paper-curve verdict (experiments/report/point_judge.hpp,
// docs/report.md#calibration): held-out runs of ours, judged as if they were the paper, must be
// flagged in at most 5% of the series (the false-alarm rate is measured here, not assumed), and the
// same runs shifted by three of their standard deviations must be flagged.
//
// Settings: Dekel et al.'s synthetic set (1500 points, gamma = 1) with a new data draw per run, and
// one fixed draw with new permutations only (as a9a); kernel Perceptron, Projectron++ (DOGMA
// convention, eta = 0.04, margin threshold 2eta) and RBP (B = 50). Ours: 30 runs; held out: 80
// single runs per learner and setting (240 one-run series each), and 40 trials of a mean of 5 of
// RBP's final error on a budget grid against a fresh mean of 5 of ours (Figures 8-9's protocol).
// PLAB_TEST_SEED moves the held-out runs (the printed seed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "algorithms/registry.hpp"
#include "datasets/synthetic.hpp"
#include "experiments/report/aggregate.hpp"
#include "experiments/report/point_judge.hpp"
#include "experiments/run/run.hpp"
#include "test_util.hpp"

namespace plab {
namespace {

constexpr std::size_t kRounds = 1500, kStep = 10, kOurs = 30, kHeldOut = 80, kTrials = 40;

struct Learn {
  std::string algo;
  LearnerOptions opt;
};

std::vector<Learn> learners() {
  LearnerOptions o;
  o.kernel = Kernel::rbf(1.0);
  o.dim = 2;
  Learn perc{"kernel-perceptron", o}, pp{"projectron++", o}, rbp{"rbp", o};
  pp.opt.own["eta"] = 0.04;
  pp.opt.own["eta_convention"] = EtaConvention::dogma;
  pp.opt.own["margin_threshold"] = "2eta";
  rbp.opt.own["budget"] = 50;
  return {perc, pp, rbp};
}

// Online error at t = kStep, 2 kStep, ..., kRounds of one run: data draw `draw`, permutation `perm`.
std::vector<double> online_error_curve(const Learn& l, uint64_t draw, uint64_t perm) {
  const Dataset d = make_dekel(kRounds, 0.1, draw);
  LearnerOptions o = l.opt;
  o.own["seed"] = perm;  // RBP's own randomness follows the run
  auto learner = test_util::configured_learner(l.algo, o);
  const auto order = make_order(d.size(), perm);
  std::vector<double> curve;
  std::size_t mistakes = 0;
  for (std::size_t t = 0; t < order.size(); ++t) {
    mistakes += learner->learn(d[order[t]], static_cast<int64_t>(t + 1)).mistake;
    if ((t + 1) % kStep == 0) curve.push_back(static_cast<double>(mistakes) / static_cast<double>(t + 1));
  }
  return curve;
}

struct Band {
  std::vector<Stat> at;  // mean and single-run std at each sample
};

Band band_of(const std::vector<std::vector<double>>& runs) {
  Band b;
  for (std::size_t k = 0; k < runs[0].size(); ++k) {
    std::vector<double> v;
    for (const auto& r : runs) v.push_back(r[k]);
    b.at.push_back(mean_std(v));
  }
  return b;
}

// rms z of a one-run series against our band, shifted by `shift` of its standard deviations.
SeriesScore judge_run(const std::vector<double>& paper, const Band& ours, double shift) {
  const Drawn one_run;
  SeriesScore sc;
  for (std::size_t k = 0; k < paper.size(); ++k) {
    const OursAt o{ours.at[k].mean, ours.at[k].std, 0.0, ours.at[k].n};
    const double y = paper[k] + shift * difference_sd(o, one_run, std::nan(""));
    sc.add(point_z(y, o, one_run, std::nan(""), 0.0, 0.0), o.mean - y, static_cast<double>((k + 1) * kStep));
  }
  return sc;
}

struct Rates {
  std::size_t series = 0, flagged = 0, shifted_flagged = 0;
};

// Ours from runs 1..kOurs, held out from runs first, first + 1, ...; `new_draws`: every run its own
// data draw.
Rates one_run_rates(bool new_draws, uint64_t first) {
  Rates r;
  for (const Learn& l : learners()) {
    std::vector<std::vector<double>> ours;
    for (uint64_t i = 1; i <= kOurs; ++i) ours.push_back(online_error_curve(l, new_draws ? i : 7, i));
    const Band band = band_of(ours);
    for (uint64_t i = first; i < first + kHeldOut; ++i) {
      const auto held = online_error_curve(l, new_draws ? i : 7, i);
      ++r.series;
      r.flagged += judge_run(held, band, 0.0).differs();
      r.shifted_flagged += judge_run(held, band, 3.0).differs() && judge_run(held, band, -3.0).differs();
    }
  }
  return r;
}

// At most 5% of the held-out series flagged. Shifted by three standard deviations (up and down), a
// series is flagged at least 60% of the time: a one-run online-error curve is nearly one number (its
// points are correlated as sqrt(s/t)), and for one Gaussian number a two-sided test at the rms
// threshold 2.1 detects a 3-sd shift with probability P(N(3,1) > 2.1) = 82% at best; Student's t
// (30 runs of ours, 5 against 5 for the means) takes a little more.
TEST(PaperVerdict, calibration_one_run_series_across_data_draws) {
  const Rates r = one_run_rates(true, test_util::test_seed(1001));
  std::printf("one run, new data draw per run: %zu/%zu series flagged, %zu/%zu flagged when shifted by 3 sd\n",
              r.flagged, r.series, r.shifted_flagged, r.series);
  EXPECT_LE(20 * r.flagged, r.series);
  EXPECT_GE(10 * r.shifted_flagged, 6 * r.series);
}

TEST(PaperVerdict, calibration_one_run_series_permutations_only) {
  const Rates r = one_run_rates(false, test_util::test_seed(1001));
  std::printf("one run, one data draw: %zu/%zu series flagged, %zu/%zu flagged when shifted by 3 sd\n", r.flagged,
              r.series, r.shifted_flagged, r.series);
  EXPECT_LE(20 * r.flagged, r.series);
  EXPECT_GE(10 * r.shifted_flagged, 6 * r.series);
}

// Means of 5 with their std bars (RBP's final error over budgets) against our mean of 5: each trial
// draws both groups afresh, as the report has one group of ours per comparison.
TEST(PaperVerdict, calibration_means_of_five) {
  const std::vector<std::size_t> budgets = {10, 25, 50, 100, 200};
  Learn rbp = learners()[2];
  auto group = [&](std::size_t b, uint64_t first) {
    rbp.opt.own["budget"] = b;
    std::vector<double> v;
    for (uint64_t i = first; i < first + 5; ++i) v.push_back(online_error_curve(rbp, i, i).back());
    return mean_std(v);
  };
  const Drawn mean5{true, 5, "test"};
  std::size_t flagged = 0, shifted = 0;
  const uint64_t first = test_util::test_seed(2001);
  for (uint64_t h = 0; h < kTrials; ++h) {
    SeriesScore sc, up;
    for (std::size_t k = 0; k < budgets.size(); ++k) {
      const Stat ours = group(budgets[k], first + 10 * h), paper = group(budgets[k], first + 5 + 10 * h);
      const OursAt o{ours.mean, ours.std, 0.0, ours.n};
      sc.add(point_z(paper.mean, o, mean5, paper.std, 0.0, 0.0), o.mean - paper.mean, static_cast<double>(budgets[k]));
      const double y = paper.mean + 3.0 * difference_sd(o, mean5, paper.std);
      up.add(point_z(y, o, mean5, paper.std, 0.0, 0.0), o.mean - y, static_cast<double>(budgets[k]));
    }
    flagged += sc.differs();
    shifted += up.differs();
  }
  std::printf("means of 5: %zu/%zu series flagged, %zu/%zu flagged when shifted by 3 sd\n", flagged, kTrials, shifted,
              kTrials);
  EXPECT_LE(20 * flagged, kTrials);
  EXPECT_GE(10 * shifted, 6 * kTrials);
}

// The rule's own arithmetic; expected values from scipy.stats (t.sf, norm.isf), not from this code.
TEST(PaperVerdict, PointZAndSeriesScoreByHand) {
  const OursAt o{0.20, 0.01, 0.0, 4};
  // One run: d = 0.01 sqrt(1 + 1/4); t = (|0.23 - 0.20| - 0.001) / d = 2.5938 with 3 degrees of
  // freedom: z = 1.7460334.
  EXPECT_NEAR(point_z(0.23, o, Drawn{}, std::nan(""), 0.0, 0.001), 1.7460334330147553, 1e-7);
  // A mean of 5 with the paper's std 0.02: d = sqrt(0.02^2/5 + 0.01^2/4), Welch's 6.0968 degrees of
  // freedom: z = 2.1775869.
  EXPECT_NEAR(difference_dof(o, Drawn{true, 5, ""}, 0.02), 6.096774193548387, 1e-12);
  EXPECT_NEAR(point_z(0.23, o, Drawn{true, 5, ""}, 0.02, 0.0, 0.001), 2.1775868639628606, 1e-7);
  EXPECT_EQ(point_z(0.2005, o, Drawn{}, std::nan(""), 0.0, 0.001), 0.0);  // inside the grid
  SeriesScore sc;
  sc.add(1.0, 0.1, 1);
  sc.add(3.0, -0.1, 2);
  EXPECT_NEAR(sc.rms_z(), std::sqrt(5.0), 1e-12);
  EXPECT_TRUE(sc.differs());
  EXPECT_EQ(sc.within(), 1u);
  EXPECT_EQ(sc.direction(), -1);
  EXPECT_DOUBLE_EQ(sc.at_x(), 2.0);
}

}  // namespace
}  // namespace plab
