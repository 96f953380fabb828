// The one number-formatting policy ({fmt}): every file, table and message formats numbers here
// or with fmt::format directly, never with printf-style buffers.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace plab {

// Shortest form with `digits` significant digits ("%.Ng"); "NaN"/"inf" spelled as {fmt} does.
inline std::string format_g(double v, int digits = 6) { return fmt::format("{:.{}g}", v, digits); }

// A number as a CSV cell: 12 significant digits, empty for NaN and infinities.
inline std::string csv_number(double v) { return std::isfinite(v) ? format_g(v, 12) : std::string(); }

// A duration for progress lines: "1h02m", "3m07s", "12s".
inline std::string format_duration(double s) {
  if (s >= 3600) return fmt::format("{}h{:02d}m", static_cast<int>(s / 3600), static_cast<int>(s / 60) % 60);
  if (s >= 60) return fmt::format("{}m{:02d}s", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  return fmt::format("{:.0f}s", s);
}

}  // namespace plab
