// The one run pipeline: `plab run` and every reproduce cell call run_pipeline, so the same
// configuration gives the same records, results and bound rows by either path (tested).
// Represents: one online pass of one learner over one ordered data set, then its test errors and
// the bounds that apply against a comparator. Requires: a valid registry name and checked options
// (RunRequest::take of a configuration, or a model to continue).
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "config/run_config.hpp"
#include "datasets/dataset.hpp"
#include "datasets/row_stream.hpp"
#include "experiments/run/run.hpp"
#include "models/model_file.hpp"

namespace plab {

class BackgroundLoad;  // datasets/background_load.hpp

struct RunRequest {
  std::optional<LearnerConfig> learner;  // the learner and its checked options (take); dim is set from the data
  const std::string& algo() const { return learner->algo(); }
  const LearnerOptions& options() const { return learner->options(); }  // kernel included
  const Dataset* train = nullptr;
  const Dataset* test = nullptr;    // optional
  std::vector<std::size_t> order;   // rows of train in round order
  bool bounds = true;
  bool exact_norm = false;          // recompute ||f_T||^2 even when no bound reads it (tests' check)
  bool keep_rounds = true;          // keep every round record (false: none kept unless the bounds read them)
  ComparatorRequest comparator;
  RoundObserver observe;            // progress lines
  const ModelFile* init = nullptr;  // continue this model (its learner and options; rounds from its count + 1)
  // Rows from a stream (docs/inputs.md#streams) instead of train[order]: learned as they arrive, at
  // most stream_limit (0 = all); train describes the stream (name, path, no rows). No record is
  // kept (RunResult::count rounds, observe sees each) and the bound rows are n/a (kStreamNoBounds).
  RowStream* stream = nullptr;
  std::size_t stream_limit = 0;     // also the limit of rows read while learning
  // Rows of a file learned as they are read (docs/inputs.md#read-while-learning) instead of
  // train[order]: train and order are left empty (the whole data set and its file order once read);
  // a new binary learner only, as with file order and no preprocessing.
  BackgroundLoad* loading = nullptr;
  // Takes a checked configuration (config/run_config.hpp): learner, comparator, bounds.
  void take(const RunConfig& c);
};

// Why a stream's bound rows are not applicable (docs/inputs.md#streams).
inline constexpr const char* kStreamNoBounds =
    "stream: the comparator needs the whole data set (run on a file for the bounds)";

struct RunReport {
  std::unique_ptr<Learner> learner;     // the trained learner
  RunResult run;                        // every round record (column g filled when bounds ran)
  double f_norm2_exact = 0.0;           // alpha^T K alpha of the final hypothesis (NaN when not computed)
  nlohmann::json test_error;            // {hypothesis: error} (empty without a test set)
  nlohmann::json test_no_score;         // {hypothesis: test rows with a non-finite score (counted as errors)}
  nlohmann::json comparator;            // {"name", "norm", "svm_C", "seed"} (null without bounds)
  std::vector<BoundResult> bounds;      // every row of the applicable families, in order
  RunFacts facts;                       // what the bounds were evaluated with
};

RunReport run_pipeline(const RunRequest& req);

// The binary comparator of a run over `data` in `order` (what run_pipeline attaches): "auto" is
// the generating hyperplane of linear synthetic data, else the SVM; the subsample stream is
// derive_seed(c.seed, 0xC0). Not memoised (run_pipeline memoises its calls).
Comparator run_comparator(const ComparatorRequest& c, const Dataset& data, const std::vector<std::size_t>& order,
                          const Kernel& k);

// The run's description for traces and summaries: algo, kernel, the options the learner uses,
// comparator and ||f_T||^2 (RunFacts::from_meta reads it back).
nlohmann::json run_meta(const RunRequest& req, const RunReport& rep);

}  // namespace plab
