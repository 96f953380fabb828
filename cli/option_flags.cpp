#include "cli/option_flags.hpp"

#include <stdexcept>

#include "algorithms/registry.hpp"

namespace plab {

namespace {
// A default outside the declared range (--budget's 0) means "not given": --help shows no default.
bool has_no_default(const OptionDecl& d) {
  try {
    d.check(d.default_value, d.flag());
  } catch (const std::invalid_argument&) {
    return true;
  }
  return false;
}
}  // namespace

std::string OptionFlags::help(const OptionDecl& d) {
  std::string h = d.help;
  if (!d.range_text().empty()) h += " (range " + d.range_text() + (has_no_default(d) ? ", no default" : "") + ")";
  if (!d.owners.empty()) h += " [" + d.kind + (d.owners.size() > 1 ? "s" : "") + ": " + join_and(d.owners) + "]";
  return h;
}

CLI::Option* OptionFlags::checked(const OptionDecl& d, CLI::Option* o) {
  o->group(d.group);
  if (!d.allowed.empty()) o->check(CLI::IsMember(d.allowed));
  // NonNegativeNumber: CLI11 would otherwise wrap "-3" into a huge unsigned value.
  if (d.type == OptionDecl::Type::count) o->check(CLI::NonNegativeNumber);
  return o;
}

void OptionFlags::add_flag(const OptionDecl& d, CLI::Option* o, std::function<nlohmann::json()> value) {
  flags_.push_back({d, o, std::move(value)});
}

void OptionFlags::add_learner_options(CLI::App* app) {
  for (const OptionInfo& row : option_table()) {
    OptionDecl d = row;
    d.owners = learners_taking(row.name);
    const std::string flag = d.flag();
    CLI::Option* o = std::visit([&](auto p) -> CLI::Option* {
      using T = std::remove_reference_t<decltype(opt_.*p)>;
      if constexpr (std::is_same_v<T, bool>) {
        return app->add_flag(flag, opt_.*p, help(d));
      } else if constexpr (std::is_same_v<T, EtaConvention>) {
        enum_text_[row.name] = row.default_value.get<std::string>();
        return app->add_option(flag, enum_text_[row.name], help(d))->capture_default_str();
      } else if (has_no_default(d)) {
        return app->add_option(flag, opt_.*p, help(d));
      } else {
        return app->add_option(flag, opt_.*p, help(d))->capture_default_str();
      }
    }, row.field);
    add_flag(d, checked(d, o), {});  // values: make_learner checks the learner's options
  }
}

LearnerOptions OptionFlags::options() const {
  LearnerOptions o = opt_;
  for (const auto& [name, text] : enum_text_) find_option(name)->set(o, text, find_option(name)->flag());
  return o;
}

std::vector<std::string> OptionFlags::given() const {
  std::vector<std::string> g;
  for (const auto& f : flags_)
    if (f.decl.kind == "learner" && f.option->count() > 0) g.push_back(f.decl.name);
  return g;
}

bool OptionFlags::was_given(const std::string& kind, const std::string& name) const {
  for (const auto& f : flags_)
    if (f.decl.kind == kind && f.decl.name == name) return f.option->count() > 0;
  return false;
}

void OptionFlags::check(const std::string& kind, const std::string& owner, const std::string& selected) const {
  for (const auto& f : flags_) {
    if (f.decl.kind != kind) continue;
    const bool takes = f.decl.owners.empty() || (!owner.empty() && f.decl.takes(owner));
    if (!takes && f.option->count() > 0) throw std::invalid_argument(f.decl.not_applicable(selected));
    if (takes && f.value && !f.value().is_null()) f.decl.check(f.value(), f.decl.flag());
  }
}

}  // namespace plab
