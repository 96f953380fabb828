#include "cli/option_flags.hpp"

namespace plab {

void OptionFlags::add_to(CLI::App* app) {
  for (const OptionInfo& row : option_table()) {
    const std::string flag = row.flag();
    CLI::Option* o = std::visit([&](auto p) -> CLI::Option* {
      using T = std::remove_reference_t<decltype(opt_.*p)>;
      if constexpr (std::is_same_v<T, bool>) {
        return app->add_flag(flag, opt_.*p, row.help);
      } else if constexpr (std::is_same_v<T, EtaConvention>) {
        enum_text_[row.name] = nlohmann::json(opt_.*p).get<std::string>();
        return app->add_option(flag, enum_text_[row.name], row.help)->capture_default_str()
            ->check(CLI::IsMember(row.allowed));
      } else if constexpr (std::is_same_v<T, std::string>) {
        return app->add_option(flag, opt_.*p, row.help)->capture_default_str()->check(CLI::IsMember(row.allowed));
      } else if constexpr (std::is_same_v<T, std::size_t>) {
        // NonNegativeNumber: CLI11 would otherwise wrap "-3" into a huge unsigned value.
        return app->add_option(flag, opt_.*p, row.help)->capture_default_str()->check(CLI::NonNegativeNumber);
      } else {
        return app->add_option(flag, opt_.*p, row.help)->capture_default_str();
      }
    }, row.field);
    flags_.emplace_back(row.name, o);
  }
}

LearnerOptions OptionFlags::options() const {
  LearnerOptions o = opt_;
  for (const auto& [name, text] : enum_text_) find_option(name)->set(o, text, find_option(name)->flag());
  return o;
}

std::vector<std::string> OptionFlags::given() const {
  std::vector<std::string> g;
  for (const auto& [name, flag] : flags_)
    if (flag->count() > 0) g.push_back(name);
  return g;
}

}  // namespace plab
