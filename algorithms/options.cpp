#include "algorithms/options.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/nearest.hpp"

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

void options_from_json(LearnerOptions& o, const nlohmann::json& j, const std::string& where,
                       const std::vector<OptionDecl>& own) {
  if (!j.is_object()) throw std::invalid_argument(where + ": options must be a JSON object");
  for (const auto& [k, v] : j.items()) {
    const std::string& name = k;  // a lambda may not capture a structured binding (clang before 16)
    const auto mine = std::find_if(own.begin(), own.end(), [&](const OptionDecl& d) { return d.named(name); });
    if (mine == own.end()) {
      std::vector<std::string> names;
      std::string list;
      for (const auto& r : own) {
        names.push_back(r.name);
        list += (list.empty() ? "" : ", ") + r.name;
      }
      throw std::invalid_argument(where + ": unknown option '" + k + "'" + did_you_mean(k, names) + " (options: " +
                                  (list.empty() ? std::string("none") : list) + ")");
    }
    mine->check_type(v, where + ": " + k);
    if (mine->name != k && j.contains(mine->name))
      throw std::invalid_argument(where + ": " + k + " and " + mine->name + " name the same option (" + k +
                                  " is its earlier name)");
    o.own[mine->name] = mine->typed(v);
  }
}

void options_absent_as_before(LearnerOptions& o, const nlohmann::json& j, const std::vector<OptionDecl>& own) {
  if (!j.is_object()) return;
  for (const OptionDecl& d : own)
    if (d.name == "cap" && !j.contains("cap") && !j.contains("ogd_cap")) o.own["cap"] = 0.0;
}

}  // namespace plab
