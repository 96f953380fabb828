#include "experiments/run/online_to_batch_eval.hpp"

#include <stdexcept>
#include <string>

#include "bounds/online_to_batch.hpp"

namespace plab {

O2BEvaluation o2b_kernel_perceptron(const Dataset& data, const std::vector<std::size_t>& order,
                                    const std::vector<RoundRecord>& rounds, const Kernel& k, double delta) {
  const std::size_t T = rounds.size();
  if (T == 0) throw std::invalid_argument("online-to-batch: empty run");
  if (order.size() < T) throw std::invalid_argument("online-to-batch: order shorter than the run");
  O2BEvaluation e;
  e.T = T;
  std::vector<std::size_t> t_mist;  // 1-based rounds of the mistakes (= support additions)
  for (std::size_t t = 1; t <= T; ++t) {
    const RoundRecord& r = rounds[t - 1];
    const bool adds = r.update == UpdateKind::add || r.update == UpdateKind::update;
    if (r.mistake != adds || (!r.mistake && changed(r.update)))
      throw std::invalid_argument("online-to-batch: round " + std::to_string(t) +
                                  " is not a conservative Perceptron step (algorithm not a Perceptron)");
    if (r.mistake) { t_mist.push_back(t); e.mistake_rows.push_back(order[t - 1]); }
  }
  const std::size_t K = t_mist.size();
  // after[k] = sum over rounds t > t_{k+1} of the 0-1 loss of the k-support prefix (t_{K+1} := T).
  std::vector<double> after(K + 1, 0.0);
  std::vector<double> row;
  std::size_t before = 0;  // supports added before round t
  for (std::size_t t = 1; t <= T; ++t) {
    const Example x = data[order[t - 1]];
    // Prefix k < before: h with k supports; it is "after its block" iff t > t_{k+1}, i.e. k < before.
    double s = 0.0;
    for (std::size_t k2 = 0; k2 < before; ++k2) {
      if (x.y * s <= 0.0) after[k2] += 1.0;  // loss of the k2-prefix (score before adding support k2)
      const Example z = data[e.mistake_rows[k2]];
      s += z.y * k(z, x);
    }
    if (rounds[t - 1].mistake) ++before;
  }
  // Candidates: the first round of each block, i = t_k + 1 (t_0 = 0), if <= T.
  bool first = true;
  for (std::size_t kk = 0; kk <= K; ++kk) {
    const std::size_t i = kk == 0 ? 1 : t_mist[kk - 1] + 1;
    if (i > T) continue;
    const double inblock = kk < K ? 1.0 : 0.0;  // the online hypothesis errs at t_{k+1} only
    const double n = static_cast<double>(T - i + 1);
    const double emp = (inblock + after[kk]) / n;
    const double crit = emp + bounds::o2b_penalty(T, i, delta);  // docs/bounds.md#online-to-batch selection rule
    if (first || crit < e.criterion) {
      e.index = i; e.supports = kk; e.criterion = crit; e.empirical = emp;
      first = false;
    }
  }
  e.online_average = static_cast<double>(K) / static_cast<double>(T);
  e.risk_bound = bounds::o2b_risk_bound(e.online_average, T, delta);  // CCG 2004 = MR Thm 4
  return e;
}

double o2b_score(const O2BEvaluation& e, const Dataset& data, const Kernel& k, const Example& x) {
  double s = 0.0;
  for (std::size_t j = 0; j < e.supports; ++j) {
    const Example z = data[e.mistake_rows[j]];
    s += z.y * k(z, x);
  }
  return s;
}

double o2b_test_error(const O2BEvaluation& e, const Dataset& data, const Kernel& k, const Dataset& test) {
  if (test.size() == 0) return 0.0;
  std::size_t err = 0;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const Example x = test[i];
    err += x.y * o2b_score(e, data, k, x) <= 0.0;
  }
  return static_cast<double>(err) / static_cast<double>(test.size());
}

}  // namespace plab
