#include "experiments/report/verdicts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "experiments/report/report_format.hpp"
#include "experiments/report/group_metrics.hpp"
#include "experiments/report/point_judge.hpp"

namespace plab {

using nlohmann::json;

namespace {

// A number printed from one run against the mean and spread of ours (docs/report.md#one-run): the
// rule of the paper's single-run curves, z of the difference over d = s sqrt(1 + 1/n).
std::string one_run_verdict(const PublishedSpec& p, const Stat& o, double* z) {
  OursAt at;
  at.mean = o.mean;
  at.std = o.std;
  at.n = o.n;
  *z = point_z(p.value, at, Drawn{}, std::numeric_limits<double>::quiet_NaN(), 0.0, p.precision);
  const std::string zt = "z = " + format_metric("", *z);
  if (o.n < 2 || !std::isfinite(o.std)) return "not confirmed (one run: fewer than 2 runs of ours, no spread to judge it by)";
  return *z <= kPointZ ? "confirmed (one run: " + zt + " <= 2)" : "not confirmed (one run: " + zt + " > 2)";
}

std::string published_verdict(const PublishedSpec& p, double dev) {
  if (p.sel.metric == "seconds") return "n/a (paper: MATLAB; ours: C++ learning time)";
  if (p.tol) {
    const std::string v = std::fabs(dev) <= *p.tol * std::fabs(p.value) ? "confirmed" : "not confirmed";
    return v + " (tolerance " + format_metric("", *p.tol * 100) + "% relative)";
  }
  if (p.tol_abs) {
    const std::string v = std::fabs(dev) <= *p.tol_abs ? "confirmed" : "not confirmed";
    return v + " (tolerance ±" + format_metric(p.sel.metric, *p.tol_abs) + ")";
  }
  return "reported";
}

json published_row(const PublishedSpec& p, const Group& g) {
  const std::string& metric = p.sel.metric;
  const Stat o = metric_of(g, metric);
  json r = {{"dataset", g.dataset}, {"algorithm", g.algo_id}, {"label", g.name()}, {"metric", metric},
            {"paper", p.value},     {"n", o.n},               {"source", p.source}, {"note", p.note}};
  if (p.std) r["paper_std"] = *p.std;
  r["ours_mean"] = std::isfinite(o.mean) ? json(o.mean) : json();
  r["ours_std"] = std::isfinite(o.std) ? json(o.std) : json();
  if (o.n == 0) {
    r["verdict"] = kNoResult;
    return r;
  }
  const double dev = o.mean - p.value;
  r["deviation"] = dev;
  r["relative_deviation"] = p.value != 0 ? json(dev / p.value) : json();
  if (p.one_run) {
    double z = 0.0;
    r["verdict"] = one_run_verdict(p, o, &z);
    r["z"] = std::isfinite(z) ? json(z) : json();
    return r;
  }
  r["verdict"] = published_verdict(p, dev);
  return r;
}

// One side of a check: the selected groups' metric (scaled), or a number. `labels` name the
// values (group, metric); `texts` add the shown value ("NORMA [nu=0.1] nu_gap_abs 0.0054").
struct Side {
  std::vector<double> v;
  std::vector<std::string> labels, texts;
  bool missing = false;
  std::size_t index(std::size_t i) const { return v.size() == 1 ? 0 : i; }
};

Side select_side(const Selector& sel, const std::vector<Group>& groups, const std::string& ds) {
  Side s;
  for (const Group* g : select(groups, sel, ds)) {
    const Stat st = metric_of(*g, sel.metric);
    s.missing = s.missing || st.n == 0;
    s.v.push_back(st.mean * sel.scale);
    s.labels.push_back((sel.scale != 1.0 ? format_metric("", sel.scale) + " × " : std::string()) + g->name() + " " +
                       sel.metric);
    s.texts.push_back(s.labels.back() + " " + format_metric(sel.metric, st.mean));
  }
  s.missing = s.missing || s.v.empty();
  return s;
}

Side number_side(double x, const std::string& text) {
  Side s;
  s.v = {x};
  s.labels = s.texts = {text};
  return s;
}

bool compare(const std::string& op, double x, double y, double tol) {
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  return std::fabs(x - y) <= tol * std::fabs(y);  // within (the parser admits no other op)
}

// How far a comparison is from flipping, relative to the numbers compared (docs/report.md#margin):
// positive when it passes, negative when it fails, 0 on the boundary.
double relative_margin(const std::string& op, double x, double y, double tol) {
  const bool within = op == "within";
  const double room = within ? tol * std::fabs(y) - std::fabs(x - y) : (op[0] == '<' ? y - x : x - y);
  const double scale = within ? tol * std::fabs(y) : std::max(std::fabs(x), std::fabs(y));
  if (!std::isfinite(room)) return room;
  return scale > 0 ? room / scale : room;
}

using Check = std::tuple<Side, const ClaimCheck*, Side>;

std::string comparison_text(const Side& a, const ClaimCheck& ch, const Side& b, std::size_t i, bool ok) {
  return a.texts[a.index(i)] + " " + ch.op +
         (ch.op == "within" ? " " + format_metric("", ch.tol * 100) + "% of " : " ") + b.texts[b.index(i)] +
         (ok ? " ✓" : " ✗");
}

}  // namespace

json published_rows(const Spec& s, const std::vector<Group>& groups) {
  json rows = json::array();
  for (const auto& p : s.published)
    for (const Group* g : select(groups, p.sel, "")) rows.push_back(published_row(p, *g));
  return rows;
}

json evaluate_claim(const ClaimSpec& c, const std::vector<Group>& groups) {
  const std::string ds = c.dataset.value_or("");
  std::vector<Check> checks;
  std::size_t n = 1;
  bool missing = false;
  for (const auto& ch : c.checks) {
    Side a = select_side(ch.a, groups, ds);
    Side b = ch.b ? select_side(*ch.b, groups, ds) : number_side(ch.number, ch.number_text);
    missing = missing || a.missing || b.missing;
    n = std::max({n, a.v.size(), b.v.size()});
    checks.emplace_back(std::move(a), &ch, std::move(b));
  }
  for (const auto& [a, ch, b] : checks)
    if ((a.v.size() != 1 && a.v.size() != n) || (b.v.size() != 1 && b.v.size() != n)) missing = true;
  json out = {{"claim", c.claim}, {"source", c.source}, {"points", json::array()}};
  if (missing || checks.empty()) {
    out["verdict"] = kNotEvaluated;
    out["numbers"] = "";
    return out;
  }
  // Every comparison goes to "points" (the figure's claims.csv); a point's margin is its
  // smallest check margin, and the text names the check that sets it.
  std::size_t passed = 0;
  std::vector<std::pair<double, std::string>> point_margin(n);
  for (std::size_t i = 0; i < n; ++i) {
    bool ok = true;
    point_margin[i].first = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < checks.size(); ++k) {
      const auto& [a, ch, b] = checks[k];
      const double x = a.v[a.index(i)], y = b.v[b.index(i)];
      const bool r = compare(ch->op, x, y, ch->tol);
      const double m = relative_margin(ch->op, x, y, ch->tol);
      ok = ok && r;
      if (!(m >= point_margin[i].first)) point_margin[i] = {m, comparison_text(a, *ch, b, i, r)};
      out["points"].push_back({{"point", i + 1}, {"check", k + 1}, {"lhs", a.labels[a.index(i)]}, {"lhs_value", x},
                               {"op", ch->op}, {"rhs", b.labels[b.index(i)]}, {"rhs_value", y},
                               {"tol", ch->op == "within" ? json(ch->tol) : json()}, {"passes", r},
                               {"margin", std::isfinite(m) ? json(m) : json()}});
    }
    passed += ok;
  }
  const bool any = c.quantifier == "any";
  const bool confirmed = any ? passed > 0 : passed == n;
  // "all": the point closest to failing (or failing worst); "any": the point best placed.
  const auto key = [](const auto& p) { return std::isnan(p.first) ? -std::numeric_limits<double>::infinity() : p.first; };
  const auto pick = any ? std::max_element(point_margin.begin(), point_margin.end(),
                                           [&](const auto& x, const auto& y) { return key(x) < key(y); })
                        : std::min_element(point_margin.begin(), point_margin.end(),
                                           [&](const auto& x, const auto& y) { return key(x) < key(y); });
  const char* which = any ? "best" : confirmed ? "tightest" : "worst";
  out["verdict"] = confirmed ? "confirmed" : "not confirmed";
  out["points_passing"] = std::to_string(passed) + "/" + std::to_string(n);
  const std::string of_checks = checks.size() > 1 ? (confirmed ? "tightest of " : "worst of ") +
                                                        std::to_string(checks.size()) + " checks: "
                                                  : std::string();
  out["numbers"] = n == 1 ? of_checks + pick->second
                          : out["points_passing"].get<std::string>() + " points; " + which + ": " + pick->second;
  return out;
}

std::vector<std::string> unevaluated(const json& published, const json& claims) {
  std::vector<std::string> out;
  for (const auto& r : published)
    if (r.value("verdict", "") == kNoResult)
      out.push_back("published " + r.value("dataset", "") + " " + r.value("label", "") + " " + r.value("metric", "") +
                    ": " + kNoResult);
  for (const auto& c : claims)
    if (c.value("verdict", "") == kNotEvaluated) out.push_back("claim \"" + c.value("claim", "") + "\": " + kNotEvaluated);
  return out;
}

}  // namespace plab
