// Command-line flags generated from the option declarations (core/option_decl.hpp): the options
// learners declare (bounds/option_owners.hpp) and the kernel, comparator, reader and run options. Each flag's help,
// default, allowed values and --help group (its owner: "Kernel options", "NORMA options", ...)
// come from its declaration. After parsing, given() hands the flags given to the one configuration
// step (config/run_config.hpp).
#pragma once
#include <CLI/CLI.hpp>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/options.hpp"
#include "config/given_options.hpp"

namespace plab {

class OptionFlags {
 public:
  // Adds one flag for each name of the options learners declare (held like the kernel's); call once.
  void add_learner_options(CLI::App* app);
  // Adds the flags of kernel, comparator, reader or run declarations, each holding its declared
  // default until given (value()).
  void add(CLI::App* app, const std::vector<OptionDecl>& decls);
  // The learner, kernel, comparator, reader and run options given, for configure, spelt as flags;
  // `no_comparator` says why a run has no comparator ("--no-bounds").
  GivenOptions given(const std::string& no_comparator) const;
  // Whether the declared option `name` of `kind` was given.
  bool was_given(const std::string& kind, const std::string& name) const;

 private:
  // A kernel, comparator or reader flag's value (the member of its type).
  struct Held {
    double real = 0.0;
    int64_t integer = 0;
    std::string text;
    bool flag = false;
  };
  struct Flag {
    OptionDecl decl;
    CLI::Option* option;
    std::function<nlohmann::json()> value;
  };
  static std::string help(const OptionDecl& d);
  static CLI::Option* checked(const OptionDecl& d, CLI::Option* o);
  std::deque<Held> held_;                         // stable addresses: CLI11 writes into them
  std::vector<Flag> flags_;
};

}  // namespace plab
