// The spec format, declared once: every object of a spec (experiments/specs/<FIG>.json), its keys,
// their types, which are required, allowed values, numeric ranges and help text. Three readers
// walk these declarations: conform() checks a spec's structure before parse_spec reads it,
// spec_schema() writes experiments/specs/spec.schema.json and spec_keys_markdown() the key
// reference of docs/specs.md (both compared with the committed files by test_spec_format).
// Cross-references (ids of algorithms, data sets and plots; which learner takes an option; cycles
// of "from") are checked by the parser (spec_parse.cpp).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/spec/spec_reader.hpp"

namespace plab::spec_format {

enum class Kind {
  text,      // a string (min_items 1: not empty)
  number,    // a number, within `above` / `below` (exclusive) when set
  integer,   // an integer >= min_items (and <= max_items when that is >= 0)
  flag,      // true or false
  choice,    // one of `values`; an error names the value as an unknown `what`
  ref,       // the definition named `what` (an object, or a value kind checked by code)
  array,     // an array of item[0], at least min_items (and at most max_items) long
  map,       // an object of any keys, each value an item[0]
  either,    // a number, or else item[0]
  object,    // an object with the keys `fields`
  variants,  // an object whose `what` key picks one of `variants` (the first when absent)
};

// Who must give a key.
enum class Need {
  optional,
  always,
  without,    // required unless the key `other` is present
  with,       // required when the key `other` is present
  only_with,  // allowed only when the key `other` is present
};

struct Field;
struct Type {
  Kind kind = Kind::text;
  std::string what;                  // choice: the noun of errors; ref: the definition; variants: the tag key
  std::vector<std::string> values;   // choice: the allowed values; variants: the tag values
  std::vector<Type> item;            // array, map, either: the element type (one); variants: one per value
  std::vector<Field> fields;         // object
  std::optional<double> above, below;
  std::optional<double> at_least;    // number: an inclusive minimum (a declared `>= v`)
  int64_t min_items = 0, max_items = -1;
};

struct Field {
  Field(std::string k, Type t, std::string h) : key(std::move(k)), type(std::move(t)), help(std::move(h)) {}
  std::string key;
  Type type;
  std::string help;
  Need need = Need::optional;
  std::string other;  // Need::without / with / only_with: the key it depends on
};

// A named definition: an object type, or a value kind checked by code (`check`, with the JSON
// schema of its accepted values in `schema`, its name in the docs in `doc`).
struct Definition {
  using Check = void (*)(const spec_detail::Node&);
  using Schema = nlohmann::ordered_json (*)();
  Definition(std::string n, std::string h, Type t) : name(std::move(n)), help(std::move(h)), type(std::move(t)) {}
  using Keys = std::string (*)();
  Definition(std::string n, std::string h, Check c, Schema s, std::string d, Keys k = nullptr)
      : name(std::move(n)), help(std::move(h)), check(c), schema(s), doc(std::move(d)), keys(k) {}
  std::string name, help;
  Type type;                                    // Kind::object / variants; unused for coded kinds
  Check check = nullptr;
  Schema schema = nullptr;
  std::string doc;
  Keys keys = nullptr;  // a coded kind with keys of its own (params): their markdown table
};

// Every definition; the first is the spec itself ("spec").
const std::vector<Definition>& definitions();
const Definition& definition(const std::string& name);  // throws std::logic_error when unknown

// Throws std::invalid_argument "<source>: <pointer>: <problem>" (spec_reader.hpp) unless `n`
// is a valid value of the definition `name`: unknown keys (with the nearest valid one), missing
// keys, wrong types, unknown values, numbers out of range. Walks every nested value.
void conform(const spec_detail::Node& n, const std::string& name);

// The JSON schema (draft 2020-12) of a spec: experiments/specs/spec.schema.json.
nlohmann::ordered_json spec_schema();
// The key reference of docs/specs.md: one table of keys, types and help per object.
std::string spec_keys_markdown();
// `text` in a markdown table cell ("|" escaped).
std::string markdown_cell(const std::string& text);

}  // namespace plab::spec_format
