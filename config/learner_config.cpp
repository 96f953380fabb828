#include "config/learner_config.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace plab {
namespace {

// The owner rule: every option given (by name) is one `info` takes. `label` writes one as its
// source read it, `spell` any option as the source writes it.
void check_owners(const LearnerInfo& info, const std::vector<std::string>& given, const SpellOption& label,
                  const SpellOption& spell) {
  for (const auto& g : given) {
    if (info.uses(g)) continue;
    if (learners_taking(g).empty()) throw std::invalid_argument(label(g) + ": unknown option");
    std::string takes;
    for (const auto& r : info.own.rows) takes += (takes.empty() ? "" : ", ") + spell(r.name);
    throw std::invalid_argument(label(g) + " is not an option of " + info.name + " (" +
                                (takes.empty() ? std::string("it takes no learner options") : "its options: " + takes) +
                                "); it is an option of " + join_and(learners_taking(g)));
  }
}

// Owners, then declared ranges (the defaults' included), then the learner's rules. `given`: the
// options given, by name; `at` prefixes an error of the rules.
void check_learner_options(const LearnerInfo& info, const LearnerOptions& o, const std::vector<std::string>& given,
                           const SpellOption& label, const SpellOption& spell, const std::string& at) {
  check_owners(info, given, label, spell);
  for (const auto& r : info.own.rows) {  // declared ranges, the defaults' included (a budget of 0)
    const nlohmann::json v = o.own.value(r.name, r.default_value);
    const bool was_given = std::find(given.begin(), given.end(), r.name) != given.end();
    r.check(v, was_given ? label(r.name) : spell(r.name), info.name);
  }
  if (!info.own.validate) return;
  try {
    info.own.validate(o, spell);
  } catch (const std::invalid_argument& e) {
    if (at.empty()) throw;
    throw std::invalid_argument(at + ": " + e.what());
  }
}

// The keys of the kernel's declarations: "kernel" (its type, flag --kernel), "gamma", ...
bool is_kernel_key(const std::string& key) {
  const std::vector<OptionDecl>& decls = kernel_options();
  return std::any_of(decls.begin(), decls.end(), [&](const OptionDecl& d) { return d.flag() == "--" + key; });
}

}  // namespace

LearnerOptions configure_learner_options(const LearnerInfo& info, const GivenOptions& given, LearnerOptions base) {
  LearnerOptions o = with_own_defaults(info, std::move(base));
  std::vector<std::string> keys;  // the options given, by name, taken or not
  std::string at;                 // where they came from, for an error of the learner's rules
  std::map<std::string, std::string> spelt_as;  // an own option given by its earlier name: that key
  for (const auto& [key, g] : given.values) {
    const OptionDecl* own = info.own_row(key);
    const std::string name = own ? own->name : key;
    if (name != key) {
      if (given.has(name))
        throw std::invalid_argument(g.label() + " and " + given.values.at(name).label() + " name the same option of " +
                                    info.name + " (" + key + " is its earlier name)");
      spelt_as[name] = key;
    }
    keys.push_back(name);
    if (at.empty()) at = g.at;
    if (own) {
      own->check_type(g.value, g.label());
      o.own[name] = own->typed(g.value);
    }  // else not taken: check_learner_options names it
  }
  const auto given_key = [&](const std::string& k) { return spelt_as.count(k) ? spelt_as.at(k) : k; };
  check_learner_options(
      info, o, keys,
      [&](const std::string& k) { return given.has(given_key(k)) ? given.values.at(given_key(k)).label() : given.spelling(k); },
      [&](const std::string& k) { return given.spelling(k); }, at);
  return o;
}

void check_given_learner_options(const LearnerInfo& info, const GivenOptions& given) {
  std::vector<std::string> keys;
  for (const auto& [key, g] : given.values) keys.push_back(key);
  const auto label = [&](const std::string& k) { return given.values.at(k).label(); };
  check_owners(info, keys, label, [&](const std::string& k) { return given.spelling(k); });
  for (const auto& [key, g] : given.values)
    if (!g.value.is_null()) info.own_row(key)->check(g.value, g.label(), info.name);
}

LearnerConfig learner_config(const LearnerInfo& info, const GivenOptions& given, const Kernel& k, LearnerOptions base) {
  GivenOptions learner = given;
  std::erase_if(learner.values, [](const auto& kv) { return is_kernel_key(kv.first); });
  LearnerOptions o = configure_learner_options(info, learner, std::move(base));
  o.kernel = k;
  check_learner_takes(info, k, given);
  return LearnerConfig(info.name, std::move(o));
}

void check_learner_takes(const LearnerInfo& info, const Kernel& k, const GivenOptions& given) {
  if (info.takes(k)) return;  // spelt as the front end writes it: "--kernel linear", "kernel='linear'"
  throw std::invalid_argument(given.spelling("kernel", k.type_name()) + (given.has("kernel") ? "" : " (the default)") +
                              " is not a kernel of " + info.name + " (it takes " + info.kernel_names() + ")");
}

std::unique_ptr<Learner> make_learner(const LearnerConfig& c) { return learner_info(c.algo()).make(c.options()); }

}  // namespace plab
