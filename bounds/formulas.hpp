// The mistake bounds of docs/bounds.md as pure scalar formulas (no run data, no optimisation).
// Parameterisation: s = 1/rho (MR, FS), s = 1/gamma (Blum), s = ||g|| (Projectron, Forgetron,
// NORMA; g = c g0 with s = c ||g0||). Every loss sum is passed in already evaluated at s.
// Each returns +inf where the theorem's side condition fails (e.g. eta ||g|| >= 1), so a
// minimiser simply never picks such a parameter.
// Provenance tags [V]/[R]/[D]/[M] as in docs/bounds.md#provenance.
#pragma once
#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace plab::bounds {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// --- Perceptron (docs/bounds.md#perceptron-bounds) -----------------------------------------

// Novikoff 1962 = MR Thm 1 = FS Thm 1 [R]: M <= r^2/rho^2 (docs/bounds.md#novikoff).
inline double novikoff(double r, double rho) { return rho > 0 ? r * r / (rho * rho) : kInf; }
// (N1) [R]: M <= S_I / rho_I (docs/bounds.md#novikoff_n1).
inline double novikoff_n1(double S_I, double rho_I) { return rho_I > 0 ? S_I / rho_I : kInf; }

// Blum's lecture notes, normalised inputs (docs/bounds.md#blum_simplified,
// docs/bounds.md#blum_exact). TD = total distance.
// simplified [V]: 1/gamma^2 + (2/gamma) TD
inline double blum_simplified(double gamma, double TD) {
  return gamma > 0 ? 1.0 / (gamma * gamma) + 2.0 * TD / gamma : kInf;
}
// exact root of gamma M - sqrt(M) - TD <= 0 [D]
inline double blum_exact(double gamma, double TD) {
  if (!(gamma > 0)) return kInf;
  const double x = (1.0 + std::sqrt(1.0 + 4.0 * gamma * TD)) / (2.0 * gamma);
  return x * x;
}

// MR Theorem 2 for a gamma-admissible loss phi (docs/bounds.md#mr-thm2) [R]:
// (1) M <= (||L_phi||_1 + lip * S_I) / phi(0)
inline double mr_thm2_data(double Lphi, double lip, double S_I, double phi0) {
  return (Lphi + lip * S_I) / phi0;
}
// (2) M <= ( lip r/(2 phi0) + sqrt( lip^2 r^2/(4 phi0^2) + ||L_phi||_1/phi0 ) )^2
inline double mr_thm2_solved(double Lphi, double lip, double r, double phi0) {
  const double a = lip * r / (2.0 * phi0);
  const double x = a + std::sqrt(a * a + Lphi / phi0);
  return x * x;
}

// A one-parameter family of admissible losses (docs/bounds.md#mr-thm2), indexed by s.
struct Loss {
  std::string name;
  std::function<double(double m, double s)> phi;    // loss of margin m
  std::function<double(double s)> phi0;              // phi(0) > 0
  std::function<double(double s, double r)> lipschitz;  // on the range [-r, r] of the margins
};
// rho-hinge, phi(0) = 1, Lipschitz 1/rho = s (MR Cor. 1; docs/bounds.md#mr3_i).
Loss hinge_loss();
// squared rho-hinge, phi(0) = 1, Lipschitz 2(r+rho)/rho^2 = 2(r s^2 + s) on [-r,r] (MR Cor. 2;
// docs/bounds.md#mr5_i).
Loss squared_hinge_loss();

// MR (3)/(4) (Cor. 1, L1 of the rho-hinge) and (5)/(6) (Cor. 2, squared hinge), via Theorem 2.
inline double mr3(double L1, double S_I, double s) { return mr_thm2_data(L1, s, S_I, 1.0); }
inline double mr4(double L1, double r, double s) { return mr_thm2_solved(L1, s, r, 1.0); }
inline double mr5(double L2sq, double r, double S_I, double s) {
  return mr_thm2_data(L2sq, 2.0 * (r * s * s + s), S_I, 1.0);
}
inline double mr6(double L2sq, double r, double s) {
  return mr_thm2_solved(L2sq, 2.0 * (r * s * s + s), r, 1.0);
}
// MR (7) [R]: ( ||L||_2/2 + sqrt(||L||_2^2/4 + S_I s) )^2   (docs/bounds.md#mr7_i)
inline double mr7(double L2, double S_I, double s) {
  const double x = L2 / 2.0 + std::sqrt(L2 * L2 / 4.0 + S_I * s);
  return x * x;
}
// MR (8) [R] and Freund-Schapire Thm 2 [R] (all rounds): ( r s + ||L||_2 )^2
inline double mr8(double L2, double r, double s) { return (r * s + L2) * (r * s + L2); }
inline double freund_schapire(double L2_all, double R, double s) { return mr8(L2_all, R, s); }

// Cauchy-Schwarz certificate [D] (docs/bounds.md#cs_certificate): M <= D^M + ||g|| ||f_T||
inline double cs_certificate(double DM, double gnorm, double fnorm) { return DM + gnorm * fnorm; }

// --- Projectron (docs/bounds.md#projectron-bounds) -----------------------------------------

// ICML 2008 Thm 2 [R]: M <= (||g||^2 + 2 D_1) / (2 - R^2 - 2 eta ||g||)
// (docs/bounds.md#projectron_icml_thm2)
inline double icml_thm2(double gn, double D1, double R2, double eta) {
  const double den = 2.0 - R2 - 2.0 * eta * gn;
  return den > 0 ? (gn * gn + 2.0 * D1) / den : kInf;
}
// ICML 2008 Cor. 1 with eta_t of Eq. (13) [R]: M <= 2||g||^2 + 4 D_1, ||g|| <= U
// (docs/bounds.md#projectron_icml_cor1)
inline double icml_cor1(double gn, double D1) { return 2.0 * gn * gn + 4.0 * D1; }
// JMLR Thm 3 [V]: a = 1 - eta||g||; ||g||^2/a^2 + D_1/a + (||g||/a) sqrt(D_1/a)
// (docs/bounds.md#projectron_jmlr_thm3)
inline double jmlr_thm3(double gn, double D1, double eta) {
  const double a = 1.0 - eta * gn;
  if (!(a > 0)) return kInf;
  return gn * gn / (a * a) + D1 / a + (gn / a) * std::sqrt(D1 / a);
}
// (P-tight) [D]: ((R||g|| + sqrt(R^2||g||^2 + 4 a D_1)) / (2a))^2 (docs/bounds.md#projectron_tight;
// R = 1 default)
inline double projectron_tight(double gn, double D1, double eta, double R = 1.0) {
  const double a = 1.0 - eta * gn;
  if (!(a > 0)) return kInf;
  const double x = (R * gn + std::sqrt(R * R * gn * gn + 4.0 * a * D1)) / (2.0 * a);
  return x * x;
}
// ICML 2008 Thm 3, reconstructed reading [R, uncertain typography]
// (docs/bounds.md#projectron_icml_thm3_recon):
// ((R||g|| + sqrt(R^2||g||^2 + 4 D_1)) / (2 (1 - eta||g||)))^2 — a relaxation of (P-tight).
inline double icml_thm3_recon(double gn, double D1, double eta, double R) {
  const double a = 1.0 - eta * gn;
  if (!(a > 0)) return kInf;
  const double x = (R * gn + std::sqrt(R * R * gn * gn + 4.0 * D1)) / (2.0 * a);
  return x * x;
}
// Projectron certificate [D] (docs/bounds.md#projectron_certificate):
// M <= D^M + ||g|| Delta_M + ||g|| ||f_T||
inline double projectron_certificate(double DM, double gn, double DeltaM, double fnorm) {
  return DM + gn * DeltaM + gn * fnorm;
}

// --- Projectron++ (docs/bounds.md#projectronpp-bounds) -------------------------------------

// beta_t = tau (2 l - tau ||Pk||^2 - 2 ||delta||/eta) on a margin update (JMLR Thm 4;
// docs/bounds.md#projectronpp_jmlr_thm4).
inline double pp_beta(double tau, double loss, double pk2, double delta, double eta) {
  return tau * (2.0 * loss - tau * pk2 - 2.0 * delta / eta);
}
// JMLR Thm 4 [V]: ||g||^2/a^2 + D_1/a + (||g||/a) sqrt(max(0, D_1/a - B))
inline double jmlr_thm4(double gn, double D1, double eta, double B) {
  const double a = 1.0 - eta * gn;
  if (!(a > 0)) return kInf;
  return gn * gn / (a * a) + D1 / a + (gn / a) * std::sqrt(std::max(0.0, D1 / a - B));
}
// Exact solution of Thm 4's implicit form [D] (docs/bounds.md#projectronpp_thm4_implicit).
inline double jmlr_thm4_implicit(double gn, double D1, double eta, double B) {
  const double a = 1.0 - eta * gn;
  if (!(a > 0)) return kInf;
  const double first = (gn * gn + D1) / a;
  const double disc = gn * gn + 4.0 * a * D1 - 4.0 * a * a * B;
  if (disc < 0) return first;
  return std::max(first, ((2.0 * a * D1 + gn * gn) + gn * std::sqrt(disc)) / (2.0 * a * a));
}
// Projectron++ certificate [D] (docs/bounds.md#projectronpp_certificate):
// sum_upd tau l(g) + ||g|| sum_upd tau ||delta|| + ||g|| ||f_T|| - sum_margin tau
inline double pp_certificate(double tau_loss_g, double gn, double tau_delta, double fnorm,
                             double tau_margin) {
  return tau_loss_g + gn * tau_delta + gn * fnorm - tau_margin;
}

// --- Forgetron (docs/bounds.md#forgetron) [M] ---------------------------------------------

// U(B) = (1/4) sqrt((B+1)/ln(B+1)) (docs/learners.md#forgetron-basic, docs/bounds.md#forgetron)
inline double forgetron_U(double B) { return 0.25 * std::sqrt((B + 1.0) / std::log(B + 1.0)); }
// [M] M <= 2||g||^2 + 4 sum_t l*_t for ||g|| <= U(B), B >= 83: report only.
inline double forgetron_bound(double gn, double D1) { return 2.0 * gn * gn + 4.0 * D1; }

// --- NORMA online gradient (docs/bounds.md#norma_ogd) [D] ---------------------------------

// M <= (1/rho)[ sum l_t(g) + (lambda T/2)||g||^2 + ||g||^2/(2 eta) + (eta/2) sum||grad||^2
//               - (lambda/2) sum ||f_t||^2 ]
inline double norma_ogd(double sum_loss_g, double gn, double lambda, double T, double eta,
                        double sum_grad2, double sum_f2, double rho) {
  return (sum_loss_g + lambda * T / 2.0 * gn * gn + gn * gn / (2.0 * eta) + eta / 2.0 * sum_grad2 -
          lambda / 2.0 * sum_f2) / rho;
}

}  // namespace plab::bounds
