#include "experiments/report/report_md.hpp"

#include <algorithm>
#include <sstream>

#include "core/format.hpp"
#include "experiments/report/report_format.hpp"
#include "experiments/report/report_summary.hpp"
#include "experiments/report/theory_figures.hpp"
#include "experiments/report/group_metrics.hpp"

namespace plab {

using nlohmann::json;

namespace {

void settings(std::ostream& md, const Spec& s) {
  for (const auto& [id, why] : s.unavailable)
    md << "<a name=\"" << row_anchor(s.figure, "data-" + id) << "\"></a>**Data not available: `" << id << "`** (" << why
       << "); the paper's curves are drawn alone.\n\n";
  if (s.datasets.empty()) return;  // a table of other figures' runs (T7) has no runs of its own
  md << "Settings: " << s.permutations << " permutation(s)"
     << (s.limit ? ", first " + std::to_string(s.limit) + " rounds" : ", all rounds") << ". Data: ";
  for (const auto& d : s.datasets)
    md << "`" << d.id << "` = `" << d.data << "`" << (d.labels.empty() ? "" : " labels `" + d.labels + "`")
       << (d.test.empty() ? "" : " test `" + d.test + "`")
       << (d.preprocess == "none" ? "" : " preprocess `" + d.preprocess + "`") << " kernel `" << d.kernel.raw.dump() << "` order "
       << d.order << "; ";
  md << "\n\nAlgorithms: ";
  for (const auto& a : s.algorithms) md << "`" << a.id << "` = " << a.algo << " " << a.params_json().dump() << "; ";
  md << "\n\n";
}

void violations(std::ostream& md, const std::vector<Group>& gs) {
  const auto bad = hard_bound_violations(gs);  // loud: a violation is a bug
  if (bad.empty()) return;
  md << "**HARD BOUND VIOLATED (" << bad.size() << "): a bug in a learner, a bound or the record.**\n\n";
  for (std::size_t k = 0; k < bad.size() && k < 20; ++k) md << "- " << bad[k] << "\n";
  md << "\n";
}

void finals_table(std::ostream& md, const std::vector<Group>& gs) {
  md << "\n### Final numbers\n\n| data | algorithm | n | mistakes | online error | support | ";
  const bool has_test = std::any_of(gs.begin(), gs.end(), [](const Group& g) { return g.stats.count("test_error_last"); });
  if (has_test) md << "test error (last) | test error (averaged) | ";
  md << "time |\n|---|---|---|---|---|---|" << (has_test ? "---|---|" : "") << "---|\n";
  for (const auto& g : gs) {
    const std::size_t n = g.values.empty() ? 0 : g.values.begin()->second.size();
    md << "| " << g.dataset << " | " << g.name() << " | " << n << " | " << format_stat("mistakes", metric_of(g, "mistakes"))
       << " | " << format_stat("online_error", metric_of(g, "online_error")) << " | "
       << format_stat("support_size", metric_of(g, "support_size")) << " | ";
    if (has_test)
      md << format_stat("test_error_last", metric_of(g, "test_error_last")) << " | "
         << format_stat("test_error_averaged", metric_of(g, "test_error_averaged")) << " | ";
    md << format_stat("seconds", g.seconds) << " |\n";
  }
}

std::string deviation_text(const json& r, const std::string& m) {
  if (!r.contains("deviation")) return "–";
  std::string dev = format_metric(m == "support_size" || m == "mistakes" ? "x" : m, r["deviation"].get<double>());
  if (r["relative_deviation"].is_number()) dev += fmt::format(" ({:+.1f}%)", 100.0 * r["relative_deviation"].get<double>());
  return dev;
}

void published_table(std::ostream& md, const std::string& fig, const json& rows) {
  if (rows.empty()) return;
  md << "\n### Published numbers beside ours\n\n| data | algorithm | quantity | paper | ours | deviation | verdict |\n"
        "|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& r = rows[i];
    const std::string m = r["metric"];
    std::string paper = format_metric(m, r["paper"].get<double>());
    if (r.contains("paper_std")) paper += " ± " + format_metric(m == "support_size" ? "x" : m, r["paper_std"].get<double>());
    const Stat ours{r["ours_mean"].is_number() ? r["ours_mean"].get<double>() : std::nan(""),
                    r["ours_std"].is_number() ? r["ours_std"].get<double>() : 0.0, r["n"].get<std::size_t>()};
    const std::string source = r["source"].get<std::string>(), note = r.value("note", std::string());
    md << "| <a name=\"" << row_anchor(fig, "published", i + 1) << "\"></a>" << r["dataset"].get<std::string>() << " | "
       << table_cell(r["label"].get<std::string>()) << " | " << table_cell(m + (source.empty() ? "" : " (" + source + ")"))
       << " | " << paper << " | " << format_stat(m, ours) << " | " << deviation_text(r, m) << " | "
       << table_cell(r["verdict"].get<std::string>() + (note.empty() ? "" : "; " + note), 240) << " |\n";
  }
}

// One row per paper series of a plot: what the paper drew, the verdict and its size in z, the
// points judged, and the points not judged with their reasons (docs/report.md#paper-curves).
void paper_table(std::ostream& md, const std::string& fig, const FigureOutputs& o) {
  if (o.paper.empty() && o.paper_missing.empty()) return;
  md << "\n### The paper's plotted points beside ours\n\nDigitized from the paper's figures "
        "(experiments/published/); every point: [`" << fig << "/paper_points.csv.gz`](" << fig << "/paper_points.csv.gz). "
        "Each point is compared through the spread of what the paper drew (one run, or a mean of n); z is the "
        "difference beyond the digitization grid in those standard deviations (through Student's t), and a series "
        "differs when the root mean square of its z exceeds 2.1 (docs/report.md#paper-curves).\n\n| plot | paper series (drawn) | ours | "
        "judged / published | within z ≤ 2 | rms z | largest z (at x) | verdict |\n|---|---|---|---|---|---|---|---|\n";
  std::ostringstream skipped;
  for (std::size_t i = 0; i < o.paper.size(); ++i) {
    const json& r = o.paper[i];
    auto num = [&](const char* k, int d) {
      return r[k].is_number() ? format_g(r[k].get<double>(), d) : r[k].is_string() ? r[k].get<std::string>() : "–";
    };
    const std::string worst = r["max_z"].is_null() ? "–" : num("max_z", 3) + " (" + num("at_x", 6) + ")";
    const std::string dir = r["direction"].is_string() && r["direction"] != "none" ? ", " + r["direction"].get<std::string>() : "";
    const std::string note = r.contains("note") ? "; " + r["note"].get<std::string>() : "";
    const std::size_t published = r["points"].get<std::size_t>() - r["duplicates"].get<std::size_t>();
    md << "| <a name=\"" << row_anchor(fig, "paper", i + 1) << "\"></a>" << r["plot"].get<std::string>() << " | "
       << table_cell(r["series"].get<std::string>() + " (" + r["drawn"].get<std::string>() + ")") << " | "
       << table_cell(r["algorithm"].get<std::string>()) << " | " << r["judged"] << " / " << published << " | "
       << r["within"] << " | " << num("rms_z", 3) << " | " << worst << " | "
       << table_cell(r["verdict"].get<std::string>() + dir + note, 240) << " |\n";
    for (const auto& n : r["not_judged"])
      skipped << "| " << r["plot"].get<std::string>() << " | " << table_cell(r["series"].get<std::string>()) << " | "
              << n["count"] << " | " << format_g(n["x_min"].get<double>(), 6) << " – " << format_g(n["x_max"].get<double>(), 6)
              << " | " << table_cell(n["reason"].get<std::string>()) << " |\n";
  }
  for (const auto& [plot, why] : o.paper_missing)
    md << "| <a name=\"" << row_anchor(fig, "paper") << "\"></a>" << plot << " | – | – | – | – | – | – | "
       << table_cell("paper data missing: " + why) << " |\n";
  if (!skipped.str().empty())
    md << "\nPublished points not judged (a number drawn twice, as a marker on its line or a line vertex at its "
          "error bar, counts once and is not listed):\n\n| plot | paper series | points | x | reason |\n"
          "|---|---|---|---|---|\n" << skipped.str();
}

// One line per claim: the verdict, the points passing and the point closest to failing; every
// comparison is in <FIG>/claims.csv (docs/report.md#claims).
void claims_table(std::ostream& md, const std::string& fig, const json& claims) {
  if (claims.empty()) return;
  md << "\n### Published claims\n\nEvery point of every check: [`" << fig << "/claims.csv`](" << fig
     << "/claims.csv).\n\n| claim | result |\n|---|---|\n";
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const json& c = claims[i];
    const std::string nums = c["numbers"].get<std::string>();
    md << "| <a name=\"" << row_anchor(fig, "claim", i + 1) << "\"></a>" << table_cell(c["claim"].get<std::string>(), 240)
       << " | **" << c["verdict"].get<std::string>() << "**" << (nums.empty() ? "" : ", " + table_cell(nums, 240))
       << " |\n";
  }
}

void bound_row(std::ostream& md, const std::string& anchor, const Group& g, const std::string& id,
               const std::vector<json>& rows) {
  std::vector<double> v, e, ratio, rounds;
  std::size_t holds = 0, vacuous = 0;
  for (const auto& r : rows) {
    vacuous += r.value("vacuous", false);
    if (r["value"].is_number()) v.push_back(r["value"].get<double>());
    if (r["empirical"].is_number()) e.push_back(r["empirical"].get<double>());
    if (r["value"].is_number() && r["empirical"].is_number() && r["empirical"].get<double>() > 0)
      ratio.push_back(r["value"].get<double>() / r["empirical"].get<double>());
    holds += r.value("holds", true);
    if (r["rounds"].is_number()) rounds.push_back(r["rounds"].get<double>());
  }
  const std::string rb = ratio.empty() ? "–" : format_g(mean_std(ratio).mean, 3);
  const std::string a = bound_rows_all_hold(rows) ? "" : "<a name=\"" + anchor + "\"></a>";
  md << "| " << a << g.dataset << " | " << table_cell(g.name()) << " | " << rows[0].value("name", "") << " (`" << id << "`) | "
     << rows[0].value("tag", "") << " | " << rows[0].value("kind", "") << " | " << format_stat("x", mean_std(rounds))
     << " | " << format_stat("x", mean_std(v)) << " | " << format_stat("x", mean_std(e)) << " | " << rb << " | " << holds
     << "/" << rows.size() << " | " << vacuous << "/" << rows.size() << " |\n";
}

void bounds_table(std::ostream& md, const std::string& fig, const std::vector<Group>& gs) {
  if (std::none_of(gs.begin(), gs.end(), [](const Group& g) { return !g.bounds.empty(); })) return;
  std::size_t rows = 0, vacuous = 0;
  for (const auto& g : gs)
    for (const auto& [id, rs] : g.bounds)
      for (const auto& r : rs) { ++rows; vacuous += r.value("vacuous", false); }
  md << "\n### Mistake bounds (applicable ones; mean over permutations)\n\n"
     << vacuous << " of " << rows << " applicable rows are vacuous (value >= the rounds covered, or the infimum at "
        "its trivial limit; docs/bounds.md#vacuous).\n\n"
        "| data | algorithm | bound | tag | kind | rounds covered | bound value | empirical | bound / empirical | holds | vacuous |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::size_t k = 0;
  for (const auto& g : gs)
    for (const auto& [id, rows] : g.bounds) bound_row(md, row_anchor(fig, "bound", ++k), g, id, rows);
}

void failed_cells(std::ostream& md, const std::string& fig, const std::vector<Group>& gs) {
  std::vector<std::string> failed;
  for (const auto& g : gs) for (const auto& e : g.errors) failed.push_back(g.dataset + " " + g.name() + " " + e);
  if (failed.empty()) return;
  md << "\n<a name=\"" << row_anchor(fig, "failed") << "\"></a>**Failed cells (" << failed.size() << "):**\n\n";
  for (std::size_t k = 0; k < failed.size() && k < 20; ++k) md << "- " << failed[k] << "\n";
  if (failed.size() > 20) md << "- … " << failed.size() - 20 << " more\n";
}

void figure_section(std::ostream& md, const Spec& s, const std::vector<Group>& gs, const FigureOutputs& o) {
  md << "## <a name=\"" << s.figure << "\"></a>" << s.figure << " — " << s.title << "\n\n";
  if (!s.description.empty()) md << s.description << "\n\n";
  settings(md, s);
  violations(md, gs);
  for (const auto& img : o.images) md << "![" << img << "](" << img << ".png)\n";
  md << o.extra_markdown;
  finals_table(md, gs);
  published_table(md, s.figure, o.published);
  paper_table(md, s.figure, o);
  claims_table(md, s.figure, o.claims);
  bounds_table(md, s.figure, gs);
  failed_cells(md, s.figure, gs);
  md << "\nFiles: `" << s.figure << "/finals.csv`, `" << s.figure << "/published.csv`, `" << s.figure
     << "/claims.csv`, `" << s.figure << "/timings.csv`, `" << s.figure << "/curves_*.csv`, `" << s.figure
     << "/summary.json`" << (o.paper.empty() ? "" : ", `" + s.figure + "/paper_points.csv.gz`") << ".\n\n";
}

}  // namespace

std::vector<FigureSummary> report_summaries(const std::vector<Spec>& specs,
                                            const std::vector<std::vector<Group>>& groups,
                                            const std::vector<FigureOutputs>& outs) {
  std::vector<FigureSummary> rows;
  for (std::size_t i : report_order(specs)) rows.push_back(summarize_figure(specs[i], groups[i], outs[i]));
  return rows;
}

std::string report_markdown(const std::vector<Spec>& specs, const std::vector<std::vector<Group>>& groups,
                            const std::vector<FigureOutputs>& outs, const TreeState& tree, const std::string& header,
                            const std::string& named) {
  std::ostringstream md;
  const std::vector<FigureSummary> rows = report_summaries(specs, groups, outs);
  md << "# Reproduction report — " << tree.describe()
     << (named.empty() ? "" : " — only the figures named on the command line (" + named + "); the others are not in this file")
     << "\n\n" << header << "\n";
  md << "## <a name=\"summary\"></a>Summary\n\n" << summary_table(rows, {"", "#"}) << "\n"
     << problem_list(rows, {"", "#"}) << "\n";
  md << "Published numbers count when the spec gives a tolerance; published points are the paper's plotted points "
        "judged against ours (docs/report.md#paper-curves); bound rows are one per bound, group and "
        "permutation (docs/report.md). Values are mean ± sample standard deviation over the permutations "
        "(n − 1 denominator). Errors are online error rates (mistakes / rounds) unless named test errors. Times are "
        "the C++ learning time of one run (one core), beside the paper's MATLAB times.\n\n";
  for (std::size_t i : report_order(specs)) figure_section(md, specs[i], groups[i], outs[i]);
  return md.str();
}

}  // namespace plab
