// parse_spec: spec JSON -> typed Spec. The structure (keys, types, values, ranges) is checked first
// against the declarations of spec_format.hpp; what remains here are the cross-references.
#include <cstring>
#include <cctype>
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "config/given_options.hpp"
#include "config/learner_config.hpp"
#include "config/run_config.hpp"
#include "datasets/preprocess.hpp"
#include "core/file_io.hpp"
#include "datasets/text_parse.hpp"
#include "core/json_text.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/spec/spec_format.hpp"
#include "experiments/spec/spec_options.hpp"
#include "experiments/spec/spec_reader.hpp"

namespace plab {

using nlohmann::json;
using spec_detail::Node;

namespace {

// Where each top-level field comes from: "/<key>", or "/quick/<key>" when the quick block
// replaced it (so errors point at the text the author wrote).
struct Doc {
  json merged;
  std::map<std::string, std::string> origin;
  std::string source;
  bool has(const std::string& k) const { return merged.contains(k); }
  Node node(const std::string& k) const { return Node(merged.at(k), origin.at(k), source); }
};

// The keys of `n` among `keys` as options given to a run, each at its file and JSON path: the
// one configuration step (config/run_config.hpp) checks them as it checks flags.
GivenOptions given_at(const Node& n, const std::vector<std::string>& keys) {
  GivenOptions g;
  g.spell = [](const std::string& key, const std::string& v) {
    const std::string k = key == "kernel" ? "type" : key;  // the kernel's selector is the key "type"
    return v.empty() ? k : "\"" + k + "\": \"" + v + "\"";
  };
  for (const auto& k : keys)
    if (n.has(k)) g.add(k == "type" ? "kernel" : k, n.child(k).json(), n.source() + ": " + n.child(k).pointer(), k);
  return g;
}

KernelSpec parse_kernel(const Node& n) {
  KernelSpec k;
  k.type = n.child("type").text();
  const Kernel kernel = configure_kernel(given_at(n, {"type", "gamma", "coef0", "degree"}));
  k.gamma = kernel.gamma;
  k.coef0 = kernel.coef0;
  k.degree = kernel.degree;
  k.raw = n.json();
  return k;
}

// A comparator block's kind (`kind`: the default) and svm_C, checked by the configuration step.
void parse_comparator(const Node& n, std::string& kind, double& svm_C) {
  ComparatorRequest c;
  c.kind = kind;
  configure_comparator(c, given_at(n, {"comparator", "svm_C"}), nullptr, Kernel{});
  kind = c.kind;
  svm_C = c.svm_C;
}

// An id that names files and folders of the results (the figure, a data set's curves, a series'
// column, a plot's script): letters, digits and _ . + = -, not starting with '.', so that it never
// leaves --results (`../../x`) or hides a file.
std::string file_id(const Node& n) {
  const std::string id = n.text();
  const bool ok = !id.empty() && id.size() <= 128 && id[0] != '.' &&
                  std::all_of(id.begin(), id.end(), [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || (c != '\0' && std::strchr("_.+=-", c) != nullptr);
                  });
  if (!ok)
    n.fail("must be a name of 1 to 128 letters, digits and _ . + = - not starting with '.' (it names result files), got " +
           detail::quote(id));
  return id;
}

DatasetSpec parse_dataset(const Node& n) {
  DatasetSpec d;
  d.id = file_id(n.child("id"));
  d.data = n.text("data", d.id);
  // The label map and the preprocessing are the run's own options: checked when the spec is read,
  // by the configuration step that checks --labels and --preprocess.
  const RunOptions run = configure_run(given_at(n, {"labels", "preprocess"}));
  d.labels = run.labels;
  d.test = n.text("test", "");
  d.order = n.text("order", d.order);
  d.preprocess = Preprocess::parse(run.preprocess, "").name();
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

ParamSpec parse_param(const Node& n) {
  ParamSpec p;
  const json& v = n.json();
  if (v.is_array()) {
    p.kind = ParamSpec::Kind::grid;
    p.grid = v.get<std::vector<json>>();
  } else if (v.is_object()) {
    p.kind = ParamSpec::Kind::derived;
    p.value = v;
    p.derived.from = n.child("from").text();
    p.derived.field = n.text("field", p.derived.field);
    p.derived.use = n.text("use", p.derived.use);
  } else {
    p.value = v;
  }
  return p;
}

bool is_learner_option(const std::string& name) { return find_spec_option(name)->owner == "learner"; }

// A learner option of the spec, each value of a grid, through the check of given options of the
// configuration step (check_given_learner_options): a learner that does not take it, a value
// outside that learner's range (eta 0 is a Projectron's, not BOGD's), named as the spec writes it.
void check_learner_param(const Node& n, const std::string& key, const LearnerInfo& learner) {
  const auto& v = n.json();
  // A derived value (an object) is not known yet: its owner alone now, its values when the cell is configured.
  for (const auto& e : v.is_array() ? v : v.is_object() ? nlohmann::json::array({nullptr}) : nlohmann::json::array({v})) {
    GivenOptions g;
    g.add(key, e);
    try {
      check_given_learner_options(learner, g);
    } catch (const std::invalid_argument& err) {
      n.fail(err.what());
    }
  }
}

// Merges option -> ParamSpec entries of `n` into `params` (later sources override). With a
// learner, an option it does not use is an error; `defaults` pass none and are filtered later.
void merge_params(const Node& n, std::map<std::string, ParamSpec>& params, const LearnerInfo* learner = nullptr) {
  for (const auto& k : n.keys()) {
    if (learner && is_learner_option(k)) check_learner_param(n.child(k), k, *learner);
    params[k] = parse_param(n.child(k));
  }
}

// Spec-wide defaults reach only the algorithms that use the option.
void merge_defaults(const Node& n, std::map<std::string, ParamSpec>& params, const LearnerInfo& learner) {
  std::map<std::string, ParamSpec> all;
  merge_params(n, all);
  for (auto& [k, v] : all)
    if (!is_learner_option(k) || learner.uses(k)) {
      if (is_learner_option(k)) check_learner_param(n.child(k), k, learner);
      params[k] = std::move(v);
    }
}

AlgoSpec parse_algorithm(const Node& n, const Doc& doc, const std::vector<DatasetSpec>& datasets) {
  AlgoSpec a;
  a.algo = n.child("algo").text();
  a.id = n.has("id") ? file_id(n.child("id")) : a.algo;
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
  for (const auto& id : n.keys()) {
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

// Each grid point of a learner's options through the configuration step (configure_learner_options:
// the rules between its options, its validate(), and the ranges of the defaults, such as a budget
// learner given no budget) when the spec is read, not when its cell runs. An algorithm with a
// derived parameter is checked when its cells are configured (the value comes from another
// algorithm's results), and one of more than kCheckedPoints points by its values alone.
void check_learner_points(const Node& n, const std::vector<AlgoSpec>& algos) {
  constexpr std::size_t kCheckedPoints = 4096;
  for (std::size_t i = 0; i < algos.size(); ++i) {
    const AlgoSpec& a = algos[i];
    std::vector<json> points{json::object()};
    bool unknown = false;  // a derived value, or too many points
    for (const auto& [k, p] : a.params) {
      if (!is_learner_option(k)) continue;
      const std::vector<json> values = p.kind == ParamSpec::Kind::grid ? p.grid : std::vector<json>{p.value};
      unknown = p.kind == ParamSpec::Kind::derived || points.size() * values.size() > kCheckedPoints;
      if (unknown) break;
      std::vector<json> next;
      for (const json& q : points)
        for (const json& v : values) (next.emplace_back(q))[k] = v;
      points = std::move(next);
    }
    if (unknown) continue;
    for (const json& point : points) try {
        (void)configure_learner_options(learner_info(a.algo), given_from_json(point));
      } catch (const std::invalid_argument& e) {
        n.child(i).fail(std::string(e.what()) + (point.empty() ? "" : " (params " + point.dump() + ")"));
      }
  }
}

std::vector<AlgoSpec> parse_algorithms(const Doc& doc, const std::vector<DatasetSpec>& datasets) {
  std::vector<AlgoSpec> out;
  if (!doc.has("algorithms")) return out;
  const Node n = doc.node("algorithms");
  if (n.json().is_array() && n.json().empty() && !doc.has("kind")) n.fail("must be a non-empty array");
  std::set<std::string> ids;
  for (const auto& e : n.elements()) {
    out.push_back(parse_algorithm(e, doc, datasets));
    if (!ids.insert(out.back().id).second) e.fail("duplicate algorithm id \"" + out.back().id + "\"");
  }
  if (doc.has("algorithm_params")) apply_algorithm_patch(doc.node("algorithm_params"), out);
  check_dependencies(n, out);
  check_learner_points(n, out);
  // A learner on a data set whose kernel it does not take is refused here, not when its cell runs.
  for (std::size_t i = 0; i < out.size(); ++i)
    for (const auto& ds : datasets) {
      const auto& only = out[i].datasets;
      if (!only.empty() && std::find(only.begin(), only.end(), ds.id) == only.end()) continue;
      GivenOptions kernel;  // the data set's kernel, spelt as the spec gives it
      kernel.add("kernel", ds.kernel.type);
      kernel.spell = [&](const std::string&, const std::string& type) { return "the " + type + " kernel of data set \"" + ds.id + "\""; };
      try {
        check_learner_takes(learner_info(out[i].algo), Kernel{.type = Kernel::parse_type(ds.kernel.type)}, kernel);
      } catch (const std::invalid_argument& e) {
        n.child(i).fail(e.what());
      }
    }
  return out;
}

BoundsSpec parse_bounds(const Node& n) {
  BoundsSpec b;
  parse_comparator(n, b.comparator, b.svm_C);
  b.ids = n.texts("names");
  if (n.has("permutations")) b.permutations = static_cast<std::size_t>(n.child("permutations").integer(1));
  b.raw = n.json();
  b.raw.erase("permutations");
  return b;
}

AnalysisSpec parse_analysis(const Node& n) {
  AnalysisSpec a;
  a.raw = n.json();
  if (n.has("o2b")) a.o2b = O2BSpec{n.child("o2b").number("delta", 0.05)};
  if (n.has("rho_profile")) {
    const Node r = n.child("rho_profile");
    RhoProfileSpec p;
    parse_comparator(r, p.comparator, p.svm_C);
    if (r.has("rho")) p.rho = r.child("rho").numbers();
    p.at = r.opt_number("at");
    a.rho_profile = p;
  }
  return a;
}

TableSpec parse_table(const Node& n) { return {n.texts("bounds"), n.texts("algorithms")}; }

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

// The selector fields of `n` (algorithm required; metric when `metric` is set).
Selector parse_selector(const Node& n, const Spec& s, bool metric) {
  Selector sel;
  check_algorithm_id(n.child("algorithm"), s, true);
  sel.algorithm = n.child("algorithm").text();
  if (n.has("dataset")) sel.dataset = check_dataset_id(n.child("dataset"), s);
  if (n.has("point")) sel.point = n.child("point").json();
  if (metric) sel.metric = n.child("metric").text();
  sel.scale = n.number("scale", 1.0);
  return sel;
}

PlotSeriesSpec parse_series(const Node& n, const Spec& s, FigurePlot::Type type) {
  PlotSeriesSpec se;
  se.sel = parse_selector(n, s, false);
  se.x = n.opt_text("x");
  se.y = n.opt_text("y");
  se.title = n.opt_text("title");
  se.color = n.opt_text("color");
  se.style = n.opt_text("style");
  se.metric = n.opt_text("metric");
  se.profile = n.text("profile", "");
  if (type == FigurePlot::Type::profile && !se.metric && se.profile.empty())
    n.fail("a profile series needs \"profile\" or \"metric\"");
  return se;
}

std::pair<double, double> parse_range(const Node& n) {
  const auto v = n.numbers();
  return {v.at(0), v.at(1)};
}

void parse_curve_fields(const Node& n, FigurePlot& p, const Spec& s) {
  p.metric = n.text("metric", p.metric);
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

// {"file": CSV relative to the spec's folder, "series": {paper series: algorithm id},
//  "notes": {paper series (a key of "series"): note beside its verdict},
//  "annotation": {"algorithm": id, "note": how the attribution was inferred}}
PaperPlotSpec parse_paper_plot(const Node& n, const Spec& s) {
  PaperPlotSpec pp;
  pp.file = n.child("file").text();
  const std::string dir = std::filesystem::path(s.source).parent_path().string();
  pp.path = dir.empty() ? pp.file : dir + "/" + pp.file;
  if (n.has("series"))
    for (const auto& k : n.child("series").keys()) {
      const Node v = n.child("series").child(k);
      check_algorithm_id(v, s, false);
      pp.series[k] = v.text();
    }
  if (n.has("notes"))
    for (const auto& k : n.child("notes").keys()) {
      const Node v = n.child("notes").child(k);
      if (!pp.series.count(k)) v.fail("\"" + k + "\" is not a paper series of \"series\"");
      pp.notes[k] = v.text();
    }
  if (n.has("annotation")) {
    const Node a = n.child("annotation");
    check_algorithm_id(a.child("algorithm"), s, false);
    pp.annotation = a.child("algorithm").text();
    pp.annotation_note = a.text("note", "");
  }
  return pp;
}

FigurePlot parse_plot(const Node& n, const Spec& s) {
  FigurePlot p;
  const std::string type = n.text("type", "curve");
  p.type = type == "final" ? FigurePlot::Type::final : type == "profile" ? FigurePlot::Type::profile : FigurePlot::Type::curve;
  p.id = file_id(n.child("id"));
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
  p.x = n.text("x", p.x);
  p.y = n.text("y", p.y);
  if (n.has("series"))
    for (const auto& e : n.child("series").elements()) p.series.push_back(parse_series(e, s, p.type));
  if (n.has("paper")) p.paper = parse_paper_plot(n.child("paper"), s);
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
  PaperRef r;
  r.plot = n.child("plot").text();
  std::vector<std::string> with_paper;
  for (const auto& p : s.plots)
    if (p.paper) with_paper.push_back(p.id);
  if (std::find(with_paper.begin(), with_paper.end(), r.plot) == with_paper.end())
    n.child("plot").fail_unknown("plot with paper data", r.plot, with_paper);
  r.element = n.child("element").text();
  r.series = n.text("series", "");
  if (r.series.empty() && r.element != "annotation") n.fail("missing key \"series\"");
  return r;
}

std::vector<PublishedSpec> parse_published(const Node& n, const Spec& s) {
  std::vector<PublishedSpec> out;
  for (const auto& e : n.elements()) {
    PublishedSpec p;
    p.sel = parse_selector(e, s, true);
    if (e.child("value").json().is_object()) p.paper = parse_paper_ref(e.child("value"), s);
    else p.value = e.child("value").number();
    p.std = e.opt_number("std");
    p.tol = e.opt_number("tol");
    p.tol_abs = e.opt_number("tol_abs");
    p.one_run = e.text("drawn", "") == "one run";
    p.precision = e.opt_number("precision").value_or(0.0);
    if (p.one_run && (p.tol || p.tol_abs)) e.fail("\"drawn\": \"one run\" is judged by its own rule: no tol or tol_abs beside it");
    if (!(p.precision >= 0.0)) e.child("precision").fail("must be >= 0");
    p.source = e.text("source", "");
    p.note = e.text("note", "");
    out.push_back(p);
  }
  return out;
}

ClaimCheck parse_check(const Node& n, const Spec& s) {
  ClaimCheck c;
  c.a = parse_selector(n.child("a"), s, true);
  const Node b = n.child("b");
  if (b.json().is_number()) {
    c.number = b.number();
    c.number_text = b.json().dump();
  } else {
    c.b = parse_selector(b, s, true);
  }
  c.op = n.text("op", c.op);
  c.tol = n.number("tol", 0.0);
  return c;
}

std::vector<ClaimSpec> parse_claims(const Node& n, const Spec& s) {
  std::vector<ClaimSpec> out;
  for (const auto& e : n.elements()) {
    ClaimSpec c;
    c.claim = e.text("claim", "");
    c.source = e.text("source", "");
    c.quantifier = e.text("quantifier", c.quantifier);
    if (e.has("dataset")) c.dataset = check_dataset_id(e.child("dataset"), s);
    for (const auto& ch : e.child("checks").elements()) c.checks.push_back(parse_check(ch, s));
    out.push_back(c);
  }
  return out;
}

void parse_scalars(const Doc& doc, Spec& s) {
  s.title = doc.has("title") ? doc.node("title").text() : s.figure;
  s.description = doc.has("description") ? doc.node("description").text() : "";
  s.seed_name = doc.has("seed_name") ? doc.node("seed_name").text() : s.figure;
  if (doc.has("permutations")) s.permutations = doc.node("permutations").json().get<int>();
  if (doc.has("limit")) s.limit = doc.node("limit").json().get<std::size_t>();
  if (doc.has("curve_points")) s.curve_points = doc.node("curve_points").json().get<std::size_t>();
}

Spec build(const Doc& doc, const Node& root) {
  Spec s;
  s.source = doc.source;
  s.figure = file_id(root.child("figure"));
  parse_scalars(doc, s);
  const bool is_table = doc.has("kind");
  if (doc.has("datasets")) s.datasets = parse_datasets(doc.node("datasets"), is_table);
  s.algorithms = parse_algorithms(doc, s.datasets);
  if (doc.has("bounds")) s.bounds = parse_bounds(doc.node("bounds"));
  if (doc.has("analysis")) s.analysis = parse_analysis(doc.node("analysis"));
  if (doc.has("sources")) s.sources = doc.node("sources").texts();
  if (is_table) s.table = doc.has("table") ? parse_table(doc.node("table")) : TableSpec{};
  if (doc.has("plots")) s.plots = parse_plots(doc.node("plots"), s);
  if (doc.has("published")) s.published = parse_published(doc.node("published"), s);
  if (doc.has("claims")) s.claims = parse_claims(doc.node("claims"), s);
  try {
    s.stages();
  } catch (const std::invalid_argument& e) {
    doc.node("algorithms").fail("circular \"from\" dependencies");
  }
  // (A quick block's fewer permutations may stay below the full spec's bounds.permutations.)
  const bool quick_count = doc.has("permutations") && doc.origin.at("permutations").rfind("/quick/", 0) == 0;
  if (s.bounds && !quick_count && s.bounds->permutations > static_cast<std::size_t>(s.permutations))
    doc.node("bounds").child("permutations").fail("bounds on the first " + std::to_string(s.bounds->permutations) +
                                                  " permutations, but the spec runs " + std::to_string(s.permutations));
  // The cells are priced before they are expanded (a grid or permutation count can ask for billions).
  if (const double n = spec_cell_count(s); n > kMaxSpecCells)
    (doc.has("permutations") ? doc.node("permutations") : root).fail(fmt::format("the spec expands to {:.4g} cells (data sets x grid points x permutations), more than "
                          "the {} one spec may hold; lower \"permutations\" or the grids", n, kMaxSpecCells));
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
  for (const auto& [k, v] : j.at("quick").items()) {
    d.merged[k] = v;
    d.origin[k] = "/quick/" + spec_detail::pointer_token(k);
  }
  return d;
}

}  // namespace

Spec parse_spec(const json& j, bool quick, const std::string& source) {
  const Node root(j, "", source);
  spec_format::conform(root, "spec");
  Doc full = full_doc(j, source);
  full.merged.erase("quick");
  Spec s = build(full, root);
  if (!j.contains("quick")) return s;
  Spec q = build(quick_doc(j, source), root);  // validated in either mode
  return quick ? q : s;
}

AnalysisSpec parse_analysis(const json& j, const std::string& where) {
  if (j.is_null()) return {};
  const Node n(j, "/analysis", where);
  spec_format::conform(n, "analysis");
  return parse_analysis(n);
}

Spec load_spec(const std::string& path, bool quick) {
  {  // before the open: a FIFO would block it, /dev/zero fill memory
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
      throw std::invalid_argument(path + ": not a regular file (a spec is a JSON file)");
    if (const auto n = std::filesystem::file_size(path, ec); !ec && n > kMaxJsonFileBytes)
      throw std::invalid_argument(path + ": " + std::to_string(n) + " bytes, more than a spec may hold (" +
                                  std::to_string(kMaxJsonFileBytes >> 20) + " MiB)");
  }
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read the spec");
  json j;
  std::ostringstream text;
  try {
    text << in.rdbuf();
    j = parse_json(text.str());
  } catch (const JsonRefused& e) {
    throw std::invalid_argument(path + ": " + e.what() + " (docs/inputs.md#json)");
  } catch (const json::parse_error& e) {
    throw std::invalid_argument(path + ": not valid JSON: " + json_error_text(e));
  } catch (const json::out_of_range& e) {  // a number beyond the double range (1e999): name it and where
    const std::string what = e.what(), quote = "'";
    const std::size_t a = what.find(quote), b = a == std::string::npos ? a : what.find(quote, a + 1);
    const std::string token = b == std::string::npos ? "" : what.substr(a + 1, b - a - 1);
    const std::size_t at = token.empty() ? std::string::npos : text.str().find(token);
    throw std::invalid_argument(path + ": /: the number " + detail::quote(token) +
                                (at == std::string::npos ? "" : " at byte " + std::to_string(at + 1)) +
                                " is out of range for a double (beyond 1.8e308 in magnitude)");
  }
  return parse_spec(j, quick, path);
}

}  // namespace plab
