#include "experiments/report/paper_curves.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/file_io.hpp"
#include "experiments/report/figure_plots.hpp"

namespace plab {

using nlohmann::json;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::vector<std::string> kColumns = {"figure", "panel", "series", "element", "curve",
                                           "x",      "y",     "y_err_low", "y_err_high", "text"};
const char* const kPrecisionKey = "drawing_grid_data";  // the PDF's drawing grid in data units
const std::vector<std::string> kElements = {"line", "marker", "errorbar", "refline", "annotation"};

// Splits one CSV line (fields quoted with '"' may hold commas; "" inside is a quote).
std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') { out.back() += '"'; ++i; }
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

double field_number(const std::string& f, bool optional, const std::string& where) {
  if (f.empty() && optional) return kNaN;
  char* end = nullptr;
  const double v = std::strtod(f.c_str(), &end);
  if (f.empty() || end != f.c_str() + f.size() || !std::isfinite(v))
    throw std::invalid_argument(where + ": \"" + f.substr(0, 40) + "\" is not a finite number");
  return v;
}

PaperPoint parse_row(const std::vector<std::string>& f, const std::string& where) {
  if (f.size() != kColumns.size())
    throw std::invalid_argument(where + ": " + std::to_string(f.size()) + " fields (expected " +
                                std::to_string(kColumns.size()) + ")");
  PaperPoint q;
  q.series = f[2];
  q.element = f[3];
  if (std::find(kElements.begin(), kElements.end(), q.element) == kElements.end())
    throw std::invalid_argument(where + ": element \"" + q.element.substr(0, 40) + "\" is not one of line, marker, "
                                "errorbar, refline, annotation");
  q.curve = static_cast<int>(field_number(f[4], false, where + " (curve)"));
  q.x = field_number(f[5], false, where + " (x)");
  q.y = field_number(f[6], q.element == "annotation", where + " (y)");
  q.lo = field_number(f[7], true, where + " (y_err_low)");
  q.hi = field_number(f[8], true, where + " (y_err_high)");
  q.text = f[9];
  return q;
}

// Precision of a panel: manifest.json beside it, panels.<stem>.precision.{x,y} in data units.
void read_precision(PaperPanel& panel) {
  const std::filesystem::path p(panel.path);
  const std::string manifest = (p.parent_path() / "manifest.json").string(), stem = p.stem().string();
  const auto j = read_json_if_valid(manifest);
  const json* e = j && j->contains("panels") && (*j)["panels"].contains(stem) ? &(*j)["panels"][stem] : nullptr;
  const json* prec = e && e->contains(kPrecisionKey) ? &(*e)[kPrecisionKey] : nullptr;
  if (!prec || !prec->contains("x") || !prec->contains("y") || !(*prec)["x"].is_number() || !(*prec)["y"].is_number())
    throw std::invalid_argument(manifest + ": no numeric panels/" + stem + "/" + kPrecisionKey + "/{x,y} for " +
                                panel.path);
  panel.dx = (*prec)["x"].get<double>();
  panel.dy = (*prec)["y"].get<double>();
}

// Linear interpolation of (xs, v) at x; nullopt outside [xs.front(), xs.back()] (xs ascending).
std::optional<double> interpolate(const std::vector<double>& xs, const std::vector<double>& v, double x) {
  if (xs.empty() || x < xs.front() || x > xs.back()) return std::nullopt;
  const auto it = std::lower_bound(xs.begin(), xs.end(), x);
  const std::size_t k = static_cast<std::size_t>(it - xs.begin());
  if (*it == x || k == 0) return v[k];
  const double w = (x - xs[k - 1]) / (xs[k] - xs[k - 1]);
  return v[k - 1] + w * (v[k] - v[k - 1]);
}

// Our series of one algorithm in a plot, unscaled: x ascending, mean and std of y.
struct Ours {
  std::vector<double> x, mean, std;
  bool single = false;   // a reference algorithm (one point): judged as a horizontal line
  double single_x_std = 0.0;
};

Ours ours_of(const Spec& s, const FigurePlot& p, const std::string& algo_id, const std::vector<Group>& groups,
             const std::string& ds) {
  Ours o;
  if (p.type == FigurePlot::Type::curve) {
    for (const auto& g : groups) {
      if (g.dataset != ds || g.algo_id != algo_id || g.t.empty() || !g.curves.count(p.metric)) continue;
      for (std::size_t k = 0; k < g.t.size(); ++k) {
        o.x.push_back(g.t[k]);
        o.mean.push_back(g.curves.at(p.metric)[k].mean);
        o.std.push_back(g.curves.at(p.metric)[k].std);
      }
      break;
    }
    return o;
  }
  Selector sel;
  sel.algorithm = algo_id;
  for (const FinalPoint& q : final_points(s, sel, p.x, p.y, groups, ds)) {
    o.x.push_back(q.x); o.mean.push_back(q.y); o.std.push_back(q.y_std); o.single_x_std = q.x_std;
  }
  o.single = o.x.size() == 1;
  return o;
}

// The paper's curves of one series as functions of x (line vertices by curve number; a curve whose
// x goes back is not a function of x and is left out).
using PaperCurves = std::vector<std::pair<std::vector<double>, std::vector<double>>>;
PaperCurves paper_curves(const std::vector<PaperPoint>& pts, const std::string& series) {
  std::map<int, std::pair<std::vector<double>, std::vector<double>>> by;
  for (const auto& q : pts)
    if (q.series == series && q.element == "line") { by[q.curve].first.push_back(q.x); by[q.curve].second.push_back(q.y); }
  PaperCurves out;
  for (auto& [c, xy] : by)
    if (std::is_sorted(xy.first.begin(), xy.first.end())) out.push_back(std::move(xy));
  return out;
}

// Standard deviation over the curves that cover x (0 with fewer than two: one curve is a mean).
double curves_spread(const PaperCurves& curves, double x) {
  std::vector<double> at;
  for (const auto& [xs, ys] : curves)
    if (auto v = interpolate(xs, ys, x)) at.push_back(*v);
  return at.size() < 2 ? 0.0 : mean_std(at).std;
}

// The ± of an annotation's text ("... = 12510+-36.9" or "±"), 0 when it has none.
double annotation_std(const std::string& text) {
  for (const std::string sep : {"+-", "\u00b1"}) {
    const auto k = text.find(sep);
    if (k != std::string::npos) return std::strtod(text.c_str() + k + sep.size(), nullptr);
  }
  return 0.0;
}

struct Judged {
  bool judged = false;
  double ours = kNaN, ours_std = kNaN, paper_spread = 0.0, tol = kNaN;
};

Judged judge_point(const PaperPoint& q, const Ours& o, double paper_spread, const PaperPanel& panel) {
  Judged r;
  r.paper_spread = paper_spread;
  double slope = 0.0;
  if (o.single && q.element == "refline") {
    r.ours = o.mean[0]; r.ours_std = o.std[0];
  } else if (o.single) {
    if (std::fabs(q.x - o.x[0]) > panel.dx + o.single_x_std) return r;
    r.ours = o.mean[0]; r.ours_std = o.std[0];
  } else {
    const auto m = interpolate(o.x, o.mean, q.x);
    if (!m) return r;
    r.ours = *m;
    r.ours_std = *interpolate(o.x, o.std, q.x);
    const auto k = static_cast<std::size_t>(std::lower_bound(o.x.begin(), o.x.end(), q.x) - o.x.begin());
    if (k > 0 && k < o.x.size() && o.x[k] > o.x[k - 1]) slope = (o.mean[k] - o.mean[k - 1]) / (o.x[k] - o.x[k - 1]);
  }
  r.judged = true;
  // docs/report.md#paper-curves: two standard deviations of the difference of two runs, plus the
  // digitization precision in y and, through our curve's slope, in x.
  r.tol = 2.0 * std::hypot(r.ours_std, paper_spread) + panel.dy + std::fabs(slope) * panel.dx;
  return r;
}

Judged judge_annotation(const PaperPoint& q, const FigurePlot& p, const std::vector<Group>& groups,
                        const std::string& ds) {
  Judged r;
  Selector sel;
  sel.algorithm = p.paper->annotation;
  for (const Group* g : select(groups, sel, ds)) {
    const Stat st = metric_of(*g, "support_size");
    if (st.n == 0) continue;
    r.judged = true;
    r.ours = st.mean; r.ours_std = st.std;
    r.paper_spread = annotation_std(q.text);
    r.tol = 2.0 * std::hypot(r.ours_std, r.paper_spread) + 0.5;  // the text rounds to units
    break;
  }
  return r;
}

std::string series_verdict(std::size_t judged, std::size_t within, std::size_t outside, bool ours, bool data) {
  if (!data) return "not judged (data not available)";
  if (!ours) return "not judged (no series of ours)";
  if (judged == 0) return outside ? "not judged (outside our range)" : "not judged (no result)";
  return within == judged ? "matched" : "not matched";
}

std::string plot_dataset(const Spec& s, const FigurePlot& p) {
  return p.dataset.value_or(s.datasets.empty() ? "" : s.datasets[0].id);
}

}  // namespace

PaperPanel read_paper_panel(const std::string& path) {
  PaperPanel panel;
  panel.path = path;
  std::istringstream in(read_text_file(path));
  std::string line;
  std::size_t no = 0;
  while (std::getline(in, line)) {
    ++no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string where = path + ":" + std::to_string(no);
    if (no == 1) {
      if (csv_split(line) != kColumns) throw std::invalid_argument(where + ": header is not " + "figure,panel,series,"
                                                                   "element,curve,x,y,y_err_low,y_err_high,text");
      continue;
    }
    if (line.empty()) continue;
    panel.points.push_back(parse_row(csv_split(line), where));
    panel.points.back().line = no;
  }
  if (no == 0) throw std::invalid_argument(path + ": empty (no header)");
  read_precision(panel);
  return panel;
}

PaperPanels read_paper_panels(const Spec& s) {
  PaperPanels out;
  for (const auto& p : s.plots) {
    if (!p.paper) continue;
    if (!std::filesystem::exists(p.paper->path)) {
      out.missing[p.id] = p.paper->path + ": not found";
      continue;
    }
    out.panels.emplace(p.id, read_paper_panel(p.paper->path));
  }
  return out;
}

std::vector<PlotSeries> paper_series(const Spec& s, const FigurePlot& p, const PaperPanel& panel) {
  std::map<std::tuple<std::string, std::string, int>, PlotSeries> by;  // (series, element, curve)
  std::vector<std::tuple<std::string, std::string, int>> order;
  for (const auto& q : panel.points) {
    if (q.element == "annotation") continue;
    const auto key = std::make_tuple(q.series, q.element, q.curve);
    auto [it, fresh] = by.try_emplace(key);
    PlotSeries& se = it->second;
    if (fresh) {
      order.push_back(key);
      const auto m = p.paper->series.find(q.series);
      se.color_key = m == p.paper->series.end() ? q.series : s.algorithm(m->second).algo;
      se.style = q.element == "marker" ? "paper_points" : q.element == "errorbar" ? "paper_errorbars" : "paper_lines";
    }
    se.x.push_back(q.x * p.x_scale);
    se.y.push_back(q.y * p.y_scale);
    if (q.element == "errorbar") se.yerr.push_back(0.5 * (q.hi - q.lo) * p.y_scale);
  }
  std::vector<PlotSeries> out;
  std::vector<std::string> titled;
  for (const auto& key : order) {
    PlotSeries se = by.at(key);
    const std::string& name = std::get<0>(key);
    if (std::find(titled.begin(), titled.end(), name) == titled.end()) { se.title = "paper: " + name; titled.push_back(name); }
    out.push_back(std::move(se));
  }
  return out;
}

namespace {

// The rows of a panel: each paper series's plotted points, and its annotation apart (the
// annotation is a number printed in the plot, judged against the spec's attribution).
struct SeriesKey {
  std::string series;
  bool annotation = false;
  bool operator==(const SeriesKey& o) const { return series == o.series && annotation == o.annotation; }
  bool has(const PaperPoint& q) const { return q.series == series && (q.element == "annotation") == annotation; }
};

std::vector<SeriesKey> series_keys(const PaperPanel& panel) {
  std::vector<SeriesKey> keys;
  for (const auto& q : panel.points) {
    const SeriesKey k{q.series, q.element == "annotation"};
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  return keys;
}

json point_row(const FigurePlot& p, const PaperPoint& q, double paper_y, const Judged& r, double dev, bool ok) {
  auto num = [&](double v) { return r.judged ? json(v) : json(); };
  return {{"plot", p.id},       {"series", q.series},  {"element", q.element},        {"curve", q.curve},
          {"x", q.x},           {"paper", paper_y},    {"paper_spread", r.paper_spread}, {"ours_mean", num(r.ours)},
          {"ours_std", num(r.ours_std)}, {"tolerance", num(r.tol)}, {"deviation", num(dev)},
          {"within", r.judged ? json(ok ? 1 : 0) : json()}};
}

}  // namespace

json judge_paper_plot(const Spec& s, const FigurePlot& p, const PaperPanel& panel, const std::vector<Group>& groups,
                      json* points) {
  const std::string ds = plot_dataset(s, p);
  json rows = json::array();
  for (const SeriesKey& key : series_keys(panel)) {
    const auto m = p.paper->series.find(key.series);
    const std::string algo = key.annotation ? p.paper->annotation : m == p.paper->series.end() ? "" : m->second;
    const Ours ours = algo.empty() || key.annotation ? Ours{} : ours_of(s, p, algo, groups, ds);
    const PaperCurves curves = paper_curves(panel.points, key.series);
    std::size_t n = 0, judged = 0, within = 0, outside = 0;
    double worst = -1.0, at_x = kNaN;
    for (const auto& q : panel.points) {
      if (!key.has(q)) continue;
      ++n;
      Judged r;
      if (algo.empty()) {
      } else if (key.annotation) {
        r = judge_annotation(q, p, groups, ds);
      } else if (!ours.x.empty()) {
        const double spread = q.element == "errorbar" ? 0.5 * (q.hi - q.lo) : curves_spread(curves, q.x);
        r = judge_point(q, ours, spread, panel);
      }
      const double paper_y = key.annotation ? q.x : q.y;
      const double dev = r.judged ? r.ours - paper_y : kNaN;
      const bool ok = r.judged && std::fabs(dev) <= r.tol;
      outside += !r.judged && !algo.empty();
      judged += r.judged;
      within += ok;
      if (r.judged && std::fabs(dev) > worst) { worst = std::fabs(dev); at_x = q.x; }
      if (points) points->push_back(point_row(p, q, paper_y, r, dev, ok));
    }
    json row = {{"plot", p.id},   {"series", key.series + (key.annotation ? " (support-size annotation)" : "")},
                {"algorithm", algo}, {"points", n}, {"judged", judged}, {"within", within}, {"outside", outside},
                {"verdict", series_verdict(judged, within, outside, !algo.empty(), !s.unavailable.count(ds))}};
    row["max_deviation"] = worst >= 0 ? json(worst) : json();
    row["at_x"] = worst >= 0 ? json(at_x) : json();
    if (key.annotation && !p.paper->annotation_note.empty()) row["note"] = p.paper->annotation_note;
    rows.push_back(row);
  }
  return rows;
}

PaperValue paper_value(const Spec& s, const PaperRef& ref, const PaperPanels& panels) {
  const auto it = panels.panels.find(ref.plot);
  const std::string what = s.source + ": published value from plot \"" + ref.plot + "\" (" + ref.element +
                           (ref.series.empty() ? "" : " of " + ref.series) + ")";
  if (it == panels.panels.end()) {
    const auto miss = panels.missing.find(ref.plot);
    throw std::invalid_argument(what + ": " + (miss == panels.missing.end() ? "no paper data" : miss->second));
  }
  std::optional<double> v, best_x;
  const std::string element = ref.element == "refline_end" ? "refline" : ref.element;
  for (const auto& q : it->second.points) {
    if (q.element != element || (!ref.series.empty() && q.series != ref.series)) continue;
    if (ref.element == "annotation") return {q.x, annotation_std(q.text)};
    if (ref.element == "refline") return {q.y, std::nullopt};  // horizontal: any vertex
    const double value = ref.element == "refline_end" ? q.x : q.y;  // right end, or a line's last vertex
    if (!best_x || q.x > *best_x) { best_x = q.x; v = value; }
  }
  if (!v) throw std::invalid_argument(what + ": not in " + it->second.path);
  return {*v, std::nullopt};
}

Spec with_paper_values(Spec s, const PaperPanels& panels) {
  for (auto& p : s.published) {
    if (!p.paper) continue;
    const PaperValue v = paper_value(s, *p.paper, panels);
    p.value = v.value;
    if (v.std) p.std = v.std;
    const std::string file = panels.panels.at(p.paper->plot).path;
    p.source += (p.source.empty() ? "" : "; ") + std::string("read from ") +
                std::filesystem::path(file).filename().string();
  }
  return s;
}

}  // namespace plab
