// What a trace's metadata says about the run, in words: the name `plab plot` and the Python
// package give it in a legend, and why its support size means nothing for some learners.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace plab {

// The legend entry of a trace, from its metadata: learner, its options, kernel and data
// ("projectron++ U=0 eta=0.1 eta_convention=dogma ..., rbf gamma=0.04, a9a").
std::string trace_label(const nlohmann::json& meta);

// Why a support count means nothing for this trace's learner ("" when it does): the primal
// Perceptron's support_size counts its updates, FOGD keeps a weight vector on random features.
std::string no_support_reason(const nlohmann::json& meta);

}  // namespace plab
