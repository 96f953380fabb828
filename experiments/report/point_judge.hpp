// How one published point, and one published series, is judged against ours
// (docs/report.md#paper-curves). Pure arithmetic: paper_curves.cpp feeds it the digitized points
// and our groups, and the calibration test feeds it held-out runs of ours.
//
// A point is compared through the standard deviation of (paper - our mean) that matches what the
// paper drew: one run, d = s sqrt(1 + 1/n_ours); a mean of n runs, d = sqrt(s_paper^2/n + s^2/n_ours)
// (s_paper = s when the paper prints no spread), where s is our single-run standard deviation
// over n_ours permutations. t = max(0, |paper - ours| - grid) / d, with grid the digitization
// precision in y plus our slope times the precision in x; the standard deviations are estimates, so
// t is read through Student's t with the difference's degrees of freedom (n_ours - 1 against one
// run, Welch-Satterthwaite against a mean with its own spread) and z is the normal quantile of the
// same upper-tail probability. A point is within when z <= kPointZ.
// A series differs when the root mean square of its z over the judged points exceeds
// kSeriesRmsZ: for unit-variance Gaussian z the mean of z^2 exceeds c^2 with probability at most
// P(chi^2_1 > c^2) however correlated the points are (the fully correlated case is the worst for
// c^2 above 1.54): 3.6% at c = 2.1. Runs across data draws have heavier tails than Gaussian (4-6%
// at c = 2), hence 2.1; the calibration test measures the rate (docs/report.md#calibration).
#pragma once
#include <cstddef>
#include <limits>
#include <string>

namespace plab {

inline constexpr double kPointZ = 2.0;
inline constexpr double kSeriesRmsZ = 2.1;

// What a published series is (the digitization manifest's "drawn" entry).
struct Drawn {
  bool mean = false;     // false: one run
  std::size_t n = 1;     // runs averaged
  std::string evidence;  // how that is known (the manifest's words)
  std::string text() const { return mean ? "mean of " + std::to_string(n) : "one run"; }
};

// Ours at a point's x: mean and single-run standard deviation over n permutations, and the slope
// of our mean in x (0 for a horizontal line).
struct OursAt {
  double mean = 0.0, std = 0.0, slope = 0.0;
  std::size_t n = 1;
};

// Standard deviation of (paper - our mean); paper_spread is the paper's own standard deviation
// (half its error bar, an annotation's +-), NaN when it prints none.
double difference_sd(const OursAt& o, const Drawn& d, double paper_spread);

// Degrees of freedom of that standard deviation's estimate.
double difference_dof(const OursAt& o, const Drawn& d, double paper_spread);

// The standardised excess of a point over the digitization grid, as a normal z (0 within the grid;
// infinite when the difference has no spread, or no estimate of it, and the excess is positive).
// grid = dy + |slope| dx.
double point_z(double paper, const OursAt& o, const Drawn& d, double paper_spread, double dx, double dy);

// A series' verdict from its judged points.
class SeriesScore {
 public:
  void add(double z, double signed_dev, double x);
  std::size_t judged() const { return n_; }
  std::size_t within() const { return within_; }
  double rms_z() const;        // sqrt(mean z^2); 0 with no point
  double max_z() const { return max_z_; }
  double at_x() const { return at_x_; }
  int direction() const;       // +1 when most of the excess is ours above the paper, -1 below, 0 none
  bool differs() const { return n_ > 0 && rms_z() > kSeriesRmsZ; }

 private:
  std::size_t n_ = 0, within_ = 0;
  double sum_z2_ = 0.0, max_z_ = -1.0, at_x_ = std::numeric_limits<double>::quiet_NaN(), signed_ = 0.0;
};

}  // namespace plab
