// parse_spec: spec JSON -> typed Spec, strictly (docs/specs.md is the format).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "core/nearest.hpp"
#include "datasets/preprocess.hpp"
#include "experiments/spec.hpp"
#include "experiments/spec_reader.hpp"

namespace plab {

using nlohmann::json;
using spec_detail::Node;

namespace {

// Learner options (the option table) and the metric switches the runner does not pass on.
const std::vector<std::string>& option_name_list() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& o : option_table()) v.push_back(o.name);
    v.push_back("metric_untruncated_tail");  // experiments/norma_metrics.hpp
    return v;
  }();
  return names;
}

const std::vector<std::string> kTopKeys = {
    "figure", "kind", "title", "description", "seed_name", "permutations", "limit", "curve_points",
    "datasets", "defaults", "algorithms", "plots", "published", "claims", "bounds", "analysis",
    "table", "sources", "quick"};
const std::vector<std::string> kQuickKeys = {"permutations", "limit",           "curve_points", "datasets",
                                             "algorithm_params", "claims",      "published"};

// Where each top-level field comes from: "/<key>", or "/quick/<key>" when the quick block
// replaced it (so errors point at the text the author wrote).
struct Doc {
  json merged;
  std::map<std::string, std::string> origin;
  std::string source;
  bool has(const std::string& k) const { return merged.contains(k); }
  Node node(const std::string& k) const { return Node(merged.at(k), origin.at(k), source); }
};

KernelSpec parse_kernel(const Node& n) {
  n.object().allow_keys({"type", "gamma", "degree", "coef0"});
  KernelSpec k;
  if (!n.has("type")) n.fail("missing key \"type\"");
  k.type = n.child("type").choice("kernel type", {"linear", "poly", "polynomial", "rbf", "gaussian"});
  k.gamma = n.number("gamma", 1.0);
  k.coef0 = n.number("coef0", 0.0);
  if (n.has("degree")) k.degree = static_cast<int>(n.child("degree").integer(1));
  if ((k.type == "rbf" || k.type == "gaussian") && !(k.gamma > 0)) n.child("gamma").fail("must be > 0");
  k.raw = n.json();
  return k;
}

// The canonical name of a valid preprocessing (docs/conventions.md#preprocess).
std::string parse_preprocess(const Node& n) {
  try {
    return Preprocess::parse(n.text(), "").name();
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
  }
}

DatasetSpec parse_dataset(const Node& n) {
  n.object().allow_keys({"id", "data", "labels", "test", "order", "preprocess", "kernel", "optional"});
  DatasetSpec d;
  if (!n.has("id")) n.fail("missing key \"id\"");
  d.id = n.child("id").text();
  if (d.id.empty()) n.child("id").fail("must not be empty");
  d.data = n.text("data", d.id);
  d.labels = n.text("labels", "");
  d.test = n.text("test", "");
  if (n.has("order")) d.order = n.child("order").choice("order", {"shuffle", "given"});
  if (n.has("preprocess")) d.preprocess = parse_preprocess(n.child("preprocess"));
  if (n.has("kernel")) d.kernel = parse_kernel(n.child("kernel"));
  d.optional = n.flag("optional", false);
  return d;
}

std::vector<DatasetSpec> parse_datasets(const Node& n, bool is_table) {
  n.array();
  if (n.json().empty() && !is_table) n.fail("must be a non-empty array");
  std::vector<DatasetSpec> out;
  std::set<std::string> ids;
  for (const auto& e : n.elements()) {
    out.push_back(parse_dataset(e));
    if (!ids.insert(out.back().id).second) e.child("id").fail("duplicate dataset id \"" + out.back().id + "\"");
  }
  return out;
}

// Checks an option name (key of params, defaults or quick.algorithm_params).
void check_option(const Node& params, const std::string& name) {
  const auto& names = option_name_list();
  if (std::find(names.begin(), names.end(), name) == names.end())
    params.child(name).fail("unknown option" + did_you_mean(name, names));
}

ParamSpec parse_param(const Node& n) {
  ParamSpec p;
  const json& v = n.json();
  if (v.is_array()) {
    if (v.empty()) n.fail("empty grid");
    p.kind = ParamSpec::Kind::grid;
    for (const auto& e : n.elements()) {
      if (e.json().is_structured()) e.fail("a grid value must be a number, string or boolean");
      p.grid.push_back(e.json());
    }
  } else if (v.is_object()) {
    n.allow_keys({"from", "field", "use"});
    if (!n.has("from")) n.fail("missing key \"from\" (a derived parameter)");
    p.kind = ParamSpec::Kind::derived;
    p.value = v;
    p.derived.from = n.child("from").text();
    if (n.has("field")) {
      p.derived.field = n.child("field").text();
      if (!is_known_metric(p.derived.field)) n.child("field").fail_unknown("metric", p.derived.field, known_metrics());
    }
    if (n.has("use")) p.derived.use = n.child("use").choice("use", {"same_permutation", "mean"});
  } else {
    if (v.is_null()) n.fail("must not be null");
    p.value = v;
  }
  return p;
}

// Fixed and grid values of a learner option have the option's type and allowed values.
void check_values(const Node& n, const std::string& name, const ParamSpec& p) {
  const OptionInfo* row = find_option(name);
  if (!row || p.kind == ParamSpec::Kind::derived) return;  // metric_* switches; derived values are counts
  const std::vector<json> values = p.kind == ParamSpec::Kind::grid ? p.grid : std::vector<json>{p.value};
  for (const auto& v : values) {
    LearnerOptions scratch;
    try {
      row->set(scratch, v, "option");
    } catch (const std::invalid_argument& e) {
      n.fail(std::string(e.what()).substr(std::string("option: ").size()));
    }
  }
}

// Merges option -> ParamSpec entries of `n` into `params` (later sources override). With a
// learner, an option it does not use is an error; `defaults` pass none and are filtered later.
void merge_params(const Node& n, std::map<std::string, ParamSpec>& params, const LearnerInfo* learner = nullptr) {
  n.object();
  for (const auto& k : n.keys()) {
    check_option(n, k);
    if (learner && k.rfind("metric_", 0) != 0 && !learner->uses(k))
      n.child(k).fail(find_option(k)->flag() + " is not an option of " + learner->name);
    params[k] = parse_param(n.child(k));
    check_values(n.child(k), k, params[k]);
  }
}

// Spec-wide defaults reach only the algorithms that use the option.
void merge_defaults(const Node& n, std::map<std::string, ParamSpec>& params, const LearnerInfo& learner) {
  std::map<std::string, ParamSpec> all;
  merge_params(n, all);
  for (auto& [k, v] : all)
    if (k.rfind("metric_", 0) == 0 || learner.uses(k)) params[k] = std::move(v);
}

AlgoSpec parse_algorithm(const Node& n, const Doc& doc, const std::vector<DatasetSpec>& datasets) {
  n.object().allow_keys({"id", "algo", "label", "params", "datasets"});
  AlgoSpec a;
  if (!n.has("algo")) n.fail("missing key \"algo\"");
  a.algo = n.child("algo").text();
  const auto learners = learner_names();
  if (std::find(learners.begin(), learners.end(), a.algo) == learners.end())
    n.child("algo").fail_unknown("algorithm", a.algo, learners);
  a.id = n.text("id", a.algo);
  a.label = n.text("label", a.id);
  const LearnerInfo& info = learner_info(a.algo);
  if (doc.has("defaults")) merge_defaults(doc.node("defaults"), a.params, info);
  if (n.has("params")) merge_params(n.child("params"), a.params, &info);
  std::vector<std::string> ds_ids;
  for (const auto& d : datasets) ds_ids.push_back(d.id);
  if (n.has("datasets"))
    for (const auto& e : n.child("datasets").elements()) {
      const std::string id = e.text();
      if (std::find(ds_ids.begin(), ds_ids.end(), id) == ds_ids.end()) e.fail_unknown("dataset id", id, ds_ids);
      a.datasets.push_back(id);
    }
  int derived = 0;
  for (const auto& [k, p] : a.params) derived += p.kind == ParamSpec::Kind::derived;
  if (derived > 1) n.fail("at most one derived parameter");
  return a;
}

// quick.algorithm_params: {id: {option: value}} patches single algorithms.
void apply_algorithm_patch(const Node& n, std::vector<AlgoSpec>& algos) {
  std::vector<std::string> ids;
  for (const auto& a : algos) ids.push_back(a.id);
  for (const auto& id : n.object().keys()) {
    auto it = std::find_if(algos.begin(), algos.end(), [&](const AlgoSpec& a) { return a.id == id; });
    if (it == algos.end()) n.child(id).fail_unknown("algorithm id", id, ids);
    const LearnerInfo& info = learner_info(it->algo);
    merge_params(n.child(id), it->params, &info);
  }
}

// Stages of the "from" graph; a cycle or an unknown source is an error at the derived parameter.
void check_dependencies(const Node& algos_node, const std::vector<AlgoSpec>& algos) {
  std::vector<std::string> ids;
  for (const auto& a : algos) ids.push_back(a.id);
  for (std::size_t i = 0; i < algos.size(); ++i)
    for (const auto& [k, p] : algos[i].params) {
      if (p.kind != ParamSpec::Kind::derived) continue;
      if (std::find(ids.begin(), ids.end(), p.derived.from) == ids.end()) {
        const Node an = algos_node.child(i);
        const Node at = an.has("params") && an.child("params").has(k) ? an.child("params").child(k) : an;
        at.fail_unknown("algorithm id in \"from\"", p.derived.from, ids);
      }
    }
}

std::vector<AlgoSpec> parse_algorithms(const Doc& doc, const std::vector<DatasetSpec>& datasets) {
  std::vector<AlgoSpec> out;
  if (!doc.has("algorithms")) return out;
  const Node n = doc.node("algorithms");
  std::set<std::string> ids;
  for (const auto& e : n.elements()) {
    out.push_back(parse_algorithm(e, doc, datasets));
    if (!ids.insert(out.back().id).second) e.fail("duplicate algorithm id \"" + out.back().id + "\"");
  }
  if (doc.has("algorithm_params")) apply_algorithm_patch(doc.node("algorithm_params"), out);
  check_dependencies(n, out);
  return out;
}

BoundsSpec parse_bounds(const Node& n) {
  n.object().allow_keys({"comparator", "svm_C", "names"});
  BoundsSpec b;
  if (n.has("comparator")) b.comparator = n.child("comparator").choice("comparator", {"svm", "multipass", "truth", "zero"});
  b.svm_C = n.number("svm_C", 1.0);
  if (n.has("names"))
    for (const auto& e : n.child("names").elements()) {
      const std::string id = e.text();
      if (!find_bound(id)) e.fail_unknown("bound id", id, bound_id_names());
      b.ids.push_back(id);
    }
  b.raw = n.json();
  return b;
}

AnalysisSpec parse_analysis(const Node& n) {
  n.object().allow_keys({"o2b", "rho_profile"});
  AnalysisSpec a;
  a.raw = n.json();
  if (n.has("o2b")) {
    const Node o = n.child("o2b");
    o.object().allow_keys({"delta"});
    a.o2b = O2BSpec{o.number("delta", 0.05)};
    if (!(a.o2b->delta > 0 && a.o2b->delta < 1)) o.child("delta").fail("must be in (0, 1)");
  }
  if (n.has("rho_profile")) {
    const Node r = n.child("rho_profile");
    r.object().allow_keys({"comparator", "svm_C", "rho", "at"});
    RhoProfileSpec p;
    if (r.has("comparator")) p.comparator = r.child("comparator").choice("comparator", {"svm", "multipass", "truth", "zero"});
    p.svm_C = r.number("svm_C", 1.0);
    if (r.has("rho")) p.rho = r.child("rho").numbers();
    for (std::size_t i = 0; i < p.rho.size(); ++i)
      if (!(p.rho[i] > 0)) r.child("rho").child(i).fail("every rho must be > 0");
    p.at = r.opt_number("at");
    if (p.at && !(*p.at > 0)) r.child("at").fail("must be > 0");
    a.rho_profile = p;
  }
  return a;
}

TableSpec parse_table(const Node& n) {
  n.object().allow_keys({"bounds", "algorithms"});
  TableSpec t;
  if (n.has("bounds"))
    for (const auto& e : n.child("bounds").elements()) {
      if (!find_bound(e.text())) e.fail_unknown("bound id", e.text(), bound_id_names());
      t.bounds.push_back(e.text());
    }
  if (n.has("algorithms"))
    for (const auto& e : n.child("algorithms").elements()) {
      const auto learners = learner_names();
      if (std::find(learners.begin(), learners.end(), e.text()) == learners.end())
        e.fail_unknown("algorithm", e.text(), learners);
      t.algorithms.push_back(e.text());
    }
  return t;
}

std::vector<std::string> algorithm_ids(const Spec& s) {
  std::vector<std::string> ids;
  for (const auto& a : s.algorithms) ids.push_back(a.id);
  return ids;
}
std::vector<std::string> dataset_ids(const Spec& s) {
  std::vector<std::string> ids;
  for (const auto& d : s.datasets) ids.push_back(d.id);
  return ids;
}

void check_algorithm_id(const Node& n, const Spec& s, bool allow_all) {
  const std::string id = n.text();
  const auto ids = algorithm_ids(s);
  if ((allow_all && id == "*") || std::find(ids.begin(), ids.end(), id) != ids.end()) return;
  n.fail_unknown("algorithm id", id, ids);
}

// "" selects every data set of the figure.
std::string check_dataset_id(const Node& n, const Spec& s) {
  const std::string id = n.text();
  const auto ids = dataset_ids(s);
  if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) n.fail_unknown("dataset id", id, ids);
  return id;
}

std::string check_metric(const Node& n, bool plot_axis) {
  const std::string m = n.text();
  if (plot_axis && (m.rfind("point:", 0) == 0 || m.rfind("dataset:", 0) == 0) && m.find(':') + 1 < m.size()) return m;
  if (is_known_metric(m)) return m;
  for (const char* p : {"bound:", "bound_ratio:"})
    if (m.rfind(p, 0) == 0) n.fail_unknown("bound id", m.substr(std::string(p).size()), bound_id_names());
  n.fail_unknown("metric", m, known_metrics());
}

// The selector fields of `n` (algorithm required; metric when `metric` is set).
Selector parse_selector(const Node& n, const Spec& s, bool metric) {
  Selector sel;
  if (!n.has("algorithm")) n.fail("missing key \"algorithm\"");
  check_algorithm_id(n.child("algorithm"), s, true);
  sel.algorithm = n.child("algorithm").text();
  if (n.has("dataset")) sel.dataset = check_dataset_id(n.child("dataset"), s);
  if (n.has("point")) sel.point = n.child("point").object().json();
  if (metric) {
    if (!n.has("metric")) n.fail("missing key \"metric\"");
    sel.metric = check_metric(n.child("metric"), false);
  }
  sel.scale = n.number("scale", 1.0);
  return sel;
}

const std::vector<std::string> kStyles = {"lines", "points", "linespoints", "errorbars", "xyerrorbars", "hline"};

PlotSeriesSpec parse_series(const Node& n, const Spec& s, FigurePlot::Type type) {
  if (type == FigurePlot::Type::final)
    n.object().allow_keys({"algorithm", "dataset", "point", "x", "y", "title", "color", "style"});
  else
    n.object().allow_keys({"algorithm", "dataset", "profile", "metric", "title", "color", "style"});
  PlotSeriesSpec se;
  se.sel = parse_selector(n, s, false);
  if (n.has("x")) se.x = check_metric(n.child("x"), true);
  if (n.has("y")) se.y = check_metric(n.child("y"), true);
  se.title = n.opt_text("title");
  se.color = n.opt_text("color");
  if (n.has("style")) se.style = n.child("style").choice("series style", kStyles);
  if (n.has("metric")) se.metric = check_metric(n.child("metric"), false);
  if (n.has("profile")) se.profile = n.child("profile").choice("profile", rho_profile_names());
  if (type == FigurePlot::Type::profile && !se.metric && se.profile.empty())
    n.fail("a profile series needs \"profile\" or \"metric\"");
  return se;
}

std::pair<double, double> parse_range(const Node& n) {
  const auto v = n.numbers();
  if (v.size() != 2) n.fail("must be [low, high]");
  return {v[0], v[1]};
}

void parse_curve_fields(const Node& n, FigurePlot& p, const Spec& s) {
  if (n.has("metric")) p.metric = n.child("metric").choice("curve metric", {"online_error", "support_size"});
  p.xmin = n.number("xmin", 0.0);
  p.window = n.number("window", 0.0);
  if (n.has("algorithms"))
    for (const auto& e : n.child("algorithms").elements()) {
      check_algorithm_id(e, s, false);
      p.algorithms.push_back(e.text());
    }
  if (n.has("colors"))
    for (const auto& k : n.child("colors").keys()) {
      check_algorithm_id(Node(json(k), n.child("colors").child(k).pointer(), n.source()), s, false);
      p.colors[k] = n.child("colors").child(k).text();
    }
  if (n.has("vlines")) p.vlines = n.child("vlines").numbers();
}

const std::vector<std::string> kPlotCommon = {"id", "type", "dataset", "title", "xlabel", "ylabel", "key",
                                              "logx", "logy", "xrange", "yrange", "x_scale", "y_scale", "paper"};

// {"file": CSV relative to the spec's folder, "series": {paper series: algorithm id},
//  "annotation": {"algorithm": id, "note": how the attribution was inferred}}
PaperPlotSpec parse_paper_plot(const Node& n, const Spec& s) {
  n.object().allow_keys({"file", "series", "annotation"});
  PaperPlotSpec pp;
  if (!n.has("file")) n.fail("missing key \"file\"");
  pp.file = n.child("file").text();
  const std::string dir = std::filesystem::path(s.source).parent_path().string();
  pp.path = dir.empty() ? pp.file : dir + "/" + pp.file;
  if (n.has("series"))
    for (const auto& k : n.child("series").object().keys()) {
      const Node v = n.child("series").child(k);
      check_algorithm_id(v, s, false);
      pp.series[k] = v.text();
    }
  if (n.has("annotation")) {
    const Node a = n.child("annotation");
    a.object().allow_keys({"algorithm", "note"});
    if (!a.has("algorithm")) a.fail("missing key \"algorithm\"");
    check_algorithm_id(a.child("algorithm"), s, false);
    pp.annotation = a.child("algorithm").text();
    pp.annotation_note = a.text("note", "");
  }
  return pp;
}

std::vector<std::string> plot_keys(FigurePlot::Type t) {
  std::vector<std::string> k = kPlotCommon;
  if (t == FigurePlot::Type::curve) k.insert(k.end(), {"metric", "xmin", "window", "algorithms", "colors", "vlines"});
  else if (t == FigurePlot::Type::final) k.insert(k.end(), {"x", "y", "series"});
  else k.push_back("series");
  return k;
}

FigurePlot parse_plot(const Node& n, const Spec& s) {
  n.object();
  FigurePlot p;
  const std::string type = n.has("type") ? n.child("type").choice("plot type", {"curve", "final", "profile"}) : "curve";
  p.type = type == "final" ? FigurePlot::Type::final : type == "profile" ? FigurePlot::Type::profile : FigurePlot::Type::curve;
  n.allow_keys(plot_keys(p.type));
  if (!n.has("id")) n.fail("missing key \"id\"");
  p.id = n.child("id").text();
  if (n.has("dataset")) p.dataset = check_dataset_id(n.child("dataset"), s);
  p.title = n.opt_text("title");
  p.xlabel = n.text("xlabel", p.xlabel);
  p.ylabel = n.text("ylabel", "");
  p.key = n.text("key", p.key);
  p.logx = n.flag("logx", false);
  p.logy = n.flag("logy", false);
  if (n.has("xrange")) p.xrange = parse_range(n.child("xrange"));
  if (n.has("yrange")) p.yrange = parse_range(n.child("yrange"));
  p.x_scale = n.number("x_scale", 1.0);
  p.y_scale = n.number("y_scale", 1.0);
  if (p.type == FigurePlot::Type::curve) parse_curve_fields(n, p, s);
  if (n.has("x")) p.x = check_metric(n.child("x"), true);
  if (n.has("y")) p.y = check_metric(n.child("y"), true);
  if (n.has("series"))
    for (const auto& e : n.child("series").elements()) p.series.push_back(parse_series(e, s, p.type));
  if (n.has("paper")) {
    if (p.type == FigurePlot::Type::profile) n.child("paper").fail("a profile plot has no paper data");
    p.paper = parse_paper_plot(n.child("paper"), s);
  }
  return p;
}

std::vector<FigurePlot> parse_plots(const Node& n, const Spec& s) {
  std::vector<FigurePlot> out;
  std::set<std::string> ids;
  for (const auto& e : n.elements()) {
    out.push_back(parse_plot(e, s));
    if (!ids.insert(out.back().id).second) e.child("id").fail("duplicate plot id \"" + out.back().id + "\"");
  }
  return out;
}

// "value": {"plot": id, "series": paper series, "element": annotation | refline | line}
PaperRef parse_paper_ref(const Node& n, const Spec& s) {
  n.allow_keys({"plot", "series", "element"});
  for (const char* k : {"plot", "element"})
    if (!n.has(k)) n.fail(std::string("missing key \"") + k + "\"");
  PaperRef r;
  r.plot = n.child("plot").text();
  std::vector<std::string> with_paper;
  for (const auto& p : s.plots)
    if (p.paper) with_paper.push_back(p.id);
  if (std::find(with_paper.begin(), with_paper.end(), r.plot) == with_paper.end())
    n.child("plot").fail_unknown("plot with paper data", r.plot, with_paper);
  r.element = n.child("element").choice("paper element", {"annotation", "refline", "refline_end", "line"});
  r.series = n.text("series", "");
  if (r.series.empty() && r.element != "annotation") n.fail("missing key \"series\"");
  return r;
}

std::vector<PublishedSpec> parse_published(const Node& n, const Spec& s) {
  std::vector<PublishedSpec> out;
  for (const auto& e : n.elements()) {
    e.object().allow_keys({"dataset", "algorithm", "point", "metric", "value", "std", "tol", "tol_abs", "source", "note"});
    PublishedSpec p;
    p.sel = parse_selector(e, s, true);
    if (!e.has("value")) e.fail("missing key \"value\"");
    if (e.child("value").json().is_object()) p.paper = parse_paper_ref(e.child("value"), s);
    else p.value = e.child("value").number();
    p.std = e.opt_number("std");
    p.tol = e.opt_number("tol");
    p.tol_abs = e.opt_number("tol_abs");
    p.source = e.text("source", "");
    p.note = e.text("note", "");
    out.push_back(p);
  }
  return out;
}

ClaimCheck parse_check(const Node& n, const Spec& s) {
  n.object().allow_keys({"a", "op", "b", "tol"});
  ClaimCheck c;
  if (!n.has("a")) n.fail("missing key \"a\"");
  if (!n.has("b")) n.fail("missing key \"b\"");
  const Node a = n.child("a");
  a.object().allow_keys({"algorithm", "metric", "dataset", "point", "scale"});
  c.a = parse_selector(a, s, true);
  const Node b = n.child("b");
  if (b.json().is_number()) {
    c.number = b.number();
    c.number_text = b.json().dump();
  }
  else {
    b.object().allow_keys({"algorithm", "metric", "dataset", "point", "scale"});
    c.b = parse_selector(b, s, true);
  }
  if (n.has("op")) c.op = n.child("op").choice("op", {"<", "<=", ">", ">=", "within"});
  c.tol = n.number("tol", 0.0);
  return c;
}

std::vector<ClaimSpec> parse_claims(const Node& n, const Spec& s) {
  std::vector<ClaimSpec> out;
  for (const auto& e : n.elements()) {
    e.object().allow_keys({"claim", "dataset", "quantifier", "source", "checks"});
    ClaimSpec c;
    c.claim = e.text("claim", "");
    c.source = e.text("source", "");
    if (e.has("quantifier")) c.quantifier = e.child("quantifier").choice("quantifier", {"all", "any"});
    if (e.has("dataset")) c.dataset = check_dataset_id(e.child("dataset"), s);
    if (!e.has("checks")) e.fail("missing key \"checks\"");
    for (const auto& ch : e.child("checks").elements()) c.checks.push_back(parse_check(ch, s));
    if (c.checks.empty()) e.child("checks").fail("must be a non-empty array");
    out.push_back(c);
  }
  return out;
}

void parse_scalars(const Doc& doc, const Node& root, Spec& s) {
  s.title = doc.has("title") ? doc.node("title").text() : s.figure;
  s.description = doc.has("description") ? doc.node("description").text() : "";
  s.seed_name = doc.has("seed_name") ? doc.node("seed_name").text() : s.figure;
  if (doc.has("permutations")) s.permutations = static_cast<int>(doc.node("permutations").integer(1));
  if (doc.has("limit")) s.limit = static_cast<std::size_t>(doc.node("limit").integer(0));
  if (doc.has("curve_points")) s.curve_points = static_cast<std::size_t>(doc.node("curve_points").integer(2));
  if (doc.has("kind")) root.child("kind").choice("kind", {"table"});
}

Spec build(const Doc& doc, const Node& root) {
  Spec s;
  s.source = doc.source;
  s.figure = root.child("figure").text();
  parse_scalars(doc, root, s);
  const bool is_table = doc.has("kind");
  if (!doc.has("datasets") && !is_table) root.fail("missing key \"datasets\"");
  if (!doc.has("algorithms") && !is_table) root.fail("missing key \"algorithms\"");
  if (doc.has("datasets")) s.datasets = parse_datasets(doc.node("datasets"), is_table);
  if (doc.has("defaults")) doc.node("defaults").object();
  s.algorithms = parse_algorithms(doc, s.datasets);
  if (doc.has("bounds")) s.bounds = parse_bounds(doc.node("bounds"));
  if (doc.has("analysis")) s.analysis = parse_analysis(doc.node("analysis"));
  if (doc.has("sources")) s.sources = doc.node("sources").texts();
  if (is_table) {
    s.table = doc.has("table") ? parse_table(doc.node("table")) : TableSpec{};
    if (s.sources.empty()) root.fail("a \"table\" figure needs \"sources\"");
  } else if (doc.has("table")) {
    doc.node("table").fail("only a figure of \"kind\": \"table\" has a table");
  }
  if (doc.has("plots")) s.plots = parse_plots(doc.node("plots"), s);
  if (doc.has("published")) s.published = parse_published(doc.node("published"), s);
  if (doc.has("claims")) s.claims = parse_claims(doc.node("claims"), s);
  try {
    s.stages();
  } catch (const std::invalid_argument& e) {
    doc.node("algorithms").fail("circular \"from\" dependencies");
  }
  return s;
}

Doc full_doc(const json& j, const std::string& source) {
  Doc d{j, {}, source};
  for (const auto& [k, v] : j.items()) d.origin[k] = "/" + spec_detail::pointer_token(k);
  return d;
}

Doc quick_doc(const json& j, const std::string& source) {
  Doc d = full_doc(j, source);
  d.merged.erase("quick");
  const Node q(j.at("quick"), "/quick", source);
  q.object().allow_keys(kQuickKeys);
  for (const auto& [k, v] : j.at("quick").items()) {
    d.merged[k] = v;
    d.origin[k] = "/quick/" + spec_detail::pointer_token(k);
  }
  return d;
}

}  // namespace

Spec parse_spec(const json& j, bool quick, const std::string& source) {
  const Node root(j, "", source);
  root.object().allow_keys(kTopKeys);
  if (!j.contains("figure")) root.fail("missing key \"figure\"");
  if (root.child("figure").text().empty()) root.child("figure").fail("must not be empty");
  Doc full = full_doc(j, source);
  full.merged.erase("quick");
  Spec s = build(full, root);
  if (!j.contains("quick")) return s;
  Spec q = build(quick_doc(j, source), root);  // validated in either mode
  return quick ? q : s;
}

AnalysisSpec parse_analysis(const json& j, const std::string& where) {
  if (j.is_null()) return {};
  return parse_analysis(Node(j, "/analysis", where));
}

Spec load_spec(const std::string& path, bool quick) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read the spec");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::invalid_argument(path + ": not valid JSON: " + e.what());
  }
  return parse_spec(j, quick, path);
}

}  // namespace plab
