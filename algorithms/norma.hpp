// NORMA: stochastic gradient descent in an RKHS (Kivinen, Smola, Williamson, IEEE TSP 52(8) 2004;
// A. Smola's NORMA slides; docs/learners.md#norma). One learner for classification, novelty
// detection and regression on the instantaneous risk c(x_t, y_t, f(x_t)) + (lambda/2)||f||^2,
// learning rate Lambda (Options::learning_rate), optional nu-trick, optional unregularised bias b
// and optional truncation of terms older than tau rounds.
//
// Conventions (explicit, the slides' as default):
// * Violation test sigma_t: classification y f < rho, novelty f < rho, eps-regression
//   |y - f| > eps (strict, slides). inclusive_ties = true uses y f <= rho, f <= rho, |y-f| >= eps
//   (the kernel Perceptron's y f <= 0). NOTE: with rho = 0, no bias and strict ties the slides'
//   Perceptron never leaves f_0 = 0 (round 1 is a tie, so is every later round).
// * f(x_t) is evaluated before the decay; then all alpha_i decay, x_t is appended, b and rho move
//   (the order of docs/bounds.md#fixture-norma-nu). rho / eps are not clipped at 0, so the nu identity is exact.
// * Truncation keeps the terms of age < tau: the term of round s is dropped at the end of round
//   s + tau, after exactly tau decays (slides: "after tau steps"; the tail bound sums s >= tau).
// * mistake: classification y f <= 0 (ties count, docs/conventions.md#mistake); novelty /
// regression: sigma_t.
// * The decay uses KernelExpansion::scale (O(|S|) per round) rather than a lazy global factor:
//   the same round already costs O(|S| nnz(x)) for the kernel row, so a global factor saves at
//   most a constant, while scale keeps expansion() and the averaged hypothesis exact at all times.
#pragma once
#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/format.hpp"
#include "numerics/lane_min.hpp"

namespace plab {

// docs/bounds.md#norma-truncation (slides, "Truncation"): one term created tau rounds ago has RKHS
// norm at most Lambda C kappa (1 - lambda Lambda)^tau (constant Lambda, |c'| <= C,
// k(x,x) <= kappa^2).
inline double norma_truncation_term_bound(double eta, double lambda, double C, double kappa,
                                          std::size_t tau) {
  return eta * C * kappa * std::pow(1.0 - eta * lambda, static_cast<double>(tau));
}
// docs/bounds.md#norma-truncation (slides, "Geometric Series Expansion"): all terms of age >= tau
// together have norm at most
//   sum_{s>=tau} Lambda C kappa (1-lambda Lambda)^s = C kappa (1 - lambda Lambda)^tau / lambda.
inline double norma_truncation_tail_bound(double eta, double lambda, double C, double kappa,
                                          std::size_t tau) {
  return C * kappa * std::pow(1.0 - eta * lambda, static_cast<double>(tau)) / lambda;
}

class Norma final : public ExpansionLearner {
 public:
  enum class Task { classification, novelty, regression };
  enum class Loss { hinge, squared, eps };

  // Its options (docs/learners.md#norma).
  struct Options {
    std::string task = "classification";
    std::string loss = "hinge";
    double lambda = 0.0, learning_rate = 1.0;
    bool decay_rate = false;
    double rho = 0.0, nu = -1.0, epsilon = 0.0;
    bool bias = false;
    std::size_t truncate = 0;
    bool inclusive_ties = false;
    static std::vector<OptionMember<Options>> rows() {
      return {
          {"task", &Options::task, "NORMA task", {}, {"classification", "novelty", "regression"}},
          {"loss", &Options::loss, "NORMA loss: hinge (classification, novelty) | squared | eps (regression)", {},
           {"hinge", "squared", "eps"}},
          {"lambda", &Options::lambda, "NORMA regulariser lambda", at_least(0)},
          {"learning_rate", &Options::learning_rate, "NORMA learning rate Lambda", above(0)},
          {"decay_rate", &Options::decay_rate, "NORMA: learning rate Lambda/sqrt(t)"},
          {"rho", &Options::rho, "NORMA margin rho", at_least(0)},
          {"nu", &Options::nu, "NORMA nu-trick, nu in [0, 1] (negative = off)", at_most(1)},
          {"epsilon", &Options::epsilon, "NORMA eps-insensitive width", at_least(0)},
          {"bias", &Options::bias, "NORMA: unregularised bias"},
          {"truncate", &Options::truncate, "NORMA: drop terms older than tau rounds (0 = never)"},
          {"inclusive_ties", &Options::inclusive_ties,
           "NORMA: violation on y f <= rho (Perceptron ties) instead of y f < rho (slides)"},
      };
    }
    // The rules that tie the options together (their ranges: rows()), each naming the options as
    // the front end spells them.
    void validate(const SpellOption& spell) const {
      if (task == "regression" && loss != "squared" && loss != "eps")
        throw std::invalid_argument(spell("loss") + ": NORMA regression needs squared or eps, got '" + loss + "'");
      if (task != "regression" && loss != "hinge")
        throw std::invalid_argument(spell("loss") + ": NORMA " + task + " uses the hinge loss, got '" + loss + "'");
      if (truncate > 0 && !(learning_rate * lambda < 1.0))
        throw std::invalid_argument(spell("truncate") + " needs " + spell("learning_rate") + " * " + spell("lambda") +
                                    " < 1 (docs/bounds.md#norma-truncation)");
      // The decay alpha_i <- (1 - Lambda lambda) alpha_i (Kivinen et al. take Lambda < 1/lambda): at
      // Lambda lambda >= 1 it zeroes or flips every old coefficient, and f grows without bound.
      if (lambda > 0.0 && !(learning_rate * lambda < 1.0))
        throw std::invalid_argument(spell("learning_rate") + " * " + spell("lambda") + " must be < 1 (the decay factor 1 - " +
                                    "Lambda lambda of every coefficient is then in (0, 1); docs/learners.md#norma), got " +
                                    format_g(learning_rate, 17) + " * " + format_g(lambda, 17));
      if (nu >= 0.0 && loss == "squared")
        throw std::invalid_argument(spell("nu") + ": the nu-trick adapts eps, which needs " + spell("loss") + " eps");
    }
  };

  // Its floor (docs/learners.md#floors): the score's row and every coefficient's decay (n).
  static double floor_ops(const FloorRound& r) { return r.n * r.term + r.n; }
  Norma(const LearnerOptions& o, const Options& own)
      : ExpansionLearner(o), eta0_(own.learning_rate), lambda_(own.lambda), nu_(own.nu), tau_(own.truncate),
        decay_rate_(own.decay_rate), bias_(own.bias), inclusive_(own.inclusive_ties) {
    task_ = own.task == "novelty" ? Task::novelty : own.task == "regression" ? Task::regression : Task::classification;
    loss_ = own.loss == "squared" ? Loss::squared : own.loss == "eps" ? Loss::eps : Loss::hinge;
    thr_ = task_ == Task::regression ? own.epsilon : own.rho;
    if (tau_ > 0) drop_norm();  // a truncation's norm update costs a kernel row (drop_oldest)
  }

  double score(const Example& x) const override { return f_.score(x) + b_; }
  std::vector<std::string> hypotheses() const override {
    if (!bias_) return ExpansionLearner::hypotheses();
    return {"last"};  // the averaged expansion would not include the bias path
  }
  double score_as(const std::string& which, const Example& x) const override {
    return which == "averaged" && !bias_ ? f_.score_averaged(x, rounds_) : score(x);
  }

  // The step counter (rounds) is the base's; beside it the threshold, the bias, the decay state
  // (sum of log(1 - eta_u lambda)), the largest k(x,x) seen and the truncation queue.
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("threshold_bias_logdecay_maxkxx", std::vector<double>{thr_, b_, logdecay_, max_kxx_});
    std::vector<int64_t> bt;
    std::vector<double> bl, b0;
    for (const Born& b : born_) { bt.push_back(b.t); bl.push_back(b.logdecay); b0.push_back(b.bound0); }
    w.put("born.t", bt); w.put("born.logdecay", bl); w.put("born.bound0", b0);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    const auto v = r.get<double>("threshold_bias_logdecay_maxkxx", 4);
    thr_ = v[0]; b_ = v[1]; logdecay_ = v[2]; max_kxx_ = v[3];
    const auto bt = r.get<int64_t>("born.t");
    const auto bl = r.get<double>("born.logdecay", bt.size());
    const auto b0 = r.get<double>("born.bound0", bt.size());
    std::vector<int64_t> ids;
    for (std::size_t i = 0; i < f_.size(); ++i) ids.push_back(f_.sv.id(i));
    std::sort(ids.begin(), ids.end());
    born_.clear();
    for (std::size_t i = 0; i < bt.size(); ++i) {  // drop_oldest looks each one up among the supports
      require_state(std::binary_search(ids.begin(), ids.end(), bt[i]) && (i == 0 || bt[i - 1] < bt[i]),
                    "born.t: not ascending ids of supports");
      born_.push_back({bt[i], bl[i], b0[i]});
    }
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin_without_row(x, t);      // r.score = h(x) without the bias
    const double h = r.score;                     // RKHS part h_{t-1}(x_t)
    const double s = h + b_;
    r.score = s;
    const double eta = decay_rate_ ? eta0_ / std::sqrt(static_cast<double>(t)) : eta0_;
    r.rho = thr_;
    r.eta_t = eta;  // NORMA's per-round learning rate (Lambda or Lambda/sqrt(t))
    if (max_kxx_ < r.kxx) max_kxx_ = r.kxx;

    const double a = coefficient(x, s, eta, r);
    const bool sigma = r.margin_error;

    // alpha_i <- (1 - eta lambda) alpha_i for the old terms (slides, "Explicit Kernel Notation").
    const double c = 1.0 - eta * lambda_;
    bool changed = false;
    if (lambda_ > 0.0 && f_.size() > 0) {
      f_.scale(c, t);
      norm2_ *= c * c;
      changed = true;
    }
    if (tau_ > 0) {  // log c once per value of c (one value for a constant eta): the same bits
      if (c != log_of_) log_of_ = c, log_c_ = std::log(c);
      logdecay_ += log_c_;
    }
    if (a != 0.0) {  // ||h + a k(x,.)||^2 = ||h||^2 + 2 a h(x) + a^2 k(x,x), h already decayed
      norm2_ += 2.0 * a * c * h + a * a * r.kxx;
      f_.add(x, t, a);
      if (tau_ > 0) born_.push_back({t, logdecay_, eta * loss_bound() * std::sqrt(r.kxx)});
      r.update = UpdateKind::add;
    }
    r.coef = a;
    if (bias_) b_ += a;  // b <- b - eta c' (unregularised)

    // nu-trick (docs/learners.md#norma): rho += eta (nu - sigma); regression eps += eta (sigma - nu).
    if (nu_ >= 0.0) {
      const double sg = sigma ? 1.0 : 0.0;
      thr_ += task_ == Task::regression ? eta * (sg - nu_) : eta * (nu_ - sg);
    }

    if (tau_ > 0) {
      r.trunc_norm = 0.0;
      r.trunc_bound = 0.0;
      if (!born_.empty() && born_.front().t + static_cast<int64_t>(tau_) <= t) drop_oldest(r);
    }
    if (r.update == UpdateKind::none && (changed || r.removed >= 0)) r.update = UpdateKind::update;
    if (r.update == UpdateKind::add && r.removed >= 0) r.update = UpdateKind::evict;
    return finish(r);
  }

  // sigma_t and the new coefficient alpha_t = -eta c'(x_t, y_t, f(x_t)) (docs/learners.md#norma);
  // sets r.mistake and r.margin_error (= sigma_t).
  double coefficient(const Example& x, double s, double eta, RoundRecord& r) const {
  bool sigma = false;
  double a = 0.0;
  switch (task_) {
    case Task::classification:  // c = max(0, rho - y f): alpha_t = eta y iff y f < rho
      sigma = inclusive_ ? x.y * s <= thr_ : x.y * s < thr_;
      a = sigma ? eta * x.y : 0.0;
      r.mistake = x.y * s <= 0.0;
      break;
    case Task::novelty:  // c = max(0, rho - f): alpha_t = eta iff f < rho (novel)
      sigma = inclusive_ ? s <= thr_ : s < thr_;
      a = sigma ? eta : 0.0;
      r.mistake = sigma;
      break;
    case Task::regression: {
      const double e = x.y - s;
      sigma = inclusive_ ? std::abs(e) >= thr_ : std::abs(e) > thr_;
      if (loss_ == Loss::squared) a = eta * e;  // c = (1/2)(f - y)^2
      else a = sigma ? eta * (e > 0.0 ? 1.0 : e < 0.0 ? -1.0 : 0.0) : 0.0;  // c = max(0,|y-f|-eps)
      r.mistake = sigma;
      break;
    }
  }
  r.margin_error = sigma;
    return a;
  }

  // Current threshold: rho_{T+1} (classification / novelty) or eps_{T+1} (regression).
  double threshold() const { return thr_; }
  double bias() const { return b_; }
  // C with |c'| <= C: 1 for hinge, novelty and eps losses; squared loss has no a-priori C (NaN).
  double loss_bound() const { return loss_ == Loss::squared ? kNone : 1.0; }
  // kappa = sup sqrt(k(x,x)): 1 for the Gaussian kernel, else the largest seen so far.
  double kappa() const { return f_.kernel.unit_diagonal() ? 1.0 : std::sqrt(max_kxx_); }
  // docs/bounds.md#norma-truncation geometric-series total C kappa (1 - eta lambda)^tau / lambda
  // for this run's options (tau = 0: the norm bound C kappa / lambda). Valid for constant eta only:
  // with decay_rate the decay is slower and only the per-round trunc_bound of the records holds.
  double truncation_total_bound() const {
    return norma_truncation_tail_bound(eta0_, lambda_, loss_bound(), kappa(), tau_);
  }

 private:
  struct Born {
    int64_t t;        // round (= support id)
    double logdecay;  // sum of log(1 - eta_u lambda) up to and including round t
    double bound0;    // eta_t C sqrt(k(x_t,x_t)): the term's norm bound when created
  };

  // Drops the term created tau rounds ago; its exact norm and the slides' bound go to the record.
  void drop_oldest(RoundRecord& r) {
    const Born b = born_.front();
    born_.pop_front();
    const std::size_t i = first_equal(f_.sv.ids(), f_.size(), b.t);
    const double ai = f_.alpha[i], kii = f_.self(i);
    if (!norm_dropped_) {
      const double hi = f_.score(f_.sv.row(i));  // h(x_i) including the term itself
      norm2_ += -2.0 * ai * hi + ai * ai * kii;  // ||h - a_i k_i||^2, exact
    }
    r.trunc_norm = std::abs(ai) * std::sqrt(kii);
    // eta_s C kappa_s prod_{u=s+1..t}(1 - eta_u lambda); = Lambda C kappa (1-lambda Lambda)^tau
    // for constant eta (docs/bounds.md#norma-truncation), with kappa_s = sqrt(k(x_s,x_s)) <= kappa.
    r.trunc_bound = b.bound0 * std::exp(logdecay_ - b.logdecay);
    r.removed = b.t;
    f_.remove(i);
  }

  Task task_ = Task::classification;
  Loss loss_ = Loss::hinge;
  double eta0_, lambda_, nu_;
  std::size_t tau_;
  bool decay_rate_, bias_, inclusive_;
  double thr_ = 0.0, b_ = 0.0, logdecay_ = 0.0, max_kxx_ = 0.0;
  double log_of_ = 1.0, log_c_ = 0.0;  // the last c whose log was taken, and its log (log 1 = 0)
  std::deque<Born> born_;
};

}  // namespace plab
