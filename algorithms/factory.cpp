// Name -> learner. Each learner family adds its names here (one line each).
#include <functional>
#include <map>
#include <stdexcept>

#include "algorithms/learner.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/projectron.hpp"
#include "algorithms/averaged.hpp"
#include "algorithms/cks.hpp"
#include "algorithms/forgetron.hpp"
#include "algorithms/norma.hpp"
#include "algorithms/pa.hpp"
#include "algorithms/rbp.hpp"
#include "algorithms/stoptron.hpp"

namespace plab {
namespace {

using Maker = std::function<std::unique_ptr<Learner>(const LearnerOptions&)>;

template <class L>
Maker maker() {
  return [](const LearnerOptions& o) { return std::make_unique<L>(o); };
}

const std::map<std::string, Maker>& registry() {
  static const std::map<std::string, Maker> r = {
      {"perceptron", [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         if (o.kernel.type != Kernel::Type::linear)
           throw std::invalid_argument("--algo perceptron is the primal linear Perceptron; use "
                                       "--algo kernel-perceptron with --kernel " + o.kernel.type_name());
         return std::make_unique<PrimalPerceptron>(o);
       }},
      {"kernel-perceptron", maker<KernelPerceptron>()},
      {"projectron", maker<Projectron>()},
      {"projectron++", maker<ProjectronPP>()},
      {"forgetron", maker<Forgetron>()},
      {"norma", maker<Norma>()},
      {"forgetron-basic", [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<Forgetron>(o, Forgetron::Rule::basic);
       }},
      {"rbp", maker<RandomizedBudgetPerceptron>()},
      {"stoptron", maker<Stoptron>()},
      {"cks", maker<CKSPerceptron>()},
      {"pa1", maker<PassiveAggressive1>()},
      {"averaged-perceptron", maker<VotedPerceptron>()},
      {"voted-perceptron", [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<VotedPerceptron>(o, true);
       }},
  };
  return r;
}

}  // namespace

std::unique_ptr<Learner> make_learner(const std::string& name, const LearnerOptions& opt) {
  const auto& r = registry();
  const auto it = r.find(name);
  if (it == r.end()) {
    std::string known;
    for (const auto& [k, v] : r) known += (known.empty() ? "" : ", ") + k;
    throw std::invalid_argument("--algo: unknown algorithm '" + name + "' (known: " + known + ")");
  }
  return it->second(opt);
}

std::vector<std::string> learner_names() {
  std::vector<std::string> v;
  for (const auto& [k, m] : registry()) v.push_back(k);
  return v;
}

}  // namespace plab
