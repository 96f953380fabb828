// Multiclass kernel learners (docs/learners.md#multiclass): the multiclass Perceptron (Crammer and
// Singer, JMLR 3 (2003) 951-991, max-score and uniform updates), the Multiclass Random Budget
// Perceptron (Orabona, Keshet, Caputo, JMLR 10 (2009) Sec. 7) and multiclass PA-I (Crammer et al.,
// JMLR 7 (2006) Sec. 7), with the conventions of DOGMA's k_perceptron_multi_train.m and
// k_pa_multi_train.m (docs/conventions.md#multiclass).
//
// Represents: f = (f_0, ..., f_{m-1}), f_c = sum_i coef(i, c) k(s_i, .) over one support set shared by
// the classes (a support carries one coefficient per class). Requires: x.y is a class index 0..m-1
// (load with --labels classes). Ensures: each round's record has score = f_y(x) - f_competitor(x)
// with the competitor the first arg max over the classes other than y (lowest index on ties, as
// MATLAB's max), mistake = score <= 0 (ties count; round 1 is always a mistake), margin_error =
// !mistake && f_y < 1 + f_competitor (DOGMA's test, written as it is), pred = the first arg max over
// all classes, and f_norm2 = ||f||^2 = sum_c ||f_c||^2, the norm of the Kesler construction the
// bounds use (docs/bounds.md#multiclass).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/random.hpp"

namespace plab {

class MulticlassLearner : public Learner {
 public:
  explicit MulticlassLearner(const LearnerOptions& o)
      : kernel_(o.kernel), sv_(o.dim), m_(o.classes), record_norms_(o.record_norms) {
    if (m_ < 2) throw std::invalid_argument("multiclass learners need at least 2 classes (load the data with --labels classes)");
  }
  // Rounds whose kernel rows are computed in one pass over the supports (learn_block): one DRAM pass
  // over the supports per block (MNIST: up to 120 MB of supports). 192, not 96: measured 8% faster
  // rows at 19000 MNIST supports, the same at 2000 (docs/learners.md#layout).
  static constexpr std::size_t kBlockRounds = 192;
  std::size_t classes() const { return m_; }
  std::size_t support_size() const override { return sv_.size(); }
  // NaN when the learner skips the running norm (drop_norm(); docs/learners.md#bookkeeping).
  double norm2() const override { return norm_dropped_ ? std::numeric_limits<double>::quiet_NaN() : norm2_; }
  bool keeps_norm() const override { return !norm_dropped_; }
  const SupportSet& supports() const { return sv_; }
  double coef(std::size_t i, std::size_t c) const { return coef_[i * m_ + c]; }

  // The multiclass margin f_y(x) - max_{c != y} f_c(x) (x.y is the class index): <= 0 is an error.
  double score(const Example& x) const override {
    row_.resize(sv_.size());
    sv_.kernel_row(kernel_, x, row_.data());
    std::vector<double> f(m_);
    class_scores(row_.data(), f.data());
    const std::size_t y = label(x);
    return f[y] - f[competitor(f.data(), y)];
  }
  bool wrong(double s, const Example& x) const override {
    (void)x;
    return !(s > 0.0);
  }
  // f_c(x) for every class (x.y unused): a prediction is their first arg max.
  std::vector<double> scores_of(const Example& x) const {
    row_.resize(sv_.size());
    sv_.kernel_row(kernel_, x, row_.data());
    std::vector<double> f(m_);
    class_scores(row_.data(), f.data());
    return f;
  }

  // ||f||^2 = sum_i sum_c coef(i,c) f_c(s_i), from kernel rows of blocks of supports.
  double norm2_exact() const override {
    const std::size_t n = sv_.size(), B = 24;
    std::vector<Example> rows;
    std::vector<double> K, f(m_);
    double s = 0.0;
    for (std::size_t b = 0; b < n; b += B) {
      const std::size_t e = std::min(n, b + B);
      rows.clear();
      for (std::size_t i = b; i < e; ++i) rows.push_back(sv_.row(i));
      K.resize((e - b) * n);
      sv_.kernel_rows(kernel_, rows.data(), e - b, K.data(), n);
      for (std::size_t i = b; i < e; ++i) {
        class_scores(&K[(i - b) * n], f.data());
        for (std::size_t c = 0; c < m_; ++c) s += coef_[i * m_ + c] * f[c];
      }
    }
    return s;
  }

  RoundRecord learn(const Example& x, int64_t t) final {
    RoundRecord r;
    learn_block(&x, 1, t, &r);
    return r;
  }

  // The shared supports, the coefficients (support-major, m per support) and the running norm.
  void save_state(StateWriter& w) const override {
    sv_.save(w, "sv.");
    w.put("coef", coef_);
    w.put_one("norm2", norm_dropped_ ? norm2_exact() : norm2_);  // a model always holds ||f||^2
  }
  void load_state(const StateReader& r) override {
    sv_.load(r, "sv.");
    coef_ = r.get<double>("coef", sv_.size() * m_);
    norm2_ = r.get_one<double>("norm2");
  }

  // Kernel rows of a block of rounds against the supports at its start in one pass (the tiles of
  // supports stay in cache across the block), extended by the supports added inside the block and
  // patched when one is removed (remove_support). SupportSet gives every kernel value the same bits
  // by any of these paths, so the records equal round-by-round learning (tested).
  void learn_block(const Example* xs, std::size_t n, int64_t t0, RoundRecord* out) final {
    for (std::size_t b = 0; b < n; b += kBlockRounds) {
      // ld a multiple of 8 and block_ 64-byte aligned: rows that panel_dots may stream (panel_dots.hpp)
      const std::size_t k = std::min(kBlockRounds, n - b), n0 = sv_.size(), ld = (n0 + k + 7) / 8 * 8;
      block_.resize(k * ld);
      sv_.kernel_rows(kernel_, xs + b, k, block_.data(), ld);
      pending_ = {xs + b, block_.data(), ld, 0, k, n0};
      prefix_scores(k, ld, n0);
      for (std::size_t l = 0; l < k; ++l) {
        const Example& x = xs[b + l];
        double* row = &block_[l * ld];
        if (pending_.valid < sv_.size())  // the supports added inside the block, as one range (adjacent slots)
          sv_.kernel_range(kernel_, x, pending_.valid, sv_.size(), row + pending_.valid);
        pending_.next = l + 1;
        RoundRecord& r = out[b + l];
        begin(x, t0 + static_cast<int64_t>(b + l), row, prefix_from_ ? &prefix_[l * m_] : nullptr, r);
        round(x, r.t, row, r);
        r.support_size = static_cast<int64_t>(sv_.size());
        r.f_norm2 = norm2();
      }
      pending_ = {};
    }
  }

 protected:
  // The algorithm's decision on round t: r has t, y, kxx, score, mistake, margin_error, pred and
  // competitor; f_ holds the m class scores and `row` the kernel row against the current supports.
  virtual void round(const Example& x, int64_t t, const double* row, RoundRecord& r) = 0;

  static std::size_t label(const Example& x) { return static_cast<std::size_t>(x.y); }

  // Whether a round only appends supports (never changes an old coefficient nor removes a
  // support): then the class sums over the supports a block starts with are the same whenever they
  // are formed, so learn_block forms them for all its rounds at once (prefix_scores).
  virtual bool appends_only() const { return false; }

  // f_c = sum_i coef(i,c) k_i for every class, i ascending (one fixed order per class: each step a
  // product rounded, then a sum rounded). Up to 16 classes the m sums live in registers (a loop
  // over f in memory waits on store-to-load forwarding at every step: 3x slower on MNIST).
  // With from > 0 the sums go on from f's values, the sums over i < from: the same chains.
  void class_scores(const double* k, double* f, std::size_t from = 0) const {
    class_scores_to(k, f, from, sv_.size());
  }
  void class_scores_to(const double* k, double* f, std::size_t from, std::size_t to) const {
    switch (m_) {
#define PLAB_SCORES(M) \
  case M: return scores_fixed<M>(k, f, from, to);
      PLAB_SCORES(2) PLAB_SCORES(3) PLAB_SCORES(4) PLAB_SCORES(5) PLAB_SCORES(6) PLAB_SCORES(7) PLAB_SCORES(8)
      PLAB_SCORES(9) PLAB_SCORES(10) PLAB_SCORES(11) PLAB_SCORES(12) PLAB_SCORES(13) PLAB_SCORES(14)
      PLAB_SCORES(15) PLAB_SCORES(16)
#undef PLAB_SCORES
      default: break;
    }
    if (from == 0) std::fill(f, f + m_, 0.0);
    for (std::size_t i = from; i < to; ++i) {
      const double* a = &coef_[i * m_];
      for (std::size_t c = 0; c < m_; ++c) f[c] += a[c] * k[i];
    }
  }
  template <std::size_t M>
  void scores_fixed(const double* k, double* f, std::size_t from, std::size_t to) const {
    double acc[M] = {};
    if (from > 0) std::copy_n(f, M, acc);
    const double* a = coef_.data() + from * M;
    for (std::size_t i = from; i < to; ++i, a += M)
      for (std::size_t c = 0; c < M; ++c) acc[c] += a[c] * k[i];
    std::copy_n(acc, M, f);
  }
  // First arg max over c != y (MATLAB max after setting f_y = -inf).
  std::size_t competitor(const double* f, std::size_t y) const {
    std::size_t best = y == 0 ? 1 : 0;
    for (std::size_t c = 0; c < m_; ++c)
      if (c != y && f[c] > f[best]) best = c;
    return best;
  }

  // Appends x with one coefficient per class; ||f||^2 grows by 2 <f, v k(x,.)> + k(x,x) ||v||^2.
  void add_support(const Example& x, int64_t t, const std::vector<double>& v, double kxx) {
    if (!norm_dropped_) {
      double ip = 0.0, vv = 0.0;
      for (std::size_t c = 0; c < m_; ++c) { ip += v[c] * f_[c]; vv += v[c] * v[c]; }
      norm2_ += 2.0 * ip + kxx * vv;
    }
    sv_.add(x, t);
    coef_.insert(coef_.end(), v.begin(), v.end());
  }
  // Removes slot j (the last slot moves into it, as in SupportSet); returns the moved slot's old index.
  // ||f||^2 shrinks by 2 sum_c a_c f_c(s_j) - k(s_j,s_j) ||a||^2 with a = coef(j, .): a kernel row
  // of s_j, for the norm only.
  std::size_t remove_support(std::size_t j) {
    if (!norm_dropped_) {
      std::vector<double> kj(sv_.size()), fj(m_);
      const Example sj = sv_.row(j);
      sv_.kernel_row(kernel_, sj, kj.data());
      class_scores(kj.data(), fj.data());
      double ip = 0.0, aa = 0.0;
      for (std::size_t c = 0; c < m_; ++c) { ip += coef_[j * m_ + c] * fj[c]; aa += coef_[j * m_ + c] * coef_[j * m_ + c]; }
      norm2_ += -2.0 * ip + kj[j] * aa;
    }
    const std::size_t moved = sv_.remove(j);
    std::copy_n(&coef_[moved * m_], m_, &coef_[j * m_]);
    coef_.resize(coef_.size() - m_);
    patch_pending(j, moved);
    return moved;
  }

  // A learner whose running norm costs more than O(m) a round calls this in its constructor: with
  // record_norms off it then skips that work, and norm2() and the records' f_norm2 are NaN.
  void drop_norm() { norm_dropped_ = !record_norms_; }

  Kernel kernel_;
  SupportSet sv_;
  std::size_t m_;
  bool record_norms_ = true, norm_dropped_ = false;
  std::vector<double> coef_;  // coef_[i * m + c]
  std::vector<double> f_;     // class scores of the current round
  double norm2_ = 0.0;

 private:
  // prefix: the class sums over the block's first prefix_from_ supports (prefix_scores), or null.
  void begin(const Example& x, int64_t t, const double* row, const double* prefix, RoundRecord& r) {
    if (!(x.y >= 0.0 && x.y < static_cast<double>(m_)) || x.y != std::floor(x.y))
      throw std::invalid_argument("round " + std::to_string(t) + ": label " + std::to_string(x.y) +
                                  " is not a class index 0.." + std::to_string(m_ - 1));
    const std::size_t y = label(x);
    f_.resize(m_);
    if (prefix) std::copy_n(prefix, m_, f_.data());
    class_scores(row, f_.data(), prefix ? prefix_from_ : 0);
    const std::size_t comp = competitor(f_.data(), y);
    r = RoundRecord{};
    r.t = t;
    r.y = x.y;
    r.kxx = kernel_.self(x.sqnorm);
    r.competitor = static_cast<int64_t>(comp);
    r.pred = static_cast<int64_t>(std::max_element(f_.begin(), f_.end()) - f_.begin());
    r.score = f_[y] - f_[comp];
    r.mistake = f_[y] <= f_[comp];
    r.margin_error = !r.mistake && f_[y] < 1.0 + f_[comp];
  }

  // The class sums over the n0 supports the block starts with, for each of its k rounds (rows ld
  // apart in block_), split between threads by rounds: appends_only learners only, whose sums over
  // those supports do not change inside the block. The chains are class_scores', so the same bits.
  void prefix_scores(std::size_t k, std::size_t ld, std::size_t n0) {
    prefix_from_ = appends_only() ? n0 : 0;
    if (prefix_from_ == 0) return;
    prefix_.resize(k * m_);
    parallel_for(0, k, 1, static_cast<double>(k * n0 * m_), [&](std::size_t b, std::size_t e) {
      for (std::size_t l = b; l < e; ++l) class_scores_to(&block_[l * ld], &prefix_[l * m_], 0, n0);
    });
  }

  // The rows of the block's later rounds after slot j was removed and slot `moved` moved into it:
  // a row that holds the moved slot's value takes it over; otherwise slot j's value is computed
  // anew. Slots from `valid` on are filled at each round's start, so they need nothing.
  void patch_pending(std::size_t j, std::size_t moved) {
    Pending& p = pending_;
    if (p.rows == nullptr || moved == j) {
      if (p.valid > sv_.size()) p.valid = sv_.size();
      return;
    }
    for (std::size_t l = p.next; l < p.end; ++l) {
      double* row = p.rows + l * p.ld;
      if (moved < p.valid) row[j] = row[moved];
      else if (j < p.valid) row[j] = sv_.kernel_one(kernel_, p.xs[l], j);
    }
    if (p.valid > sv_.size()) p.valid = sv_.size();
  }

  struct Pending {
    const Example* xs = nullptr;  // the block's examples
    double* rows = nullptr;       // their kernel rows, ld apart
    std::size_t ld = 0, next = 0, end = 0;  // rows next..end-1 are still to come
    std::size_t valid = 0;        // slots 0..valid-1 hold their values in those rows
  };
  mutable std::vector<double> row_;
  std::vector<double, HugePageAllocator<double>> block_;
  std::vector<double> prefix_;   // prefix_scores: m class sums a round of the block
  std::size_t prefix_from_ = 0;  // the supports they cover (0: none)
  Pending pending_;
};

// Multiclass kernel Perceptron (Crammer and Singer 2003, Fig. 2 with the max-score or the uniform
// update; DOGMA k_perceptron_multi_train.m): on a mistake x joins the support with +1 on y and -1 on
// the competitor (max-score) or -1/(m-1) on every other class (uniform).
class MulticlassPerceptron : public MulticlassLearner {
 public:
  struct Options {
    std::string update_rule = "max-score";
    static std::vector<OptionMember<Options>> rows() {
      return {{"update_rule", &Options::update_rule,
               "Multiclass Perceptron step on a mistake: max-score (+1 on y, -1 on the competitor) | uniform "
               "(-1/(m-1) on every other class); docs/learners.md#multiclass-perceptron",
               {}, {"max-score", "uniform"}}};
    }
  };
  MulticlassPerceptron(const LearnerOptions& o, const Options& own)
      : MulticlassLearner(o), uniform_(own.update_rule == "uniform") {}
  // Its option from o.own (what make_learner hands it; absent: its default).
  explicit MulticlassPerceptron(const LearnerOptions& o) : MulticlassPerceptron(o, options_from<Options>(o.own)) {}
  bool appends_only() const override { return true; }

 protected:
  void round(const Example& x, int64_t t, const double*, RoundRecord& r) override {
    if (!r.mistake) return;
    add_support(x, t, step(r), r.kxx);
    r.update = UpdateKind::add;
  }
  // The coefficients x joins with (CS03 Eq. 3 family; docs/learners.md#multiclass-perceptron).
  std::vector<double> step(const RoundRecord& r) const {
    std::vector<double> v(m_, 0.0);
    if (uniform_) std::fill(v.begin(), v.end(), -1.0 / static_cast<double>(m_ - 1));
    else v[static_cast<std::size_t>(r.competitor)] = -1.0;
    v[static_cast<std::size_t>(r.y)] = 1.0;
    return v;
  }

 private:
  bool uniform_;
};

// Multiclass Random Budget Perceptron (JMLR 2009 Sec. 7; DOGMA k_perceptron_multi_train.m with
// maxSV = B): the max-score Perceptron; when a mistake makes |S| = B + 1, the support at a uniformly
// drawn position j of the B oldest, in insertion order, is removed (DOGMA deletes column
// ceil(B rand) of its ordered support list, so the newest is never drawn). The draws are
// plab::Rng(seed).below(B), one per eviction (docs/learners.md#mrbp).
// eviction "overwrite" (docs/conventions.md#r4-mrbp): the same draw picks the slot the new support
// overwrites, and only the step's two coefficients (+1 on y, -1 on the competitor) are written into
// it: the slot's coefficients of the other classes stay, now on the new support (the binary RBP's
// slot overwrite, DOGMA k_perceptron_train.m, on a coefficient column that is not cleared).
class MulticlassRandomBudgetPerceptron final : public MulticlassPerceptron {
 public:
  // Its options: the budget, the seed of its evictions and the eviction rule; its step is the
  // max-score one.
  struct Options {
    std::size_t budget = 0, seed = 1;
    std::string eviction = "dogma";
    static std::vector<OptionMember<Options>> rows() {
      return {budget_option<Options>(&Options::budget), seed_option<Options>(&Options::seed),
              {"eviction", &Options::eviction,
               "MRBP past the budget: dogma (DOGMA 0.31: remove a random one of the B oldest) | overwrite "
               "(the new support takes a random slot and keeps that slot's other class coefficients); "
               "docs/learners.md#mrbp",
               {}, {"dogma", "overwrite"}}};
    }
  };
  MulticlassRandomBudgetPerceptron(const LearnerOptions& o, const Options& own)
      : MulticlassPerceptron(o, MulticlassPerceptron::Options{}), B_(own.budget), rng_(own.seed),
        overwrite_(own.eviction == "overwrite") {
    drop_norm();  // a removal's norm update costs a kernel row of the removed support
  }
  // Its option from o.own (what make_learner hands it; absent: its default).
  explicit MulticlassRandomBudgetPerceptron(const LearnerOptions& o)
      : MulticlassRandomBudgetPerceptron(o, options_from<Options>(o.own)) {}
  bool appends_only() const override { return false; }  // removes a support past the budget
  // Uses these 0-based positions for the next evictions instead of the stream (replaying another
  // implementation's draws: the DOGMA fixtures).
  void replay_draws(std::vector<std::size_t> positions) { replay_.assign(positions.rbegin(), positions.rend()); }
  // The eviction stream, the slots in insertion order and any replayed positions left.
  void save_state(StateWriter& w) const override {
    MulticlassPerceptron::save_state(w);
    w.put("rng", rng_.state());
    w.put("order", std::vector<uint64_t>(order_.begin(), order_.end()));
    w.put("replay", std::vector<uint64_t>(replay_.begin(), replay_.end()));
  }
  void load_state(const StateReader& r) override {
    MulticlassPerceptron::load_state(r);
    rng_.set_state(r.get<uint64_t>("rng"));
    const auto order = r.get<uint64_t>("order", sv_.size());
    std::vector<uint64_t> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) require_state(sorted[i] == i, "order: not a permutation of the slots");
    order_.assign(order.begin(), order.end());
    const auto replay = r.get<uint64_t>("replay");
    replay_.assign(replay.begin(), replay.end());
  }

 protected:
  void round(const Example& x, int64_t t, const double*, RoundRecord& r) override {
    if (!r.mistake) return;
    std::vector<double> v = step(r);
    if (overwrite_ && sv_.size() >= B_) {
      // The drawn slot's coefficients, with the step's two written over them, go with x (added
      // first: the running ||f||^2 update reads f at x before the slot leaves).
      const std::size_t j = next_draw(), slot = order_[j];
      for (std::size_t c = 0; c < m_; ++c)
        if (c != static_cast<std::size_t>(r.y) && c != static_cast<std::size_t>(r.competitor)) v[c] = coef(slot, c);
      add_support(x, t, v, r.kxx);
      order_.push_back(sv_.size() - 1);
      evict(j, r);
      return;
    }
    add_support(x, t, v, r.kxx);
    order_.push_back(sv_.size() - 1);
    r.update = UpdateKind::add;
    if (sv_.size() <= B_) return;
    evict(next_draw(), r);  // a position among the B oldest
  }

 private:
  std::size_t next_draw() {
    if (replay_.empty()) return static_cast<std::size_t>(rng_.below(B_));
    const std::size_t j = replay_.back();
    replay_.pop_back();
    if (j >= B_) throw std::invalid_argument("mrbp: replayed eviction position out of range");
    return j;
  }

  // Removes the support at position j of the insertion order.
  void evict(std::size_t j, RoundRecord& r) {
    const std::size_t slot = order_[j];
    r.removed = sv_.id(slot);
    r.update = UpdateKind::evict;
    const std::size_t moved = remove_support(slot);
    order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(j));
    for (auto& s : order_) if (s == moved) s = slot;  // the moved slot keeps its place in the order
  }

  std::size_t B_;
  Rng rng_;
  bool overwrite_;
  std::vector<std::size_t> order_;   // slots in insertion order
  std::vector<std::size_t> replay_;  // replayed positions, next one last
};

// Multiclass PA-I (Crammer et al. 2006, Sec. 7, max-loss update; DOGMA k_pa_multi_train.m): when
// f_y < 1 + f_competitor, x joins with +tau on y and -tau on the competitor,
// tau = min(C, (1 - (f_y - f_competitor)) / (2 k(x,x))). As in DOGMA a round can pass the test with a
// loss that rounds to 0 and add a support with zero coefficients (docs/conventions.md#multiclass).
class MulticlassPA1 final : public MulticlassLearner {
 public:
  // Its one option, PA-I's C.
  struct Options {
    double C = 1.0;
    static std::vector<OptionMember<Options>> rows() { return {C_option<Options>(&Options::C)}; }
  };
  MulticlassPA1(const LearnerOptions& o, const Options& own) : MulticlassLearner(o), C_(own.C) {}
  // Its option from o.own (what make_learner hands it; absent: its default).
  explicit MulticlassPA1(const LearnerOptions& o) : MulticlassPA1(o, options_from<Options>(o.own)) {}
  bool appends_only() const override { return true; }

 protected:
  void round(const Example& x, int64_t t, const double*, RoundRecord& r) override {
    const std::size_t y = label(x), comp = static_cast<std::size_t>(r.competitor);
    if (!(f_[y] < 1.0 + f_[comp])) return;
    const double q = (1.0 - (f_[y] - f_[comp])) / (2.0 * r.kxx);
    const double tau = std::isnan(q) ? C_ : std::min(q, C_);  // 0/0 (k(x,x) = 0, no loss): MATLAB's min gives C
    std::vector<double> v(m_, 0.0);
    v[y] = tau;
    v[comp] = -tau;
    add_support(x, t, v, r.kxx);
    r.tau = tau;
    r.update = UpdateKind::add;
  }

 private:
  double C_;
};

}  // namespace plab
