#include "experiments/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/file_io.hpp"
#include "experiments/report/figure_csv.hpp"
#include "experiments/report/figure_plots.hpp"
#include "experiments/report/paper_curves.hpp"
#include "experiments/report/report_md.hpp"
#include "experiments/report/report_summary.hpp"
#include "experiments/report/verdicts.hpp"

namespace plab {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// One row per published point of every plot with paper data (docs/report.md#paper-curves).
json judge_paper(const Spec& s, const std::vector<Group>& groups, const PaperPanels& panels, const std::string& fdir) {
  json rows = json::array(), points = json::array();
  for (const auto& p : s.plots)
    if (const auto it = panels.panels.find(p.id); it != panels.panels.end())
      for (auto& r : judge_paper_plot(s, p, it->second, groups, &points)) rows.push_back(std::move(r));
  write_paper_points_csv(s, points, fdir);
  return rows;
}

}  // namespace

FigureOutputs write_figure(const Spec& spec, const std::vector<Group>& groups, const std::string& dir, bool draw) {
  FigureOutputs out;
  const PaperPanels panels = read_paper_panels(spec);
  const Spec s = with_paper_values(spec, panels);
  const std::string fdir = dir + "/" + s.figure;
  fs::create_directories(fdir);
  const json sgroups = write_finals(s, groups, fdir);
  write_timings(s, groups, fdir);
  write_curves(s, groups, fdir);
  out.published = published_rows(s, groups);
  write_published_csv(s, out.published, fdir);
  out.claims = json::array();
  for (const auto& c : s.claims) out.claims.push_back(evaluate_claim(c, groups));
  write_claims_csv(s, out.claims, fdir);
  out.paper = judge_paper(s, groups, panels, fdir);
  out.paper_missing = panels.missing;
  json claims_sum = json::array();
  for (const auto& c : out.claims) claims_sum.push_back({{"claim", c["claim"]}, {"verdict", c["verdict"]}});
  out.summary = {{"figure", s.figure}, {"permutations", s.permutations}, {"limit", s.limit},
                 {"groups", sgroups}, {"claims", claims_sum}};
  if (!out.paper.empty()) out.summary["paper"] = out.paper;
  write_json_atomic(fdir + "/summary.json", out.summary);
  out.images = write_plots(s, groups, fdir, draw, panels);
  return out;
}

json write_report(const std::string& dir, const std::vector<Spec>& specs, const std::vector<std::vector<Group>>& groups,
                  const std::vector<FigureOutputs>& outs, const TreeState& tree, const std::string& header,
                  const std::string& named) {
  const json provenance = {
      {"revision", tree.revision}, {"clean", tree.clean}, {"changes", tree.changes}, {"describe", tree.describe()}};
  const json figures = figures_json(report_summaries(specs, groups, outs), provenance);
  write_json_atomic(dir + "/figures.json", figures);
  write_file_atomic(dir + "/REPORT.md", report_markdown(specs, groups, outs, tree, header, named));
  return figures;
}

std::vector<std::string> compare_json(const json& a, const json& b, const std::string& where) {
  std::vector<std::string> d;
  const std::string at = where.empty() ? "/" : where;
  if (a.is_number() && b.is_number()) {
    if (a.is_number_integer() && b.is_number_integer()) {
      if (a.get<int64_t>() != b.get<int64_t>()) d.push_back(at + ": " + a.dump() + " (reference " + b.dump() + ")");
    } else {
      const double x = a.get<double>(), y = b.get<double>();
      if (std::fabs(x - y) > 1e-9 * std::max(std::fabs(x), std::fabs(y)))
        d.push_back(at + ": " + a.dump() + " (reference " + b.dump() + ")");
    }
  } else if (a.type() != b.type()) {
    d.push_back(at + ": " + a.dump().substr(0, 80) + " (reference " + b.dump().substr(0, 80) + ")");
  } else if (a.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (k == "seconds") continue;
      if (!b.contains(k)) d.push_back(where + "/" + k + ": not in the reference");
      else for (auto& e : compare_json(v, b[k], where + "/" + k)) d.push_back(e);
    }
    for (const auto& [k, v] : b.items())
      if (k != "seconds" && !a.contains(k)) d.push_back(where + "/" + k + ": missing (reference has it)");
  } else if (a.is_array()) {
    if (a.size() != b.size())
      d.push_back(at + ": " + std::to_string(a.size()) + " entries (reference " + std::to_string(b.size()) + ")");
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      for (auto& e : compare_json(a[i], b[i], where + "/" + std::to_string(i))) d.push_back(e);
  } else if (a != b) {
    d.push_back(at + ": " + a.dump() + " (reference " + b.dump() + ")");
  }
  return d;
}

}  // namespace plab
