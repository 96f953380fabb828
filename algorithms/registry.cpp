// The registry of learners: one descriptor per learner, with its maker. Adding a learner = its
// header plus one entry here (docs/extending.md#learner).
#include "algorithms/registry.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <stdexcept>

#include "algorithms/averaged.hpp"
#include "algorithms/cks.hpp"
#include "algorithms/forgetron.hpp"
#include "algorithms/multiclass.hpp"
#include "algorithms/multiclass_projectron.hpp"
#include "algorithms/norma.hpp"
#include "algorithms/pa.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/projectron.hpp"
#include "algorithms/rbp.hpp"
#include "algorithms/stoptron.hpp"
#include "core/nearest.hpp"

namespace plab {
namespace {

using BF = BoundFamily;

std::unique_ptr<Learner> make_primal(const LearnerOptions& o) {
  if (o.kernel.type != Kernel::Type::linear)
    throw std::invalid_argument("--algo perceptron is the primal linear Perceptron; use "
                                "--algo kernel-perceptron with --kernel " + o.kernel.type_name());
  return std::make_unique<PrimalPerceptron>(o);
}

// Built-in learners. Fields: name, display, bound families, options, colour, hypotheses, summary, maker
// and, for multiclass learners, true.
std::deque<LearnerInfo> builtin() {
  // Locals, not namespace-scope constants: a test may register a learner during static
  // initialisation, before this file's constants would exist.
  const std::vector<std::string> kLastAveraged = {"last", "averaged"};
  const std::vector<std::string> kNormaOptions = {"task", "loss", "lambda", "learning_rate", "decay_rate", "rho",
                                                  "nu", "epsilon", "bias", "truncate", "inclusive_ties"};
  return {
      {"perceptron", "Perceptron", {BF::perceptron}, {}, "#000000", {"last"},
       "primal linear Perceptron (Rosenblatt 1958)", make_primal},
      {"kernel-perceptron", "Kernel Perceptron", {BF::perceptron}, {}, "#000000", kLastAveraged,
       "kernel Perceptron, one support per mistake", maker_of<KernelPerceptron>()},
      {"projectron", "Projectron", {BF::projectron}, {"eta", "eta_convention", "U"}, "#0072b2", kLastAveraged,
       "Projectron: projects mistakes onto span(S) when ||delta|| <= eta (Orabona et al.)",
       maker_of<Projectron>()},
      {"projectron++", "Projectron++", {BF::projectron_pp}, {"eta", "eta_convention", "U"}, "#d55e00",
       kLastAveraged, "Projectron++: Projectron plus projected margin updates", maker_of<ProjectronPP>()},
      {"forgetron", "Forgetron", {BF::perceptron_prefix, BF::forgetron}, {"budget"}, "#009e73", {"last"},
       "self-tuned Forgetron: shrink, then remove the oldest (Dekel et al.)", maker_of<Forgetron>()},
      {"forgetron-basic", "Forgetron (basic)", {BF::perceptron_prefix, BF::forgetron}, {"budget"}, "#56b4e9",
       {"last"}, "basic Forgetron: fixed shrinking U = (1/4) sqrt((B+1)/ln(B+1))",
       [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<Forgetron>(o, Forgetron::Rule::basic);
       }},
      {"rbp", "Randomized Budget Perceptron", {BF::perceptron_prefix}, {"budget", "seed"}, "#cc79a7", {"last"},
       "Randomized Budget Perceptron: evict a uniformly random support (Cavallanti et al.)",
       maker_of<RandomizedBudgetPerceptron>()},
      {"stoptron", "Stoptron", {BF::perceptron_prefix}, {"budget"}, "#8c564b", kLastAveraged,
       "Stoptron: a kernel Perceptron that stops adding at B supports", maker_of<Stoptron>()},
      {"cks", "CKS budget Perceptron", {BF::perceptron_prefix}, {"budget", "beta"}, "#7f7f7f", {"last"},
       "Crammer-Kandola-Singer budget Perceptron (margin beta, removes the least useful support)",
       maker_of<CKSPerceptron>()},
      {"pa1", "PA-I", {}, {"C", "eta_convention"}, "#9467bd", kLastAveraged,
       "Passive-Aggressive PA-I (Crammer et al. 2006; dogma: DOGMA's update at margin 1); no mistake bound is evaluated", maker_of<PassiveAggressive1>()},
      {"averaged-perceptron", "Averaged Perceptron", {BF::perceptron}, {}, "#bcbd22", {"last", "averaged", "voted"},
       "kernel Perceptron predicting with the average of its hypotheses (Freund-Schapire)",
       maker_of<VotedPerceptron>()},
      {"voted-perceptron", "Voted Perceptron", {BF::perceptron}, {}, "#e377c2", {"last", "averaged", "voted"},
       "kernel Perceptron predicting with the vote of its hypotheses (Freund-Schapire)",
       [](const LearnerOptions& o) -> std::unique_ptr<Learner> { return std::make_unique<VotedPerceptron>(o, true); }},
      {"norma", "NORMA", {BF::norma}, kNormaOptions, "#17becf", kLastAveraged,
       "NORMA: online gradient descent in the RKHS (Kivinen, Smola, Williamson)", maker_of<Norma>()},
      // Multiclass learners (docs/learners.md#multiclass): labels are class indices (--labels classes);
      // their bound families are evaluated on the Kesler construction (docs/bounds.md#multiclass).
      {"multiclass-perceptron", "Multiclass Perceptron", {BF::perceptron}, {"update_rule"}, "#000000", {"last"},
       "multiclass kernel Perceptron, max-score or uniform update (Crammer-Singer 2003)",
       maker_of<MulticlassPerceptron>(), true},
      {"mrbp", "MRBP", {BF::perceptron_prefix}, {"budget", "seed"}, "#cc79a7", {"last"},
       "Multiclass Random Budget Perceptron: evict a uniformly random old support (Orabona et al. 2009)",
       maker_of<MulticlassRandomBudgetPerceptron>(), true},
      {"multiclass-pa1", "Multiclass PA-I", {}, {"C"}, "#9467bd", {"last"},
       "multiclass Passive-Aggressive PA-I, max-loss update (Crammer et al. 2006); no mistake bound is evaluated",
       maker_of<MulticlassPA1>(), true},
      {"multiclass-projectron++", "Multiclass Projectron++", {BF::projectron_pp}, {"eta", "eta_convention"}, "#d55e00",
       {"last"}, "multiclass Projectron++: one Gram factor per class (Orabona et al. 2009, Sec. 5)",
       maker_of<MulticlassProjectronPP>(), true},
  };
}

// A deque: descriptors never move, so pointers returned by find_learner stay valid after
// register_learner adds one.
std::deque<LearnerInfo>& table() {
  static std::deque<LearnerInfo> t = builtin();
  return t;
}
std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

bool LearnerInfo::uses(const std::string& option) const {
  return std::find(options.begin(), options.end(), option) != options.end();
}

std::vector<LearnerInfo> learners() {
  std::lock_guard<std::mutex> lock(table_mutex());
  return {table().begin(), table().end()};
}

const LearnerInfo* find_learner(const std::string& name) {
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const auto& l : table())
    if (l.name == name) return &l;
  return nullptr;
}

std::vector<std::string> learner_names() {
  std::lock_guard<std::mutex> lock(table_mutex());
  std::vector<std::string> v;
  for (const auto& l : table()) v.push_back(l.name);
  return v;
}

const LearnerInfo& learner_info(const std::string& name, const std::string& where) {
  if (const LearnerInfo* l = find_learner(name)) return *l;
  const auto names = learner_names();
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument(where + ": unknown algorithm '" + name + "'" + did_you_mean(name, names) +
                              " (known: " + known + ")");
}

const LearnerInfo& register_learner(LearnerInfo info) {
  for (const auto& o : info.options)
    if (!find_option(o)) throw std::invalid_argument("register_learner " + info.name + ": unknown option '" + o + "'");
  if (!info.make) throw std::invalid_argument("register_learner " + info.name + ": no maker");
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const auto& l : table())
    if (l.name == info.name) throw std::invalid_argument("register_learner: '" + info.name + "' exists");
  table().push_back(std::move(info));
  return table().back();
}

std::unique_ptr<Learner> make_learner(const std::string& name, const LearnerOptions& opt,
                                      const std::vector<std::string>& given) {
  const LearnerInfo& info = learner_info(name);
  for (const auto& g : given) {
    const OptionInfo* row = find_option(g);
    if (!row) throw std::invalid_argument("unknown option '" + g + "'");
    if (!info.uses(g)) {
      std::string used;
      for (const auto& o : info.options) used += (used.empty() ? "" : ", ") + find_option(o)->flag();
      throw std::invalid_argument(row->flag() + " is not an option of " + name + " (" +
                                  (used.empty() ? std::string("it takes no learner options") : "its options: " + used) + ")");
    }
  }
  return info.make(opt);
}

}  // namespace plab
