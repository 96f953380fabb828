// How numbers read in the Markdown report and in claim verdicts (one policy, {fmt}).
#pragma once
#include <string>

#include "experiments/report/aggregate.hpp"

namespace plab {

// Errors as percentages, seconds with a unit, integers without decimals (but never a non-zero
// value below 1e-9 as 0), large values with one decimal, the rest with 3 significant digits;
// "–" for NaN.
std::string format_metric(const std::string& metric, double v);
// "mean ± std" (the std of counts with one decimal); "–" without values.
std::string format_stat(const std::string& metric, const Stat& s);

// The longest table cell of the report, in bytes (docs/report.md): longer evidence goes to CSV.
inline constexpr std::size_t kMaxCell = 300;
// Text as one Markdown table cell: '|' escaped, line breaks as spaces, cut to `max` bytes at a
// character boundary (ending in "…").
std::string table_cell(const std::string& text, std::size_t max = kMaxCell);

}  // namespace plab
