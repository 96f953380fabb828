// The one interface of every online learner, and the option rows several learners declare alike. A
// learner's name is its registry entry's (algorithms/registry.hpp), never the class's.
// Represents: a hypothesis f_{t-1} that scores examples and learns from one labelled example
// per round. Requires: rounds fed in order with t = 1, 2, ...; examples of the data set's
// dimension or lower. Ensures: learn() returns the complete round record of docs/bounds.md#round-log with
// score = f_{t-1}(x_t) computed before any change; learners never print.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/kernel.hpp"
#include "algorithms/options.hpp"
#include "algorithms/round_record.hpp"
#include "core/state_archive.hpp"
#include "numerics/support_set.hpp"
#include "datasets/dataset.hpp"

namespace plab {

// The budget B and the seed of a learner's own randomness, one row each of the Options of the
// learners that take them declares alike (one option, one default). Budget 0 = not given: out of
// its range, so a budget learner refuses a run without one (make_learner).
template <class O, class B>
OptionMember<O> budget_option(std::size_t B::*member) {
  return {"budget", member, "Budget B: the most supports kept", at_least(1)};
}
template <class O, class B>
OptionMember<O> seed_option(std::size_t B::*member) {
  return {"seed", member, "Seed of the learner's own randomness (eviction draws, FOGD's frequencies)"};
}
// PA-I's aggressiveness C, declared alike by PA-I, BPA-S, BPA-NN and the multiclass PA-I.
template <class O, class B>
OptionMember<O> C_option(double B::*member) {
  return {"C", member, "PA-I aggressiveness C", above(0)};
}

// The Options of a learner whose only option is its budget (Forgetron, Stoptron).
struct BudgetOptions {
  std::size_t budget = 0;
  static std::vector<OptionMember<BudgetOptions>> rows() { return {budget_option<BudgetOptions>(&BudgetOptions::budget)}; }
};

// The step size eta of the online gradient learners (BOGD, BOGD++, FOGD, NOGD), one row each of
// their Options declares alike (so one option, one default: LIBOL KOL's 0.5); "ogd_eta" is its
// earlier name, still read.
inline constexpr double kOgdEta = 0.5;
template <class O>
OptionMember<O> ogd_eta_option(double O::*member) {
  return {"eta", member, "step size eta of online gradient descent (BOGD, BOGD++, FOGD, NOGD)", above(0), {}, {"ogd_eta"}};
}

// One round of a pass as a learner's floor reads it (docs/learners.md#floors; make bench-report):
// the operations its rule cannot skip are counted from the round's record. A learner declares its
// count as a static floor_ops(const FloorRound&) named in its registry entry; without one its floor
// is the score's kernel row, n terms.
struct FloorRound {
  double n = 0.0;     // supports before the round
  double nnz = 0.0;   // x_t's non-zeros
  double scaled = 0.0;  // those other than 1 (a product by 1 is no operation)
  double term = 0.0;  // operations of one term a_i k(x_i, x_t) of a score (docs/learners.md#floors)
  bool step = false;     // the round changed f
  bool removed = false;  // the round removed a support
  const LearnerOptions* options = nullptr;  // the run's options (the learner's own in options->own)
};

// A row whose feature index the learner cannot hold memory for (the primal Perceptron's dense w,
// docs/learners.md#perceptron), thrown from learn on round t: run_online and run_stream name the
// data row it came from.
struct FeatureIndexError : std::runtime_error {
  FeatureIndexError(int64_t round, const std::string& what) : std::runtime_error(what), t(round) {}
  int64_t t;
};

class Learner {
 public:
  virtual ~Learner() = default;
  // f_{t-1}(x) of the current hypothesis (no change).
  virtual double score(const Example& x) const = 0;
  // One round: score, decide, update; returns the round record.
  virtual RoundRecord learn(const Example& x, int64_t t) = 0;
  // Rounds t0 .. t0+n-1 on xs[0..n): the same records as n calls of learn(), bit for bit (tested);
  // learners that can share work across rounds they know in advance override it (Projectron).
  virtual void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) {
    for (std::size_t i = 0; i < n; ++i)
      emplace_record(out + i, [&] { return learn(xs[i], t0 + static_cast<int64_t>(i)); });
  }
  virtual std::size_t support_size() const = 0;
  // Running ||f||^2 maintained by the update rules.
  virtual double norm2() const = 0;
  // ||f||^2 recomputed from the coefficients (alpha^T K alpha); tests compare it with norm2().
  virtual double norm2_exact() const = 0;
  // False when the learner skips its running norm (record_norms off; docs/learners.md#bookkeeping):
  // norm2() and the records' f_norm2 are then NaN.
  virtual bool keeps_norm() const { return true; }
  // Hypotheses this learner can predict with after training: "last" always; "averaged" for
  // kernel learners that never remove a support; "voted" for the voted Perceptron.
  virtual std::vector<std::string> hypotheses() const { return {"last"}; }
  virtual double score_as(const std::string& which, const Example& x) const {
    (void)which;
    return score(x);
  }
  // True when score s (score_as's) errs on x: y s <= 0 (multiclass learners: margin <= 0), or s is
  // not finite (NaN compares false: never counted correct; docs/models.md#no-finite-score).
  virtual bool wrong(double s, const Example& x) const { return !(x.y * s > 0.0); }
  // True when hypothesis `which` errs on x (wrong(score_as(which, x), x)).
  bool errs(const std::string& which, const Example& x) const { return wrong(score_as(which, x), x); }
  // The kernel expansion of f (nullptr for the primal Perceptron); comparators and tests use it.
  virtual const KernelExpansion* expansion() const { return nullptr; }
  // Model files (models/model_file.hpp, docs/models.md#learners): everything the learner predicts
  // with and continues from, as named arrays. load_state on a learner made with the same options
  // restores it so that further rounds give the same records, bit for bit; a state that does not
  // fit is a ModelError. The defaults say the learner has no model file.
  virtual void save_state(StateWriter& w) const {
    (void)w;
    throw ModelError("this learner does not write its state to a model file");
  }
  virtual void load_state(const StateReader& r) {
    (void)r;
    throw ModelError("this learner does not read its state from a model file");
  }
};

// Base of the learners that hold f as one KernelExpansion: shares scoring, the running norm,
// the round count and the averaged hypothesis.
class ExpansionLearner : public Learner {
 public:
  explicit ExpansionLearner(const LearnerOptions& o) : f_(o.kernel, o.dim), record_norms_(o.record_norms) {}
  double score(const Example& x) const override { return f_.score(x); }
  // The block's dot products with the supports in one pass (KernelExpansion::prepare: the same
  // bits), then the rounds one by one.
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    f_.prepare(xs, n);
    try {
      for (std::size_t i = 0; i < n; ++i)
        emplace_record(out + i, [&] { return learn(xs[i], t0 + static_cast<int64_t>(i)); });
    } catch (...) {
      f_.unprepare();
      throw;
    }
    f_.unprepare();
  }
  std::size_t support_size() const override { return f_.size(); }
  // NaN when the learner skips the running norm (drop_norm(); docs/learners.md#bookkeeping).
  double norm2() const override { return norm_dropped_ ? std::numeric_limits<double>::quiet_NaN() : norm2_; }
  bool keeps_norm() const override { return !norm_dropped_; }
  double norm2_exact() const override { return f_.norm2_exact(); }
  const KernelExpansion* expansion() const override { return &f_; }
  std::vector<std::string> hypotheses() const override {
    if (f_.averaging_valid()) return {"last", "averaged"};
    return {"last"};
  }
  double score_as(const std::string& which, const Example& x) const override {
    if (which == "averaged") return f_.score_averaged(x, rounds_);
    return f_.score(x);
  }
  // The expansion, the running norm and the round count; learners with more state extend these.
  void save_state(StateWriter& w) const override {
    f_.save(w, "f.");
    w.put_one("norm2", norm_dropped_ ? f_.norm2_exact() : norm2_);  // a model always holds ||f||^2
    w.put_one("rounds", rounds_);
  }
  void load_state(const StateReader& r) override {
    f_.load(r, "f.");
    norm2_ = r.get_one<double>("norm2");
    rounds_ = r.get_one<int64_t>("rounds");
    // ||f||^2 >= 0; a running norm may round below 0 by a few ulps of (sum |alpha_i| sqrt(k_ii))^2.
    double top = 0.0;
    for (std::size_t i = 0; i < f_.size(); ++i) top += std::abs(f_.alpha[i]) * std::sqrt(std::max(0.0, f_.self(i)));
    require_state(norm2_ >= -1e-9 * top * top, "norm2: " + std::to_string(norm2_) + " < 0 (a squared norm is >= 0)");
    // A round adds one support at most, and its id is its round (the averaged hypothesis divides by rounds).
    int64_t last = 0;
    for (std::size_t i = 0; i < f_.size(); ++i) last = std::max(last, f_.sv.id(i));
    require_state(rounds_ >= last && static_cast<uint64_t>(rounds_) >= f_.size(),
                  "rounds: " + std::to_string(rounds_) + " rounds cannot have added " + std::to_string(f_.size()) +
                      " supports (the last at round " + std::to_string(last) + ")");
  }

 protected:
  // Starts a round record: t, y, k(x,x) and the score f_{t-1}(x) (fills f_.row()).
  RoundRecord begin(const Example& x, int64_t t) { return begin(x, t, f_.score(x)); }
  // The same for a learner that does not read f_.row() afterwards (KernelExpansion::score_only).
  RoundRecord begin_without_row(const Example& x, int64_t t) { return begin(x, t, f_.score_only(x)); }
  // The same with the score computed by the caller (bit for bit f_.score(x)).
  RoundRecord begin(const Example& x, int64_t t, double score) {
    rounds_ = t;
    RoundRecord r;
    r.t = t; r.y = x.y; r.kxx = f_.kernel.self(x.sqnorm);
    r.score = score;
    r.mistake = x.y * r.score <= 0.0;
    return r;
  }
  // learn_block for a learner whose rounds at most append a support (no existing coefficient
  // changes): the kernel and voted Perceptrons, PA-I and the Stoptron (docs/learners.md#block-scores).
  // The scores of up to kPanelLanes rounds against the supports at the block's start are formed
  // together (KernelExpansion::scores, as lane sums), then each round, in order, adds the terms of
  // the supports the block's earlier rounds appended, by slot number: dot_alpha's lane sums, so the
  // same bits as learn(). step(x, t, r) finishes, in place, a round that begin(x, t, score) started.
  template <class Step>
  void learn_block_appending(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out, Step step) {
    LaneSum s[kPanelLanes];
    for (std::size_t b = 0; b < n; b += kPanelLanes) {
      const std::size_t m = std::min(kPanelLanes, n - b), ns = f_.size();
      if (m > 1) f_.scores(xs + b, m, s);
      for (std::size_t l = 0; l < m; ++l) {
        const Example& x = xs[b + l];
        const int64_t t = t0 + static_cast<int64_t>(b + l);
        if (m == 1) {  // a lone round: one kernel row, no panel
          emplace_record(out + b + l, [&] { return begin(x, t); });
          step(x, t, out[b + l]);
          continue;
        }
        LaneSum& sum = s[l];
        double k[kPanelLanes];  // the block's earlier rounds appended at most one support each
        if (f_.size() - ns > l) throw std::logic_error("learn_block_appending: a round appended more than one support");
        f_.sv.kernel_range(f_.kernel, x, ns, f_.size(), k);
        for (std::size_t j = ns; j < f_.size(); ++j) sum.add_term(j, f_.alpha[j], k[j - ns]);
        emplace_record(out + b + l, [&] { return begin(x, t, sum.total()); });
        step(x, t, out[b + l]);
      }
    }
  }
  // Finishes it: support size and running norm after the round.
  RoundRecord& finish(RoundRecord& r) const {
    r.support_size = static_cast<int64_t>(f_.size());
    r.f_norm2 = norm2();
    return r;
  }
  // A learner whose running norm costs more than O(1) a round calls this in its constructor: with
  // record_norms off it then skips that work, and norm2() and the records' f_norm2 are NaN.
  bool drop_norm() {
    norm_dropped_ = !record_norms_;
    return norm_dropped_;
  }
  KernelExpansion f_;
  double norm2_ = 0.0;
  int64_t rounds_ = 0;
  bool record_norms_ = true, norm_dropped_ = false;
};

}  // namespace plab
