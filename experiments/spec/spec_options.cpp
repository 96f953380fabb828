#include "experiments/spec/spec_options.hpp"

#include <stdexcept>

#include "bounds/option_owners.hpp"

namespace plab {

const std::vector<SpecOption>& spec_options() {
  static const std::vector<SpecOption> rows = [] {
    std::vector<SpecOption> v;
    for (const OptionDecl& o : declared_options())
      if (o.kind == "learner")
        v.push_back({"learner", o.name, o.flag(), o.type_name(), o.default_value, o.allowed, o.help, o});
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
    // The declared range too, when the spec is read: budget 0, ogd_eta -0.5 or 1e999 (read as
    // inf), features 0 would otherwise be refused only when their cell runs (docs/specs.md).
    try {
      option.decl.check(v, ": " + option.name);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(e.what()).substr(2));  // without the empty "<where>: "
    }
  } else if (option.type == "flag" && !v.is_boolean()) {
    throw std::invalid_argument(option.name + " must be true or false, got " + v.dump());
  }
}

}  // namespace plab
