#include "experiments/verdicts.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "experiments/report_format.hpp"

namespace plab {

using nlohmann::json;

namespace {

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
  r["verdict"] = published_verdict(p, dev);
  return r;
}

// One side of a check: the selected groups' metric (scaled), or a number.
struct Side {
  std::vector<double> v;
  std::vector<std::string> names;
  bool missing = false;
  const std::string& name(std::size_t i) const { return names[v.size() == 1 ? 0 : i]; }
  double at(std::size_t i) const { return v[v.size() == 1 ? 0 : i]; }
};

Side select_side(const Selector& sel, const std::vector<Group>& groups, const std::string& ds) {
  Side s;
  for (const Group* g : select(groups, sel, ds)) {
    const Stat st = metric_of(*g, sel.metric);
    s.missing = s.missing || st.n == 0;
    s.v.push_back(st.mean * sel.scale);
    s.names.push_back((sel.scale != 1.0 ? format_metric("", sel.scale) + " × " : std::string()) + g->name() +
                      " " + sel.metric + " " + format_metric(sel.metric, st.mean));
  }
  s.missing = s.missing || s.v.empty();
  return s;
}

Side number_side(double x, const std::string& text) {
  Side s;
  s.v = {x};
  s.names = {text};
  return s;
}

bool compare(const std::string& op, double x, double y, double tol) {
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  return std::fabs(x - y) <= tol * std::fabs(y);  // within (the parser admits no other op)
}

using Check = std::tuple<Side, const ClaimCheck*, Side>;

// Passing points, with the first 12 points' comparisons written to `nums`.
std::size_t count_passing(const std::vector<Check>& checks, std::size_t n, std::ostringstream& nums) {
  std::size_t passed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bool ok = true;
    for (const auto& [a, ch, b] : checks) {
      const bool r = compare(ch->op, a.at(i), b.at(i), ch->tol);
      ok = ok && r;
      if (i >= 12) continue;
      nums << (nums.tellp() ? "; " : "") << a.name(i) << " " << ch->op
           << (ch->op == "within" ? " " + format_metric("", ch->tol * 100) + "% of " : " ") << b.name(i)
           << (r ? " ✓" : " ✗");
    }
    passed += ok;
  }
  if (n > 12) nums << "; … (" << n << " points)";
  return passed;
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
  json out = {{"claim", c.claim}, {"source", c.source}};
  if (missing || checks.empty()) {
    out["verdict"] = kNotEvaluated;
    out["numbers"] = "";
    return out;
  }
  std::ostringstream nums;
  const std::size_t passed = count_passing(checks, n, nums);
  const bool confirmed = c.quantifier == "any" ? passed > 0 : passed == n;
  out["verdict"] = confirmed ? "confirmed" : "not confirmed";
  out["points_passing"] = std::to_string(passed) + "/" + std::to_string(n);
  out["numbers"] = nums.str();
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
