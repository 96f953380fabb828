#include "experiments/spec/spec_options.hpp"

#include <stdexcept>

#include "algorithms/options.hpp"

namespace plab {

const std::vector<SpecOption>& spec_options() {
  static const std::vector<SpecOption> rows = [] {
    std::vector<SpecOption> v;
    const LearnerOptions defaults;
    for (const auto& o : option_table())
      v.push_back({"learner", o.name, o.flag(), o.type_name(), o.get(defaults), o.allowed, o.help});
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
  if (const OptionInfo* row = find_option(option.name)) {
    LearnerOptions scratch;
    try {
      row->set(scratch, v, "");
      // The declared range too, when the spec is read: budget 0, ogd_eta -0.5 or 1e999 (read as
      // inf), features 0 would otherwise be refused only when their cell runs (docs/specs.md).
      if (!v.is_string() && !v.is_boolean()) row->check(v, ": " + option.name);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(e.what()).substr(2));  // without the empty "<where>: "
    }
  } else if (option.type == "flag" && !v.is_boolean()) {
    throw std::invalid_argument(option.name + " must be true or false, got " + v.dump());
  }
}

}  // namespace plab
