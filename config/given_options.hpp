// The options a user gave to a run (GivenOptions, algorithms/options.hpp) and their checks
// against the declarations (bounds/option_owners.hpp): the core of the one configuration step
// (configure, config/run_config.hpp). Each function resolves the owner of the options it reads (the
// learner, the kernel type, the comparator kind, "auto" first resolved to the comparator it picks
// on the data), refuses an option its owner does not take and a value outside the declared
// range, naming the option as the user wrote it and where, and fills the rest from the
// declarations. A spec's kernel and comparator blocks are checked with them when it is read.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/options.hpp"
#include "bounds/comparator.hpp"
#include "config/learner_config.hpp"

namespace plab {

// The key of a declaration in GivenOptions: its flag without "--", '-' read as '_' ("kernel",
// "svm_C", "learning_rate").
std::string option_key(const OptionDecl& d);
// The option given for declaration `d` (under option_key(d)), or null when none is.
const GivenOption* given_option(const GivenOptions& given, const OptionDecl& d);
// {"kernel": type, and the parameters that type takes}: a kernel as given options.
nlohmann::json kernel_json_given(const Kernel& k);

// `given` sorted by the kind of declaration each key names, in one pass: a learner's option (any
// learner's, by name or earlier name: configure_learner_options checks its owner) or the kernel's,
// the comparator's, the run's own (run_options(), datasets/readers.hpp), a data reader's
// (reader_options()); a key no declaration of
// these kinds has is `unknown`. Each part spells options as `given` does.
struct GivenByKind {
  GivenOptions learner, comparator, run, reader;
  std::vector<std::string> unknown;
};
GivenByKind by_kind(const GivenOptions& given);
// The error of a key of `by` no declaration of `kinds` has (an unknown one, or one of a kind left
// out): "<label>: unknown option (did you mean ...?) (<algo> takes ...)"; nothing when there is none.
void refuse_unknown(const GivenOptions& given, const GivenByKind& by, const std::string& algo,
                    const std::vector<std::string>& kinds);

// The kernel of `given` (defaults: Kernel{}); a parameter of another kernel type is an error.
Kernel configure_kernel(const GivenOptions& given);
// The options of learner `algo` (kernel included): a key no declaration of `kinds` has is an
// error naming the nearest, the learner options and the kernel go through learner_config (owners,
// declared ranges, the learner's rules, a kernel the learner is defined for:
// config/learner_config.hpp).
LearnerConfig configure_learner(const std::string& algo, const GivenOptions& given,
                                 const std::vector<std::string>& kinds = {"learner", "kernel"});
// The reader options of `given` for the data `reader` reads ("libsvm", "csv", "generator", ...):
// one that reader does not take is an error "<label> is an option of the csv and tsv readers, not
// of <selected>"; each one it takes is checked against its declared range.
void check_reader_options(const GivenOptions& given, const std::string& reader, const std::string& selected);
// The comparator of `given` over `c` (whose kind is the default when none is given). With data,
// "auto" is resolved first: an option of the SVM given where auto picks the truth is an error. The
// truth needs the linear kernel (so a random-feature learner, whose kernel is Gaussian, never has
// it) and, with data, data that has one.
void configure_comparator(ComparatorRequest& c, const GivenOptions& given, const Dataset* data, const Kernel& k);
}  // namespace plab
