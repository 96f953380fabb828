#include "experiments/report/point_judge.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace plab {

double difference_sd(const OursAt& o, const Drawn& d, double paper_spread) {
  const double n_ours = static_cast<double>(o.n > 0 ? o.n : 1);
  const double ours_var = o.std * o.std / n_ours;  // of our mean
  if (!d.mean) return std::sqrt(o.std * o.std + ours_var);
  const double sp = std::isnan(paper_spread) ? o.std : paper_spread;
  return std::sqrt(sp * sp / static_cast<double>(d.n) + ours_var);
}

double difference_dof(const OursAt& o, const Drawn& d, double paper_spread) {
  const double n_ours = static_cast<double>(o.n > 0 ? o.n : 1);
  const double b = o.std * o.std / n_ours;  // our mean's variance, estimated from n_ours runs
  if (!d.mean) return n_ours - 1.0;          // the paper's single run brings no estimate
  const double n = static_cast<double>(d.n);
  const double a = (std::isnan(paper_spread) ? o.std * o.std : paper_spread * paper_spread) / n;
  if (std::isnan(paper_spread)) return n_ours - 1.0;  // ours stands for both sides: one estimate
  const double den = (n > 1 ? a * a / (n - 1.0) : 0.0) + (n_ours > 1 ? b * b / (n_ours - 1.0) : 0.0);
  return den > 0.0 ? (a + b) * (a + b) / den : 0.0;  // Welch-Satterthwaite
}

double point_z(double paper, const OursAt& o, const Drawn& d, double paper_spread, double dx, double dy) {
  const double excess = std::fabs(o.mean - paper) - dy - std::fabs(o.slope) * dx;
  if (!(excess > 0.0)) return 0.0;
  const double sd = difference_sd(o, d, paper_spread);
  if (!(sd > 0.0)) return std::numeric_limits<double>::infinity();
  const double t = excess / sd, dof = difference_dof(o, d, paper_spread);
  if (!(dof >= 1.0)) return std::numeric_limits<double>::infinity();  // no spread estimate to judge with
  // The standard deviations are estimates: t has Student's distribution with dof degrees of
  // freedom; z is the normal quantile of the same upper-tail probability.
  const double upper = boost::math::cdf(boost::math::complement(boost::math::students_t(dof), t));
  if (!(upper > 0.0)) return std::numeric_limits<double>::infinity();
  return boost::math::quantile(boost::math::complement(boost::math::normal(), upper));
}

void SeriesScore::add(double z, double signed_dev, double x) {
  ++n_;
  within_ += z <= kPointZ;
  sum_z2_ += std::isfinite(z) ? z * z : 1e300;
  if (z > max_z_) { max_z_ = z; at_x_ = x; }
  if (z > 0.0) signed_ += signed_dev > 0 ? z : -z;
}

double SeriesScore::rms_z() const { return n_ == 0 ? 0.0 : std::sqrt(sum_z2_ / static_cast<double>(n_)); }

int SeriesScore::direction() const { return signed_ > 0 ? 1 : signed_ < 0 ? -1 : 0; }

}  // namespace plab
