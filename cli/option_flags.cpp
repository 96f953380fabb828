#include "cli/option_flags.hpp"

#include <algorithm>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/option_owners.hpp"

namespace plab {

namespace {
// A count flag's text as JSON: the number it spells (integer, negative or not; a real), else the
// text itself, which configure refuses as not a count, naming the flag.
nlohmann::json number_as_written(const std::string& s) {
  const nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
  return j.is_number() ? j : nlohmann::json(s);
}
// A default outside the declared range (--budget's 0) means "not given": --help shows no default.
bool has_no_default(const OptionDecl& d) { return !d.accepts(d.default_value); }
}  // namespace

std::string OptionFlags::help(const OptionDecl& d) {
  std::string h = d.help;
  if (!d.range_text().empty()) h += " (range " + d.range_text() + (has_no_default(d) ? ", no default" : "") + ")";
  if (!d.owners.empty()) h += " [" + d.kind + (d.owners.size() > 1 ? "s" : "") + ": " + join_and(d.owners) + "]";
  return h;
}

CLI::Option* OptionFlags::checked(const OptionDecl& d, CLI::Option* o) {
  o->group(d.group);
  // Values and signs are configure's to check (an allowed value, a negative count): the flag only
  // carries what was written. A count above 2^64 - 1 (an integer above 2^63 - 1) is refused as
  // written: as a number it would become a real (CLI11 would saturate an integer to 2^63 - 1;
  // docs/inputs.md#counts).
  if (d.type == OptionDecl::Type::count || d.type == OptionDecl::Type::integer)
    o->check(CLI::Validator(
        [range = d.range_text(), help = d.max ? d.help : std::string(),
         max = std::string(d.type == OptionDecl::Type::count ? "18446744073709551615" : "9223372036854775807")](
            std::string& s) -> std::string {
          const std::string digits = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
          if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return "";
          const std::string bare = digits.substr(std::min(digits.find_first_not_of('0'), digits.size()));
          if (bare.size() > max.size() || (bare.size() == max.size() && bare > max))
            return "value " + s + " is out of range (at most " + max +
                   (help.empty() ? "" : "; range " + range + ": " + help) + ")";
          return "";
        },
        "", "count range"));
  return o;
}

void OptionFlags::add(CLI::App* app, const std::vector<OptionDecl>& decls) {
  using T = OptionDecl::Type;
  for (const OptionDecl& d : decls) {
    Held& h = held_.emplace_back();
    const nlohmann::json& def = d.default_value;
    CLI::Option* o = nullptr;
    std::function<nlohmann::json()> value;
    if (d.type == T::real) {  // a null default: one per learner, in the help (add_learner_options)
      if (!def.is_null()) h.real = def.get<double>();
      o = app->add_option(d.flag(), h.real, help(d));
      if (!def.is_null()) o->capture_default_str();
      value = [&h] { return nlohmann::json(h.real); };
    } else if (d.type == T::integer) {
      h.integer = def.get<int64_t>();
      o = app->add_option(d.flag(), h.integer, help(d))->capture_default_str();
      value = [&h] { return nlohmann::json(h.integer); };
    } else if (d.type == T::flag) {
      h.flag = def.get<bool>();
      o = app->add_flag(d.flag(), h.flag, help(d));
      value = [&h] { return nlohmann::json(h.flag); };
    } else if (d.type == T::count) {  // as written (a negative one too: configure refuses it); a null default: none until given
      if (!def.is_null()) h.text = def.dump();
      o = app->add_option(d.flag(), h.text, help(d));
      if (!def.is_null() && !has_no_default(d)) o->default_str(def.dump());  // none shown for a default out of range (--budget)
      value = [&h, o] { return o->count() || !h.text.empty() ? number_as_written(h.text) : nlohmann::json(); };
    } else {
      if (!def.is_null()) h.text = def.get<std::string>();
      o = app->add_option(d.flag(), h.text, help(d));
      if (!def.is_null()) o->capture_default_str();
      value = [&h] { return nlohmann::json(h.text); };
    }
    flags_.push_back({d, checked(d, o), std::move(value)});
  }
}

void OptionFlags::add_learner_options(CLI::App* app) {
  std::vector<OptionDecl> rows;  // declared_options()'s learner rows
  for (const OptionDecl& d : declared_options())
    if (d.kind == "learner") rows.push_back(d);
  // One flag a name: several rows of a name (the Projectron's eta, the online gradient learners')
  // share it, its help says each, and every learner taking the name owns it.
  std::vector<std::string> named;
  std::vector<OptionDecl> own, aliases;
  for (const OptionDecl& row : rows) {
    for (const auto& a : row.aliases)
      if (std::none_of(aliases.begin(), aliases.end(), [&](const OptionDecl& x) { return x.name == a; })) {
        OptionDecl alias = row;  // the earlier name: read, not shown (docs/learners.md#options)
        alias.name = a;
        alias.aliases.clear();
        alias.group = "";
        alias.help = "earlier name of " + row.flag();
        aliases.push_back(std::move(alias));
      }
    if (std::find(named.begin(), named.end(), row.name) != named.end()) continue;
    named.push_back(row.name);
    OptionDecl d = row;
    d.owners = learners_taking(row.name);
    std::string more;
    for (const OptionDecl& other : rows)
      if (other.name == row.name && &other != &row)
        more += "; for " + join_and(other.owners) + ": " + other.help + " (default " + other.default_value.dump() +
                (other.range_text().empty() ? "" : ", range " + other.range_text()) + ")";
    if (!more.empty()) {  // each declaration's default and range in its own words (configure checks the one taken)
      d.help += " (default " + row.default_value.dump() + (row.range_text().empty() ? "" : ", range " + row.range_text()) +
                ", for " + join_and(row.owners) + ")" + more;
      d.min.reset();
      d.max.reset();
    }
    if (!more.empty()) d.default_value = nullptr;  // each learner's default is in the help
    own.push_back(std::move(d));
  }
  for (OptionDecl& a : aliases) a.owners = learners_taking(a.name);
  add(app, own);
  add(app, aliases);
}

GivenOptions OptionFlags::given(const std::string& no_comparator) const {
  GivenOptions g;
  g.spell = [](const std::string& key, const std::string& v) {
    std::string flag = "--" + key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    return v.empty() ? flag : flag + " " + v;
  };
  g.no_comparator = no_comparator;
  for (const auto& f : flags_)
    if (f.option->count() > 0) g.add(option_key(f.decl), f.value(), "", f.decl.flag());
  return g;
}

bool OptionFlags::was_given(const std::string& kind, const std::string& name) const {
  for (const auto& f : flags_)
    if (f.decl.kind == kind && f.decl.name == name) return f.option->count() > 0;
  return false;
}

}  // namespace plab
