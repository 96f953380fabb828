// The Python module's one contact with the learner registry and the option table
// (algorithms/registry.hpp, algorithms/options.hpp): catalogues for perceptron_lab.learners() /
// options(), and keyword arguments turned into a configured run or learner. Nothing else in
// python/src names those APIs, so a change of how options are declared is adapted here alone.
#pragma once
#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "experiments/run/pipeline.hpp"

namespace plab::py {

// What the user asked for: algorithm, kernel and the learner's options as {name: value}.
struct LearnerSpec {
  std::string algo;
  std::string kernel = "linear";
  double gamma = 1.0, coef0 = 0.0;
  int degree = 2;
  nlohmann::json options = nlohmann::json::object();
};

// [{name, display, summary, multiclass, hypotheses, options: [names]}] in registry order.
nlohmann::json learner_catalog();
// The options of `algo`: its option rows, then the kernel's, then the run's (comparator, svm_C)
// as [{name, scope, type, default, allowed, help}]. Throws std::invalid_argument for an unknown algo.
nlohmann::json option_catalog(const std::string& algo);
// True for learners that read class indices (Dataset::classes).
bool is_multiclass(const std::string& algo);
// Sets req.algo, req.options (kernel included) and req.given from `spec`. Throws
// std::invalid_argument naming a wrong algorithm, kernel or option and the nearest valid name.
void configure(RunRequest& req, const LearnerSpec& spec);
// The kernel of `spec` (kernel, gamma, coef0, degree), checked: an unknown name, gamma <= 0 for
// rbf or degree < 1 throws std::invalid_argument naming the option.
Kernel make_kernel(const LearnerSpec& spec);
// A fresh learner of `spec` for inputs of dimension `dim` (and `classes` classes when multiclass).
std::unique_ptr<Learner> build_learner(const LearnerSpec& spec, std::size_t dim, std::size_t classes);
// The options build_learner gives the learner of `spec` (dim and classes set).
LearnerOptions built_options(const LearnerSpec& spec, std::size_t dim, std::size_t classes);

}  // namespace plab::py
