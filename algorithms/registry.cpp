// The registry of learners: one descriptor per learner, with its maker, and the gathering of the
// option groups the learner headers declare. Adding a learner = its header (with its own struct
// Options), one entry here and its docs/learners.md section (docs/extending.md#learner).
#include "algorithms/registry.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <initializer_list>
#include <map>
#include <mutex>
#include <stdexcept>

#include "algorithms/averaged.hpp"
#include "algorithms/bogd.hpp"
#include "algorithms/bpa.hpp"
#include "algorithms/cks.hpp"
#include "algorithms/fogd.hpp"
#include "algorithms/forgetron.hpp"
#include "algorithms/multiclass.hpp"
#include "algorithms/multiclass_projectron.hpp"
#include "algorithms/nogd.hpp"
#include "algorithms/norma.hpp"
#include "algorithms/pa.hpp"
#include "algorithms/perceptron.hpp"
#include "algorithms/projectron.hpp"
#include "algorithms/rbp.hpp"
#include "algorithms/stoptron.hpp"
#include "core/nearest.hpp"
#include "datasets/readers.hpp"

namespace plab {
namespace {

using BF = BoundFamily;
using BOGD = BoundedOnlineGradientDescent;

constexpr unsigned mask(std::initializer_list<UpdateKind> kinds) {
  unsigned m = 0;
  for (UpdateKind k : kinds) m |= 1u << static_cast<unsigned>(k);
  return m;
}
using UK = UpdateKind;
using Step = TraceRows::Step;
// The rows of the budget learners (docs/inputs.md#trace-invariants): their steps, the kinds of their
// updates and the support counts their budget allows.
constexpr TraceRows kBudgetPARows = {mask({UK::add, UK::evict}), mask({UK::none, UK::add, UK::evict}), Step::pa,
                                     true, false, false, mask({UK::add}), false};
constexpr TraceRows kBogdRows = {mask({UK::add, UK::evict}), mask({UK::none, UK::update, UK::add, UK::evict}),
                                 Step::eta, true, false, false, mask({UK::add}), true};
constexpr TraceRows kFogdRows = {mask({UK::update}), mask({UK::none, UK::update}), Step::eta, false, false, true,
                                 mask({UK::none, UK::update}), false};
constexpr TraceRows kNogdRows = {mask({UK::add, UK::update}), mask({UK::none, UK::add, UK::update}), Step::eta, true,
                                 true, false, mask({UK::add}), false};

// Built-in learners, in the order of the CLI help and the docs.
std::vector<LearnerInfo> builtin() {
  return {
      {.name = "perceptron", .bounds = {BF::perceptron}, .color = "#000000",
       .summary = "primal linear Perceptron (Rosenblatt 1958); kernel-perceptron for other kernels",
       .make = maker_of<PrimalPerceptron>(), .kernels = {Kernel::Type::linear},
       .multiclass_counterpart = "multiclass-perceptron", .floor = &PrimalPerceptron::floor_ops},
      {.name = "kernel-perceptron", .bounds = {BF::perceptron}, .color = "#000000",
       .summary = "kernel Perceptron, one support per mistake", .make = maker_of<KernelPerceptron>(),
       .multiclass_counterpart = "multiclass-perceptron"},
      {.name = "projectron", .bounds = {BF::projectron}, .color = "#0072b2",
       .summary = "Projectron: projects mistakes onto span(S) when ||delta|| <= eta (Orabona et al.)",
       .make = own_maker_of<Projectron>(), .own = own_options<Projectron::Options>("Projectron(++) options"),
       .floor = &Projectron::floor_ops},
      {.name = "projectron++", .bounds = {BF::projectron_pp}, .color = "#d55e00",
       .summary = "Projectron++: Projectron plus projected margin updates", .make = own_maker_of<ProjectronPP>(),
       .own = own_options<ProjectronPP::Options>("Projectron(++) options"),
       .multiclass_counterpart = "multiclass-projectron++", .floor = &ProjectronPP::floor_ops},
      {.name = "forgetron", .bounds = {BF::perceptron_prefix, BF::forgetron}, .color = "#009e73",
       .summary = "self-tuned Forgetron: shrink, then remove the oldest (Dekel et al.)", .make = own_maker_of<Forgetron>(),
       .own = own_options<Forgetron::Options>("Budget options"), .floor = &Forgetron::floor_ops},
      {.name = "forgetron-basic", .bounds = {BF::perceptron_prefix, BF::forgetron},
       .color = "#56b4e9", .summary = "basic Forgetron: fixed shrinking U = (1/4) sqrt((B+1)/ln(B+1))",
       .make = [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<Forgetron>(o, options_from<Forgetron::Options>(o.own), Forgetron::Rule::basic);
       }, .own = own_options<Forgetron::Options>("Budget options"), .floor = &Forgetron::floor_ops},
      {.name = "rbp", .bounds = {BF::perceptron_prefix}, .color = "#cc79a7",
       .summary = "Randomized Budget Perceptron: evict a uniformly random support (Cavallanti et al.)",
       .make = own_maker_of<RandomizedBudgetPerceptron>(),
       .own = own_options<RandomizedBudgetPerceptron::Options>("Budget options"), .multiclass_counterpart = "mrbp"},
      {.name = "stoptron", .bounds = {BF::perceptron_prefix}, .color = "#8c564b",
       .summary = "Stoptron: a kernel Perceptron that stops adding at B supports", .make = own_maker_of<Stoptron>(),
       .own = own_options<Stoptron::Options>("Budget options")},
      {.name = "cks", .bounds = {BF::perceptron_prefix}, .color = "#7f7f7f",
       .summary = "Crammer-Kandola-Singer budget Perceptron (margin beta, removes the least useful support)",
       .make = own_maker_of<CKSPerceptron>(), .own = own_options<CKSPerceptron::Options>("CKS options"),
       .floor = &CKSPerceptron::floor_ops},
      {.name = "pa1", .bounds = {}, .color = "#9467bd",
       .summary = "Passive-Aggressive PA-I (Crammer et al. 2006; dogma: DOGMA's update at margin 1); no mistake "
                  "bound is evaluated",
       .make = own_maker_of<PassiveAggressive1>(), .own = own_options<PassiveAggressive1::Options>("PA-I options"),
       .multiclass_counterpart = "multiclass-pa1"},
      {.name = "averaged-perceptron", .bounds = {BF::perceptron}, .color = "#bcbd22",
       .summary = "kernel Perceptron predicting with the average of its hypotheses (Freund-Schapire)",
       .make = maker_of<VotedPerceptron>()},
      {.name = "voted-perceptron", .bounds = {BF::perceptron}, .color = "#e377c2",
       .summary = "kernel Perceptron predicting with the vote of its hypotheses (Freund-Schapire)",
       .make = [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<VotedPerceptron>(o, true);
       }},
      {.name = "norma", .bounds = {BF::norma}, .color = "#17becf",
       .summary = "NORMA: online gradient descent in the RKHS (Kivinen, Smola, Williamson)",
       .make = own_maker_of<Norma>(), .own = own_options<Norma::Options>("NORMA options"), .floor = &Norma::floor_ops},
      // The budget learners that followed the Projectron (docs/learners.md#bpa-s and on), with the
      // bounds derived for their steps (docs/bounds.md#budget-ogd-bounds); FOGD's comparator space is
      // not the kernel's RKHS, so none applies to it.
      {.name = "bpa-s", .bounds = {BF::budget_gradient}, .color = "#8dd3c7",
       .summary = "Budgeted Passive-Aggressive, simple variant: PA-I, over budget the cheapest removal (Wang-Vucetic "
                  "2010)",
       .make = own_maker_of<BudgetPassiveAggressive>(), .own = own_options<BudgetPassiveAggressive::Options>("BPA options"),
       .trace = kBudgetPARows, .floor = &BudgetPassiveAggressive::floor_ops_simple},
      {.name = "bpa-nn", .bounds = {BF::budget_gradient}, .color = "#bc80bd",
       .summary = "Budgeted Passive-Aggressive, nearest-neighbour variant: the removal projected on x_t and the "
                  "removed support's nearest neighbour (Wang-Vucetic 2010)",
       .make = [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<BudgetPassiveAggressive>(o, options_from<BudgetPassiveAggressive::Options>(o.own),
                                                          BudgetPassiveAggressive::Span::nearest);
       }, .own = own_options<BudgetPassiveAggressive::Options>("BPA options"), .trace = kBudgetPARows,
       .floor = &BudgetPassiveAggressive::floor_ops_nearest},
      {.name = "bogd", .bounds = {BF::budget_gradient, BF::unbiased_removal}, .color = "#fb8072",
       .summary = "Bounded Online Gradient Descent: hinge-loss OGD, uniform unbiased removal (Zhao et al. 2012)",
       .make = own_maker_of<BoundedOnlineGradientDescent>(), .own = own_options<BOGD::Options>("BOGD options"),
       .trace = kBogdRows, .floor = &BOGD::floor_ops_uniform},
      {.name = "bogd++", .bounds = {BF::budget_gradient, BF::unbiased_removal}, .color = "#b3de69",
       .summary = "BOGD++: BOGD with removal weighted towards small coefficients (Zhao et al. 2012)",
       .make = [](const LearnerOptions& o) -> std::unique_ptr<Learner> {
         return std::make_unique<BOGD>(o, options_from<BOGD::Options>(o.own), BOGD::Removal::weighted);
       }, .own = own_options<BOGD::Options>("BOGD options"), .trace = kBogdRows, .floor = &BOGD::floor_ops_weighted},
      // Its bounds hold in the random-feature space, against the comparator mapped there.
      {.name = "fogd", .bounds = {BF::budget_gradient}, .color = "#fdb462",
       .summary = "Fourier Online Gradient Descent: hinge-loss OGD on D random Fourier features (Lu et al. 2016)",
       .make = own_maker_of<FourierOnlineGradientDescent>(),
       .own = own_options<FourierOnlineGradientDescent::Options>("FOGD options"), .kernels = {Kernel::Type::rbf},
       .fourier_features = true, .trace = kFogdRows, .floor = &FourierOnlineGradientDescent::floor_ops},
      {.name = "nogd", .bounds = {BF::budget_gradient}, .color = "#80b1d3",
       .summary = "Nystrom Online Gradient Descent: kernel OGD to B supports, then OGD on a rank-k Nystrom map (Lu "
                  "et al. 2016)",
       .make = own_maker_of<NystromOnlineGradientDescent>(),
       .own = own_options<NystromOnlineGradientDescent::Options>("NOGD options"), .trace = kNogdRows,
       .floor = &NystromOnlineGradientDescent::floor_ops},
      // Multiclass learners (docs/learners.md#multiclass): labels are class indices (--labels classes);
      // their bound families are evaluated on the Kesler construction (docs/bounds.md#multiclass).
      {.name = "multiclass-perceptron", .bounds = {BF::perceptron}, .color = "#000000",
       .summary = "multiclass kernel Perceptron, max-score or uniform update (Crammer-Singer 2003)",
       .make = own_maker_of<MulticlassPerceptron>(),
       .own = own_options<MulticlassPerceptron::Options>("Multiclass Perceptron options"), .multiclass = true},
      {.name = "mrbp", .bounds = {BF::perceptron_prefix}, .color = "#cc79a7",
       .summary = "Multiclass Random Budget Perceptron: evict a uniformly random old support (Orabona et al. 2009)",
       .make = own_maker_of<MulticlassRandomBudgetPerceptron>(),
       .own = own_options<MulticlassRandomBudgetPerceptron::Options>("MRBP options"), .multiclass = true},
      {.name = "multiclass-pa1", .bounds = {}, .color = "#9467bd",
       .summary = "multiclass Passive-Aggressive PA-I, max-loss update (Crammer et al. 2006); no mistake bound is "
                  "evaluated",
       .make = own_maker_of<MulticlassPA1>(), .own = own_options<MulticlassPA1::Options>("PA-I options"), .multiclass = true},
      {.name = "multiclass-projectron++", .bounds = {BF::projectron_pp}, .color = "#d55e00",
       .summary = "multiclass Projectron++: one Gram factor per class (Orabona et al. 2009, Sec. 5)",
       .make = own_maker_of<MulticlassProjectronPP>(),
       .own = own_options<MulticlassProjectronPP::Options>("Projectron(++) options"), .multiclass = true},
  };
}

// register_learner's checks, the same for built-ins and run-time registrations (caller holds the lock).
void check_entry(const std::deque<LearnerInfo>& t, const LearnerInfo& info) {
  const std::string at = "register_learner '" + info.name + "': ";
  if (info.name.empty()) throw std::invalid_argument("register_learner: empty name");
  for (const auto& l : t)
    if (l.name == info.name) throw std::invalid_argument(at + "the name exists");
  // An own option's key is its flag and spec key too: another learner's option of that name (the
  // online gradient learners' eta beside the Projectron's) must be of its type, for one flag to read
  // both; an earlier name (alias) is no option's name, and names the same option wherever declared.
  for (const auto& r : info.own.rows) {
    if (r.kind != "learner") throw std::invalid_argument(at + "own option '" + r.name + "' is not a learner option");
    // Its keys are spec keys and flags ('_' read as '-'): no '-', and none a kernel's, run's or reader's.
    std::vector<std::string> keys = r.aliases;
    keys.push_back(r.name);
    for (const auto& k : keys) {
      if (k.empty() || k.find('-') != std::string::npos)
        throw std::invalid_argument(at + "own option '" + k + "': a key is written with '_', not '-'");
      for (const auto* decls : {&kernel_options(), &run_options(), &reader_options()})
        for (const OptionDecl& d : *decls)
          if (d.flag() == "--" + k || d.name == k)
            throw std::invalid_argument(at + "own option '" + k + "' is the " + d.kind + " option " + d.flag());
    }
    for (const auto& l : t)  // read in place: no copy of every learner's rows for each row (start-up runs this)
      for (const auto& o : l.own.rows) {
        if (o.name == r.name && o.type != r.type)
          throw std::invalid_argument(at + "own option '" + r.name + "' is a " + r.type_name() + ", another learner's is a " +
                                      o.type_name());
        for (const auto& a : r.aliases)
          if (o.name == a || (o.named(a) && o.name != r.name))
            throw std::invalid_argument(at + "own option '" + r.name + "': its earlier name '" + a + "' names another option");
      }
  }
  if (!info.make) throw std::invalid_argument(at + "no maker");
  const bool hex = info.color.size() == 7 && info.color[0] == '#' &&
                   std::all_of(info.color.begin() + 1, info.color.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  if (!hex) throw std::invalid_argument(at + "colour '" + info.color + "' is not #rrggbb");
  if (info.summary.empty()) throw std::invalid_argument(at + "no summary");
}

// Each learner option's name and earlier name -> the learners that declare it, in registration
// order: learners_taking's index, extended with the table (caller holds the lock).
std::map<std::string, std::vector<std::string>>& takers() {
  static std::map<std::string, std::vector<std::string>> m;
  return m;
}
void index_options(const LearnerInfo& info) {
  for (const auto& r : info.own.rows) {
    std::vector<std::string> keys = r.aliases;
    keys.push_back(r.name);
    for (const auto& k : keys)
      if (auto& v = takers()[k]; v.empty() || v.back() != info.name) v.push_back(info.name);
  }
}

// A deque: descriptors never move, so pointers returned by find_learner stay valid after
// register_learner adds one.
std::deque<LearnerInfo>& table() {
  static std::deque<LearnerInfo> t = [] {
    std::deque<LearnerInfo> d;
    for (auto& info : builtin()) {
      check_entry(d, info);
      index_options(info);
      d.push_back(std::move(info));
    }
    return d;
  }();
  return t;
}
std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

bool LearnerInfo::uses(const std::string& option) const {
  return own_row(option) != nullptr;
}

const OptionDecl* LearnerInfo::own_row(const std::string& key) const {
  for (const auto& d : own.rows)
    if (d.named(key)) return &d;
  return nullptr;
}

nlohmann::json LearnerInfo::options_json(const LearnerOptions& o) const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& r : own.rows) j[r.name] = o.own.value(r.name, r.default_value);
  return j;
}

std::vector<OptionDecl> LearnerInfo::option_rows() const { return own.rows; }

bool LearnerInfo::takes(const Kernel& k) const {
  return kernels.empty() || std::find(kernels.begin(), kernels.end(), k.type) != kernels.end();
}

std::string LearnerInfo::kernel_names() const {
  std::string s;
  for (const auto k : kernels) s += (s.empty() ? "" : ", ") + Kernel{.type = k}.type_name();
  return s.empty() ? "every kernel" : s;
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
  std::lock_guard<std::mutex> lock(table_mutex());
  check_entry(table(), info);
  index_options(info);
  table().push_back(std::move(info));
  return table().back();
}

std::vector<std::string> learners_taking(const std::string& option) {
  std::lock_guard<std::mutex> lock(table_mutex());
  table();  // the built-ins indexed
  const auto it = takers().find(option);
  return it == takers().end() ? std::vector<std::string>{} : it->second;
}

LearnerOptions with_own_defaults(const LearnerInfo& info, LearnerOptions o) {
  for (const auto& r : info.own.rows)
    if (!o.own.contains(r.name)) o.own[r.name] = r.default_value;
  return o;
}

}  // namespace plab
