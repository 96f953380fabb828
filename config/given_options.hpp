// The options a user gave to a run, and their checks against the declarations
// (bounds/option_owners.hpp): the core of the one configuration step (configure,
// config/run_config.hpp). Each function resolves the owner of the options it reads (the
// learner, the kernel type, the comparator kind, "auto" first resolved to the comparator it picks
// on the data), refuses an option its owner does not take and a value outside the declared
// range, naming the option as the user wrote it and where, and fills the rest from the
// declarations. A spec's kernel and comparator blocks are checked with them when it is read.
#pragma once
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/options.hpp"
#include "bounds/comparator.hpp"

namespace plab {

// One option as a front end read it.
struct GivenOption {
  nlohmann::json value;
  std::string at;     // where it came from, or "" when the spelling says it: "<file>: <JSON pointer>"
  std::string spelt;  // the option as written there: "--gamma" (flag), "gamma" (keyword, spec key)
  // What an error names: "--gamma", "T1.json: /datasets/0/kernel/gamma: gamma".
  std::string label() const { return at.empty() ? spelt : at + ": " + spelt; }
};

// The options a user gave, keyed by option_key(): the learner options, the kernel's ("kernel"
// for its type, "gamma", "coef0", "degree") and the comparator's ("comparator", "svm_C",
// "comparator_seed").
struct GivenOptions {
  std::map<std::string, GivenOption> values;
  // How this front end writes an option (value "") or a setting of it: "--kernel linear",
  // "kernel='linear'"; unset: "kernel linear".
  std::function<std::string(const std::string& key, const std::string& value)> spell;
  // Why there is no comparator when the bounds are off: "--no-bounds", "bounds=False".
  std::string no_comparator = "no bounds";

  bool has(const std::string& key) const { return values.count(key) > 0; }
  // Adds `key` = v as written at `at` (spelt `spelt`, or the key).
  void add(const std::string& key, nlohmann::json v, const std::string& at = "", const std::string& spelt = "");
  std::string spelling(const std::string& key, const std::string& value = "") const;
};

// The key of a declaration in GivenOptions: its flag without "--", '-' read as '_' ("kernel",
// "svm_C", "learning_rate").
std::string option_key(const OptionDecl& d);
// {key: value} as GivenOptions at `at` (each spelt as its key): a keyword dict, a spec object.
GivenOptions given_from_json(const nlohmann::json& j, const std::string& at = "");

// {"kernel": type, and the parameters that type takes}: a kernel as given options.
nlohmann::json kernel_json_given(const Kernel& k);

// The kernel of `given` (defaults: Kernel{}); a parameter of another kernel type is an error.
Kernel configure_kernel(const GivenOptions& given);
// The options of learner `algo` (kernel included): a key no declaration of `kinds` has, or a
// learner option `algo` does not take, is an error, and every value it takes is checked against
// its declared range. `names`: the learner options given.
LearnerOptions configure_learner(const std::string& algo, const GivenOptions& given,
                                 std::vector<std::string>* names = nullptr,
                                 const std::vector<std::string>& kinds = {"learner", "kernel"});
// The comparator of `given` over `c` (whose kind is the default when none is given). With data,
// "auto" is resolved first: an option of the SVM given where auto picks the truth is an error.
void configure_comparator(ComparatorRequest& c, const GivenOptions& given, const Dataset* data, const Kernel& k);
}  // namespace plab
