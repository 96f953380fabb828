// The Python module's one contact with the learner registry and the option table
// (algorithms/registry.hpp, algorithms/options.hpp): catalogues for perceptron_lab.learners() /
// options(), and the keywords given handed to the library's one configuration step
// (config/run_config.hpp) for a configured run or learner. Nothing else in python/src
// names those APIs, so a change of how options are declared is adapted here alone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "experiments/run/pipeline.hpp"

namespace plab::py {

// What the user asked for: the algorithm and the keywords given, {name: value} (a keyword left
// None is absent): the learner's options, the kernel's and, for a run, the comparator's.
struct LearnerSpec {
  std::string algo;
  nlohmann::json options = nlohmann::json::object();
};

// [{name, display, summary, multiclass, hypotheses, options: [names]}] in registry order.
nlohmann::json learner_catalog();
// The options of `algo`: its option rows, then the kernel's, then the run's (comparator, svm_C)
// as [{name, scope, type, default, allowed, help}]. Throws std::invalid_argument for an unknown algo.
nlohmann::json option_catalog(const std::string& algo);
// True for learners that read class indices (Dataset::classes).
bool is_multiclass(const std::string& algo);
// The one configuration step (config/run_config.hpp) on the keywords of `spec`, `shuffle` and
// `threads` for a run over `data` (with bounds or not). Throws std::invalid_argument naming the
// keyword: an unknown one (and the nearest), one whose owner does not take it, a value out of
// range, a run option of plab run that perceptron_lab.run does not take.
RunConfig run_config(const LearnerSpec& spec, const Dataset& data, bool bounds, std::optional<uint64_t> shuffle,
                     int64_t threads);
// The kernel and the comparator of `spec` on `data` (perceptron_lab.bounds), checked the same way.
std::pair<Kernel, ComparatorRequest> kernel_and_comparator(const LearnerSpec& spec, const Dataset& data);
// The spec of a model's learner: its options and its kernel as keywords.
LearnerSpec model_spec(const ModelFile& m);
// A fresh learner of `spec` for inputs of dimension `dim` (and `classes` classes when multiclass),
// configured by the configuration step of every run (configure, without data or bounds).
std::unique_ptr<Learner> build_learner(const LearnerSpec& spec, std::size_t dim, std::size_t classes);
// The options build_learner gives the learner of `spec` (dim and classes set).
LearnerOptions built_options(const LearnerSpec& spec, std::size_t dim, std::size_t classes);

}  // namespace plab::py
