#include "introspect.hpp"

#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/option_owners.hpp"
#include "core/nearest.hpp"

namespace plab::py {
namespace {

// One declared option as perceptron_lab.options() lists it. scope: learner | kernel | run (the
// comparator's); the kernel selector (declared as "type", flag --kernel) is the keyword "kernel".
nlohmann::json row(const OptionDecl& d, const std::string& scope) {
  const std::string name = d.flag() == "--kernel" ? "kernel" : d.name;
  return {{"name", name}, {"scope", scope}, {"type", d.type_name()}, {"default", d.default_value},
          {"range", d.range_text()}, {"allowed", d.allowed}, {"owners", d.owners}, {"help", d.help}};
}

}  // namespace

Kernel make_kernel(const LearnerSpec& s) {
  const OptionDecl type = declared_option("kernel", "type");
  type.check(s.kernel, "kernel");
  const Kernel k{Kernel::parse_type(s.kernel), s.gamma, s.coef0, s.degree};
  // The declared ranges of the parameters the chosen kernel takes ("gamma must be > 0 ...").
  const std::pair<const char*, nlohmann::json> params[] = {{"gamma", s.gamma}, {"coef0", s.coef0}, {"degree", s.degree}};
  for (const auto& [name, value] : params) {
    const OptionDecl d = declared_option("kernel", name);
    if (d.takes(k.type_name())) d.check(value, name, "the " + k.type_name() + " kernel");
  }
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
    out.push_back({{"name", l.name}, {"summary", l.summary}, {"multiclass", l.multiclass},
                   {"options", l.options}, {"bounds", !l.bounds.empty()}});
  return out;
}

// The declarations (bounds/option_owners.hpp): the learner's own, then the kernel's and the
// comparator's; the data readers' do not apply to arrays.
nlohmann::json option_catalog(const std::string& algo) {
  const LearnerInfo& info = learner_info(algo, "algo");
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : declared_options()) {
    if (d.kind == "learner" && info.uses(d.name)) out.push_back(row(d, "learner"));
    if (d.kind == "kernel") out.push_back(row(d, "kernel"));
    if (d.kind == "comparator") out.push_back(row(d, "run"));
  }
  return out;
}

bool is_multiclass(const std::string& algo) { return learner_info(algo, "algo").multiclass; }

void configure(RunRequest& req, const LearnerSpec& spec) {
  req.algo = spec.algo;
  req.given.clear();
  req.options = learner_options(spec, req.given);
}

LearnerOptions built_options(const LearnerSpec& spec, std::size_t dim, std::size_t classes) {
  std::vector<std::string> given;
  LearnerOptions o = learner_options(spec, given);
  o.dim = dim;
  o.classes = classes;
  return o;
}

std::unique_ptr<Learner> build_learner(const LearnerSpec& spec, std::size_t dim, std::size_t classes) {
  std::vector<std::string> given;
  LearnerOptions o = learner_options(spec, given);
  o.dim = dim;
  o.classes = classes;
  return make_learner(spec.algo, o, given);
}

}  // namespace plab::py
