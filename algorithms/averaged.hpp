// Voted and averaged Perceptron (Freund & Schapire, Machine Learning 37, 1999;
// docs/learners.md#voted-perceptron), kernel form. Training is exactly the kernel Perceptron
// (docs/learners.md#perceptron): the online mistakes and score() are those of the last hypothesis.
// Mistakes at rounds i_1..i_M give v_1 = 0, v_{j+1} = v_j + y_{i_j} k(x_{i_j},.); c_j counts the
// rounds v_j survived, FS style (c_1 starts at 0, a new v_{j+1} starts at 1, every correct round
// adds 1), so sum_j c_j is the number of rounds seen, T. One kernel row gives every <v_j,x> by
// prefix sums, so each prediction costs O(|S|) after it. Multi-epoch training = feeding the rounds
// again.
//   score_as("averaged", x) = (1/T) sum_j c_j <v_j,x>
//   score_as("voted", x)    = (1/T) sum_j c_j sign(<v_j,x>),  sign(0) = 0 (a zero vote abstains)
// Both are divided by T (FS's sums are not) so "averaged" has the suite's meaning (1/T) sum_t f_t
// of ExpansionLearner and "voted" lies in [-1,1]; the signs, hence predictions, are FS's.
// Names: "averaged-perceptron" and "voted-perceptron" are this one learner; the name only picks
// default_hypothesis(), the hypothesis a driver reports by default on test data.
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/learner.hpp"

namespace plab {

class VotedPerceptron final : public ExpansionLearner {
 public:
  explicit VotedPerceptron(const LearnerOptions& o, bool voted_default = false)
      : ExpansionLearner(o), voted_default_(voted_default), c_{0} {}
  std::string default_hypothesis() const { return voted_default_ ? "voted" : "averaged"; }
  std::vector<std::string> hypotheses() const override { return {"last", "averaged", "voted"}; }
  // c_j for j = 1..M+1 (tests).
  const std::vector<int64_t>& survival() const { return c_; }

  // The survival counts c_j (one more than the supports) and T.
  void save_state(StateWriter& w) const override {
    ExpansionLearner::save_state(w);
    w.put("survival", c_);
    w.put_one("T", T_);
  }
  void load_state(const StateReader& r) override {
    ExpansionLearner::load_state(r);
    c_ = r.get<int64_t>("survival", f_.size() + 1);
    T_ = r.get_one<int64_t>("T");
    // sum_j c_j = T (FS), every c_j >= 0: a T that disagrees would rescale the averaged and voted scores.
    int64_t sum = 0;
    for (const int64_t c : c_) {
      require_state(c >= 0 && c <= INT64_MAX - sum, "survival: a count is negative or the sum passes 2^63");
      sum += c;
    }
    require_state(T_ == sum, "T: " + std::to_string(T_) + " is not the sum of the survival counts, " + std::to_string(sum));
  }

  RoundRecord learn(const Example& x, int64_t t) override {
    RoundRecord r = begin(x, t);
    step(x, t, r);
    return r;
  }
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) override {
    learn_block_appending(xs, n, t0, out, [this](const Example& x, int64_t t, RoundRecord& r) { step(x, t, r); });
  }

  double score_as(const std::string& which, const Example& x) const override {
    if (which != "averaged" && which != "voted") return f_.score(x);
    if (T_ == 0) return 0.0;
    f_.score(x);  // fills the kernel row; supports are never removed, so slot = mistake order
    const AlignedVector<double>& k = f_.row();
    const bool voted = which == "voted";
    double p = 0.0;  // <v_j,x> as a prefix sum
    double acc = 0.0;
    for (std::size_t j = 0; j < c_.size(); ++j) {
      if (j > 0) p += f_.alpha[j - 1] * k[j - 1];
      const double v = voted ? static_cast<double>((p > 0.0) - (p < 0.0)) : p;
      acc += static_cast<double>(c_[j]) * v;
    }
    return acc / static_cast<double>(T_);
  }

 private:
  void step(const Example& x, int64_t t, RoundRecord& r) {
    ++T_;
    if (r.mistake) {  // v_{k+1} = v_k + y x, c_{k+1} = 1 (docs/learners.md#voted-perceptron)
      f_.add(x, t, x.y);
      norm2_ += r.kxx + 2.0 * x.y * r.score;
      c_.push_back(1);
      r.update = UpdateKind::add;
    } else {
      ++c_.back();    // c_k += 1
    }
    finish(r);
  }

  bool voted_default_;
  std::vector<int64_t> c_;  // c_1 (for v_1 = 0) first
  int64_t T_ = 0;
};

}  // namespace plab
