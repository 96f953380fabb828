// The one configuration step of a run (docs/architecture.md#configuration): the options a user
// gave, by name (absent = not given), and the data in, the run request's learner options, kernel
// and comparator out. It resolves each option's owner (the learner, the kernel type, the
// comparator kind, "auto" first resolved to the comparator it picks on the data), refuses an
// option its owner does not take and a value outside the declared range, naming the option as
// the user wrote it and where, and fills the rest from the declarations (core/option_decl.hpp).
// `plab run` (flags), spec cells, perceptron_lab (keywords) and --init-model only translate their
// own syntax into GivenOptions.
#pragma once
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "experiments/run/pipeline.hpp"

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
// The options of learner `algo` (kernel included): a key that is neither a learner's nor the
// kernel's, or a learner option `algo` does not take, is an error, and
// every value it takes is checked against its declared range. `names`: the learner options given.
LearnerOptions configure_learner(const std::string& algo, const GivenOptions& given,
                                 std::vector<std::string>* names = nullptr);
// The comparator of `given` over `c` (whose kind is the default when none is given). With data,
// "auto" is resolved first: an option of the SVM given where auto picks the truth is an error.
void configure_comparator(ComparatorRequest& c, const GivenOptions& given, const Dataset* data, const Kernel& k);
// All of it into `req` (algo, train (may be null: "auto" unresolved), bounds, init and the
// comparator's defaults set by the caller): options, given, comparator. An unknown key is an
// error. With req.init the model fixes the learner's options and the kernel: a given one must
// equal the model's (the error names both values).
void configure_run(RunRequest& req, const GivenOptions& given);

}  // namespace plab
