// Options recorded in files, read back through the one check of a learner's options
// (config/learner_config.hpp): a model file's header (its options, each named "option 'k'" after
// the file) and a trace's metadata (after "trace metadata: options:"). They lie in config/, above
// the model files and the bounds, because that check is the configuration step's.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>

#include "bounds/bounds.hpp"
#include "config/learner_config.hpp"
#include "models/model_file.hpp"

namespace plab {

// The model's kernel, each field checked against its declaration (numerics/kernel.cpp: type, range),
// a field its type does not read too (it is written back): ModelError "<file>: header: kernel.gamma
// must be > 0 ...".
Kernel model_kernel(const ModelFile& m);
// The model's learner, options and kernel, checked (classes set; dim given): ModelError naming the
// file on a learner not registered here, a class list that does not fit it, an option it refuses
// or a kernel it is not defined for.
LearnerConfig model_learner(const ModelFile& m, std::size_t dim);
// A learner made from the model's options (dim given) with its state loaded: ModelError on a
// state that does not fit. record_norms: LearnerOptions::record_norms (off for a run no bound reads).
std::unique_ptr<Learner> restore_learner(const ModelFile& m, std::size_t dim, bool record_norms = true);
// read_model + restore_learner (dim 0: buffers grow with the rows scored): the Python package's entry point.
std::unique_ptr<Learner> load_model(const std::string& path);

// RunFacts::from_meta with the learner's options checked: a registered learner's through its one
// check, a learner not ours takes none (std::invalid_argument "trace metadata: options: ...").
RunFacts facts_from_meta(const nlohmann::json& meta);

}  // namespace plab
