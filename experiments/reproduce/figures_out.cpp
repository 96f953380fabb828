#include "experiments/reproduce/figures_out.hpp"

#include <cstdlib>
#include <iostream>

#include "core/file_io.hpp"
#include "experiments/exit_codes.hpp"
#include "experiments/report/theory_figures.hpp"
#include "experiments/report/verdicts.hpp"

namespace plab {

using nlohmann::json;

Figures write_figures(const std::vector<Spec>& specs, const std::map<std::string, std::vector<CellOutcome>>& outcomes,
                      const std::string& out, bool draw) {
  Figures f;
  static const std::vector<CellOutcome> none;
  for (const auto& s : specs) {
    const auto it = outcomes.find(s.figure);
    f.groups.push_back(aggregate(s, it == outcomes.end() ? none : it->second));
    f.outs.push_back(write_figure(s, f.groups.back(), out, draw));
  }
  for (std::size_t i = 0; i < specs.size(); ++i)  // table figures (T7) over their sources' groups
    if (!specs[i].sources.empty()) {
      const json t = tightness_table(specs[i], specs, f.groups, out);
      f.outs[i].extra_markdown = "\n### Bound / empirical mistakes\n\n" + t["markdown"].get<std::string>() +
                                 "\nFile: `" + specs[i].figure + "/tightness.csv`.\n";
      f.outs[i].summary["table"] = t["rows"];
      write_json_atomic(out + "/" + specs[i].figure + "/summary.json", f.outs[i].summary);
    }
  return f;
}

namespace {

// "/groups/N/..." differences name their group so they can be read without the file.
std::string group_label(const std::string& d, const json& summary) {
  if (d.rfind("/groups/", 0) != 0) return "";
  const std::size_t n = std::strtoul(d.c_str() + 8, nullptr, 10);
  const json& gs = summary["groups"];
  if (n >= gs.size()) return "";
  return " [" + gs[n]["dataset"].get<std::string>() + " " + gs[n]["algorithm"].get<std::string>() +
         (gs[n]["point"].empty() ? "" : " " + gs[n]["point"].dump()) + "]";
}

}  // namespace

std::size_t check_reference(const std::vector<Spec>& specs, const Figures& f, const std::string& ref_dir) {
  std::size_t ndiff = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string path = ref_dir + "/" + specs[i].figure + ".json";
    const auto ref = read_json_if_valid(path);
    if (!ref) {
      std::cerr << specs[i].figure << ": no reference " << path << " (run make update-reference)\n";
      ++ndiff;
      continue;
    }
    const auto diffs = compare_json(f.outs[i].summary, *ref);
    for (const auto& d : diffs) std::cerr << specs[i].figure << group_label(d, f.outs[i].summary) << ": " << d << "\n";
    ndiff += diffs.size();
  }
  return ndiff;
}

int run_exit_status(const std::vector<Spec>& specs, const Figures& f, std::size_t failed, std::size_t ndiff,
                    const std::string& ref_dir) {
  std::size_t violated = 0, missing = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto bad = hard_bound_violations(f.groups[i]);
    for (const auto& b : bad) std::cerr << "plab reproduce: " << specs[i].figure << ": HARD BOUND VIOLATED: " << b << "\n";
    violated += bad.size();
    const auto none = unevaluated(f.outs[i].published, f.outs[i].claims);
    for (const auto& m : none) std::cerr << "plab reproduce: " << specs[i].figure << ": " << m << "\n";
    missing += none.size();
  }
  const int code = reproduce_exit_code({violated, failed, ndiff, missing});
  std::string why;
  if (code == kExitBoundViolated) why = std::to_string(violated) + " hard bound violation(s) (listed in the report)";
  if (code == kExitCellFailed) why = std::to_string(failed) + " cell(s) failed (listed in the report)";
  if (code == kExitCheckDiffers) why = std::to_string(ndiff) + " difference(s) from the reference in " + ref_dir;
  if (code == kExitNotEvaluated) why = std::to_string(missing) + " claim(s) / published number(s) without a result";
  if (code) std::cerr << "plab reproduce: " << why << "\n";
  return code;
}

}  // namespace plab
