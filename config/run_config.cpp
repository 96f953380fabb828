#include "config/run_config.hpp"

#include <stdexcept>

#include "algorithms/registry.hpp"
#include "datasets/readers.hpp"
#include "datasets/registry.hpp"

namespace plab {
namespace {

const std::vector<std::string> kRunKinds = {"learner", "kernel", "comparator", "run"};  // a run's options

// The comparator of a run with bounds, over `c`; without, any comparator option given is an error.
void configure_comparator_for(ComparatorRequest& c, bool bounds, const GivenOptions& given, const Dataset* data,
                              const LearnerConfig& learner) {
  if (!bounds) {
    for (const OptionDecl& d : comparator_options())
      if (const GivenOption* g = given_option(given, d))  // the selector too: it would choose nothing
        throw std::invalid_argument(d.owners.empty() ? g->label() + " chooses the bounds' comparator, but the run has none: " +
                                                           given.no_comparator
                                                     : d.not_applicable(given.no_comparator, g->label()));
    return;
  }
  configure_comparator(c, given, data, learner.options().kernel);
}

// The model's options and kernel, with what is given over them: a given one must equal the model's.
LearnerConfig model_under_given(const ModelFile& m, const GivenOptions& given) {
  const LearnerConfig model = model_learner(m, 0);
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
    if (type != model.options().kernel.type_name())
      throw differs(given.values.at("kernel"), "kernel", type, model.options().kernel.type_name());
  }
  GivenOptions both = given;  // the model's options and kernel, what is given over them
  both.values.clear();
  const nlohmann::json kernel = kernel_json_given(model.options().kernel);
  for (const auto& [k, v] : m.header.options.items()) both.add(k, v, m.path);
  for (const auto& [k, v] : kernel.items()) both.add(k, v, m.path);
  for (const auto& [key, g] : given.values) both.values[key] = g;
  const LearnerConfig mine = configure_learner(m.header.algo, both);  // as for a fresh run
  const LearnerInfo& info = learner_info(m.header.algo);
  const nlohmann::json theirs = info.options_json(model), ours = info.options_json(mine);
  const nlohmann::json my_kernel = kernel_json_given(mine.options().kernel);
  for (const auto& [key, g] : given.values) {
    if (theirs.contains(key) && ours.at(key) != theirs.at(key)) throw differs(g, key, ours.at(key), theirs.at(key));
    if (kernel.contains(key) && my_kernel.at(key) != kernel.at(key)) throw differs(g, key, my_kernel.at(key), kernel.at(key));
  }
  return model;
}


// How the run's data is read: the label map of `run` (a multiclass learner's default "classes"),
// and the reader options given, each checked against the reader of every data source
// (docs/inputs.md#csv-and-tsv).
LoadOptions configure_load(const GivenOptions& given, const RunOptions& run, bool multiclass,
                           const std::vector<DataSource>& sources) {
  LoadOptions o;
  o.labels = LabelMap::parse(run.labels.empty() && multiclass ? "classes" : run.labels);
  const auto value = [&](const OptionDecl& d) {
    const GivenOption* g = given_option(given, d);
    if (!g) return d.default_value;
    d.check(g->value, g->label());
    return g->value;
  };
  for (const OptionDecl& d : reader_options())
    if (d.name == "format") o.format = value(d).get<std::string>();
  for (const DataSource& src : sources) {
    const std::string reader = data_reader(src.spec, o.format);
    const std::string what = reader == "generator" ? "a generator: reader options apply to files"
                             : reader == "registry" ? "a registered data set, its layout fixed in the registry: reader "
                                                      "options apply to files"
                                                    : "read as " + reader + ": pass --format csv or --format tsv";
    check_reader_options(given, reader, src.label + " (" + what + ")");
  }
  if (!given.has("header") && !given.has("label_column")) return o;
  o.layout = DelimitedLayout{};
  for (const OptionDecl& d : reader_options()) {
    if (d.name == "header") o.layout->header = DelimitedLayout::parse_header(value(d).get<std::string>());
    if (d.name == "label_column") o.layout->label_column = value(d).get<std::string>();
  }
  return o;
}

// A continued run reads its data as the model's was read: a label map or a preprocessing given
// that differs is an error (docs/models.md#continue).
void model_run_options(RunOptions& r, const GivenOptions& given, const ModelFile& m) {
  const std::string labels = m.header.classes.empty() ? m.header.labels : "classes";
  if (!r.labels.empty() && r.labels != labels)
    throw ModelError(m.path + ": its data was read with " + given.values.at("labels").label() + " '" + labels +
                     "', not '" + r.labels + "'");
  if (r.preprocess != "none" && r.preprocess != m.header.preprocess)
    throw ModelError(m.path + ": its rows were preprocessed with '" + m.header.preprocess + "', not '" + r.preprocess +
                     "'");
  r.labels = labels;
  r.preprocess = m.header.preprocess;
}

}  // namespace

RunOptions configure_run(const GivenOptions& given) {
  RunOptions r;
  for (const OptionDecl& d : run_options()) {
    nlohmann::json v = d.default_value;
    if (const GivenOption* g = given_option(given, d)) {
      d.check(g->value, g->label());
      v = d.typed(g->value);
    }
    if (v.is_null()) continue;  // none given: no label map, the file order
    if (d.name == "labels") r.labels = v.get<std::string>();
    if (d.name == "preprocess") r.preprocess = v.get<std::string>();
    if (d.name == "limit") r.limit = v.get<std::size_t>();
    if (d.name == "shuffle") r.shuffle = v.get<uint64_t>();
    if (d.name == "threads") r.threads = v.get<unsigned>();
  }
  return r;
}

RunConfig configure(const GivenOptions& all, const RunContext& ctx) {
  const GivenByKind given = by_kind(all);
  RunConfig c;
  c.run_ = configure_run(given.run);
  if (ctx.init) model_run_options(c.run_, all, *ctx.init);
  std::vector<std::string> kinds = kRunKinds;
  if (!ctx.sources.empty()) kinds.push_back("reader");
  refuse_unknown(all, given, ctx.algo, kinds);
  c.bounds_ = ctx.bounds;
  c.comparator_.kind = ctx.comparator;
  c.comparator_.seed = default_comparator_seed(ctx.permutation_seed ? ctx.permutation_seed : c.run_.shuffle);
  if (ctx.init) {
    c.learner_ = model_under_given(*ctx.init, given.learner);
  } else {
    const LearnerInfo& info = learner_info(ctx.algo, all.spelling("algo"));  // an unknown learner first
    c.learner_ = learner_config(info, given.learner, configure_kernel(given.learner));
  }
  // Labels kept as numbers reach only a learner that reads them: a multiclass one, or NORMA's
  // regression and novelty tasks; every other learner takes +1/-1 (docs/inputs.md#labels).
  if (const LearnerInfo& info = learner_info(c.algo());
      !info.multiclass && (c.run_.labels == "regression" || c.run_.labels == "classes")) {
    const nlohmann::json own = info.options_json(*c.learner_);
    if (!own.contains("task") || own.at("task") == "classification")
      throw std::invalid_argument(all.spelling("labels", c.run_.labels) + ": " + info.name +
                                  " learns binary labels +1/-1 (numeric labels are for the multiclass learners and " +
                                  "NORMA's regression and novelty tasks)");
  }
  configure_comparator_for(c.comparator_, c.bounds_, given.comparator, ctx.data, *c.learner_);
  if (!ctx.sources.empty())  // nothing is read without them
    c.load_ = configure_load(given.reader, c.run_, learner_info(c.algo()).multiclass, ctx.sources);
  return c;
}

RunConfig RunConfig::on_data(const GivenOptions& given, const Dataset& data) const {
  RunConfig c = *this;
  configure_comparator_for(c.comparator_, c.bounds_, given, &data, *c.learner_);
  return c;
}

}  // namespace plab
