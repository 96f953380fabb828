#include "experiments/report/figure_csv.hpp"

#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include <cmath>
#include <set>
#include <sstream>

#include "core/file_io.hpp"
#include "core/format.hpp"

namespace plab {

using nlohmann::json;

namespace {

// Metrics whose per-permutation values are integers (compared exactly by --check).
const std::set<std::string> kIntegerMetrics = {"rounds", "mistakes", "updates", "margin_errors",
                                               "support_size", "support_reached_at"};
const std::vector<std::string> kMetricOrder = {
    "rounds", "mistakes", "online_error", "support_size", "updates", "margin_errors",
    "support_growth", "support_reached_at", "test_error_last", "test_error_averaged", "test_error_voted", "f_norm2"};

std::vector<std::string> metric_names(const std::vector<Group>& groups) {
  std::set<std::string> have;
  for (const auto& g : groups) for (const auto& [m, v] : g.values) have.insert(m);
  std::vector<std::string> out;
  for (const auto& m : kMetricOrder) if (have.erase(m)) out.push_back(m);
  out.insert(out.end(), have.begin(), have.end());
  return out;
}

std::string point_str(const json& p) {
  std::string s;
  for (const auto& [k, v] : p.items()) s += (s.empty() ? "" : ";") + k + "=" + v.dump();
  return s;
}

json summary_bounds(const Group& g) {
  json sb = json::object();
  for (const auto& [id, rows] : g.bounds) {
    json vals = json::array(), holds = json::array();
    for (const auto& r : rows) { vals.push_back(r["value"]); holds.push_back(r.value("holds", true)); }
    sb[id] = {{"name", rows.empty() ? "" : rows[0].value("name", "")}, {"value", vals}, {"holds", holds}};
  }
  return sb;
}

// One finals.csv row (without the newline) and the group's summary entry.
json finals_row(const Spec& s, const Group& g, const std::vector<std::string>& metrics, std::ostream& fin) {
  fin << s.figure << "," << g.dataset << "," << g.algo_id << "," << csv_field(g.label) << ","
      << csv_field(point_str(g.point)) << "," << (g.values.empty() ? 0 : g.values.begin()->second.size());
  json sm = json::object(), sv = json::object();
  for (const auto& m : metrics) {
    const auto it = g.stats.find(m);
    if (it == g.stats.end()) { fin << ",,"; continue; }
    fin << "," << csv_number(it->second.mean) << "," << csv_number(it->second.std);
    sm[m] = {{"mean", it->second.mean}, {"std", it->second.std}};
    json vals = json::array();
    for (double v : g.values.at(m))
      vals.push_back(kIntegerMetrics.count(m) ? json(static_cast<int64_t>(std::llround(v))) : json(v));
    sv[m] = vals;
  }
  fin << "," << g.errors.size() << "\n";
  json entry = {{"dataset", g.dataset}, {"algorithm", g.algo_id}, {"point", g.point},
                {"failed", g.errors.size()}, {"mean_std", sm}, {"per_permutation", sv}};
  if (const json sb = summary_bounds(g); !sb.empty()) entry["bounds"] = sb;
  return entry;
}

}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) { if (c == '"') o += '"'; o += c; }
  return o + "\"";
}

json write_finals(const Spec& s, const std::vector<Group>& groups, const std::string& fdir) {
  const auto metrics = metric_names(groups);
  std::ostringstream fin;
  fin << "figure,dataset,algorithm,label,point,n";
  for (const auto& m : metrics) fin << "," << m << "_mean," << m << "_std";
  fin << ",failed\n";
  json sgroups = json::array();
  for (const auto& g : groups) sgroups.push_back(finals_row(s, g, metrics, fin));
  write_file_atomic(fdir + "/finals.csv", fin.str());
  return sgroups;
}

void write_timings(const Spec& s, const std::vector<Group>& groups, const std::string& fdir) {
  std::ostringstream tim;
  tim << "figure,dataset,algorithm,point,n,seconds_mean,seconds_std,paper_seconds_matlab\n";
  for (const auto& g : groups) {
    std::string paper;
    for (const auto& p : s.published)
      if (p.sel.metric == "seconds" && p.sel.algorithm == g.algo_id && p.sel.dataset.value_or(g.dataset) == g.dataset)
        paper = csv_number(p.value);
    tim << s.figure << "," << g.dataset << "," << g.algo_id << "," << csv_field(point_str(g.point)) << ","
        << g.seconds.n << "," << csv_number(g.seconds.mean) << "," << csv_number(g.seconds.std) << "," << paper << "\n";
  }
  write_file_atomic(fdir + "/timings.csv", tim.str());
}

namespace {

std::string curves_csv(const std::vector<const Group*>& gs) {
  std::ostringstream cv;
  cv << "t";
  for (const Group* g : gs)
    for (const char* m : {"online_error", "support_size"})
      cv << "," << csv_field(g->name() + " " + m + " mean") << "," << csv_field(g->name() + " " + m + " std");
  cv << "\n";
  const std::vector<double>& t = gs[0]->t;
  for (std::size_t k = 0; k < t.size(); ++k) {
    cv << csv_number(t[k]);
    for (const Group* g : gs)
      for (const char* m : {"online_error", "support_size"}) {
        const bool ok = g->t.size() == t.size();
        cv << "," << (ok ? csv_number(g->curves.at(m)[k].mean) : "") << ","
           << (ok ? csv_number(g->curves.at(m)[k].std) : "");
      }
    cv << "\n";
  }
  return cv.str();
}

}  // namespace

void write_curves(const Spec& s, const std::vector<Group>& groups, const std::string& fdir) {
  for (const auto& ds : s.datasets) {
    std::vector<const Group*> gs;
    for (const auto& g : groups) if (g.dataset == ds.id && !g.t.empty()) gs.push_back(&g);
    if (!gs.empty()) write_file_atomic(fdir + "/curves_" + ds.id + ".csv", curves_csv(gs));
  }
}

void write_published_csv(const Spec& s, const json& rows, const std::string& fdir) {
  std::ostringstream pub;
  pub << "figure,dataset,algorithm,metric,paper,paper_std,ours_mean,ours_std,n,deviation,relative_deviation,verdict,source\n";
  for (const auto& r : rows) {
    auto num = [&](const char* k) { return r.contains(k) && r[k].is_number() ? csv_number(r[k].get<double>()) : ""; };
    pub << s.figure << "," << r["dataset"].get<std::string>() << "," << csv_field(r["label"]) << ","
        << r["metric"].get<std::string>() << "," << num("paper") << "," << num("paper_std") << ","
        << num("ours_mean") << "," << num("ours_std") << "," << r["n"] << "," << num("deviation") << ","
        << num("relative_deviation") << "," << csv_field(r["verdict"]) << "," << csv_field(r["source"]) << "\n";
  }
  write_file_atomic(fdir + "/published.csv", pub.str());
}

namespace {

// gzip of a text: Boost.Iostreams' header carries mtime 0, so the bytes depend on the text alone.
std::string gzip_text(const std::string& text) {
  std::string out;
  boost::iostreams::filtering_ostream gz;
  gz.push(boost::iostreams::gzip_compressor(boost::iostreams::gzip_params(9)));
  gz.push(boost::iostreams::back_inserter(out));
  gz << text;
  gz.reset();  // flushes the compressor into `out`
  return out;
}

}  // namespace

void write_paper_points_csv(const Spec& s, const json& points, const std::string& fdir) {
  if (points.empty()) return;
  std::ostringstream out;
  out << "figure,plot,series,element,curve,x,paper,paper_spread,ours_mean,ours_std,z,deviation,within,not_judged\n";
  for (const auto& p : points) {
    auto num = [&](const char* k) { return p[k].is_number() ? csv_number(p[k].get<double>()) : std::string(); };
    out << s.figure << "," << csv_field(p["plot"]) << "," << csv_field(p["series"]) << "," << p["element"].get<std::string>()
        << "," << p["curve"] << "," << num("x") << "," << num("paper") << "," << num("paper_spread") << ","
        << num("ours_mean") << "," << num("ours_std") << ","
        << (p["z"].is_string() ? std::string("inf") : num("z")) << "," << num("deviation") << ","
        << (p["within"].is_number() ? std::to_string(p["within"].get<int>()) : std::string()) << ","
        << csv_field(p["not_judged"]) << "\n";
  }
  // Figures 6-7 have about 25000 published vertices: compressed, the file stays well under 1 MiB.
  write_file_atomic(fdir + "/paper_points.csv.gz", gzip_text(out.str()));
}

void write_claims_csv(const Spec& s, const json& claims, const std::string& fdir) {
  std::ostringstream out;
  out << "figure,claim,point,check,lhs,lhs_value,op,rhs,rhs_value,tol,passes,margin\n";
  for (std::size_t c = 0; c < claims.size(); ++c)
    for (const auto& p : claims[c]["points"]) {
      auto num = [&](const char* k) { return p[k].is_number() ? csv_number(p[k].get<double>()) : std::string(); };
      out << s.figure << "," << c + 1 << "," << p["point"] << "," << p["check"] << "," << csv_field(p["lhs"]) << ","
          << num("lhs_value") << "," << p["op"].get<std::string>() << "," << csv_field(p["rhs"]) << ","
          << num("rhs_value") << "," << num("tol") << "," << (p["passes"].get<bool>() ? 1 : 0) << "," << num("margin")
          << "\n";
    }
  write_file_atomic(fdir + "/claims.csv", out.str());
}

}  // namespace plab
