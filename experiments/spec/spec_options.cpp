#include "experiments/spec/spec_options.hpp"

#include <algorithm>
#include <stdexcept>

#include "bounds/option_owners.hpp"

namespace plab {

namespace {

// The range that holds every value either range holds (a spec key several learners declare is read
// against it; each learner's own range is checked where the key reaches it, spec_parse.cpp).
void widen(OptionDecl& d, const OptionDecl& o) {
  if (!d.min || !o.min) d.min.reset();
  else if (*o.min < *d.min || (*o.min == *d.min && !o.min_open)) { d.min = o.min; d.min_open = o.min_open; }
  if (!d.max || !o.max) d.max.reset();
  else if (*o.max > *d.max || (*o.max == *d.max && !o.max_open)) { d.max = o.max; d.max_open = o.max_open; }
}

std::string owned_help(const OptionDecl& o) {
  return o.help + " [" + join_and(o.owners) + ", default " + o.default_value.dump() + "]";
}

}  // namespace

const std::vector<SpecOption>& spec_options() {
  static const std::vector<SpecOption> rows = [] {
    std::vector<SpecOption> v;
    std::vector<OptionDecl> aliases;
    for (const OptionDecl& o : declared_options()) {
      if (o.kind != "learner") continue;
      for (const auto& a : o.aliases) {  // an earlier name reads as the option it names
        OptionDecl d = o;
        d.name = a;
        d.aliases.clear();
        d.help = "earlier name of " + o.name + " (" + join_and(o.owners) + ")";
        aliases.push_back(std::move(d));
      }
      auto same = std::find_if(v.begin(), v.end(), [&](const SpecOption& s) { return s.name == o.name; });
      if (same == v.end()) {
        v.push_back({"learner", o.name, o.flag(), o.type_name(), o.default_value, o.allowed, o.help, o});
        continue;
      }
      // One key, several declarations (the Projectron's eta and the online gradient learners'):
      // each help with its owners and default, the ranges' union.
      if (same->help == same->decl.help) same->help = owned_help(same->decl);
      same->help += "; " + owned_help(o);
      if (same->default_value != o.default_value) same->default_value = nullptr;
      widen(same->decl, o);
    }
    for (const OptionDecl& d : aliases)
      if (std::none_of(v.begin(), v.end(), [&](const SpecOption& s) { return s.name == d.name; }))
        v.push_back({"learner", d.name, d.flag(), d.type_name(), d.default_value, d.allowed, d.help, d});
    v.push_back({"metric switch", "metric_untruncated_tail", "", "flag", false, {},
                 "NORMA with truncate: the untruncated_* metrics from a second, untruncated run"});
    return v;
  }();
  return rows;
}

const SpecOption* find_spec_option(const std::string& name) {
  for (const auto& o : spec_options())
    if (o.name == name) return &o;
  return nullptr;
}

void check_option_value(const SpecOption& option, const nlohmann::json& v) {
  if (option.owner == "learner") {
    // Its type alone, the spec format's: its owner and range are those of the learner it reaches,
    // checked by the configuration step when the spec is read (check_learner_param, spec_parse.cpp).
    option.decl.check_type(v, option.name);
  } else if (option.type == "flag" && !v.is_boolean()) {
    throw std::invalid_argument(option.name + " must be true or false, got " + v.dump());
  }
}

}  // namespace plab
