// One declared option (docs/learners.md#options): what a learner, a kernel, a comparator or a data
// reader accepts, declared beside its owner's code (VW / mlpack style) and gathered with its owners
// by declared_options() (bounds/option_owners.hpp). The CLI flags, their grouped --help, the range
// checks and "does not apply" errors, the summary JSON and the spec format all read these rows.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace plab {

struct OptionDecl {
  enum class Type { real, count, integer, flag, text };
  std::string name;                  // JSON / spec key
  Type type = Type::real;
  nlohmann::json default_value;      // the default, as JSON
  std::optional<double> min, max;    // declared range (reals and integers); none = unbounded
  bool min_open = false, max_open = false;  // true: the bound itself is excluded (> 0, not >= 0)
  std::vector<std::string> allowed;  // text options: the accepted values
  std::string help;
  std::string kind;                  // whose option: "learner" | "kernel" | "comparator" | "reader" | "run"
  std::string group;                 // --help heading: "Projectron(++) options", "Kernel options"
  // Who takes it: learner names, kernel types, comparator kinds or readers. Empty: it selects the
  // owner (--kernel, --comparator, --format) and always applies.
  std::vector<std::string> owners;
  std::string cli;                   // the flag when it is not "--" + name with '_' -> '-'
  // Earlier names still read (model files, trace metadata and specs written before a rename, the
  // old flag): "ogd_eta" for the online gradient learners' eta (docs/learners.md#options).
  std::vector<std::string> aliases;
  // An option added after records (model headers, trace metadata) were written: the value that
  // gives the rule a record lacking it was made with (BOGD's cap: 0, none); null: its default.
  nlohmann::json absent_before = nullptr;
  // A text option read by a parser of its own (--preprocess, --labels): check_type calls it with
  // the value and `at`; it throws std::invalid_argument, its message the parser's.
  std::function<void(const std::string& value, const std::string& at)> parse = {};

  std::string flag() const;          // "--learning-rate"
  std::string type_name() const;     // "real" | "count" | "integer" | "flag" | "text"
  std::string range_text() const;    // "> 0", ">= 1", "<= 1", "" when unbounded
  bool takes(const std::string& owner) const;  // owner is one of `owners` (or owners is empty)
  bool named(const std::string& key) const;    // key is its name or one of its aliases
  // The same option as `other` but for its owners: name, type, default, range, values and help.
  bool same_as(const OptionDecl& other) const;
  // Throws std::invalid_argument "<at> must be ..., got <v>" on a wrong type, a negative count or
  // a text outside `allowed` (or refused by `parse`) (what a spec or a trace's metadata is checked for when read).
  void check_type(const nlohmann::json& v, const std::string& at) const;
  // A value check_type accepts as the declared type holds it (a real 1 as 1.0, a count as an
  // unsigned integer), as a typed field would keep it: summaries, model headers and trace metadata
  // then write it alike however it was given.
  nlohmann::json typed(const nlohmann::json& v) const;
  // check_type, then the declared range (reals also finite): "<at> must be >= 1 for <who>, got 0"
  // (" for <who>" when `who` is given).
  void check(const nlohmann::json& v, const std::string& at, const std::string& who = "") const;
  // Whether check accepts v, without its exception where the answer needs none (a number of a
  // numeric option: its type and range; other values are tried): the command line asks it of
  // every declared default at start, where a throw costs the unwinder's first search.
  bool accepts(const nlohmann::json& v) const;
  // "--gamma is an option of the poly and rbf kernels, not of <selected>" (`subject` in place of
  // the flag when given: the option as another front end wrote it).
  std::string not_applicable(const std::string& selected, const std::string& subject = "") const;
};

// Range shorthands for declarations: at_least(1) is >= 1, above(0) is > 0, at_most(1) is <= 1.
struct OptionRange {
  std::optional<double> min, max;
  bool min_open = false, max_open = false;
};
inline OptionRange at_least(double v) { return {v, std::nullopt, false, false}; }
inline OptionRange above(double v) { return {v, std::nullopt, true, false}; }
inline OptionRange at_most(double v) { return {std::nullopt, v, false, false}; }
inline OptionRange any_value() { return {}; }

// A declaration row of a non-learner owner (kernels, comparators, readers).
OptionDecl declare(std::string kind, std::string group, std::string name, OptionDecl::Type type,
                   nlohmann::json default_value, std::vector<std::string> owners, std::string help,
                   OptionRange range = {}, std::vector<std::string> allowed = {});

// "a, b and c".
std::string join_and(const std::vector<std::string>& v);

}  // namespace plab
