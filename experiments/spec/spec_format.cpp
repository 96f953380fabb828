// The declarations of the spec format (spec_format.hpp): every object of a spec as a data table.
// The value kinds whose accepted values are declared elsewhere are in spec_kinds.cpp.
#include "experiments/spec/spec_format.hpp"

#include <algorithm>
#include <stdexcept>

#include "bounds/comparator.hpp"
#include "datasets/readers.hpp"
#include "experiments/spec/spec.hpp"
#include "numerics/kernel.hpp"

namespace plab::spec_format {

namespace {

Type of(Kind kind, int64_t min_items = 0) {
  Type t;
  t.kind = kind;
  t.min_items = min_items;
  return t;
}
Type text() { return of(Kind::text); }
Type nonempty() { return of(Kind::text, 1); }
Type number() { return of(Kind::number); }
Type positive() {
  Type t = of(Kind::number);
  t.above = 0.0;
  return t;
}
Type between(double above, double below) {
  Type t = positive();
  t.above = above;
  t.below = below;
  return t;
}
Type integer(int64_t min) { return of(Kind::integer, min); }
Type flag() { return of(Kind::flag); }
Type choice(std::string what, std::vector<std::string> values) {
  Type t = of(Kind::choice);
  t.what = std::move(what);
  t.values = std::move(values);
  return t;
}
Type ref(std::string name) {
  Type t = of(Kind::ref);
  t.what = std::move(name);
  return t;
}
Type array(Type item, int64_t min = 0, int64_t max = -1) {
  Type t = of(Kind::array, min);
  t.item = {std::move(item)};
  t.max_items = max;
  return t;
}
Type map(Type item) {
  Type t = of(Kind::map);
  t.item = {std::move(item)};
  return t;
}
Type either(Type item) {
  Type t = of(Kind::either);
  t.item = {std::move(item)};
  return t;
}
Type object(std::vector<Field> fields) {
  Type t = of(Kind::object);
  t.fields = std::move(fields);
  return t;
}
// `tag` names the definition <value>_<suffix> of each value; the first is the default.
Type variants(std::string tag, std::vector<std::string> values, const std::string& suffix) {
  Type t = of(Kind::variants);
  t.what = std::move(tag);
  for (const auto& v : values) t.item.push_back(ref(v + "_" + suffix));
  t.values = std::move(values);
  return t;
}

Field need(Field f, Need n, std::string other = "") {
  f.need = n;
  f.other = std::move(other);
  return f;
}
Field required(Field f) { return need(std::move(f), Need::always); }

template <class... More>
std::vector<Field> join(std::vector<Field> a, const More&... more) {
  (a.insert(a.end(), more.begin(), more.end()), ...);
  return a;
}

// The field of an option declared beside its owner (core/option_decl.hpp): its values and range
// as the configuration step checks them; `noun` names an unknown value of a text option.
Field declared(const std::vector<OptionDecl>& decls, const std::string& name, const std::string& help,
               const std::string& noun = "") {
  const auto d = std::find_if(decls.begin(), decls.end(), [&](const OptionDecl& o) { return o.name == name; });
  if (d == decls.end()) throw std::logic_error("spec format: no declared option " + name);
  using T = OptionDecl::Type;
  Type t;
  if (d->type == T::text) {
    t = d->allowed.empty() ? text() : choice(noun, d->allowed);
  } else if (d->type == T::real) {
    t = number();
    if (d->max && !d->max_open) throw std::logic_error("spec format: " + name + ": a closed maximum has no spec type");
    (d->min_open ? t.above : t.at_least) = d->min;
    t.below = d->max;
  } else if (d->type == T::count || d->type == T::integer) {
    if (d->type == T::integer && !d->min) throw std::logic_error("spec format: " + name + ": no spec type for its range");
    t = integer(d->min ? static_cast<int64_t>(*d->min) + (d->min_open ? 1 : 0) : 0);
    if (d->max) t.max_items = static_cast<int64_t>(*d->max) - (d->max_open ? 1 : 0);
  } else {
    t = flag();
  }
  return {name, t, help};
}

// Fields that appear in more than one object, declared once.
const Field kPermutations{"permutations", integer(1), "cells per (data set, algorithm, grid point): the permutations"};
Field limit_field() { return declared(run_options(), "limit", "rounds per cell (0 = all)"); }
Field comparator_field() {
  return declared(comparator_options(), "comparator", "the comparator u of the bounds (docs/bounds.md#comparators)",
                  "comparator");
}
Field svm_C_field() { return declared(comparator_options(), "svm_C", "C of the SVM comparator"); }
const Field kCurvePoints{"curve_points", integer(2), "curve samples stored per cell"};
const Field kDatasets{"datasets", array(ref("dataset")), "the data sets"};
const Field kClaims{"claims", array(ref("claim")), "claims checked on the results"};
const Field kPublished{"published", array(ref("published")), "the paper's numbers beside ours"};
const Field kAlgorithmRef{"algorithm", text(), "an algorithm id of this spec (\"*\" = every one where a selector allows it)"};
const Field kDatasetRef{"dataset", text(), "a data set id of this spec (\"\" = every one)"};
const Field kPoint{"point", ref("point"), "grid labels every selected group must have, e.g. {\"eta\": 0.1}"};
const Field kTitle{"title", text(), "title"};
const Field kColor{"color", text(), "line colour \"#rrggbb\""};
const Field kStyle{"style", choice("series style", {"lines", "points", "linespoints", "errorbars", "xyerrorbars", "hline"}),
                   "how the series is drawn (hline: the mean as a horizontal line)"};
const Field kSource{"source", text(), "where in the paper"};

const std::vector<Field> kPlotCommon = {
    required({"id", text(), "plot id: names the files ID.png, ID.gp, ID.dat"}),
    {"dataset", text(), "the data set drawn (a data set id)"},
    kTitle,
    {"xlabel", text(), "x axis label (default \"Number of samples\")"},
    {"ylabel", text(), "y axis label"},
    {"key", text(), "gnuplot key position (default \"top right\")"},
    {"logx", flag(), "logarithmic x axis"},
    {"logy", flag(), "logarithmic y axis"},
    {"xrange", array(number(), 2, 2), "[low, high] of the x axis"},
    {"yrange", array(number(), 2, 2), "[low, high] of the y axis"},
    {"x_scale", number(), "factor applied to every x value"},
    {"y_scale", number(), "factor applied to every y value"}};
const Field kPaper{"paper", ref("paper_plot"), "the paper's digitized data of this plot (docs/specs.md#paper)"};

Field plot_type(const std::string& value) {
  return {"type", choice("plot type", {value}), "the plot type"};
}

std::vector<Definition> objects() {
  return {
      {"spec", "One figure: experiments/specs/FIG.json.",
       object({required({"figure", nonempty(), "figure id: names results/FIG/ and the report section"}),
               {"kind", choice("kind", {"table"}), "\"table\": no cells of its own, a table over the `sources` figures (T7)"},
               {"title", text(), "what the figure shows (report summary, README table; default: figure)"},
               {"description", text(), "longer text for the report"},
               {"seed_name", text(), "the seeds derive from it (default: figure); equal names share cells"},
               kPermutations, limit_field(), kCurvePoints,
               need(kDatasets, Need::without, "kind"),
               {"defaults", ref("params"), "params given to every algorithm that uses them"},
               need({"algorithms", array(ref("algorithm")), "the algorithms (series)"}, Need::without, "kind"),
               {"plots", array(ref("plot")), "the plots"},
               kPublished, kClaims,
               {"bounds", ref("bounds"), "mistake bounds evaluated per cell"},
               {"analysis", ref("analysis"), "analyses run per cell"},
               need({"table", ref("table"), "what the table figure covers"}, Need::only_with, "kind"),
               need({"sources", array(text(), 1), "figures a table aggregates (run with it)"}, Need::with, "kind"),
               {"quick", ref("quick"), "fields replacing the top-level ones under --quick"}})},
      {"quick", "Under --quick (the CI regression check) these replace the top-level fields.",
       object({kPermutations, limit_field(), kCurvePoints, kDatasets,
               {"algorithm_params", map(ref("params")), "algorithm id -> params patched into that algorithm"},
               kClaims, kPublished})},
      {"dataset", "A data set and its kernel.",
       object({required({"id", nonempty(), "short name used in keys, files and the report"}),
               {"data", text(), "load_dataset spec (default: id); {perm} -> permutation 1..P, {seed} -> its seed"},
               {"labels", text(), "label map (\"\" = binary)"},
               {"test", text(), "\"\", a data spec, or \"halves\" (first half trains, second half tests)"},
               {"order", choice("order", {"shuffle", "given"}), "shuffle (a seeded permutation per cell) or given (file order)"},
               {"preprocess", ref("preprocess"), "applied to every row after loading (default none)"},
               {"kernel", ref("kernel"), "the kernel (default linear)"},
               {"optional", flag(), "the paper's data we may not have: \"data not available\" when absent"}})},
      {"kernel", "LIBSVM / DOGMA parameterisation.",
       object({required(declared(kernel_options(), "type", "kernel type", "kernel type")),
               declared(kernel_options(), "gamma", "gamma (poly and rbf; default 1)"),
               declared(kernel_options(), "degree", "poly degree (default 2)"),
               declared(kernel_options(), "coef0", "poly coef0 (default 0)")})},
      {"algorithm", "One algorithm (a series).",
       object({{"id", text(), "series id, unique in the spec (default: algo)"},
               required({"algo", ref("learner"), "the learner"}),
               {"label", text(), "legend text (default: id)"},
               {"params", ref("params"), "learner options: fixed, grid or derived"},
               {"datasets", array(text()), "only these data set ids (default: all)"}})},
      {"derived", "A parameter taken from another algorithm's results.",
       object({required({"from", text(), "the source algorithm id"}),
               {"field", ref("metric"), "the source's result (default support_size), rounded to an integer >= 1"},
               {"use", choice("use", {"same_permutation", "mean"}), "the same permutation's value (default) or the mean"}})},
      {"bounds", "Mistake bounds evaluated per cell.",
       object({comparator_field(), svm_C_field(), {"names", array(ref("bound_id")), "bound ids to keep (default: every applicable one)"},
               {"permutations", integer(1), "evaluate them on the first K permutations only (default: all)"}})},
      {"analysis", "Analyses of each cell (experiments/cell/analyses.hpp).",
       object({{"o2b", ref("o2b"), "online-to-batch selection"}, {"rho_profile", ref("rho_profile"), "MR (4)/(8) on a rho grid"}})},
      {"o2b", "The Cesa-Bianchi-Conconi-Gentile selection on a conservative Perceptron run.",
       object({{"delta", between(0, 1), "confidence (default 0.05)"}})},
      {"rho_profile", "The MR bounds as functions of rho.",
       object({comparator_field(), svm_C_field(), {"rho", array(positive()), "the rho grid"}, {"at", positive(), "the rho reported as mr*_at"}})},
      {"table", "Restricts a table figure.",
       object({{"bounds", array(ref("bound_id")), "bound ids (default: every applicable one)"},
               {"algorithms", array(ref("learner")), "learner names (default: all)"}})},
      {"plot", "A plot; \"type\" picks its keys (default curve).",
       variants("type", {"curve", "final", "profile"}, "plot")},
      {"curve_plot", "Mean curve over permutations.",
       object(join(std::vector<Field>{plot_type("curve")}, kPlotCommon, std::vector<Field>{
           {"metric", choice("curve metric", {"online_error", "support_size"}), "the curve (default online_error)"},
           {"xmin", number(), "first x drawn"},
           {"window", number(), "error rate over the last W rounds instead of the cumulative one"},
           {"algorithms", array(text()), "only these algorithm ids"},
           {"colors", map(text()), "algorithm id -> \"#rrggbb\""},
           {"vlines", array(number()), "grey vertical markers (needs yrange)"},
           kPaper}))},
      {"final_plot", "One point per grid point (mean +- std).",
       object(join(std::vector<Field>{required(plot_type("final"))}, kPlotCommon, std::vector<Field>{
           {"x", ref("axis"), "x metric (default support_size)"},
           {"y", ref("axis"), "y metric (default online_error)"},
           {"series", array(ref("final_series")), "the series"},
           kPaper}))},
      {"profile_plot", "The rho_profile analysis against rho.",
       object(join(std::vector<Field>{required(plot_type("profile"))}, kPlotCommon,
                   std::vector<Field>{{"series", array(ref("profile_series")), "the series"}}))},
      {"final_series", "A series of a final plot.",
       object({required(kAlgorithmRef), kDatasetRef, kPoint,
               {"x", ref("axis"), "x metric (default: the plot's)"},
               {"y", ref("axis"), "y metric (default: the plot's)"},
               kTitle, kColor, kStyle})},
      {"profile_series", "A series of a profile plot: a profile, or a metric drawn as a horizontal line.",
       object({required(kAlgorithmRef), kDatasetRef,
               {"profile", choice("profile", rho_profile_names()), "a profile of the rho_profile analysis"},
               {"metric", ref("metric"), "a metric drawn as a horizontal line"},
               kTitle, kColor, kStyle})},
      {"paper_plot", "The paper's digitized data of a plot, drawn beside ours and judged point by point.",
       object({required({"file", text(), "panel CSV, relative to the spec's folder"}),
               {"series", map(text()), "paper series -> our algorithm id it is judged against"},
               {"notes", map(text()),
                "paper series (a key of series) -> a note printed beside its verdict in the report "
                "(what explains a difference, or what was searched)"},
               {"annotation", ref("paper_annotation"), "the support-size annotation"}})},
      {"paper_annotation", "Whose support size the panel's annotation is judged against.",
       object({required({"algorithm", text(), "an algorithm id"}),
               {"note", text(), "how the attribution was inferred (and what explains a difference); printed beside the verdict"}})},
      {"published", "A published number.",
       object({kDatasetRef, required(kAlgorithmRef), kPoint,
               required({"metric", ref("metric"), "the metric"}),
               required({"value", either(ref("paper_ref")), "the number, or where in the paper's plotted data it is"}),
               {"std", number(), "its standard deviation"},
               {"tol", number(), "relative tolerance"},
               {"tol_abs", number(), "absolute tolerance"},
               {"drawn", choice("drawn", {"one run"}),
                "\"one run\": the number is one draw, judged as one run against our runs (Student's t on d = s sqrt(1 + 1/n), "
                "z <= 2; in place of a tolerance)"},
               {"precision", number(), "half the unit of the number's last printed digit (the grid of a one-run judgement)"},
               kSource, {"note", text(), "a note for the report"}})},
      {"paper_ref", "A published number read from a plot's paper data.",
       object({required({"plot", text(), "a plot id with paper data"}),
               {"series", text(), "the paper series (not for annotation)"},
               required({"element", choice("paper element", {"annotation", "refline", "refline_end", "line"}),
                         "the annotation, a reference line's y or right end, or a line's last vertex"})})},
      {"selector", "Selects groups of results.",
       object({required(kAlgorithmRef), required({"metric", ref("metric"), "the metric"}), kDatasetRef, kPoint,
               {"scale", number(), "factor applied to the value (default 1)"}})},
      {"check", "One comparison of a claim.",
       object({required({"a", ref("selector"), "left side"}),
               {"op", choice("op", {"<", "<=", ">", ">=", "within"}), "comparison (default <)"},
               required({"b", either(ref("selector")), "right side: a selector or a number"}),
               {"tol", number(), "tolerance (default 0)"}})},
      {"claim", "A claim of the paper checked on our results.",
       object({{"claim", text(), "the claim's text"},
               kDatasetRef,
               {"quantifier", choice("quantifier", {"all", "any"}), "over grid points (default all)"},
               kSource,
               required({"checks", array(ref("check"), 1), "every check must pass at a point"})})},
  };
}

}  // namespace

// The value kinds checked by code (spec_kinds.cpp).
std::vector<Definition> coded_kinds();

const std::vector<Definition>& definitions() {
  static const std::vector<Definition> all = [] {
    auto v = objects();
    for (auto& k : coded_kinds()) v.push_back(std::move(k));
    return v;
  }();
  return all;
}

const Definition& definition(const std::string& name) {
  for (const auto& d : definitions())
    if (d.name == name) return d;
  throw std::logic_error("spec format: no definition \"" + name + "\"");
}

}  // namespace plab::spec_format
