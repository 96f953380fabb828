// What writing one figure produces (experiments/report/report.hpp, write_figure) and the report
// pages (report_md.hpp, report_summary.hpp) read: its tables, images and extra text.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace plab {

struct FigureOutputs {
  nlohmann::json summary;        // deterministic (what --check compares)
  nlohmann::json published;      // rows: paper value, ours, deviation, verdict
  nlohmann::json claims;         // rows: claim, numbers, verdict
  nlohmann::json paper;          // rows: one per paper series of a plot (experiments/report/paper_curves.hpp)
  std::map<std::string, std::string> paper_missing;  // plot id -> why its paper data is absent
  std::vector<std::string> images;  // relative to the results dir, without extension
  std::string extra_markdown;       // e.g. the T7 tightness table (experiments/report/theory_figures.hpp)
};

}  // namespace plab
