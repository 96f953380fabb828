#include "introspect.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/option_owners.hpp"
#include "config/run_config.hpp"
#include "datasets/readers.hpp"

namespace plab::py {
namespace {

// The run options (run_options()) that perceptron_lab.run takes as keywords; the others (labels,
// preprocess, limit) belong to perceptron_lab.load or to files, not to arrays.
bool python_run_keyword(const std::string& name) { return name == "shuffle" || name == "threads"; }

// One declared option as perceptron_lab.options() lists it. scope: learner | kernel | run (a keyword
// of perceptron_lab.run: the comparator's, shuffle and threads); the kernel selector (declared as
// "type", flag --kernel) is the keyword "kernel".
nlohmann::json row(const OptionDecl& d, const std::string& scope) {
  const std::string name = d.flag() == "--kernel" ? "kernel" : d.name;
  return {{"name", name}, {"scope", scope}, {"type", d.type_name()}, {"default", d.default_value},
          {"range", d.range_text()}, {"allowed", d.allowed}, {"owners", d.owners}, {"help", d.help}};
}

// The keywords as the configuration step reads them: spelt as Python writes them.
GivenOptions keywords(const LearnerSpec& s) {
  GivenOptions g = given_from_json(s.options);
  g.spell = [](const std::string& key, const std::string& v) { return v.empty() ? key : key + "='" + v + "'"; };
  g.no_comparator = "bounds=False";
  return g;
}

// A run option given where it does not apply: "<label>: unknown option (<why>)".
void refuse_run_options(const GivenOptions& g, const std::function<bool(const std::string&)>& taken,
                        const std::string& why) {
  for (const OptionDecl& d : run_options())
    if (const GivenOption* given = given_option(g, d); given && !taken(d.name))
      throw std::invalid_argument(given->label() + ": unknown option (" + why + ")");
}

// A Learner's configuration: the configuration step of every run (configure), without data, a
// comparator or the run's own options, which are perceptron_lab.run's.
LearnerConfig learner_config_of(const LearnerSpec& s, std::size_t dim, std::size_t classes) {
  GivenOptions g = keywords(s);
  g.no_comparator = "perceptron_lab.Learner (its comparator is perceptron_lab.run's)";
  refuse_run_options(g, [](const std::string&) { return false; }, "an option of perceptron_lab.run");
  LearnerConfig c = configure(g, {.algo = s.algo, .bounds = false}).learner();
  c.with_data(dim, classes);
  return c;
}

}  // namespace

nlohmann::json learner_catalog() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& l : learners()) {
    std::vector<std::string> names;  // the options it takes
    for (const OptionDecl& d : l.option_rows()) names.push_back(d.name);
    out.push_back({{"name", l.name}, {"summary", l.summary}, {"multiclass", l.multiclass},
                   {"options", names}, {"bounds", !l.bounds.empty()},
                   {"multiclass_counterpart", l.multiclass_counterpart.empty() ? nlohmann::json() : nlohmann::json(l.multiclass_counterpart)}});
  }
  return out;
}

// The declarations (bounds/option_owners.hpp): the learner's own, then the kernel's and the
// comparator's; the data readers' do not apply to arrays.
nlohmann::json option_catalog(const std::string& algo) {
  const LearnerInfo& info = learner_info(algo, "algo");
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : declared_options()) {
    const bool owned = std::find(d.owners.begin(), d.owners.end(), info.name) != d.owners.end();
    if (d.kind == "learner" && owned) out.push_back(row(d, "learner"));  // its row of a name several declare
    if (d.kind == "kernel") out.push_back(row(d, "kernel"));
    if (d.kind == "comparator") out.push_back(row(d, "run"));
  }
  for (const OptionDecl& d : run_options())
    if (python_run_keyword(d.name)) out.push_back(row(d, "run"));
  return out;
}

bool is_multiclass(const std::string& algo) { return learner_info(algo, "algo").multiclass; }

RunConfig run_config(const LearnerSpec& spec, const Dataset& data, bool bounds, std::optional<uint64_t> shuffle,
                     int64_t threads) {
  GivenOptions g = keywords(spec);
  // The arrays are the data as given: no label map, preprocessing or limit applies to them.
  refuse_run_options(g, [](const std::string&) { return false; },
                     "an option of plab run; perceptron_lab.run takes shuffle and threads");
  if (shuffle) g.add("shuffle", *shuffle);
  g.add("threads", threads);
  return configure(g, {.algo = spec.algo, .data = &data, .bounds = bounds});
}

std::pair<Kernel, ComparatorRequest> kernel_and_comparator(const LearnerSpec& spec, const Dataset& data) {
  const GivenOptions g = keywords(spec);
  std::pair<Kernel, ComparatorRequest> out{configure_kernel(g), {}};
  configure_comparator(out.second, g, &data, out.first);
  return out;
}

LearnerSpec model_spec(const ModelFile& m) {
  LearnerSpec s{m.header.algo, m.header.options};
  s.options.update(kernel_json_given(model_kernel(m)));
  return s;
}

LearnerOptions built_options(const LearnerSpec& spec, std::size_t dim, std::size_t classes) {
  return learner_config_of(spec, dim, classes).options();
}

std::unique_ptr<Learner> build_learner(const LearnerSpec& spec, std::size_t dim, std::size_t classes) {
  return make_learner(learner_config_of(spec, dim, classes));
}

}  // namespace plab::py
