// Which specs a `plab reproduce` run loads: the named figures (all when none), each with its quick
// override under --quick and without the data sets that are not available, plus the source
// figures of a table figure (T7) that were not named.
#pragma once
#include <string>
#include <vector>

#include "experiments/spec/spec.hpp"

namespace plab {

// Throws std::invalid_argument naming an unknown figure (with the known ones), an empty spec
// folder or a missing source figure.
std::vector<Spec> select_specs(const std::string& dir, const std::vector<std::string>& figures, bool quick);

}  // namespace plab
