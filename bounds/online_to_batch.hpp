// Online-to-batch conversion of Cesa-Bianchi, Conconi, Gentile 2004 = MR Theorem 4 [R]
// (docs/bounds.md#online-to-batch): pick one of the online hypotheses h_1..h_T by its penalised
// empirical risk on the rounds after it, and bound the risk of the pick by the online average loss
// plus a deviation term. Losses must lie in [0,1].
#pragma once
#include <cstddef>
#include <functional>

namespace plab::bounds {

// 6 sqrt( ln(2(T+1)/delta) / T ): the deviation term of the risk bound.
double o2b_deviation(std::size_t T, double delta);
// sqrt( ln(T(T+1)/delta) / (2 (T-i+1)) ): the penalty of hypothesis i (1-based) in the rule.
double o2b_penalty(std::size_t T, std::size_t i, double delta);

struct O2BSelection {
  std::size_t index = 0;   // i* (1-based): h_hat = h_{i*}
  double criterion = 0.0;  // its penalised empirical risk
  double empirical = 0.0;  // (1/(T-i*+1)) sum_{t >= i*} l(h_{i*}(x_t), y_t)
};
// i* = argmin_i (1/(T-i+1)) sum_{t=i}^T loss(i,t) + penalty(T,i,delta); loss(i,t) is the loss of
// hypothesis h_i on round t (t >= i), in [0,1]. Ties go to the smaller i. O(T^2) calls.
O2BSelection o2b_select(std::size_t T, double delta,
                        const std::function<double(std::size_t i, std::size_t t)>& loss);

// With probability >= 1-delta: risk(h_hat) <= online_average + deviation. For the 0-1 loss
// online_average = M/T, and M may be replaced by any mistake bound (MR Cor. 3/4 [R]).
inline double o2b_risk_bound(double online_average, std::size_t T, double delta) {
  return online_average + o2b_deviation(T, delta);
}

}  // namespace plab::bounds
