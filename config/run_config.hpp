// The one configuration step of a run (docs/architecture.md#configuration): the options a user
// gave, by name (absent = not given, each with where it came from), and the run's context (the
// learner, the data, a model to continue) in; a checked, immutable RunConfig out: the learner's
// options, the kernel, the comparator and the run's own options (RunOptions). It resolves each
// option's owner (the learner, the kernel type, the comparator kind, "auto" first resolved to the
// comparator it picks on the data), refuses an option its owner does not take, a value outside the
// declared range and a broken rule of the learner, naming the option as the user wrote it and
// where, and fills the rest from the declarations (the checks: config/given_options.hpp).
// `plab run` (flags), spec cells, perceptron_lab (keywords) and --init-model only translate their
// own syntax into GivenOptions; a RunRequest takes the result (experiments/run/pipeline.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/given_options.hpp"
#include "config/recorded_options.hpp"
#include "datasets/registry.hpp"

namespace plab {

// The run's own options, checked, each given or its declared default (run_options(),
// datasets/readers.hpp); a continued run's label map and preprocessing are its model's.
struct RunOptions {
  std::string labels;               // "" = none given: the binary spellings, "classes" for a multiclass learner
  std::string preprocess;           // Preprocess::parse's text
  std::size_t limit{};              // the first `limit` rounds (0 = all)
  std::optional<uint64_t> shuffle;  // the permutation's seed; none: the file order
  unsigned threads{};               // 0: the hardware threads
};

// A data set the run reads with the reader options: how an error names it ("--data x.csv") and
// its spec (a file, a registered data set or a generator: datasets/registry.hpp).
struct DataSource {
  std::string label, spec;
};

// The run's own options of `given` (its other keys are not read), checked, the rest their declared
// defaults: the part of configure that a spec's data set is checked by when the spec is read.
RunOptions configure_run(const GivenOptions& given);

// What the configuration reads besides the given options.
struct RunContext {
  std::string algo;                           // the learner (a model's own with init)
  const ModelFile* init = nullptr;            // continue this model: its options and kernel lie under the given ones
  const Dataset* data = nullptr;              // null before the data is read: "auto" stays unresolved
  bool bounds = true;                         // false: no comparator, and its options are errors
  std::string comparator = kDefaultComparator;  // the front end's default kind (a spec's: "svm")
  // comparator_seed's default: the seed of the run's permutation when it is not the given
  // `shuffle` (a cell's, which seeds its comparator in file order too); none: `shuffle`'s.
  std::optional<uint64_t> permutation_seed{};
  // The data sets the reader options (--format, --header, --label-column) apply to; none: a reader
  // option is an unknown option (a spec's data sets and Python's arrays have their layout).
  std::vector<DataSource> sources{};
};

class RunConfig;
RunConfig configure(const GivenOptions& given, const RunContext& ctx);

// A run's checked configuration: only configure() makes one, and nothing changes it afterwards.
class RunConfig {
 public:
  const std::string& algo() const { return learner_->algo(); }
  const LearnerConfig& learner() const { return *learner_; }      // what make_learner takes
  const LearnerOptions& options() const { return learner_->options(); }  // the learner's, kernel included
  const ComparatorRequest& comparator() const { return comparator_; }
  const RunOptions& run() const { return run_; }
  // How the context's data sources are read: the label map (a multiclass learner's default
  // "classes"), the format and the CSV/TSV layout when given; the defaults without sources.
  const LoadOptions& load() const { return load_; }
  bool bounds() const { return bounds_; }
  // This configuration on the data now read: "auto" resolved to the comparator it picks there and
  // the SVM's options checked against it (for a front end that configured before reading).
  RunConfig on_data(const GivenOptions& given, const Dataset& data) const;

 private:
  friend RunConfig configure(const GivenOptions& given, const RunContext& ctx);
  RunConfig() = default;
  std::optional<LearnerConfig> learner_;  // always set by configure
  ComparatorRequest comparator_;
  RunOptions run_;
  LoadOptions load_;
  bool bounds_ = true;
};

}  // namespace plab
