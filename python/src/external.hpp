// perceptron_lab.bounds: the Perceptron's mistake bounds beside a learner that is not ours
// (algorithm "external", docs/bounds.md#external). The caller gives its learner's mistake and
// update rounds on (X, y) in the order it learned them; the comparator is one of this suite's.
#pragma once
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "introspect.hpp"

namespace plab::py {

struct ExternalArgs {
  LearnerSpec spec;                   // the kernel's and the comparator's keywords given
  std::vector<bool> mistakes, updates;  // one per row of X, in run order
  std::optional<double> f_norm2;      // ||f_T||^2 of the learner, when it has one
};

// The bound rows (to_json of each BoundResult) as a JSON text.
std::string external_bounds(const Dataset& data, const ExternalArgs& args);
void bind_external(pybind11::module_& m);

}  // namespace plab::py
