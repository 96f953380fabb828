#include "experiments/report/trace_paper.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "experiments/report/paper_curves.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {
namespace {

// A spec's data pattern against a run's data name: "{perm}" and "{seed}" stand for any number.
bool data_matches(const std::string& pattern, const std::string& name) {
  std::size_t i = 0, j = 0;
  while (i < pattern.size()) {
    if (pattern.compare(i, 6, "{perm}") == 0 || pattern.compare(i, 6, "{seed}") == 0) {
      const std::size_t start = j;
      while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
      if (j == start) return false;
      i += 6;
    } else if (j < name.size() && pattern[i] == name[j]) {
      ++i, ++j;
    } else {
      return false;
    }
  }
  return j == name.size();
}

bool kernel_matches(const KernelSpec& k, const nlohmann::json& meta) {
  const nlohmann::json kern = meta.value("kernel", nlohmann::json::object());
  if (kern.value("type", std::string("linear")) != k.type) return false;
  return k.type != "rbf" || kern.value("gamma", -1.0) == k.gamma;
}

// Every fixed or grid parameter of the algorithm equals the trace's option (derived ones, e.g. a
// budget taken from another run's support size, match any value).
bool options_match(const AlgoSpec& a, const nlohmann::json& meta) {
  if (meta.value("algo", std::string()) != a.algo) return false;
  const nlohmann::json opts = meta.value("options", nlohmann::json::object());
  for (const auto& [name, p] : a.params) {
    if (p.kind == ParamSpec::Kind::derived) continue;
    if (!opts.contains(name)) return false;
    const nlohmann::json& v = opts[name];
    if (p.kind == ParamSpec::Kind::fixed ? v != p.value : std::find(p.grid.begin(), p.grid.end(), v) == p.grid.end())
      return false;
  }
  return true;
}

std::vector<Spec> specs_with_paper_curves(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json" && e.path().filename() != "spec.schema.json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Spec> out;
  for (const auto& f : files) {
    Spec s = load_spec(f, false);
    if (std::any_of(s.plots.begin(), s.plots.end(),
                    [](const FigurePlot& p) { return p.type == FigurePlot::Type::curve && p.paper; }))
      out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

PaperOverlay paper_overlay(const std::string& path, const Trace& tr, TraceMetric metric, TraceAxis x,
                           std::vector<std::string>& notes, const std::string& specs_dir) {
  if (x != TraceAxis::rounds || metric == TraceMetric::mistakes) {
    notes.push_back(path + ": --paper: the paper's curves are online error and support size against rounds "
                    "(--metric online_error or support_size, --x rounds)");
    return {};
  }
  const std::string data = tr.meta.value("data", nlohmann::json::object()).value("name", std::string());
  for (const Spec& s : specs_with_paper_curves(specs_dir)) {
    for (const FigurePlot& p : s.plots) {
      if (p.type != FigurePlot::Type::curve || !p.paper || p.metric != metric_name(metric) || !p.dataset) continue;
      const DatasetSpec& ds = s.dataset(*p.dataset);
      if (!data_matches(ds.data, data) || !kernel_matches(ds.kernel, tr.meta)) continue;
      std::set<std::string> series;  // the paper's series drawn for this learner
      for (const auto& [name, id] : p.paper->series)
        if (options_match(s.algorithm(id), tr.meta)) series.insert(name);
      if (series.empty()) continue;
      PaperPanel panel = read_paper_panel(p.paper->path);
      std::erase_if(panel.points, [&](const PaperPoint& q) { return !series.count(q.series); });
      PaperOverlay out{paper_series(s, p, panel), {}};
      if (p.yrange) out.yrange = {{p.yrange->first / p.y_scale, p.yrange->second / p.y_scale}};
      for (PlotSeries& se : out.series) {  // back from the plot's units to the trace's
        for (double& v : se.x) v /= p.x_scale;
        for (double& v : se.y) v /= p.y_scale;
        for (double& v : se.yerr) v /= p.y_scale;
        if (!se.title.empty()) se.title += " (" + s.figure + ")";
      }
      notes.push_back(path + ": --paper: " + s.figure + " " + p.id + " (" + p.paper->file + ")");
      return out;
    }
  }
  notes.push_back(path + ": --paper: no published figure ran this data set, learner and options");
  return {};
}

}  // namespace plab
