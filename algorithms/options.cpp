#include "algorithms/options.hpp"

#include <algorithm>
#include <stdexcept>

namespace plab {

std::string flag_spelling(const std::string& key) {
  std::string f = "--" + key;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

void GivenOptions::add(const std::string& key, nlohmann::json v, const std::string& at, const std::string& spelt) {
  values[key] = {std::move(v), at, spelt.empty() ? key : spelt};
}

std::string GivenOptions::spelling(const std::string& key, const std::string& value) const {
  if (spell) return spell(key, value);
  return value.empty() ? key : key + " " + value;
}

GivenOptions given_from_json(const nlohmann::json& j, const std::string& at) {
  if (!j.is_object()) throw std::invalid_argument((at.empty() ? "options" : at) + ": must be an object of options");
  GivenOptions g;
  for (const auto& [k, v] : j.items()) g.add(k, v, at);
  return g;
}

void options_absent_as_before(LearnerOptions& o, const nlohmann::json& j, const std::vector<OptionDecl>& own) {
  if (!j.is_object()) return;
  for (const OptionDecl& d : own)
    if (!d.absent_before.is_null() && !j.contains(d.name) &&
        std::none_of(d.aliases.begin(), d.aliases.end(), [&](const std::string& a) { return j.contains(a); }))
      o.own[d.name] = d.absent_before;
}

}  // namespace plab
