#include "introspect.hpp"

#include <stdexcept>

#include "algorithms/registry.hpp"
#include "core/nearest.hpp"

namespace plab::py {
namespace {

const std::vector<std::string> kKernels = {"linear", "poly", "rbf"};
const std::vector<std::string> kComparators = {"auto", "truth", "svm", "multipass", "zero"};

nlohmann::json row(const std::string& name, const std::string& scope, const std::string& type,
                   const nlohmann::json& def, const std::vector<std::string>& allowed, const std::string& help) {
  return {{"name", name}, {"scope", scope}, {"type", type}, {"default", def}, {"allowed", allowed}, {"help", help}};
}

}  // namespace

Kernel make_kernel(const LearnerSpec& s) {
  if (std::find(kKernels.begin(), kKernels.end(), s.kernel) == kKernels.end())
    throw std::invalid_argument("kernel: unknown kernel '" + s.kernel + "'" + did_you_mean(s.kernel, kKernels) +
                                " (kernels: linear, poly, rbf)");
  const Kernel k{Kernel::parse_type(s.kernel), s.gamma, s.coef0, s.degree};
  if (k.type == Kernel::Type::rbf && !(s.gamma > 0)) throw std::invalid_argument("gamma must be > 0 for the rbf kernel");
  if (k.type == Kernel::Type::poly && s.degree < 1) throw std::invalid_argument("degree must be >= 1");
  return k;
}

namespace {

// The options of spec.options, checked against the learner's own list: an unknown name or one
// the learner does not read names the nearest option the learner does read.
LearnerOptions learner_options(const LearnerSpec& s, std::vector<std::string>& given) {
  const LearnerInfo& info = learner_info(s.algo, "algo");
  LearnerOptions o;
  for (const auto& [name, value] : s.options.items()) {
    if (!info.uses(name)) {
      const std::string uses = info.options.empty() ? "it takes no learner options"
                                                    : "its options: " + nlohmann::json(info.options).dump();
      throw std::invalid_argument("option '" + name + "'" + did_you_mean(name, info.options) + " is not an option of " +
                                  s.algo + " (" + uses + ")");
    }
    given.push_back(name);
  }
  options_from_json(o, s.options, s.algo);
  o.kernel = make_kernel(s);
  return o;
}

}  // namespace

nlohmann::json learner_catalog() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& l : learners())
    out.push_back({{"name", l.name}, {"display", l.display}, {"summary", l.summary}, {"multiclass", l.multiclass},
                   {"hypotheses", l.hypotheses}, {"options", l.options}, {"bounds", !l.bounds.empty()}});
  return out;
}

nlohmann::json option_catalog(const std::string& algo) {
  const LearnerInfo& info = learner_info(algo, "algo");
  const LearnerOptions defaults;
  const Kernel k;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& name : info.options) {
    const OptionInfo* o = find_option(name);
    out.push_back(row(o->name, "learner", o->type_name(), o->get(defaults), o->allowed, o->help));
  }
  out.push_back(row("kernel", "kernel", "text", "linear", kKernels, "kernel k(x, x')"));
  out.push_back(row("gamma", "kernel", "real", k.gamma, {}, "rbf exp(-gamma||x-x'||^2), poly (gamma<x,x'>+coef0)^degree; > 0 for rbf"));
  out.push_back(row("coef0", "kernel", "real", k.coef0, {}, "polynomial coef0"));
  out.push_back(row("degree", "kernel", "count", k.degree, {}, "polynomial degree, >= 1"));
  const ComparatorRequest c;
  out.push_back(row("comparator", "run", "text", c.kind, kComparators,
                    "comparator of the bounds: auto (truth on synthetic linear data, else svm) | truth | svm | multipass | zero"));
  out.push_back(row("svm_C", "run", "real", c.svm_C, {}, "C of the hinge-loss SVM comparator"));
  return out;
}

bool is_multiclass(const std::string& algo) { return learner_info(algo, "algo").multiclass; }

void configure(RunRequest& req, const LearnerSpec& spec) {
  req.algo = spec.algo;
  req.given.clear();
  req.options = learner_options(spec, req.given);
}

std::unique_ptr<Learner> build_learner(const LearnerSpec& spec, std::size_t dim, std::size_t classes) {
  std::vector<std::string> given;
  LearnerOptions o = learner_options(spec, given);
  o.dim = dim;
  o.classes = classes;
  return make_learner(spec.algo, o, given);
}

}  // namespace plab::py
