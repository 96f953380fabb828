#include "experiments/run/configure.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace plab {
namespace {
const std::vector<std::string> kRunKinds = {"learner", "kernel", "comparator"};  // a run's options
}  // namespace

void configure_run(RunRequest& req, const GivenOptions& given) {
  req.given.clear();
  if (req.init) {  // the model's options and kernel, and what is given must equal them
    const ModelFile& m = *req.init;
    const LearnerOptions model = model_options(m, 0);
    const auto differs = [&](const GivenOption& g, const std::string& key, const nlohmann::json& a, const nlohmann::json& b) {
      const auto text = [](const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); };
      return std::invalid_argument(g.label() + " " + text(a) + " differs from the model's " + key + " " + text(b) + " (" +
                                   m.path + "): a continued run keeps the model's options and kernel "
                                   "(docs/models.md#continue)");
    };
    if (given.has("kernel")) {  // before its parameters, which another type would not take
      GivenOptions type_only;
      type_only.values["kernel"] = given.values.at("kernel");
      const std::string type = configure_kernel(type_only).type_name();
      if (type != model.kernel.type_name()) throw differs(given.values.at("kernel"), "kernel", type, model.kernel.type_name());
    }
    GivenOptions both = given;  // the model's options and kernel, what is given over them
    both.values.clear();
    const nlohmann::json kernel = kernel_json_given(model.kernel);
    for (const auto& [k, v] : m.header.options.items()) both.add(k, v, m.path);
    for (const auto& [k, v] : kernel.items()) both.add(k, v, m.path);
    for (const auto& [key, g] : given.values) both.values[key] = g;
    const LearnerOptions mine = configure_learner(m.header.algo, both, nullptr, kRunKinds);  // as for a fresh run
    const nlohmann::json my_kernel = kernel_json_given(mine.kernel);
    for (const auto& [key, g] : given.values) {
      const OptionInfo* row = find_option(key);
      if (row && row->get(mine) != row->get(model)) throw differs(g, key, row->get(mine), row->get(model));
      if (!row && kernel.contains(key) && my_kernel.at(key) != kernel.at(key)) throw differs(g, key, my_kernel.at(key), kernel.at(key));
    }
    req.options = model;
  } else {
    req.options = configure_learner(req.algo, given, &req.given, kRunKinds);
  }
  configure_comparator_on_data(req, given);
}

void configure_comparator_on_data(RunRequest& req, const GivenOptions& given) {
  if (!req.bounds) {
    for (const OptionDecl& d : comparator_options())
      if (!d.owners.empty() && given.has(option_key(d)))
        throw std::invalid_argument(d.not_applicable(given.no_comparator, given.values.at(option_key(d)).label()));
    return;
  }
  configure_comparator(req.comparator, given, req.train, req.options.kernel);
}

}  // namespace plab
