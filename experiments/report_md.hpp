// results/REPORT.md: per figure its settings, figures, final numbers, published numbers and
// claims beside ours, applicable mistake bounds (by id) and failed cells.
#pragma once
#include <string>
#include <vector>

#include "experiments/aggregate.hpp"
#include "experiments/report.hpp"
#include "experiments/spec.hpp"

namespace plab {

// The Markdown text of the report.
std::string report_markdown(const std::vector<Spec>& specs, const std::vector<std::vector<Group>>& groups,
                            const std::vector<FigureOutputs>& outs, const std::string& header);

}  // namespace plab
