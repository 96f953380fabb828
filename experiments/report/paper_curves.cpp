#include "experiments/report/paper_curves.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/file_io.hpp"
#include "core/format.hpp"
#include "experiments/report/group_metrics.hpp"

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

// Precision of a panel and what each series is: manifest.json beside it,
// panels.<stem>.drawing_grid_data.{x,y} in data units and panels.<stem>.drawn.<series>.
void read_manifest_entry(PaperPanel& panel) {
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
  const json* drawn = e->contains("drawn") && (*e)["drawn"].is_object() ? &(*e)["drawn"] : nullptr;
  for (const auto& q : panel.points) {
    if (panel.drawn.count(q.series)) continue;
    const std::string where = manifest + ": panels/" + stem + "/drawn/" + q.series;
    if (!drawn || !drawn->contains(q.series)) throw std::invalid_argument(where + " missing (what the paper drew)");
    const json& d = (*drawn)[q.series];
    if (!d.is_object() || !d.contains("kind") || !d["kind"].is_string() ||
        (d["kind"] != "run" && d["kind"] != "mean") || !d.contains("n") || !d["n"].is_number_unsigned() ||
        d["n"].get<std::size_t>() < 1)
      throw std::invalid_argument(where + ": needs {\"kind\": \"run\" | \"mean\", \"n\" >= 1, \"evidence\"}");
    Drawn w;
    w.mean = d["kind"] == "mean";
    w.n = w.mean ? d["n"].get<std::size_t>() : 1;
    w.evidence = d.value("evidence", "");
    panel.drawn.emplace(q.series, w);
  }
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

// Our series of one algorithm in a plot, unscaled: x ascending, mean, single-run std and the
// permutations behind each.
struct Ours {
  std::vector<double> x, mean, std, n, x_std;
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
        const Stat& st = g.curves.at(p.metric)[k];
        o.x.push_back(g.t[k]);
        o.mean.push_back(st.mean);
        o.std.push_back(st.std);
        o.n.push_back(static_cast<double>(st.n));
        o.x_std.push_back(0.0);
      }
      break;
    }
    return o;
  }
  Selector sel;
  sel.algorithm = algo_id;
  for (const FinalPoint& q : final_points(s, sel, p.x, p.y, groups, ds)) {
    o.x.push_back(q.x); o.mean.push_back(q.y); o.std.push_back(q.y_std); o.n.push_back(static_cast<double>(q.n));
    o.x_std.push_back(q.x_std);
    o.single_x_std = q.x_std;
  }
  o.single = o.x.size() == 1;
  return o;
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
  std::string why_not;  // the reason when not judged
  double ours = kNaN, ours_std = kNaN, paper_spread = kNaN, z = kNaN;
};

std::string range_text(double a, double b) { return "[" + format_g(a, 6) + ", " + format_g(b, 6) + "]"; }

// Ours at the point's x: a reference algorithm as a horizontal line, a series interpolated in x
// (a point beyond our range's end by at most one drawing-grid step plus twice the spread of our
// end point's x is judged at the end: a budget our learner never fills ends below the paper's x).
std::optional<OursAt> ours_at(const PaperPoint& q, const Ours& o, const PaperPanel& panel, std::string& why_not) {
  OursAt a;
  if (o.single) {
    if (q.element != "refline" && std::fabs(q.x - o.x[0]) > panel.dx + o.single_x_std) {
      why_not = "x outside our point's " + range_text(o.x[0] - o.single_x_std, o.x[0] + o.single_x_std);
      return std::nullopt;
    }
    a.mean = o.mean[0]; a.std = o.std[0]; a.n = static_cast<std::size_t>(o.n[0]);
    return a;
  }
  if (q.x < o.x.front() - panel.dx - 2.0 * o.x_std.front() || q.x > o.x.back() + panel.dx + 2.0 * o.x_std.back()) {
    why_not = "x outside our range " + range_text(o.x.front(), o.x.back());
    return std::nullopt;
  }
  const double x = std::clamp(q.x, o.x.front(), o.x.back());
  a.mean = *interpolate(o.x, o.mean, x);
  a.std = *interpolate(o.x, o.std, x);
  a.n = static_cast<std::size_t>(std::lround(*interpolate(o.x, o.n, x)));
  const auto k = static_cast<std::size_t>(std::lower_bound(o.x.begin(), o.x.end(), x) - o.x.begin());
  if (k > 0 && k < o.x.size() && o.x[k] > o.x[k - 1]) a.slope = (o.mean[k] - o.mean[k - 1]) / (o.x[k] - o.x[k - 1]);
  return a;
}

Judged judge_point(const PaperPoint& q, const Ours& o, const Drawn& d, const PaperPanel& panel) {
  Judged r;
  r.paper_spread = q.element == "errorbar" ? 0.5 * (q.hi - q.lo) : kNaN;
  const auto a = ours_at(q, o, panel, r.why_not);
  if (!a) return r;
  r.judged = true;
  r.ours = a->mean; r.ours_std = a->std;
  r.z = point_z(q.y, *a, d, r.paper_spread, panel.dx, panel.dy);
  return r;
}

Judged judge_annotation(const PaperPoint& q, const FigurePlot& p, const Drawn& d, const std::vector<Group>& groups,
                        const std::string& ds) {
  Judged r;
  r.why_not = "no support size of " + p.paper->annotation;
  Selector sel;
  sel.algorithm = p.paper->annotation;
  for (const Group* g : select(groups, sel, ds)) {
    const Stat st = metric_of(*g, "support_size");
    if (st.n == 0) continue;
    r.judged = true;
    r.ours = st.mean; r.ours_std = st.std;
    r.paper_spread = annotation_std(q.text);
    r.z = point_z(q.x, OursAt{st.mean, st.std, 0.0, st.n}, d, r.paper_spread, 0.0, 0.5);  // the text rounds to units
    break;
  }
  return r;
}

// "One published number counts once": a marker on its own line's vertex, a line vertex or marker
// at an error bar's centre, and a reference line's second vertex repeat a number drawn elsewhere.
// The points of one series by element, to find what a point repeats.
struct SeriesPoints {
  std::vector<const PaperPoint*> errorbars, lines, reflines;
  SeriesPoints(const PaperPanel& panel, const std::string& series) {
    for (const auto& q : panel.points) {
      if (q.series != series) continue;
      if (q.element == "errorbar") errorbars.push_back(&q);
      if (q.element == "line") lines.push_back(&q);
      if (q.element == "refline") reflines.push_back(&q);
    }
  }
  // The panel line of the point q repeats, 0 when none.
  std::size_t repeated_by(const PaperPanel& panel, const PaperPoint& q) const {
    auto at = [&](const std::vector<const PaperPoint*>& v) -> std::size_t {
      for (const PaperPoint* r : v)
        if (std::fabs(r->x - q.x) <= panel.dx && std::fabs(r->y - q.y) <= panel.dy) return r->line;
      return 0;
    };
    if (q.element == "refline") return reflines.front() != &q ? reflines.front()->line : 0;
    if (q.element == "line") return at(errorbars);
    if (q.element == "marker") {
      const std::size_t e = at(errorbars);
      return e ? e : at(lines);
    }
    return 0;
  }
};

std::string series_verdict(const SeriesScore& sc, std::size_t outside, bool ours, bool data) {
  if (!data) return "not judged (data not available)";
  if (!ours) return "not judged (no series of ours)";
  if (sc.judged() == 0) return outside ? "not judged (outside our range)" : "not judged (no result)";
  return sc.differs() ? "differs" : "consistent";
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
  read_manifest_entry(panel);
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

json point_row(const FigurePlot& p, const PaperPoint& q, double paper_y, const Judged& r, double dev,
               const std::string& why_not) {
  auto num = [&](double v) { return r.judged && std::isfinite(v) ? json(v) : json(); };
  return {{"plot", p.id},       {"series", q.series},  {"element", q.element},   {"curve", q.curve},
          {"x", q.x},           {"paper", paper_y},    {"paper_spread", std::isnan(r.paper_spread) ? json() : json(r.paper_spread)},
          {"ours_mean", num(r.ours)}, {"ours_std", num(r.ours_std)}, {"z", r.judged ? (std::isfinite(r.z) ? json(r.z) : json("inf")) : json()},
          {"deviation", num(dev)}, {"within", r.judged ? json(r.z <= kPointZ ? 1 : 0) : json()},
          {"not_judged", why_not}};
}

// Points not judged, grouped by reason: [{"reason","count","x_min","x_max"}].
json not_judged_rows(const std::vector<std::pair<std::string, double>>& skipped) {
  std::map<std::string, std::tuple<std::size_t, double, double>> by;
  for (const auto& [why, x] : skipped) {
    auto [it, fresh] = by.try_emplace(why, 0, x, x);
    auto& [n, lo, hi] = it->second;
    ++n; lo = std::min(lo, x); hi = std::max(hi, x);
  }
  json out = json::array();
  for (const auto& [why, v] : by)
    out.push_back({{"reason", why}, {"count", std::get<0>(v)}, {"x_min", std::get<1>(v)}, {"x_max", std::get<2>(v)}});
  return out;
}

}  // namespace

json judge_paper_plot(const Spec& s, const FigurePlot& p, const PaperPanel& panel, const std::vector<Group>& groups,
                      json* points) {
  const std::string ds = plot_dataset(s, p);
  const bool data = !s.unavailable.count(ds);
  json rows = json::array();
  for (const SeriesKey& key : series_keys(panel)) {
    const auto m = p.paper->series.find(key.series);
    const std::string algo = key.annotation ? p.paper->annotation : m == p.paper->series.end() ? "" : m->second;
    const Ours ours = algo.empty() || key.annotation ? Ours{} : ours_of(s, p, algo, groups, ds);
    const Drawn& drawn = panel.drawn.at(key.series);
    const SeriesPoints sp(panel, key.series);
    SeriesScore score;
    std::size_t n = 0, outside = 0, duplicates = 0;
    std::vector<std::pair<std::string, double>> skipped;
    for (const auto& q : panel.points) {
      if (!key.has(q)) continue;
      ++n;
      Judged r;
      std::string why;
      if (const std::size_t rep = key.annotation ? 0 : sp.repeated_by(panel, q)) {
        why = "repeats the number at line " + std::to_string(rep) + " of the panel file";
        ++duplicates;
      } else if (!data) {
        why = "data not available";
      } else if (algo.empty()) {
        why = "no series of ours";
      } else if (key.annotation) {
        r = judge_annotation(q, p, drawn, groups, ds);
      } else if (ours.x.empty()) {
        why = "no result of ours";
      } else {
        r = judge_point(q, ours, drawn, panel);
        outside += !r.judged;
      }
      if (why.empty() && !r.judged) why = r.why_not;
      const double paper_y = key.annotation ? q.x : q.y;
      const double dev = r.judged ? r.ours - paper_y : kNaN;
      if (r.judged) score.add(r.z, dev, q.x);
      else if (why.rfind("repeats", 0) != 0) skipped.emplace_back(why, q.x);
      if (points) points->push_back(point_row(p, q, paper_y, r, dev, why));
    }
    json row = {{"plot", p.id},
                {"series", key.series + (key.annotation ? " (support-size annotation)" : "")},
                {"algorithm", algo},
                {"drawn", drawn.text()},
                {"points", n},
                {"duplicates", duplicates},
                {"judged", score.judged()},
                {"within", score.within()},
                {"outside", outside},
                {"verdict", series_verdict(score, outside, !algo.empty(), data)},
                {"not_judged", not_judged_rows(skipped)}};
    const bool any = score.judged() > 0;
    row["rms_z"] = any ? json(score.rms_z()) : json();
    row["max_z"] = any && std::isfinite(score.max_z()) ? json(score.max_z()) : any ? json("inf") : json();
    row["at_x"] = any ? json(score.at_x()) : json();
    row["direction"] = any ? json(score.direction() > 0 ? "ours above" : score.direction() < 0 ? "ours below" : "none") : json();
    if (key.annotation && !p.paper->annotation_note.empty()) row["note"] = p.paper->annotation_note;
    if (const auto nt = p.paper->notes.find(key.series); !key.annotation && nt != p.paper->notes.end())
      row["note"] = nt->second;
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
