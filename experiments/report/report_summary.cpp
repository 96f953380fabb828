#include "experiments/report/report_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "core/format.hpp"
#include "experiments/report/report_format.hpp"
#include "experiments/report/verdicts.hpp"

namespace plab {

using nlohmann::json;

std::string row_anchor(const std::string& figure, const std::string& kind, std::size_t i) {
  return figure + "-" + kind + (i ? "-" + std::to_string(i) : "");
}

namespace {

// (prefix rank, number, name): R, T, N, then any other prefix.
std::tuple<int, long, std::string> order_key(const std::string& f) {
  static const std::string kPrefixes = "RTN";
  const std::size_t p = f.empty() ? std::string::npos : kPrefixes.find(f[0]);
  std::size_t k = 0;
  while (k < f.size() && !std::isdigit(static_cast<unsigned char>(f[k]))) ++k;
  const long num = k < f.size() ? std::strtol(f.c_str() + k, nullptr, 10) : 0;
  return {p == std::string::npos ? 3 : static_cast<int>(p), num, f};
}

bool judged(const std::string& verdict) {
  return verdict.rfind("confirmed", 0) == 0 || verdict.rfind("not confirmed", 0) == 0 || verdict == kNoResult;
}

std::string fraction(std::size_t k, std::size_t n) {
  if (n == 0) return "–";
  const std::string f = std::to_string(k) + "/" + std::to_string(n);
  return k < n ? "**" + f + "**" : f;
}

// Paper points and series (docs/report.md#paper-curves); a series that differs, or a plot whose
// paper data are missing, is a problem.
void summarize_paper(const std::string& figure, const FigureOutputs& out, FigureSummary& f) {
  for (std::size_t i = 0; i < out.paper.size(); ++i) {
    const json& r = out.paper[i];
    const std::size_t judged = r.value("judged", std::size_t{0}), within = r.value("within", std::size_t{0});
    f.paper_points += r.value("points", std::size_t{0}) - r.value("duplicates", std::size_t{0});
    f.paper_judged += judged;
    f.paper_within += within;
    if (judged == 0) continue;
    ++f.paper_series_judged;
    if (r.value("verdict", "") == "consistent") { ++f.paper_series_matched; continue; }
    const std::string max_z = r["max_z"].is_number() ? format_g(r["max_z"].get<double>(), 3) : "inf";
    f.problems.push_back({row_anchor(figure, "paper", i + 1),
                          "paper curve " + r.value("plot", "") + " " + r.value("series", "") + " (" +
                              r.value("drawn", "") + "): differs, rms z " + format_g(r["rms_z"].get<double>(), 3) +
                              " (" + r.value("direction", "") + "), " + std::to_string(within) + "/" +
                              std::to_string(judged) + " points within z <= 2, largest z " + max_z + " at x = " +
                              format_g(r["at_x"].get<double>(), 6)});
  }
  for (const auto& [plot, why] : out.paper_missing)
    f.problems.push_back({row_anchor(figure, "paper"), "paper data of plot " + plot + " missing: " + why});
}

}  // namespace

bool figure_before(const std::string& a, const std::string& b) { return order_key(a) < order_key(b); }

std::vector<std::size_t> report_order(const std::vector<Spec>& specs) {
  std::vector<std::size_t> idx(specs.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t x, std::size_t y) { return figure_before(specs[x].figure, specs[y].figure); });
  return idx;
}

bool bound_rows_all_hold(const std::vector<json>& rows) {
  return std::all_of(rows.begin(), rows.end(), [](const json& r) { return r.value("holds", true); });
}

FigureSummary summarize_figure(const Spec& s, const std::vector<Group>& groups, const FigureOutputs& out) {
  FigureSummary f;
  f.figure = s.figure;
  f.title = s.title;
  if (f.title.rfind(s.figure + ": ", 0) == 0) f.title = f.title.substr(s.figure.size() + 2);  // "T1: ..." titles
  if (!out.images.empty()) f.thumbnail = out.images[0];
  for (std::size_t i = 0; i < out.published.size(); ++i) {
    const json& r = out.published[i];
    const std::string v = r.value("verdict", "");
    if (!judged(v)) continue;
    ++f.published_judged;
    if (v.rfind("confirmed", 0) == 0) { ++f.published_matched; continue; }
    const std::string m = r.value("metric", "");
    const Stat ours{r["ours_mean"].is_number() ? r["ours_mean"].get<double>() : std::nan(""),
                    r["ours_std"].is_number() ? r["ours_std"].get<double>() : 0.0, r.value("n", std::size_t{0})};
    f.problems.push_back({row_anchor(s.figure, "published", i + 1),
                          "published " + r.value("dataset", "") + " " + r.value("label", "") + " " + m + ": paper " +
                              format_metric(m, r["paper"].get<double>()) + ", ours " + format_stat(m, ours) + ": " + v});
  }
  for (std::size_t i = 0; i < out.claims.size(); ++i) {
    const json& c = out.claims[i];
    const std::string v = c.value("verdict", "");
    ++f.claims_total;
    if (v == "confirmed") { ++f.claims_confirmed; continue; }
    const std::string nums = c.value("numbers", "");
    f.problems.push_back({row_anchor(s.figure, "claim", i + 1), "claim \"" + table_cell(c.value("claim", ""), 120) +
                                                                  "\": " + v + (nums.empty() ? "" : ": " + nums)});
  }
  summarize_paper(s.figure, out, f);
  for (const auto& [id, why] : s.unavailable)
    f.problems.push_back({row_anchor(s.figure, "data-" + id), "data not available: " + id + " (" + why + ")"});
  std::size_t row = 0;
  for (const auto& g : groups) {
    const std::size_t finished = g.values.empty() ? 0 : g.values.begin()->second.size();
    f.cells += finished + g.errors.size();
    f.cells_failed += g.errors.size();
    if (g.seconds.n) f.seconds += g.seconds.mean * static_cast<double>(g.seconds.n);
    for (const auto& [id, rows] : g.bounds) {
      ++row;
      std::size_t held = 0;
      for (const auto& r : rows) {
        ++f.bound_rows;
        held += r.value("holds", true);
        f.bound_vacuous += r.value("vacuous", false);
      }
      f.bound_held += held;
      if (!bound_rows_all_hold(rows))
        f.problems.push_back({row_anchor(s.figure, "bound", row),
                              g.dataset + " " + g.name() + ": bound " + rows[0].value("name", id) + " " +
                                  rows[0].value("tag", "") + " holds in " + std::to_string(held) + "/" +
                                  std::to_string(rows.size()) + " permutations"});
    }
  }
  if (f.cells_failed)
    f.problems.push_back({row_anchor(s.figure, "failed"), std::to_string(f.cells_failed) + " failed cell(s)"});
  return f;
}

json to_json(const FigureSummary& f) {
  json problems = json::array();
  for (const auto& p : f.problems) problems.push_back({{"anchor", p.anchor}, {"text", p.text}});
  return {{"figure", f.figure},
          {"title", f.title},
          {"thumbnail", f.thumbnail},
          {"published", {{"matched", f.published_matched}, {"judged", f.published_judged}}},
          {"claims", {{"confirmed", f.claims_confirmed}, {"total", f.claims_total}}},
          {"paper_points", {{"within", f.paper_within}, {"judged", f.paper_judged}, {"published", f.paper_points},
                            {"series_matched", f.paper_series_matched}, {"series_judged", f.paper_series_judged}}},
          {"bound_rows", {{"held", f.bound_held}, {"total", f.bound_rows}, {"vacuous", f.bound_vacuous}}},
          {"cells", {{"total", f.cells}, {"failed", f.cells_failed}, {"seconds", f.seconds}}},
          {"problems", problems}};
}

FigureSummary figure_summary_from_json(const json& j) {
  FigureSummary f;
  const auto count = [&](const char* a, const char* b) { return j.at(a).at(b).get<std::size_t>(); };
  f.figure = j.at("figure").get<std::string>();
  f.title = j.at("title").get<std::string>();
  f.thumbnail = j.at("thumbnail").get<std::string>();
  f.published_matched = count("published", "matched");
  f.published_judged = count("published", "judged");
  f.claims_confirmed = count("claims", "confirmed");
  f.claims_total = count("claims", "total");
  f.paper_within = count("paper_points", "within");
  f.paper_judged = count("paper_points", "judged");
  f.paper_points = count("paper_points", "published");
  f.paper_series_matched = count("paper_points", "series_matched");
  f.paper_series_judged = count("paper_points", "series_judged");
  f.bound_held = count("bound_rows", "held");
  f.bound_rows = count("bound_rows", "total");
  f.bound_vacuous = count("bound_rows", "vacuous");
  f.cells = count("cells", "total");
  f.cells_failed = count("cells", "failed");
  f.seconds = j.at("cells").at("seconds").get<double>();
  for (const auto& p : j.at("problems")) f.problems.push_back({p.at("anchor").get<std::string>(), p.at("text").get<std::string>()});
  return f;
}

namespace {

std::string paper_points_cell(const FigureSummary& f) {
  if (f.paper_points == 0) return "–";
  return fraction(f.paper_series_matched, f.paper_series_judged) + " series consistent; " +
         fraction(f.paper_within, f.paper_judged) + " points within; " + fraction(f.paper_judged, f.paper_points) +
         " judged";
}

}  // namespace

std::string summary_table(const std::vector<FigureSummary>& rows, const SummaryLinks& l) {
  std::ostringstream md;
  md << "| figure | what it shows | published numbers matched | published series and points | claims confirmed | "
        "bound rows held | plot |"
     << (l.times ? " cells, learning time |\n|---|---|---|---|---|---|---|---|\n" : "\n|---|---|---|---|---|---|---|\n");
  for (const auto& f : rows) {
    const std::string bounds =
        f.bound_rows == 0 ? "–"
                          : fraction(f.bound_held, f.bound_rows) +
                                (f.bound_vacuous ? ", " + std::to_string(f.bound_vacuous) + " vacuous" : "");
    const std::string thumb = f.thumbnail.empty() ? "–"
                                                  : "<a href=\"" + l.anchors + f.figure + "\"><img src=\"" + l.files +
                                                        f.thumbnail + ".png\" alt=\"" + f.figure + "\" width=\"120\"></a>";
    const std::string cells = f.cells == 0 ? "–"
                                           : std::to_string(f.cells) + " cells" +
                                                 (f.cells_failed ? " (**" + std::to_string(f.cells_failed) + " failed**)"
                                                                 : "") +
                                                 ", " + fmt::format("{:.1f} s", f.seconds);
    md << "| [" << f.figure << "](" << l.anchors << f.figure << ") | " << table_cell(f.title, 160) << " | "
       << fraction(f.published_matched, f.published_judged) << " | " << paper_points_cell(f) << " | "
       << fraction(f.claims_confirmed, f.claims_total)
       << " | " << bounds << " | " << thumb << " |" << (l.times ? " " + cells + " |" : "") << "\n";
  }
  return md.str();
}

std::string problem_list(const std::vector<FigureSummary>& rows, const SummaryLinks& l) {
  std::ostringstream md;
  std::size_t n = 0;
  for (const auto& f : rows) n += f.problems.size();
  if (n == 0) return "Every judged published number matched, every claim is confirmed, every bound row holds and no cell failed.\n";
  md << "**Not confirmed, not evaluated or failed (" << n << "):**\n\n";
  for (const auto& f : rows)
    for (const auto& p : f.problems) md << "- [" << f.figure << "](" << l.anchors << p.anchor << ") " << p.text << "\n";
  return md.str();
}

json figures_json(const std::vector<FigureSummary>& rows, const json& provenance) {
  json fs = json::array();
  for (const auto& f : rows) fs.push_back(to_json(f));
  return {{"provenance", provenance}, {"figures", fs}};
}

std::string readme_block(const json& figures) {
  std::vector<FigureSummary> rows;
  for (const auto& f : figures.at("figures")) rows.push_back(figure_summary_from_json(f));
  const SummaryLinks l{"results/", "results/REPORT.md#", false};  // times live in the report alone
  std::size_t n = 0;
  for (const auto& f : rows) n += f.problems.size();
  return "From " + figures.at("provenance").value("describe", std::string("an unknown tree")) +
         "; the [report](results/REPORT.md) lists the " + std::to_string(n) +
         " item(s) not confirmed, not evaluated or failed.\n\n" + summary_table(rows, l);
}

namespace {

// Offsets of the text between the marker lines (npos when absent).
std::pair<std::size_t, std::size_t> block_range(const std::string& readme) {
  const std::size_t b = readme.find(kReadmeBegin);
  if (b == std::string::npos) return {std::string::npos, std::string::npos};
  const std::size_t start = readme.find('\n', b);
  const std::size_t end = readme.find(kReadmeEnd, b);
  if (start == std::string::npos || end == std::string::npos || end < start) return {std::string::npos, std::string::npos};
  return {start + 1, end};
}

}  // namespace

std::string replace_readme_block(const std::string& readme, const std::string& block, const std::string& path) {
  const auto [b, e] = block_range(readme);
  if (b == std::string::npos)
    throw std::invalid_argument("--readme " + path + ": no figure table markers (a line '" + kReadmeBegin +
                                "' and a later line '" + kReadmeEnd + "')");
  return readme.substr(0, b) + block + readme.substr(e);
}

std::string current_readme_block(const std::string& readme) {
  const auto [b, e] = block_range(readme);
  return b == std::string::npos ? "" : readme.substr(b, e - b);
}

}  // namespace plab
