// `plab predict --model M --data D [--output P.csv] [--hypothesis last|averaged|voted]`: scores every
// row of D with a saved model (docs/models.md#predict): a CSV of row, label, score and predicted
// label, and the error of the hypothesis on D's labels (a zero or non-finite score counts as an
// error, as in training and plab run --test; the rows with no finite score are counted apart).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "algorithms/averaged.hpp"
#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "core/format.hpp"
#include "datasets/preprocess.hpp"
#include "datasets/registry.hpp"
#include "config/recorded_options.hpp"
#include "config/run_config.hpp"
#include "models/model_file.hpp"

namespace plab {
namespace {

struct PredictArgs {
  std::string model, data, output, hypothesis, format = "auto";
};

// The hypothesis asked for, or the learner's default (averaged/voted for those Perceptrons).
std::string hypothesis_of(const PredictArgs& a, const Learner& l) {
  const auto hs = l.hypotheses();
  std::string h = a.hypothesis;
  if (h.empty()) {
    const auto* v = dynamic_cast<const VotedPerceptron*>(&l);
    h = v ? v->default_hypothesis() : "last";
  }
  if (std::find(hs.begin(), hs.end(), h) == hs.end()) {
    std::string known;
    for (const auto& x : hs) known += (known.empty() ? "" : ", ") + x;
    throw std::invalid_argument("--hypothesis " + h + ": the model " + a.model + " predicts with " + known);
  }
  return h;
}

// The model's configuration and how its data is read (the model's label map and preprocessing,
// --format checked against the reader of --data), by the one configuration step, before any data is
// read.
RunConfig predict_config(const PredictArgs& a, const ModelFile& m) {
  GivenOptions given;
  given.spell = [](const std::string& key, const std::string& v) { return v.empty() ? "--" + key : "--" + key + " " + v; };
  if (a.format != "auto") given.add("format", a.format, "", "--format");
  return configure(given, {.algo = m.header.algo, .init = &m, .bounds = false, .sources = {{"--data " + a.data, a.data}}});
}

void run_predict(const PredictArgs& a) {
  refuse_shared_paths({{"--model", a.model}, {"--data", a.data}, {"--output", a.output, true}});
  const ModelFile m = read_model(a.model);
  const RunConfig config = predict_config(a, m);
  Dataset d = load_dataset(a.data, config.load());
  apply_preprocess(d, Preprocess::parse(config.run().preprocess), m.header.dim);  // the model's feature space
  fit_labels(d, m);
  // dim 0: scoring never grows a learner, so memory is the model's whatever the data's largest
  // index (a primal Perceptron sized by a row with index 2^31 would hold 16 GiB of zeros).
  const auto learner = restore_learner(m, 0);
  const std::string which = hypothesis_of(a, *learner);
  std::string csv = "row,label,score,predicted\n";
  std::size_t errors = 0, no_score = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const Example x = d[i];
    const Prediction p = predict(*learner, m.header, which, x);
    const double label = d.multiclass() ? d.classes.at(static_cast<std::size_t>(x.y)) : x.y;
    const double s = learner->score_as(which, x);
    errors += learner->wrong(s, x);
    no_score += !std::isfinite(s);
    csv += fmt::format("{},{},{},{}\n", i + 1, format_g(label, 17), format_g(p.score, 17), format_g(p.label, 17));
  }
  write_file_atomic(a.output.empty() ? "-" : a.output, csv);  // a write error (> /dev/full) fails the command
  std::cerr << fmt::format("plab predict: {} rows of {}, {} hypothesis of {}: error {:.4f}% ({} rows with y f(x) <= 0 or no "
                           "finite score{})\n",
                           d.size(), d.name, which, m.header.algo,
                           100.0 * static_cast<double>(errors) / static_cast<double>(std::max<std::size_t>(1, d.size())), errors,
                           no_score ? fmt::format("; {} rows with no finite score", no_score) : "");
}

}  // namespace

void register_predict_command(CLI::App& app) {
  auto* c = app.add_subcommand("predict", "Score a data set with a saved model (plab run --save-model)");
  auto a = std::make_shared<PredictArgs>();
  c->add_option("--model", a->model, "Model file written by plab run --save-model")->required();
  c->add_option("--data", a->data, "Registry name, synthetic:NAME[:k=v,...] or file path")->required();
  c->add_option("--output", a->output, "Write the per-row CSV (row,label,score,predicted) here (default: standard output)");
  c->add_option("--hypothesis", a->hypothesis, "last | averaged | voted (default: the learner's own)");
  c->add_option("--format", a->format, "auto | libsvm | csv | tsv | usps")->capture_default_str();
  c->callback([a] { run_predict(*a); });
}

}  // namespace plab
