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
