// Randomized Budget Perceptron (Cavallanti, Cesa-Bianchi, Gentile; COLT 2006 / MLJ 69, 2007;
// docs/learners.md#rbp; DOGMA k_perceptron_train.m): kernel Perceptron; on a mistake with |S| = B
// delete a support chosen uniformly at random from the B old ones, then add x_t with alpha_t = y_t.
// The eviction stream is plab::Rng(seed), its option, drawn only on evictions.
#pragma once
#include <stdexcept>

#include "algorithms/learner.hpp"
#include "core/random.hpp"

namespace plab {

class RandomizedBudgetPerceptron final : public ExpansionLearner {
 public:
  // Its options: the budget B and the seed of its evictions.
  struct Options {
    std::size_t budget = 0, seed = 1;
    static std::vector<OptionMember<Options>> rows() {
      return {budget_option<Options>(&Options::budget), seed_option<Options>(&Options::seed)};
    }
  };
  RandomizedBudgetPerceptron(const LearnerOptions& o, const Options& own)
      : ExpansionLearner(o), B_(own.budget), rng_(own.seed) { drop_norm(); }
  // Its options from o.own (what make_learner hands it; absent: their defaults).
  explicit RandomizedBudgetPerceptron(const LearnerOptions& o) : RandomizedBudgetPerceptron(o, options_from<Options>(o.own)) {}

  // The eviction stream's state (core/random.hpp) beside the expansion.
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("rng", rng_.state());
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    rng_.set_state(r.get<uint64_t>("rng"));
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin_without_row(x, t);
    if (!r.mistake) return finish(r);
    double s = r.score;  // f(x_t) of the hypothesis the new term is added to
    r.update = UpdateKind::add;
    if (f_.size() >= B_) {
      const std::size_t j = static_cast<std::size_t>(rng_.below(f_.size()));
      const double aj = f_.alpha[j];
      if (!norm_dropped_) {  // f(x_j) and k(x_j, x_t): for the norm only
        const double fj = f_.score_only(f_.sv.row(j));
        norm2_ += -2.0 * aj * fj + aj * aj * f_.self(j);  // ||f - a_j k_j||^2
        s -= aj * f_.sv.kernel_one(f_.kernel, x, j);
      }
      r.removed = f_.sv.id(j);
      f_.remove(j);
      r.update = UpdateKind::evict;
    }
    f_.add(x, t, x.y);                                  // docs/learners.md#rbp: alpha_t = y_t
    norm2_ += r.kxx + 2.0 * x.y * s;
    return finish(r);
  }

 private:
  std::size_t B_;
  Rng rng_;
};

}  // namespace plab
