// Stoptron (docs/learners.md#stoptron; Wang–Crammer–Vucetic 2012, Foundry Stoptron.java, Orabona et
// al. 2009): the kernel Perceptron while |S| < B; once B supports are stored f is frozen forever.
#pragma once
#include <stdexcept>

#include "algorithms/learner.hpp"

namespace plab {

class Stoptron final : public ExpansionLearner {
 public:
  // Its one option, the budget B.
  using Options = BudgetOptions;
  Stoptron(const LearnerOptions& o, const Options& own) : ExpansionLearner(o), B_(own.budget) {}
  // Its option from o.own (what make_learner hands it; absent: its default).
  explicit Stoptron(const LearnerOptions& o) : Stoptron(o, options_from<Options>(o.own)) {}
  bool frozen() const { return f_.size() >= B_; }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    step(x, t, r);
    return r;
  }
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    learn_block_appending(xs, n, t0, out, [this](const Example& x, int64_t t, RoundRecord& r) { step(x, t, r); });
  }

 private:
  void step(const Example& x, int64_t t, RoundRecord& r) {
    if (r.mistake && !frozen()) {  // docs/learners.md#stoptron: update only while |S| < B
      f_.add(x, t, x.y);
      norm2_ += r.kxx + 2.0 * x.y * r.score;
      r.update = UpdateKind::add;
    }
    finish(r);
  }

  std::size_t B_;
};

}  // namespace plab
