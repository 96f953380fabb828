// conform(): a spec value against its declaration (spec_format.hpp), walking every nested value.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/nearest.hpp"
#include "experiments/spec/spec_format.hpp"

namespace plab::spec_format {

using spec_detail::Node;

namespace {

std::string show(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

void conform_type(const Node& n, const Type& t);

void conform_number(const Node& n, const Type& t) {
  const double v = n.number();
  if (t.at_least && !(v >= *t.at_least)) n.fail("must be >= " + show(*t.at_least));
  const bool low = t.above && !(v > *t.above), high = t.below && !(v < *t.below);
  if (!low && !high) return;
  if (t.above && t.below) n.fail("must be in (" + show(*t.above) + ", " + show(*t.below) + ")");
  n.fail(low ? "must be > " + show(*t.above) : "must be < " + show(*t.below));
}

void conform_array(const Node& n, const Type& t) {
  const auto elements = n.elements();
  const auto size = static_cast<int64_t>(elements.size());
  if (t.min_items == 1 && t.max_items < 0 && size == 0) n.fail("must be a non-empty array");
  if (size < t.min_items || (t.max_items >= 0 && size > t.max_items)) {
    if (t.min_items == t.max_items) n.fail("must have " + std::to_string(t.min_items) + " elements");
    n.fail("must have at least " + std::to_string(t.min_items) + " elements");
  }
  for (const auto& e : elements) conform_type(e, t.item.at(0));
}

bool present(const Node& n, const Field& f) { return n.has(f.other); }

void conform_object(const Node& n, const std::vector<Field>& fields) {
  std::vector<std::string> keys;
  for (const auto& f : fields) keys.push_back(f.key);
  for (const auto& k : n.keys())
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) n.child(k).fail("unknown key" + did_you_mean(k, keys));
  for (const auto& f : fields) {
    const bool needed = f.need == Need::always || (f.need == Need::without && !present(n, f)) ||
                        (f.need == Need::with && present(n, f));
    if (needed && !n.has(f.key))
      n.fail("missing key \"" + f.key + "\"" + (f.need == Need::with ? " (required with \"" + f.other + "\")" : ""));
    if (f.need == Need::only_with && n.has(f.key) && !present(n, f))
      n.child(f.key).fail("allowed only with \"" + f.other + "\"");
  }
  for (const auto& f : fields)
    if (n.has(f.key)) conform_type(n.child(f.key), f.type);
}

// The noun of a bad tag's error: the tag field's own declaration in the first variant.
std::string tag_noun(const Type& t) {
  for (const auto& f : definition(t.item.at(0).what).type.fields)
    if (f.key == t.what) return f.type.what;
  return t.what;
}

// The tag picks the variant (the first when absent).
void conform_variants(const Node& n, const Type& t) {
  n.object();
  std::size_t pick = 0;
  if (n.has(t.what)) {
    const Node tag = n.child(t.what);
    const auto it = std::find(t.values.begin(), t.values.end(), tag.text());
    if (it == t.values.end()) tag.fail_unknown(tag_noun(t), tag.text(), t.values);
    pick = static_cast<std::size_t>(it - t.values.begin());
  }
  conform_type(n, t.item.at(pick));
}

void conform_type(const Node& n, const Type& t) {
  switch (t.kind) {
    case Kind::text:
      if (n.text().empty() && t.min_items > 0) n.fail("must not be empty");
      return;
    case Kind::number: return conform_number(n, t);
    case Kind::integer:
      if (n.integer(t.min_items) > t.max_items && t.max_items >= 0) n.fail("must be <= " + std::to_string(t.max_items));
      return;
    case Kind::flag: n.flag(); return;
    case Kind::choice: n.choice(t.what, t.values); return;
    case Kind::ref: return conform(n, t.what);
    case Kind::array: return conform_array(n, t);
    case Kind::map:
      for (const auto& k : n.keys()) conform_type(n.child(k), t.item.at(0));
      return;
    case Kind::either:
      if (n.json().is_number()) return;
      if (!n.json().is_object()) n.fail("must be a number or an object, not " + std::string(n.json().type_name()));
      return conform_type(n, t.item.at(0));
    case Kind::object: n.object(); return conform_object(n, t.fields);
    case Kind::variants: return conform_variants(n, t);
  }
}

}  // namespace

void conform(const Node& n, const std::string& name) {
  const Definition& d = definition(name);
  if (d.check) return d.check(n);
  conform_type(n, d.type);
}

}  // namespace plab::spec_format
