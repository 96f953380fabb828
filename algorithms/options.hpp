// Learner options: the run context every learner is made with (LearnerOptions) and the
// declarations of the options each learner declares beside its code, its own `struct Options`
// (OwnOptions: rows, defaults and validate() in its header alone, docs/extending.md#learner). A
// name may be declared by several learners, each with its own default and range; those declared
// alike (budget, seed, C, eta: the helpers in algorithms/learner.hpp) are one row with several
// owners (bounds/option_owners.hpp). The CLI flags (cli/option_flags.cpp), the summary JSON, spec
// parsing and the bound metadata are all generated from the rows; an option given to a learner
// that does not take it, a value outside its declared range or a broken rule is an error naming
// the option as the front end spells it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/option_decl.hpp"
#include "numerics/kernel.hpp"

namespace plab {

// Which reading of the Projectron threshold eta (docs/conventions.md#eta).
enum class EtaConvention { paper, dogma };
NLOHMANN_JSON_SERIALIZE_ENUM(EtaConvention, {{EtaConvention::paper, "paper"}, {EtaConvention::dogma, "dogma"}})

struct LearnerOptions {
  Kernel kernel;                                // from the data set / --kernel (numerics/kernel.hpp)
  std::size_t dim = 0;                          // input dimension (from the data), not an option row
  std::size_t classes = 0;                      // multiclass learners: m (from the data), not an option row
  // Not an option row: false when no bound reads the run (--no-bounds, a cell without bounds). A
  // learner may then skip what only the bounds read (the running ||f||^2 where it costs more than
  // O(1), delta_norm); its records carry NaN there (docs/learners.md#bookkeeping).
  bool record_norms = true;
  // Not an option row: the values of the learner's own Options (OwnOptions), every one present
  // once configured; empty for a learner without them.
  nlohmann::json own = nlohmann::json::object();
};
static_assert(std::is_same_v<std::size_t, uint64_t>, "a count option (a budget, a seed) is held as std::size_t");

// How a front end writes an option, by its key: "--learning-rate" (plab run), "learning_rate" (a
// spec key, a Python keyword). The rules of validate() name options through it.
using SpellOption = std::function<std::string(const std::string& key)>;
// plab run's spelling: "--" + key, '_' read as '-'.
std::string flag_spelling(const std::string& key);

// One option as a source read it: a front end (a flag, a spec key, a Python keyword), a model
// file's header or a trace's metadata.
struct GivenOption {
  nlohmann::json value;
  std::string at;     // where it came from, or "" when the spelling says it: "<file>: <JSON pointer>"
  std::string spelt;  // the option as written there: "--gamma" (flag), "gamma" (keyword, spec key)
  // What an error names: "--gamma", "T1.json: /datasets/0/kernel/gamma: gamma".
  std::string label() const { return at.empty() ? spelt : at + ": " + spelt; }
};

// The options a source gave, by key (absent = not given): the configuration step reads a run's
// (config/given_options.hpp: the learner's, the kernel's, the comparator's), a model header's and
// a trace's learner options are read as such too (configure_learner_options).
struct GivenOptions {
  std::map<std::string, GivenOption> values;
  // How this source writes an option (value "") or a setting of it: "--kernel linear",
  // "kernel='linear'"; unset: "kernel linear".
  std::function<std::string(const std::string& key, const std::string& value)> spell;
  // Why there is no comparator when the bounds are off: "--no-bounds", "bounds=False".
  std::string no_comparator = "no bounds";

  bool has(const std::string& key) const { return values.count(key) > 0; }
  // Adds `key` = v as written at `at` (spelt `spelt`, or the key).
  void add(const std::string& key, nlohmann::json v, const std::string& at = "", const std::string& spelt = "");
  std::string spelling(const std::string& key, const std::string& value = "") const;
};

// {key: value} as GivenOptions at `at` (each spelt as its key): a keyword dict, a spec object.
GivenOptions given_from_json(const nlohmann::json& j, const std::string& at = "");

// The options a learner declares in its own header (docs/extending.md#learner) and the rules that
// tie its options together: `rows` (kind "learner", defaults from its Options' initialisers) and
// `validate`, which throws std::invalid_argument naming options through the SpellOption (built
// from a `struct Options` by own_options()).
struct OwnOptions {
  std::vector<OptionDecl> rows = {};
  std::function<void(const LearnerOptions&, const SpellOption&)> validate = {};
};

// One row of a learner's own `struct Options`: its key, member, help and declared range. The
// member's type (real, count, flag, text) gives the row's type; get/set reach the member.
template <class O>
struct OptionMember {
  // `member` may be a member of a base of O (Options that share their rows derive from one struct).
  template <class T, class B>
    requires std::is_base_of_v<B, O>
  OptionMember(std::string key, T B::*member, std::string text, OptionRange r = {}, std::vector<std::string> values = {},
               std::vector<std::string> old_names = {}, nlohmann::json before = nullptr)
      : name(std::move(key)), help(std::move(text)), range(r), allowed(std::move(values)), aliases(std::move(old_names)),
        absent_before(std::move(before)),
        get([member](const O& o) { return nlohmann::json(o.*member); }),
        set([member](O& o, const nlohmann::json& v) { o.*member = v.template get<T>(); }) {
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, std::size_t> || std::is_same_v<T, bool> ||
                      std::is_same_v<T, std::string>, "an option is a real, a count, a flag or a text");
    type = std::is_same_v<T, double>        ? OptionDecl::Type::real
           : std::is_same_v<T, std::size_t> ? OptionDecl::Type::count
           : std::is_same_v<T, bool>        ? OptionDecl::Type::flag
                                            : OptionDecl::Type::text;
  }
  std::string name;
  std::string help;
  OptionRange range;
  std::vector<std::string> allowed;
  std::vector<std::string> aliases;  // earlier names still read (OptionDecl::aliases)
  nlohmann::json absent_before;      // OptionDecl::absent_before
  OptionDecl::Type type = OptionDecl::Type::real;
  std::function<nlohmann::json(const O&)> get;
  std::function<void(O&, const nlohmann::json&)> set;
};

// The reading of a Projectron-style threshold eta (docs/conventions.md#eta), one row declared alike
// by the Projectron(++), the multiclass Projectron++ and PA-I (whose dogma reading is DOGMA's update
// at margin 1).
template <class O, class B>
OptionMember<O> eta_convention_option(std::string B::*member) {
  return {"eta_convention", member, "paper (||delta|| <= eta) | dogma (||delta||^2 <= eta, docs/conventions.md#eta)",
          {}, {"paper", "dogma"}};
}
inline EtaConvention eta_convention_of(const std::string& s) {
  return s == "dogma" ? EtaConvention::dogma : EtaConvention::paper;
}

// The typed Options of a learner from its configured values (LearnerOptions::own; absent keys
// keep their defaults).
template <class O>
O options_from(const nlohmann::json& values) {
  O o;
  for (const OptionMember<O>& r : O::rows())
    if (values.contains(r.name)) r.set(o, values.at(r.name));
  return o;
}

// The declaration of a learner's own `struct Options` O: `static std::vector<OptionMember<O>>
// rows()` and, when options are tied together, `void validate(const SpellOption&) const`.
template <class O>
OwnOptions own_options(const std::string& group) {
  OwnOptions own;
  const O defaults{};
  for (const OptionMember<O>& r : O::rows()) {
    own.rows.push_back(declare("learner", group, r.name, r.type, r.get(defaults), {}, r.help, r.range, r.allowed));
    own.rows.back().aliases = r.aliases;
    own.rows.back().absent_before = r.absent_before;
  }
  if constexpr (requires(const O& o, const SpellOption& s) { o.validate(s); })
    own.validate = [](const LearnerOptions& o, const SpellOption& spell) { options_from<O>(o.own).validate(spell); };
  return own;
}

// Options added after records (model headers, trace metadata) were written: a record's options
// `j` that lack one (by name and every alias) were made by the rule before it, which this sets
// from the row's declared absent_before.
void options_absent_as_before(LearnerOptions& o, const nlohmann::json& j, const std::vector<OptionDecl>& own);

}  // namespace plab
