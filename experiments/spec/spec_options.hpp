// Learner options as the spec format sees them (the "params" of an algorithm, "defaults",
// "quick.algorithm_params"). This file is the one adapter between the option declarations and
// specs: the parser's checks, the schema and the docs all read spec_options().
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/option_decl.hpp"

namespace plab {

struct SpecOption {
  std::string owner;                 // who declares it: "learner" or "metric switch"
  std::string name;                  // key in "params"
  std::string flag;                  // the plab run flag ("--learning-rate"); "" for a metric switch
  std::string type;                  // real | count | flag | text
  nlohmann::json default_value;      // null when none
  std::vector<std::string> allowed;  // text: the accepted values (empty = any)
  std::string help;
  OptionDecl decl = {};              // a learner option's declaration: its range, its one check
};

// Every option a spec may set, in declaration order: the learner options, then the metric_*
// switches the runner reads itself (experiments/cell/norma_metrics.hpp).
const std::vector<SpecOption>& spec_options();
// nullptr when unknown.
const SpecOption* find_spec_option(const std::string& name);
// Throws std::invalid_argument "<name> must be ..., got <v>" unless `v` is a valid value.
void check_option_value(const SpecOption& option, const nlohmann::json& v);

}  // namespace plab
