// PA-I (Crammer, Dekel, Keshet, Shalev-Shwartz, Singer, JMLR 7, 2006, Sec. 3 / Fig. 1, as the
// JMLR Projectron baseline): on a hinge loss l = 1 - y s > 0 add x_t with coefficient
//   y tau,  tau = min(l / k(x_t,x_t), C)     (C: its option, > 0)
// eta_convention == dogma mimics DOGMA (docs/conventions.md#paper-vs-dogma): the test is y s <= 1,
// so a round with y s == 1 exactly adds x_t with coefficient 0 (the support set grows, f does not
// change). k(x,x) == 0 (a zero input, linear kernel) gives tau = C (0 when l = 0) on a zero term.
#pragma once
#include <algorithm>
#include <stdexcept>

#include "algorithms/learner.hpp"

namespace plab {

class PassiveAggressive1 final : public ExpansionLearner {
 public:
  // Its options: the aggressiveness C and the reading of its update test, dogma = DOGMA's update
  // at margin 1.
  struct Options {
    double C = 1.0;
    std::string eta_convention = "paper";
    static std::vector<OptionMember<Options>> rows() {
      return {C_option<Options>(&Options::C), eta_convention_option<Options>(&Options::eta_convention)};
    }
  };
  PassiveAggressive1(const LearnerOptions& o, const Options& own)
      : ExpansionLearner(o), C_(own.C), dogma_(eta_convention_of(own.eta_convention) == EtaConvention::dogma) {}
  // Its options from o.own (what make_learner hands it; absent: their defaults).
  explicit PassiveAggressive1(const LearnerOptions& o) : PassiveAggressive1(o, options_from<Options>(o.own)) {}

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
    const double ys = x.y * r.score, loss = 1.0 - ys;
    r.margin_error = ys > 0.0 && ys < 1.0;
    if (loss > 0.0 || (dogma_ && loss == 0.0)) {
      // JMLR 2006 Fig. 1, PA-I
      const double tau = r.kxx > 0.0 ? std::min(loss / r.kxx, C_) : (loss > 0.0 ? C_ : 0.0);
      const double a = x.y * tau;
      f_.add(x, t, a);
      norm2_ += 2.0 * a * r.score + a * a * r.kxx;
      r.tau = tau;
      r.coef = a;
      r.update = UpdateKind::add;
    }
    finish(r);
  }

  double C_;
  bool dogma_;
};

}  // namespace plab
