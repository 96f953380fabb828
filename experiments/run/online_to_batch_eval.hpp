// Cesa-Bianchi–Conconi–Gentile online-to-batch selection (docs/bounds.md#online-to-batch) evaluated
// on a kernel Perceptron run in O(T |S|) kernel evaluations instead of O(T^2 |S|).
//
// h_i = f_{i-1} = sum_{j in S, t_j < i} y_j k(x_{t_j}, .): the hypothesis that predicted round i.
// Its score on a later x_t is a prefix sum of the kernel row (k(x_{t_1}, x_t), k(x_{t_2}, x_t), ...),
// so one pass over the rounds gives every h_i's 0-1 loss on every later round. h_i only depends on
// K(i) = |{j : t_j < i}|; for i in the block t_K < i <= t_{K+1} the numerator of the empirical risk
// is constant (inside the block the hypothesis is the online one, which errs only at t_{K+1}) while
// T - i + 1 and the penalty move the criterion up, so the block's first round is its only candidate
// (ties go to the smaller i, as in bounds::o2b_select).
#pragma once
#include <cstddef>
#include <vector>

#include "numerics/kernel.hpp"
#include "algorithms/round_record.hpp"
#include "datasets/dataset.hpp"

namespace plab {

struct O2BEvaluation {
  std::size_t T = 0;
  std::size_t index = 0;     // i* (1-based)
  std::size_t supports = 0;  // K(i*): h_hat is the first `supports` mistakes' expansion
  double criterion = 0.0;    // penalised empirical risk of h_{i*}
  double empirical = 0.0;    // (1/(T-i*+1)) sum_{t >= i*} l(h_{i*}(x_t), y_t)
  double online_average = 0.0;  // M / T
  double risk_bound = 0.0;      // M/T + 6 sqrt(ln(2(T+1)/delta)/T)   (docs/bounds.md#online-to-batch)
  std::vector<std::size_t> mistake_rows;  // data rows of the supports, in the order added
};

// Requires a conservative Perceptron record (every mistake adds, nothing else changes f);
// throws std::invalid_argument otherwise. `order` maps round t-1 to its data row.
O2BEvaluation o2b_kernel_perceptron(const Dataset& data, const std::vector<std::size_t>& order,
                                    const std::vector<RoundRecord>& rounds, const Kernel& k, double delta);

// Score of h_hat (its first `supports` supports) on x.
double o2b_score(const O2BEvaluation& e, const Dataset& data, const Kernel& k, const Example& x);

// Fraction of `test` on which h_hat errs (y s <= 0).
double o2b_test_error(const O2BEvaluation& e, const Dataset& data, const Kernel& k, const Dataset& test);

}  // namespace plab
