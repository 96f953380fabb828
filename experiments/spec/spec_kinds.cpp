// The value kinds of the spec format whose accepted values are declared elsewhere: metrics
// (spec.cpp), bound ids (bounds/bound_ids.cpp), learners (algorithms/registry.cpp),
// preprocessing (datasets/preprocess.hpp) and learner options (spec_options.hpp). Each has its
// check and the JSON schema of the same values.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "core/nearest.hpp"
#include "datasets/preprocess.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/spec/spec_format.hpp"
#include "experiments/spec/spec_options.hpp"

namespace plab::spec_format {

using nlohmann::ordered_json;
using spec_detail::Node;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

void check_metric(const Node& n) {
  const std::string m = n.text();
  if (is_known_metric(m)) return;
  for (const std::string p : {"bound:", "bound_ratio:"})
    if (m.rfind(p, 0) == 0) n.fail_unknown("bound id", m.substr(p.size()), bound_id_names());
  n.fail_unknown("metric", m, known_metrics());
}

// A plot axis: a metric, or point:<grid key> / dataset:<data spec key>.
void check_axis(const Node& n) {
  const std::string m = n.text();
  if ((m.rfind("point:", 0) == 0 || m.rfind("dataset:", 0) == 0) && m.find(':') + 1 < m.size()) return;
  check_metric(n);
}

void check_bound_id(const Node& n) {
  if (!find_bound(n.text())) n.fail_unknown("bound id", n.text(), bound_id_names());
}

void check_learner(const Node& n) {
  const auto names = learner_names();
  if (!contains(names, n.text())) n.fail_unknown("algorithm", n.text(), names);
}

void check_preprocess(const Node& n) {
  try {
    Preprocess::parse(n.text(), "");
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
  }
}

void check_point(const Node& n) { n.object(); }

// One option's value: fixed (a scalar), a grid (a non-empty array of scalars) or derived.
void check_param(const Node& n, const SpecOption& option) {
  const auto& v = n.json();
  if (v.is_object()) return conform(n, "derived");
  if (v.is_null()) n.fail("must not be null");
  if (v.is_array() && v.empty()) n.fail("empty grid");
  for (const auto& e : v.is_array() ? n.elements() : std::vector<Node>{n}) {
    if (e.json().is_structured()) e.fail("a grid value must be a number, string or boolean");
    try {
      check_option_value(option, e.json());
    } catch (const std::invalid_argument& err) {
      n.fail(err.what());
    }
  }
}

void check_params(const Node& n) {
  std::vector<std::string> names;
  for (const auto& o : spec_options()) names.push_back(o.name);
  for (const auto& k : n.keys()) {
    const SpecOption* option = find_spec_option(k);
    if (!option) n.child(k).fail("unknown option" + did_you_mean(k, names));
    check_param(n.child(k), *option);
  }
}

ordered_json enum_of(const std::vector<std::string>& values) { return {{"enum", values}}; }

// Learner names and bound ids are patterns here, not lists, so that adding a learner or a bound
// leaves the committed schema as it is; the parser checks them against their registries.
const char* const kBoundIdPattern = "[a-z0-9_]+";

ordered_json metric_schema() {
  return {{"anyOf", {enum_of(known_metrics()),
                     {{"type", "string"}, {"pattern", std::string("^bound(_ratio)?:") + kBoundIdPattern + "$"}}}}};
}

ordered_json axis_schema() {
  return {{"anyOf", {{{"$ref", "#/$defs/metric"}}, {{"type", "string"}, {"pattern", "^(point|dataset):.+$"}}}}};
}

ordered_json bound_id_schema() { return {{"type", "string"}, {"pattern", std::string("^") + kBoundIdPattern + "$"}}; }
ordered_json learner_schema() { return {{"type", "string"}, {"pattern", "^[a-z0-9+_-]+$"}}; }
ordered_json point_schema() { return {{"type", "object"}}; }

ordered_json preprocess_schema() {
  std::string steps;
  for (auto s : {PreprocessStep::pm1_to_01, PreprocessStep::unit_norm})
    steps += (steps.empty() ? "" : "|") + Preprocess{{s}}.name();
  return {{"type", "string"}, {"pattern", "^(none|(" + steps + ")(,(" + steps + "))*)$"}};
}

// A whole bound as an integer, so the schema reads "minimum": 1, not 1.0.
ordered_json bound_value(double v) {
  return v == std::floor(v) && std::abs(v) < 1e15 ? ordered_json(static_cast<int64_t>(v)) : ordered_json(v);
}

// The declared range as JSON Schema bounds (a count is never below 0).
void add_range(ordered_json& s, const SpecOption& o) {
  const OptionDecl& r = o.decl;
  if (o.type == "count" && (!r.min || *r.min < 0)) s["minimum"] = 0;
  else if (r.min) s[r.min_open ? "exclusiveMinimum" : "minimum"] = bound_value(*r.min);
  if (r.max) s[r.max_open ? "exclusiveMaximum" : "maximum"] = bound_value(*r.max);
}

ordered_json option_value_schema(const SpecOption& o) {
  if (o.type == "real" || o.type == "count") {
    ordered_json s = {{"type", o.type == "real" ? "number" : "integer"}};
    add_range(s, o);
    return s;
  }
  if (o.type == "flag") return {{"type", "boolean"}};
  return o.allowed.empty() ? ordered_json{{"type", "string"}} : enum_of(o.allowed);
}

ordered_json params_schema() {
  ordered_json props = ordered_json::object();
  for (const auto& o : spec_options()) {
    const ordered_json value = option_value_schema(o);
    std::string help = o.help + " (" + o.owner + ", " + o.type;
    if (!o.default_value.is_null()) help += ", default " + o.default_value.dump();
    props[o.name] = {{"description", help + ")"},
                     {"anyOf", {value, {{"type", "array"}, {"minItems", 1}, {"items", value}},
                                {{"$ref", "#/$defs/derived"}}}}};
  }
  return {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
}

std::string params_keys() {
  std::string s = "| option | type | default | range or values | declared by | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& o : spec_options()) {
    std::string allowed;
    for (const auto& a : o.allowed) allowed += (allowed.empty() ? "`" : ", `") + a + "`";
    if (!o.decl.range_text().empty()) allowed = "`" + o.decl.range_text() + "`";
    s += "| `" + o.name + "` | " + o.type + " | " + (o.default_value.is_null() ? "" : "`" + o.default_value.dump() + "`") +
         " | " + allowed + " | " + o.owner + " | " + markdown_cell(o.help) + " |\n";
  }
  return s;
}

}  // namespace

std::vector<Definition> coded_kinds() {
  return {
      {"params", "Learner options (docs/learners.md): a fixed value, a grid (array: the cartesian product over "
                 "every array-valued param) or a derived value {\"from\", ...}; each must be an option the "
                 "learner uses.",
       check_params, params_schema, "params", params_keys},
      {"metric", "A result metric (known_metrics(), experiments/spec/spec.cpp), `bound:<id>` or `bound_ratio:<id>`.",
       check_metric, metric_schema, "metric"},
      {"axis", "A metric, or `point:<grid key>` / `dataset:<key of the data spec>`.", check_axis, axis_schema,
       "metric or point:/dataset: key"},
      {"bound_id", "A stable bound id (bounds/bound_ids.cpp).", check_bound_id, bound_id_schema, "bound id"},
      {"learner", "A learner name of the registry (algorithms/registry.cpp).", check_learner, learner_schema,
       "learner name"},
      {"preprocess", "`none`, or steps such as `unit-norm` or `pm1-to-01,unit-norm` (docs/conventions.md#preprocess).",
       check_preprocess, preprocess_schema, "preprocessing"},
      {"point", "Grid labels, e.g. {\"eta\": 0.1}.", check_point, point_schema, "object"},
  };
}

}  // namespace plab::spec_format
