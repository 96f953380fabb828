#include "algorithms/options.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/nearest.hpp"

namespace plab {

nlohmann::json OptionInfo::get(const LearnerOptions& o) const {
  return std::visit([&](auto p) { return nlohmann::json(o.*p); }, field);
}

void OptionInfo::set(LearnerOptions& o, const nlohmann::json& v, const std::string& where) const {
  check_type(v, where + ": " + name);
  std::visit([&](auto p) { o.*p = v.get<std::remove_reference_t<decltype(o.*p)>>(); }, field);
}

std::string flag_spelling(const std::string& key) {
  std::string f = "--" + key;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

const OptionInfo* find_option(const std::string& name) {
  for (const auto& o : option_table())
    if (o.name == name) return &o;
  return nullptr;
}

std::string option_names() {
  std::string s;
  for (const auto& o : option_table()) s += (s.empty() ? "" : ", ") + o.name;
  return s;
}

nlohmann::json options_to_json(const LearnerOptions& o, const std::vector<std::string>& names) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& row : option_table())
    if (std::find(names.begin(), names.end(), row.name) != names.end()) j[row.name] = row.get(o);
  return j;
}

void options_from_json(LearnerOptions& o, const nlohmann::json& j, const std::string& where,
                       const std::vector<OptionDecl>& own) {
  if (!j.is_object()) throw std::invalid_argument(where + ": options must be a JSON object");
  for (const auto& [k, v] : j.items()) {
    const std::string& name = k;  // a lambda may not capture a structured binding (clang before 16)
    const auto mine = std::find_if(own.begin(), own.end(), [&](const OptionDecl& d) { return d.named(name); });
    if (mine != own.end()) {  // an own row first: its name may also be a shared option's
      mine->check_type(v, where + ": " + k);
      if (mine->name != k && j.contains(mine->name))
        throw std::invalid_argument(where + ": " + k + " and " + mine->name + " name the same option (" + k +
                                    " is its earlier name)");
      o.own[mine->name] = mine->typed(v);
      continue;
    }
    const OptionInfo* row = find_option(k);
    if (!row) {
      std::vector<std::string> names;
      for (const auto& r : option_table()) names.push_back(r.name);
      for (const auto& r : own) names.push_back(r.name);
      throw std::invalid_argument(where + ": unknown option '" + k + "'" + did_you_mean(k, names) +
                                  " (options: " + option_names() + ")");
    }
    row->set(o, v, where);
  }
}

void options_absent_as_before(LearnerOptions& o, const nlohmann::json& j, const std::vector<OptionDecl>& own) {
  if (!j.is_object()) return;
  for (const OptionDecl& d : own)
    if (d.name == "cap" && !j.contains("cap") && !j.contains("ogd_cap")) o.own["cap"] = 0.0;
}

void check_options(const LearnerOptions& o, const std::vector<std::string>& names, const std::string& who) {
  for (const auto& n : names) {
    const OptionInfo* row = find_option(n);
    if (!row) throw std::invalid_argument("unknown option '" + n + "'");
    row->check(row->get(o), row->flag(), who);
  }
}

}  // namespace plab
