// Model files (docs/models.md): a trained learner that outlives its run. One file holds what the
// learner predicts with and everything it continues from (Learner::save_state), with the learner's
// registry name, its options, the kernel, the label map or class list, the data it was trained on,
// the round count and the code version.
// Format 1: a first text line "plab-model format 1 bytes N sha256 H" (N bytes follow; H is their
// SHA-256), a one-line JSON header that lists the arrays, then the arrays' little-endian bytes.
// Ensures: every double keeps its bits; writes are atomic; a file of another format, a truncated or
// corrupted one, or one whose header or arrays do not fit its learner is a ModelError that starts
// with the file name and says what is wrong (never a crash, never a silently different learner).
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/state_archive.hpp"
#include "datasets/dataset.hpp"

namespace plab {

inline constexpr int kModelFormat = 1;

struct ModelHeader {
  std::string algo;                 // registry name
  nlohmann::json options = nlohmann::json::object();  // the options the learner takes, by name
  // The kernel's fields as written, every declared one present ({type, gamma, degree, coef0}); their
  // values are checked by the configuration step that reads them (model_kernel, config/recorded_options.hpp).
  nlohmann::json kernel = Kernel{}.options_json();
  std::string labels;               // the --labels spec the data was read with ("" = default spellings)
  std::vector<double> classes;      // multiclass: the original label of each class index
  std::string preprocess = "none";  // the --preprocess applied to its rows (predict applies it too)
  nlohmann::json data = nlohmann::json::array();  // [{name, sha256, rows}]: the data sets trained on, in order
  int64_t rounds = 0;               // rounds learned; a continued run starts at rounds + 1
  std::size_t dim = 0;              // largest input dimension trained on
  std::string code;                 // code version that wrote it (git revision)
};

// A parsed model file: its header and the learner's state arrays (not yet given to a learner).
struct ModelFile {
  std::string path;  // the file, or a description of the bytes, for messages
  ModelHeader header;
  std::vector<StateArray> arrays;
};

// The header of a learner with options `o` trained so far (rounds, data and code left to the caller).
ModelHeader model_header(const std::string& algo, const LearnerOptions& o);
// The file's bytes / the file itself, written atomically (core/file_io.hpp).
std::string model_bytes(const ModelHeader& h, const Learner& learner);
void save_model(const std::string& path, const ModelHeader& h, const Learner& learner);

// Reads and checks the format line, the checksum, the header and the array list; `where` names
// the bytes in messages. Throws ModelError "<where>: ...".
ModelFile parse_model(const std::string& bytes, const std::string& where);
ModelFile read_model(const std::string& path);  // parse_model of the file's bytes

// The model's learner with its options checked, and a learner restored from a model, are read in
// config/recorded_options.hpp: the check of a learner's options is the configuration step's.

// Every double of the state is finite: a NaN or infinite coefficient, norm or sum predicts NaN
// (counted as an error) or stops a continued run; refused at load, naming the array and value.
void check_finite_state(const std::vector<StateArray>& arrays);

// Makes the labels of `d` (read with the model's label map) the model's: multiclass rows get the
// model's class indices. Throws ModelError naming the data set and the model when the label set
// does not fit (a class the model does not know, class labels for a binary model or the reverse).
void fit_labels(Dataset& d, const ModelFile& m);

// One row's prediction by hypothesis `which` (one of learner.hypotheses()): binary learners give
// the score f(x) and the label +1 when f(x) > 0, else -1 (a zero score predicts -1, LIBSVM's rule
// too: docs/models.md#ties); regression models (labels "regression") predict the score itself;
// multiclass learners give the first arg max class's original label and, as the score, its margin
// over the best other class (>= 0).
struct Prediction {
  double score = 0.0;
  double label = 0.0;
};
Prediction predict(const Learner& learner, const ModelHeader& h, const std::string& which, const Example& x);

}  // namespace plab
