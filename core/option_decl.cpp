#include "core/option_decl.hpp"

#include "core/json_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "core/format.hpp"
#include "core/nearest.hpp"

namespace plab {

std::string OptionDecl::flag() const {
  if (!cli.empty()) return cli;
  std::string f = "--" + name;
  for (char& c : f) if (c == '_') c = '-';
  return f;
}

std::string OptionDecl::type_name() const {
  static const char* names[] = {"real", "count", "integer", "flag", "text"};
  return names[static_cast<int>(type)];
}

std::string OptionDecl::range_text() const {
  std::string s;
  if (min) s = (min_open ? "> " : ">= ") + format_g(*min, 17);
  if (max) s += (s.empty() ? "" : ", ") + std::string(max_open ? "< " : "<= ") + format_g(*max, 17);
  return s;
}

bool OptionDecl::takes(const std::string& owner) const {
  return owners.empty() || std::find(owners.begin(), owners.end(), owner) != owners.end();
}

bool OptionDecl::named(const std::string& key) const {
  return key == name || std::find(aliases.begin(), aliases.end(), key) != aliases.end();
}

bool OptionDecl::same_as(const OptionDecl& o) const {
  return name == o.name && type == o.type && default_value == o.default_value && min == o.min && max == o.max &&
         min_open == o.min_open && max_open == o.max_open && allowed == o.allowed && help == o.help &&
         kind == o.kind && aliases == o.aliases && absent_before == o.absent_before;
}

void OptionDecl::check_type(const nlohmann::json& v, const std::string& at) const {
  using T = OptionDecl::Type;
  const bool negative = v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0;
  if (type == T::real && !v.is_number()) throw std::invalid_argument(at + " must be a number, got " + json_excerpt(v));
  if (type == T::count && (!v.is_number_integer() || negative))
    throw std::invalid_argument(at + " must be a non-negative integer, got " + json_excerpt(v));
  if (type == T::integer && !v.is_number_integer()) throw std::invalid_argument(at + " must be an integer, got " + json_excerpt(v));
  if (type == T::flag && !v.is_boolean()) throw std::invalid_argument(at + " must be true or false, got " + json_excerpt(v));
  if (type == T::text && !v.is_string()) throw std::invalid_argument(at + " must be a string, got " + json_excerpt(v));
  if (type != T::text) return;
  const std::string s = v.get<std::string>();
  if (parse) parse(s, at);
  if (allowed.empty()) return;
  if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw std::invalid_argument(at + ": unknown value '" + s + "'" + did_you_mean(s, allowed) + " (allowed: " + list + ")");
}

nlohmann::json OptionDecl::typed(const nlohmann::json& v) const {
  if (type == Type::real) return v.get<double>();
  if (type == Type::count) return v.get<uint64_t>();
  if (type == Type::integer) return v.get<int64_t>();
  return v;
}

namespace {
// x within d's declared range (reals also finite): check's test of a number.
bool within(const OptionDecl& d, double x) {
  return std::isfinite(x) && (!d.min || (d.min_open ? x > *d.min : x >= *d.min)) &&
         (!d.max || (d.max_open ? x < *d.max : x <= *d.max));
}
}  // namespace

bool OptionDecl::accepts(const nlohmann::json& v) const {
  using T = OptionDecl::Type;
  const bool negative = v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0;
  if ((type == T::real && v.is_number()) || (type == T::count && v.is_number_integer() && !negative) ||
      (type == T::integer && v.is_number_integer()))
    return within(*this, v.get<double>());
  try {
    check(v, name);
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

void OptionDecl::check(const nlohmann::json& v, const std::string& at, const std::string& who) const {
  check_type(v, at);
  if (type == Type::text || type == Type::flag) return;
  const double x = v.get<double>();
  if (within(*this, x)) return;
  const std::string r = range_text();
  const std::string finite = type == Type::real ? (r.empty() ? "finite" : " (and finite)") : "";
  // Above a declared maximum, what the value costs (the declaration's help says it).
  const bool above = std::isfinite(x) && max && (max_open ? x >= *max : x > *max);
  throw std::invalid_argument(at + " must be " + r + finite + (who.empty() ? "" : " for " + who) + ", got " +
                              fmt::format("{}", x) + (above && !help.empty() ? " (" + help + ")" : ""));
}

std::string OptionDecl::not_applicable(const std::string& selected, const std::string& subject) const {
  std::vector<std::string> names = owners;
  std::sort(names.begin(), names.end());
  const std::string noun = kind + (names.size() > 1 ? "s" : "");
  return (subject.empty() ? flag() : subject) + " is an option of the " + join_and(names) + " " + noun + ", not of " + selected;
}

OptionDecl declare(std::string kind, std::string group, std::string name, OptionDecl::Type type,
                   nlohmann::json default_value, std::vector<std::string> owners, std::string help,
                   OptionRange range, std::vector<std::string> allowed) {
  OptionDecl d;
  d.kind = std::move(kind);
  d.group = std::move(group);
  d.name = std::move(name);
  d.type = type;
  d.default_value = std::move(default_value);
  d.owners = std::move(owners);
  d.help = std::move(help);
  d.min = range.min;
  d.max = range.max;
  d.min_open = range.min_open;
  d.max_open = range.max_open;
  d.allowed = std::move(allowed);
  return d;
}

std::string join_and(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
  return s;
}

}  // namespace plab
