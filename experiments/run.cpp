#include "experiments/run.hpp"

#include <algorithm>
#include <chrono>

#include "core/random.hpp"

namespace plab {

std::vector<std::size_t> make_order(std::size_t n, std::optional<uint64_t> shuffle_seed,
                                    std::size_t limit) {
  std::vector<std::size_t> order;
  if (shuffle_seed) {
    Rng rng(*shuffle_seed);
    order = rng.permutation(n);
  } else {
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
  }
  if (limit > 0 && limit < n) order.resize(limit);
  return order;
}

RunResult run_online(Learner& learner, const Dataset& data, const std::vector<std::size_t>& order,
                     const RoundObserver& observe) {
  RunResult res;
  res.rounds.reserve(order.size());
  double learn_seconds = 0.0;
  constexpr std::size_t kBlock = 96;  // rounds handed to learn_block at once (any size gives the same records)
  std::vector<Example> xs;
  std::vector<RoundRecord> recs(kBlock);
  for (std::size_t k0 = 0; k0 < order.size(); k0 += kBlock) {
    const std::size_t n = std::min(kBlock, order.size() - k0);
    xs.clear();
    for (std::size_t k = k0; k < k0 + n; ++k) xs.push_back(data[order[k]]);
    const auto t0 = std::chrono::steady_clock::now();
    learner.learn_block(xs.data(), n, static_cast<int64_t>(k0 + 1), recs.data());
    learn_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t i = 0; i < n; ++i) {
      RoundRecord& r = recs[i];
      r.index = static_cast<int64_t>(order[k0 + i]);
      res.mistakes += r.mistake;
      res.margin_errors += r.margin_error;
      res.updates += changed(r.update);
      res.rounds.push_back(r);
      if (observe) observe(res.rounds.back(), res);
    }
  }
  res.support_size = learner.support_size();
  res.seconds = learn_seconds;
  return res;
}

double test_error(const Learner& learner, const std::string& which, const Dataset& test) {
  if (test.size() == 0) return 0.0;
  std::size_t err = 0;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const Example x = test[i];
    err += learner.errs(which, x);
  }
  return static_cast<double>(err) / static_cast<double>(test.size());
}

}  // namespace plab
