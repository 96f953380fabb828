// The spec format's declarations (spec_format.hpp) written as a JSON schema and as the key
// reference of docs/specs.md.
#include <sstream>

#include "experiments/spec/spec_format.hpp"

namespace plab::spec_format {

using nlohmann::ordered_json;

namespace {

ordered_json type_schema(const Type& t);

ordered_json condition(const Field& f) {
  const ordered_json when = {{"required", ordered_json::array({f.other})}};
  const ordered_json need = {{"required", ordered_json::array({f.key})}};
  if (f.need == Need::with) return {{"if", when}, {"then", need}};
  if (f.need == Need::without) return {{"if", when}, {"else", need}};
  return {{"if", when}, {"else", {{"not", need}}}};
}

ordered_json object_schema(const std::vector<Field>& fields) {
  ordered_json props = ordered_json::object(), required = ordered_json::array(), rules = ordered_json::array();
  for (const auto& f : fields) {
    props[f.key] = {{"description", f.help}};
    props[f.key].update(type_schema(f.type));
    if (f.need == Need::always) required.push_back(f.key);
    else if (f.need != Need::optional) rules.push_back(condition(f));
  }
  ordered_json o = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (!required.empty()) o["required"] = required;
  if (!rules.empty()) o["allOf"] = rules;
  return o;
}

ordered_json array_schema(const Type& t) {
  ordered_json o = {{"type", "array"}, {"items", type_schema(t.item.at(0))}};
  if (t.min_items > 0) o["minItems"] = t.min_items;
  if (t.max_items >= 0) o["maxItems"] = t.max_items;
  return o;
}

ordered_json type_schema(const Type& t) {
  switch (t.kind) {
    case Kind::text:
      return t.min_items > 0 ? ordered_json{{"type", "string"}, {"minLength", t.min_items}} : ordered_json{{"type", "string"}};
    case Kind::number: {
      ordered_json o = {{"type", "number"}};
      if (t.above) o["exclusiveMinimum"] = *t.above;
      if (t.at_least) o["minimum"] = *t.at_least;
      if (t.below) o["exclusiveMaximum"] = *t.below;
      return o;
    }
    case Kind::integer: {
      ordered_json o = {{"type", "integer"}, {"minimum", t.min_items}};
      if (t.max_items >= 0) o["maximum"] = t.max_items;
      return o;
    }
    case Kind::flag: return {{"type", "boolean"}};
    case Kind::choice: return t.values.size() == 1 ? ordered_json{{"const", t.values[0]}} : ordered_json{{"enum", t.values}};
    case Kind::ref: return {{"$ref", "#/$defs/" + t.what}};
    case Kind::array: return array_schema(t);
    case Kind::map: return {{"type", "object"}, {"additionalProperties", type_schema(t.item.at(0))}};
    case Kind::either: return {{"anyOf", {{{"type", "number"}}, type_schema(t.item.at(0))}}};
    case Kind::object: return object_schema(t.fields);
    case Kind::variants: {
      ordered_json one = ordered_json::array();
      for (const auto& v : t.item) one.push_back(type_schema(v));
      return {{"type", "object"}, {"oneOf", one}};
    }
  }
  return {};
}

ordered_json definition_schema(const Definition& d) {
  ordered_json o = {{"description", d.help}};
  o.update(d.schema ? d.schema() : type_schema(d.type));
  return o;
}

std::string number_doc(const Type& t) {
  std::ostringstream o;
  o << "number";
  if (t.above && t.below) o << " in (" << *t.above << ", " << *t.below << ")";
  else if (t.above) o << " > " << *t.above;
  else if (t.below) o << " < " << *t.below;
  if (t.at_least) o << " >= " << *t.at_least;
  return o.str();
}

std::string link(const std::string& name) {
  const Definition& d = definition(name);
  return "[" + (d.doc.empty() ? name : d.doc) + "](#spec-" + name + ")";
}

std::string type_doc(const Type& t) {
  switch (t.kind) {
    case Kind::text: return t.min_items > 0 ? "non-empty string" : "string";
    case Kind::number: return number_doc(t);
    case Kind::integer:
      return "integer >= " + std::to_string(t.min_items) + (t.max_items >= 0 ? ", <= " + std::to_string(t.max_items) : "");
    case Kind::flag: return "true or false";
    case Kind::choice: {
      std::string s;
      for (std::size_t i = 0; i < t.values.size(); ++i)
        s += (i == 0 ? "" : i + 1 == t.values.size() ? " or " : ", ") + ("`" + t.values[i] + "`");
      return s;
    }
    case Kind::ref: return link(t.what);
    case Kind::array:
      if (t.min_items > 0 && t.min_items == t.max_items) return "array of " + std::to_string(t.min_items) + " " + type_doc(t.item.at(0));
      return (t.min_items > 0 ? "non-empty array of " : "array of ") + type_doc(t.item.at(0));
    case Kind::map: return "object: key -> " + type_doc(t.item.at(0));
    case Kind::either: return "number or " + type_doc(t.item.at(0));
    case Kind::object: return "object";
    case Kind::variants: return "object";
  }
  return "";
}

std::string need_doc(const Field& f) {
  switch (f.need) {
    case Need::optional: return "";
    case Need::always: return "yes";
    case Need::without: return "unless `" + f.other + "`";
    case Need::with: return "with `" + f.other + "`";
    case Need::only_with: return "only with `" + f.other + "`";
  }
  return "";
}

std::string definition_markdown(const Definition& d) {
  std::string s = "<a id=\"spec-" + d.name + "\"></a>\n#### `" + d.name + "`\n\n" + d.help + "\n\n";
  if (d.check) return d.keys ? s + d.keys() + "\n" : s;
  if (d.type.kind == Kind::variants) {
    s += "`" + d.type.what + "` picks one of";
    for (const auto& v : d.type.item) s += " " + link(v.what);
    return s + " (default `" + d.type.values.at(0) + "`).\n\n";
  }
  s += "| key | type | required | meaning |\n|---|---|---|---|\n";
  for (const auto& f : d.type.fields)
    s += "| `" + f.key + "` | " + type_doc(f.type) + " | " + need_doc(f) + " | " + markdown_cell(f.help) + " |\n";
  return s + "\n";
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string s;
  for (char c : text) s += c == '|' ? std::string("\\|") : std::string(1, c);
  return s;
}

ordered_json spec_schema() {
  const auto& defs = definitions();
  ordered_json s = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                    {"$id", "https://perceptron-lab/experiments/specs/spec.schema.json"},
                    {"title", "perceptron-lab experiment spec (docs/specs.md), generated by plab spec-schema"}};
  s.update(definition_schema(defs.at(0)));
  ordered_json out = ordered_json::object();
  for (std::size_t i = 1; i < defs.size(); ++i) out[defs[i].name] = definition_schema(defs[i]);
  s["$defs"] = out;
  return s;
}

std::string spec_keys_markdown() {
  std::string s;
  for (const auto& d : definitions()) s += definition_markdown(d);
  return s;
}

}  // namespace plab::spec_format
