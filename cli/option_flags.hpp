// Command-line flags generated from the option table (algorithms/options.hpp): one flag per
// row, its help and allowed values from the table, and the list of flags the user gave (an
// option given to a learner that does not use it is an error, algorithms/registry.hpp).
#pragma once
#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "algorithms/options.hpp"

namespace plab {

class OptionFlags {
 public:
  // Adds the flags to `app`, bound to options(); call once.
  void add_to(CLI::App* app);
  // The options after parsing (enum values converted).
  LearnerOptions options() const;
  // Names (option-table spelling) of the options given on the command line.
  std::vector<std::string> given() const;

 private:
  LearnerOptions opt_;
  std::map<std::string, std::string> enum_text_;  // enum options: the value as typed
  std::vector<std::pair<std::string, CLI::Option*>> flags_;
};

}  // namespace plab
