// Uses the installed library as another project would: generated data (no data files), a
// Perceptron run, its mistake bounds. Exits 0 only when the run and its bounds are sane.
#include <cstdio>
#include <numeric>
#include <perceptron_lab/algorithms/registry.hpp>
#include <perceptron_lab/bounds/bounds.hpp>
#include <perceptron_lab/bounds/comparator.hpp>
#include <perceptron_lab/config/given_options.hpp>
#include <perceptron_lab/datasets/registry.hpp>

int main() {
  using namespace plab;
  const Dataset d = load_dataset("synthetic:separable:n=500,d=5,rho=0.05");
  LearnerConfig config = configure_learner("perceptron", given_from_json({{"kernel", "linear"}}));
  const LearnerOptions& o = config.with_data(d.dim, 0).options();
  std::vector<std::size_t> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  const Comparator c = make_comparator("truth", d, order, o.kernel);
  const auto learner = make_learner(config);
  std::vector<RoundRecord> rounds;
  for (std::size_t t = 0; t < d.size(); ++t) {
    rounds.push_back(learner->learn(d[t], static_cast<int64_t>(t + 1)));
    rounds.back().g = c.scores[t];
  }
  RunFacts facts;
  facts.algo = "perceptron";
  facts.options = o;
  facts.comparator = "truth";
  facts.g_norm = c.norm;
  const auto bounds = evaluate_bounds(rounds, facts);
  std::size_t mistakes = 0, applicable = 0;
  for (const auto& r : rounds) mistakes += r.mistake;
  for (const auto& b : bounds) applicable += b.applicable;
  std::printf("%zu rounds, %zu mistakes, %zu bounds (%zu applicable)\n", d.size(), mistakes,
              bounds.size(), applicable);
  const bool sane = d.size() == 500 && mistakes > 0 && applicable > 0 &&
                    !any_hard_violation(bounds);
  return sane ? 0 : 1;
}
