#include "algorithms/options.hpp"

#include <stdexcept>

#include "core/nearest.hpp"

namespace plab {

const std::vector<OptionInfo>& option_table() {
  using O = LearnerOptions;
  static const std::vector<OptionInfo> table = {
      {"eta", &O::eta, "Projectron(++) threshold eta (docs/learners.md#projectron)", {}},
      {"eta_convention", &O::eta_convention,
       "paper (||delta|| <= eta) | dogma (||delta||^2 <= eta, docs/conventions.md#eta)", {"paper", "dogma"}},
      {"U", &O::U, "Projectron: per-round eta_t from U (ICML Eq. 13); 0 = off", {}},
      {"budget", &O::budget, "Budget B: the most supports kept", {}},
      {"C", &O::C, "PA-I aggressiveness C", {}},
      {"beta", &O::beta, "CKS margin threshold beta", {}},
      {"update_rule", &O::update_rule,
       "Multiclass Perceptron step on a mistake: max-score (+1 on y, -1 on the competitor) | uniform "
       "(-1/(m-1) on every other class); docs/learners.md#multiclass-perceptron",
       {"max-score", "uniform"}},
      {"seed", &O::seed, "Seed of the learner's own randomness (eviction draws)", {}},
      {"task", &O::task, "NORMA task", {"classification", "novelty", "regression"}},
      {"loss", &O::loss, "NORMA loss: hinge (classification, novelty) | squared | eps (regression)",
       {"hinge", "squared", "eps"}},
      {"lambda", &O::lambda, "NORMA regulariser lambda", {}},
      {"learning_rate", &O::learning_rate, "NORMA learning rate Lambda", {}},
      {"decay_rate", &O::decay_rate, "NORMA: learning rate Lambda/sqrt(t)", {}},
      {"rho", &O::rho, "NORMA margin rho", {}},
      {"nu", &O::nu, "NORMA nu-trick (negative = off)", {}},
      {"epsilon", &O::epsilon, "NORMA eps-insensitive width", {}},
      {"bias", &O::bias, "NORMA: unregularised bias", {}},
      {"truncate", &O::truncate, "NORMA: drop terms older than tau rounds (0 = never)", {}},
      {"inclusive_ties", &O::inclusive_ties,
       "NORMA: violation on y f <= rho (Perceptron ties) instead of y f < rho (slides)", {}},
  };
  return table;
}

std::string OptionInfo::flag() const {
  std::string f = "--" + name;
  for (char& c : f) if (c == '_') c = '-';
  return f;
}

std::string OptionInfo::type_name() const {
  static const char* names[] = {"real", "count", "flag", "text", "text"};
  return names[field.index()];
}

nlohmann::json OptionInfo::get(const LearnerOptions& o) const {
  return std::visit([&](auto p) { return nlohmann::json(o.*p); }, field);
}

void OptionInfo::set(LearnerOptions& o, const nlohmann::json& v, const std::string& where) const {
  const std::string at = where + ": " + name;
  std::visit([&](auto p) {
    using T = std::remove_reference_t<decltype(o.*p)>;
    if constexpr (std::is_same_v<T, double>) {
      if (!v.is_number()) throw std::invalid_argument(at + " must be a number, got " + v.dump());
    } else if constexpr (std::is_same_v<T, std::size_t>) {
      if (!v.is_number_integer() || (v.is_number_integer() && v.get<int64_t>() < 0 && !v.is_number_unsigned()))
        throw std::invalid_argument(at + " must be a non-negative integer, got " + v.dump());
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) throw std::invalid_argument(at + " must be true or false, got " + v.dump());
    } else {
      if (!v.is_string()) throw std::invalid_argument(at + " must be a string, got " + v.dump());
      const std::string s = v.get<std::string>();
      if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        throw std::invalid_argument(at + ": unknown value '" + s + "'" + did_you_mean(s, allowed) +
                                    " (allowed: " + list + ")");
      }
    }
    o.*p = v.get<T>();
  }, field);
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

void options_from_json(LearnerOptions& o, const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw std::invalid_argument(where + ": options must be a JSON object");
  for (const auto& [k, v] : j.items()) {
    const OptionInfo* row = find_option(k);
    if (!row) {
      std::vector<std::string> names;
      for (const auto& r : option_table()) names.push_back(r.name);
      throw std::invalid_argument(where + ": unknown option '" + k + "'" + did_you_mean(k, names) +
                                  " (options: " + option_names() + ")");
    }
    row->set(o, v, where);
  }
}

}  // namespace plab
