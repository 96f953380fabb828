#include "experiments/report/report_format.hpp"

#include <cmath>

#include "core/format.hpp"

namespace plab {

std::string format_metric(const std::string& metric, double v) {
  if (!std::isfinite(v)) return "–";
  if (metric.find("error") != std::string::npos) return fmt::format("{:.2f}%", 100.0 * v);
  if (metric == "seconds") return fmt::format("{:.2f} s", v);
  // A tiny non-zero value (a rounding residual checked against 1e-12) is not shown as 0.
  const bool tiny = v != 0 && std::fabs(v) < 1e-9;
  if (!tiny && std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 100) return fmt::format("{:.1f}", v);
  return format_g(v, 3);
}

std::string format_stat(const std::string& metric, const Stat& s) {
  if (s.n == 0) return "–";
  if (s.n == 1) return format_metric(metric, s.mean);
  const bool raw_std = metric.find("error") == std::string::npos && metric != "seconds";
  const std::string sd = raw_std ? fmt::format("{:.1f}", s.std) : format_metric(metric, s.std);
  return format_metric(metric, s.mean) + " ± " + sd;
}

std::string table_cell(const std::string& text, std::size_t max) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  if (out.size() <= max) return out;
  std::size_t cut = max - 3;  // room for "…" (3 bytes)
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  if (cut > 0 && out[cut - 1] == '\\') --cut;  // never leave a dangling escape
  return out.substr(0, cut) + "…";
}

}  // namespace plab
