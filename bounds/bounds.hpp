// Evaluation of every mistake bound of docs/bounds.md on a recorded run, and the checks
// "empirical count <= bound" (tolerance: M <= bound (1 + 1e-9) + 1e-9, docs/bounds.md#tolerance).
//
// Trace metadata read by RunFacts::from_meta (the "# {json}" first line of a trace, written by
// `plab run`). Every key is optional; defaults in brackets.
//   "algo":        learner name in the registry ["kernel-perceptron"]
//   "options":     learner options by their option-table names (algorithms/options.hpp); absent
//                  ones keep LearnerOptions' defaults; an unknown name is an error
//   "comparator":  {"name": "truth"|"svm"|"multipass"|"zero"|... ["none"],
//                   "norm": ||g0||, the RKHS norm of the comparator whose scores g0(x_t) are in
//                   the trace column g [0]}
//   "r2":          optional max_t k(x_t,x_t); otherwise derived from the column kxx.
//   "f_norm2_exact": optional ||f_T||^2 = alpha^T K alpha recomputed at the end of the run; used
//                  for ||f_T|| instead of the last record's running f_norm2; null: not recomputed.
// A key of the wrong JSON type throws std::invalid_argument naming it (docs/inputs.md#trace-checks).
//
// Which bounds apply: the bound families of the learner's registry entry
// (algorithms/registry.cpp), each evaluated by its entry in the family table
// (bounds/bound_ids.cpp); this documents the choice:
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
//   * Budget step bounds [D] for bpa-s, bpa-nn, bogd, bogd++, nogd and BOGD's in-expectation bound for
//     bogd, bogd++ (bounds/budget_bounds.cpp, docs/bounds.md#budget-ogd-bounds); none for fogd.
//   * eta used by the Projectron theorems: the paper threshold for eta_convention "paper";
//     eta_eff = max ||delta_t|| over projected mistakes for "dogma" and for per-round eta_t runs
//     (docs/conventions.md#eta, docs/bounds.md#projectron-eta).
//   * I-restricted bounds (sums over update rounds) are consistency checks (kind "check"):
//     holds = bound >= M at every rho of a grid incl. all breakpoints (docs/bounds.md#kinds);
//     their reported value is the bound at the optimum of the corresponding all-T form. All-T
//     forms report the infimum over the parameter (docs/bounds.md#infimum); they are "a_priori",
//     or "a_posteriori" when they read quantities of the run (B, eta_eff, a budget learner's
//     prefix, NORMA's gradient sums).
//   * algo "external" (kExternalAlgo, a learner that is not in this suite): the Perceptron rows
//     as a reference, kind "reference", never hard; ||f_T|| only from the run (no MR Lemma 1
//     fallback), and the score may be absent (docs/bounds.md#external).
//   * Every value reported or compared with M is evaluated with direct (compensated) loss sums;
//     rows whose inputs are not finite are n/a (docs/bounds.md#non-finite).
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/options.hpp"
#include "algorithms/round_record.hpp"

namespace plab {

// Thrown by `plab bounds --strict` when a hard bound is violated; the CLI maps it to exit code 3.
struct BoundViolation : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the bounds need to know about a run besides its records. The pipeline
// (experiments/run/pipeline.hpp) fills it from the options the learner actually ran with; `plab
// bounds` reads it back from a trace's metadata line (from_meta is the inverse of to_meta).
struct RunFacts {
  std::string algo = "kernel-perceptron";  // registry name: decides which bound families apply
  LearnerOptions options;                  // the learner's options (eta, budget, NORMA rho, ...)
  double kxx_max = kNone;                  // r^2; NaN = derive from the records
  double f_norm2_exact = kNone;            // ||f_T||^2 recomputed from the coefficients
  std::string comparator = "none";         // comparator whose scores g0(x_t) are in RoundRecord::g
  double g_norm = 0.0;                     // ||g0||
  // Set by the trace reader: where the trace holds a non-finite value ("FILE:LINE: column 'kxx'
  // = nan"); every row is then n/a with this reason (docs/bounds.md#non-finite).
  std::string bad_input;

  // Every fact but the learner's options, whose JSON type alone it checks: they are read through
  // the one check of a learner's options by facts_from_meta (config/recorded_options.hpp).
  static RunFacts from_meta(const nlohmann::json& meta);
};

struct BoundResult {
  std::string id;            // stable id (bounds/bound_ids.hpp): what specs and summaries refer to
  std::string name;          // display name
  std::string tag;           // V R D M (docs/bounds.md#provenance)
  double value = kNone;      // the bound (infimum, or value at the reported parameter)
  double param = kNone;      // optimal parameter (inf = trivial limit)
  std::string param_name;    // "rho", "gamma", "c" (g = c g0), "||g||"
  bool applicable = false;
  std::string why_not;       // when not applicable
  bool holds = true;         // empirical <= bound (for checks: on the whole grid)
  bool hard = true;          // false for [M] and report-only rows
  double empirical = kNone;  // M (mistakes) or the count compared
  std::string comparator;
  // "a_priori" (needs only the data and the comparator in advance), "a_posteriori" (also needs
  // quantities of this run), "check" (I-restricted, on a grid), "reference" (a Perceptron theorem
  // beside a learner that is not ours, never hard), "expectation" (a bound on the mean over the
  // learner's own draws: holds is always true, never hard); docs/bounds.md#kinds.
  std::string kind;
  bool vacuous = false;      // value >= rounds covered, or the infimum at its trivial limit (docs/bounds.md#vacuous)
  std::size_t rounds = 0;    // rounds the bound covers (< T for a Perceptron prefix)
  std::string note;
};

// Trace metadata "algo" of a learner that is not in this suite (docs/bounds.md#external): its
// runs get the Perceptron rows as a reference (kind "reference", never a hard verdict).
inline const std::string kExternalAlgo = "external";
struct LearnerInfo;
// The registry entry of `algo`; for kExternalAlgo a binary learner of family
// perceptron_reference; nullptr when unknown.
const LearnerInfo* find_bounds_learner(const std::string& algo);

std::vector<BoundResult> evaluate_bounds(const std::vector<RoundRecord>& rounds, const RunFacts& facts);
// Every row of the learner's bound families, not applicable for `why`, over `rounds` rounds with
// `mistakes` mistakes: a run that kept no records, e.g. a stream whose comparator would need the
// whole data set (docs/inputs.md#streams).
std::vector<BoundResult> bounds_not_applicable(const RunFacts& facts, std::size_t rounds, std::size_t mistakes,
                                               const std::string& why);

nlohmann::json to_json(const BoundResult& b);
void print_bounds_table(std::ostream& os, const std::vector<BoundResult>& results);
// True when some applicable hard bound does not hold.
bool any_hard_violation(const std::vector<BoundResult>& results);

}  // namespace plab
