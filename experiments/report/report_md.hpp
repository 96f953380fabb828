// results/REPORT.md (docs/report.md): its provenance in the first line, the summary table and
// the list of what is not confirmed or failed, then per figure (paper figures first) its
// settings, figures, final numbers, published numbers and claims beside ours, applicable
// mistake bounds (by id) and failed cells, each row a link target of the summary.
#pragma once
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/report/figure_outputs.hpp"
#include "experiments/report/report_summary.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/version.hpp"

namespace plab {

// The summary rows of every figure, in report order.
std::vector<FigureSummary> report_summaries(const std::vector<Spec>& specs,
                                            const std::vector<std::vector<Group>>& groups,
                                            const std::vector<FigureOutputs>& outs);
// The Markdown text of the report; `header` follows the first line (how and when it was made).
// `named`: the figures a run named on its command line ("" for all); the first line then says the
// report holds only those (docs/report.md).
std::string report_markdown(const std::vector<Spec>& specs, const std::vector<std::vector<Group>>& groups,
                            const std::vector<FigureOutputs>& outs, const TreeState& tree, const std::string& header,
                            const std::string& named = "");

}  // namespace plab
