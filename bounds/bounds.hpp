// Evaluation of every mistake bound of theory.md on a recorded run, and the checks
// "empirical count <= bound" (tolerance: M <= bound (1 + 1e-9) + 1e-9, theory.md §1).
//
// Trace metadata read by RunFacts::from_meta (the "# {json}" first line of a trace, written by
// `plab run`). Every key is optional; defaults in brackets.
//   "algo":        learner name as in the factory ["kernel-perceptron"]
//   "kernel":      {"type": "linear"|"poly"|"rbf" ["linear"], "gamma" [1], "coef0" [0], "degree" [2]}
//   "options":     {"eta": paper-norm Projectron threshold [0],
//                   "eta_convention": "paper"|"dogma" ["paper"],
//                   "U": ICML Cor. 1 norm cap, 0 = off [0], "budget": B [0], "beta": CKS [0],
//                   "lambda" [0], "learning_rate" [1], "rho" [0], "nu" [-1], "bias" [false],
//                   "truncate" [0], "task" ["classification"], "decay_rate" [false]  (NORMA)}
//   "comparator":  {"name": "truth"|"svm"|"multipass"|"zero"|... ["none"],
//                   "norm": ||g0||, the RKHS norm of the comparator whose scores g0(x_t) are in
//                   the trace column g [0]}
//   "r2":          optional max_t k(x_t,x_t); otherwise derived from the column kxx.
//   "f_norm2_exact": optional ||f_T||^2 = alpha^T K alpha recomputed at the end of the run; used
//                  for ||f_T|| instead of the last record's running f_norm2.
//
// Which bounds apply (documented choice, see bounds.cpp):
//   * Perceptron family (Novikoff, MR (3)-(8), FS, Blum, Cauchy-Schwarz certificate) for
//     perceptron, kernel-perceptron, averaged-/voted-perceptron (their online rounds are the
//     Perceptron's), and for the budget learners rbp, stoptron, forgetron, forgetron-basic, cks
//     on their *Perceptron prefix*: the longest prefix of rounds where the record updates
//     (add / update) exactly on the mistakes; the first eviction, shrink, frozen mistake or
//     margin update ends it. Results then carry rounds < T and a note.
//   * Blum's algorithm runs on normalised inputs: it is applicable only when every k(x_t,x_t)
//     = 1 (to 1e-9), i.e. the run's feature vectors were unit norm (Gaussian kernel, or
//     normalised linear inputs). On other runs Blum is reported as not applicable; the same
//     number on normalised margins is MR (4) all-T with r = 1, which we do not substitute
//     because the algorithm itself would differ.
//   * Projectron bounds (ICML Thm 2, Cor. 1, JMLR Thm 3, P-tight, ICML Thm 3 recon.,
//     certificate 3.5) for projectron; Projectron++ (JMLR Thm 4, its implicit form,
//     certificate 4.3) for projectron++; Forgetron [M] for forgetron (never hard);
//     NORMA online-gradient bound [D] for norma (classification, fixed rho, no bias/truncation).
//   * eta used by the Projectron theorems: the paper threshold for eta_convention "paper";
//     eta_eff = max ||delta_t|| over projected mistakes for "dogma" and for per-round eta_t runs
//     (reproduction.md §1, theory.md 3.1).
//   * I-restricted bounds (sums over update rounds) are consistency checks: holds = bound >= M
//     at every rho of a grid incl. all breakpoints (theory.md 2.9); their reported value is the
//     bound at the optimum of the corresponding all-T form. All-T forms are predictive: value =
//     infimum over the parameter (theory.md 2.10).
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/round_record.hpp"

namespace plab {

// Thrown by `plab bounds --strict` when a hard bound is violated; the CLI maps it to exit code 3.
struct BoundViolation : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunFacts {
  std::string algo = "kernel-perceptron";
  std::string kernel_type = "linear";
  double gamma = 1.0, coef0 = 0.0;
  int degree = 2;
  bool unit_diagonal = false;   // kernel type rbf; the records' kxx decide the checks anyway
  double kxx_max = kNone;       // r^2; NaN = derive from the records
  double f_norm2_exact = kNone; // ||f_T||^2 recomputed from the coefficients ("f_norm2_exact")
  double eta = 0.0;             // paper-norm threshold of the run
  std::string eta_convention = "paper";
  double U = 0.0;
  std::size_t budget = 0;
  double beta = 0.0;
  // NORMA
  double lambda = 0.0, learning_rate = 1.0, rho = 0.0, nu = -1.0;
  bool bias = false, decay_rate = false;
  std::size_t truncate = 0;
  std::string task = "classification";
  // comparator whose scores g0(x_t) are in RoundRecord::g
  std::string comparator = "none";
  double g_norm = 0.0;

  static RunFacts from_meta(const nlohmann::json& meta);
};

struct BoundResult {
  std::string id;            // stable id (bounds/bound_ids.hpp): what specs and summaries refer to
  std::string name;          // display name
  std::string tag;           // V R D M (theory.md §0)
  double value = kNone;      // the bound (infimum, or value at the reported parameter)
  double param = kNone;      // optimal parameter (inf = trivial limit)
  std::string param_name;    // "rho", "gamma", "c" (g = c g0), "||g||"
  bool applicable = false;
  std::string why_not;       // when not applicable
  bool holds = true;         // empirical <= bound (for checks: on the whole grid)
  bool hard = true;          // false for [M] and report-only rows
  double empirical = kNone;  // M (mistakes) or the count compared
  std::string comparator;
  std::string kind;          // "predictive" (all-T, infimum) or "check" (I-restricted, grid)
  std::size_t rounds = 0;    // rounds the bound covers (< T for a Perceptron prefix)
  std::string note;
};

std::vector<BoundResult> evaluate_bounds(const std::vector<RoundRecord>& rounds, const RunFacts& facts);

nlohmann::json to_json(const BoundResult& b);
void print_bounds_table(std::ostream& os, const std::vector<BoundResult>& results);
// True when some applicable hard bound does not hold.
bool any_hard_violation(const std::vector<BoundResult>& results);

}  // namespace plab
