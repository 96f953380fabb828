// The one option table: every learner option is declared here once (name, type, allowed values,
// help). The CLI flags (cli/option_flags.cpp), the summary JSON, spec parsing and the bound
// metadata are all generated from it; the default is the value of a default-constructed
// LearnerOptions. Which learners use an option is declared in their registry entries
// (algorithms/registry.hpp), and an option given to a learner that does not use it is an error.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "numerics/kernel.hpp"

namespace plab {

// Which reading of the Projectron threshold eta (docs/conventions.md#eta).
enum class EtaConvention { paper, dogma };
NLOHMANN_JSON_SERIALIZE_ENUM(EtaConvention, {{EtaConvention::paper, "paper"}, {EtaConvention::dogma, "dogma"}})

struct LearnerOptions {
  Kernel kernel;                                // from the data set / --kernel, not an option row
  std::size_t dim = 0;                          // input dimension (from the data), not an option row
  std::size_t classes = 0;                      // multiclass learners: m (from the data), not an option row
  double eta = 0.1;
  EtaConvention eta_convention = EtaConvention::paper;
  double U = 0.0;
  std::size_t budget = 0;
  double C = 1.0;
  double beta = 0.0;
  uint64_t seed = 1;
  std::string update_rule = "max-score";
  std::string task = "classification";
  std::string loss = "hinge";
  double lambda = 0.0, learning_rate = 1.0, rho = 0.0, nu = -1.0, epsilon = 0.0;
  bool decay_rate = false, bias = false;
  std::size_t truncate = 0;
  bool inclusive_ties = false;
};
static_assert(std::is_same_v<std::size_t, uint64_t>, "the option table stores counts and seeds alike");

struct OptionInfo {
  using Field = std::variant<double LearnerOptions::*, std::size_t LearnerOptions::*, bool LearnerOptions::*,
                             std::string LearnerOptions::*, EtaConvention LearnerOptions::*>;
  std::string name;                  // spec / JSON key; the CLI flag is "--" + name with '_' -> '-'
  Field field;
  std::string help;
  std::vector<std::string> allowed;  // text and enum options: the accepted values
  std::string flag() const;          // "--learning-rate"
  std::string type_name() const;     // "real" | "count" | "flag" | "text"
  nlohmann::json get(const LearnerOptions& o) const;
  // Sets the field from JSON; throws std::invalid_argument "<where>: <name> ..." on a wrong type,
  // a negative count or a value outside `allowed`.
  void set(LearnerOptions& o, const nlohmann::json& v, const std::string& where) const;
};

// Every option, in the order of the CLI help.
const std::vector<OptionInfo>& option_table();
// nullptr when unknown.
const OptionInfo* find_option(const std::string& name);
// Option names, comma separated (for error messages and help).
std::string option_names();

// {name: value} of the named options (a learner's registry list), in table order.
nlohmann::json options_to_json(const LearnerOptions& o, const std::vector<std::string>& names);
// Applies {name: value}; throws std::invalid_argument "<where>: unknown option 'x' (did you mean
// 'y'?)" on names not in the table.
void options_from_json(LearnerOptions& o, const nlohmann::json& j, const std::string& where);

}  // namespace plab
