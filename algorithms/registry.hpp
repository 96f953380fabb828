// The learner registry: one descriptor per learner, with its maker, in algorithms/registry.cpp;
// the one source of a learner's identity (name, options it declares, bound families, colour). Everything
// that needs to know about learners reads it: the factory (make_learner, config/learner_config.hpp), the CLI help, the bounds that apply
// (bounds/bounds.cpp), plot colours (experiments/report/plot.cpp), spec validation and the contract tests.
// Built-in and run-time registrations pass the same checks (register_learner).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"

namespace plab {

// Groups of bounds (docs/bounds.md) a learner's runs are checked against.
enum class BoundFamily {
  perceptron,         // Novikoff, Freund-Schapire, Mohri-Rostamizadeh, Blum, CS certificate: every round
  perceptron_prefix,  // the same on the prefix of rounds where the run is a conservative Perceptron
  projectron,         // Projectron theorems and certificate
  projectron_pp,      // Projectron++ theorem and certificate
  forgetron,          // the recalled Forgetron bound (report only, [M])
  norma,              // NORMA online-gradient bound
  perceptron_reference,  // the Perceptron rows as a reference for a learner that is not ours ("external")
  budget_gradient,    // step plus budget-maintenance error: BPA-S, BOGD, BOGD++, NOGD (bounds/budget_bounds.cpp)
  unbiased_removal,   // BOGD's in-expectation bound (unbiased removal)
};

using LearnerMaker = std::function<std::unique_ptr<Learner>(const LearnerOptions&)>;
// The operations a learner's rule cannot skip on one round (FloorRound, algorithms/learner.hpp).
using FloorOps = double (*)(const FloorRound&);

// Written with designated initialisers ({.name = ..., .bounds = ..., ...}), fields in this order.
// What every trace row of a learner shows beyond its bound families' rules, checked by `plab
// bounds --trace` before any bound is evaluated (docs/inputs.md#trace-invariants).
struct TraceRows {
  // Update kinds on a mistake round and on a correct one (bit k: UpdateKind k; 0: the families' rule).
  unsigned mistake_kinds = 0, correct_kinds = 0;
  // The step tau of a round that steps: any, = the learner's own eta (online gradient descent), or the
  // PA-I step min(C, (1 - y f(x_t)) / k(x_t,x_t)) of its own row.
  enum class Step : uint8_t { any, eta, pa } step = Step::any;
  // support_size: one more on `add` (below options.budget), unchanged on every other round,
  // `evict` only at the budget, never above it; `update` only at the budget when update_at_budget.
  bool budgeted = false, update_at_budget = false;
  bool no_supports = false;  // support_size is 0 (FOGD's state is w, not an expansion)
  // delta_norm (what the budget maintenance changed) is >= 0, and 0 on rows of these kinds.
  unsigned delta_zero_kinds = 0;
  bool shrinks = false;  // BOGD: a correct round past the margin shrinks f by 1 - eta lambda (`update`) when lambda > 0
};

struct LearnerInfo {
  std::string name;                  // command-line and spec name: "projectron++"
  std::vector<BoundFamily> bounds;   // empty: no proven bound is evaluated (stated in the docs)
  std::string color;                 // plot colour "#rrggbb"
  std::string summary;               // one line for `plab run --help` and docs
  LearnerMaker make;
  // The options it takes, declared in its header (its struct Options: own_options<O>()), and the
  // rules that tie them together (validate), checked with the ranges by configure_learner_options
  // (config/learner_config.hpp).
  OwnOptions own = {};
  bool multiclass = false;           // labels are class indices; LearnerOptions::classes must be set
  std::vector<Kernel::Type> kernels = {};  // the kernels it is defined for (empty: every kernel)
  // Its hypotheses are w.z(x) on the random Fourier map of (kernel gamma, features, seed)
  // (numerics/fourier_features.hpp): its comparator is mapped into that space (make_feature_comparator).
  bool fourier_features = false;
  TraceRows trace = {};
  // A binary learner's multiclass counterpart, which a front end takes for it on more than two
  // classes (Python's OnlineKernelClassifier; docs/learners.md#multiclass); empty: none.
  std::string multiclass_counterpart = {};
  // Its floor a round, declared in its header (docs/learners.md#floors); nullptr: the score's
  // kernel row alone, n terms.
  FloorOps floor = nullptr;
  bool uses(const std::string& option) const;  // an option it declares (by name or alias)
  // Its own row named `key` (by name or alias), nullptr when none.
  const OptionDecl* own_row(const std::string& key) const;
  // The declarations of every option it takes (own.rows, owners empty).
  std::vector<OptionDecl> option_rows() const;
  // {name: value} of every option it takes (summary, model header, trace metadata).
  nlohmann::json options_json(const LearnerOptions& o) const;
  bool takes(const Kernel& k) const;
  std::string kernel_names() const;  // "rbf", "linear, poly"; "every kernel" when kernels is empty
};

// Builds the maker of a learner class constructed from LearnerOptions.
template <class L>
LearnerMaker maker_of() {
  return [](const LearnerOptions& o) -> std::unique_ptr<Learner> { return std::make_unique<L>(o); };
}

// Builds the maker of a learner class constructed from LearnerOptions and its own typed Options
// (L::Options, declared with own_options<L::Options>()).
template <class L>
LearnerMaker own_maker_of() {
  return [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
    return std::make_unique<L>(o, options_from<typename L::Options>(o.own));
  };
}

// For code that serves any learner (bounds, trace checks, model loading): the value of the option
// `name` that `info` declares, as configured in o.own (its declared default when absent), or `none`
// when the learner does not take it. A learner reads its own through its Options (options_from).
template <class T>
T own_value(const LearnerInfo& info, const LearnerOptions& o, const std::string& name, T none) {
  const OptionDecl* d = info.own_row(name);
  return d ? o.own.value(d->name, d->default_value).template get<T>() : none;
}

// Every registered learner, in registration order.
std::vector<LearnerInfo> learners();
// nullptr when unknown.
const LearnerInfo* find_learner(const std::string& name);
// Throws std::invalid_argument "<where>: unknown algorithm 'x' (did you mean 'y'?; known: ...)".
const LearnerInfo& learner_info(const std::string& name, const std::string& where = "--algo");
std::vector<std::string> learner_names();

// Adds a learner at run time (tests, plug-ins). Checks, as for every built-in: a new, non-empty
// name; every option declared; a maker; a "#rrggbb" colour; a summary. Returns its descriptor.
const LearnerInfo& register_learner(LearnerInfo info);

// Learner names that take `option`, in registration order.
std::vector<std::string> learners_taking(const std::string& option);

// `o` with every own option of `info` that it lacks set to its declared default.
LearnerOptions with_own_defaults(const LearnerInfo& info, LearnerOptions o);

}  // namespace plab
