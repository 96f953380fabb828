// Command-line flags generated from the option declarations (core/option_decl.hpp): the learner
// options of option_table() and the kernel, comparator and reader options bound to the command's
// own fields. Each flag's help, default, allowed values and --help group (its owner: "Kernel
// options", "NORMA options", ...) come from its declaration; after parsing, check() rejects a given
// flag that the selected owner does not take and checks every taken value against its range.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/options.hpp"

namespace plab {

class OptionFlags {
 public:
  // Adds every learner option of option_table() to `app`, bound to options(); call once.
  void add_learner_options(CLI::App* app);
  // Adds the flag of a kernel, comparator or reader declaration, bound to `target`, which is set
  // to the declared default (a null default leaves an optional target empty).
  template <class T>
  void add(CLI::App* app, const OptionDecl& d, T& target) {
    if (!d.default_value.is_null()) target = d.default_value.get<T>();
    CLI::Option* o = app->add_option(d.flag(), target, help(d))->capture_default_str();
    add_flag(d, checked(d, o), [&target] { return nlohmann::json(target); });
  }
  template <class T>
  void add(CLI::App* app, const OptionDecl& d, std::optional<T>& target) {
    CLI::Option* o = app->add_option(d.flag(), target, help(d));
    add_flag(d, checked(d, o), [&target] { return target ? nlohmann::json(*target) : nlohmann::json(); });
  }
  // The learner options after parsing (enum values converted).
  LearnerOptions options() const;
  // Names (option-table spelling) of the learner options given on the command line.
  std::vector<std::string> given() const;
  // Whether the declared option `name` of `kind` was given.
  bool was_given(const std::string& kind, const std::string& name) const;
  // For the flags of `kind`: one given that `owner` does not take is an error "<flag> is an option
  // of the ..., not of <selected>"; each value `owner` takes is checked against its declared range
  // (OptionDecl::check). owner "" = none selected (every owned flag given is an error).
  void check(const std::string& kind, const std::string& owner, const std::string& selected) const;

 private:
  struct Flag {
    OptionDecl decl;
    CLI::Option* option;
    std::function<nlohmann::json()> value;
  };
  static std::string help(const OptionDecl& d);
  static CLI::Option* checked(const OptionDecl& d, CLI::Option* o);
  void add_flag(const OptionDecl& d, CLI::Option* o, std::function<nlohmann::json()> value);
  LearnerOptions opt_;
  std::map<std::string, std::string> enum_text_;  // enum options: the value as typed
  std::vector<Flag> flags_;
};

}  // namespace plab
