// `plab model show M` (the header of a model file in one screen) and `plab model export --libsvm M
// OUT` (a binary kernel learner as a LIBSVM model, models/libsvm_export.hpp); docs/models.md.
#include <fmt/format.h>


#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "datasets/text_parse.hpp"
#include "models/libsvm_export.hpp"
#include "config/recorded_options.hpp"
#include "models/model_file.hpp"

namespace plab {
namespace {

struct ModelArgs {
  std::string model, libsvm_out;
};

void show(const ModelArgs& a) {
  const ModelFile m = read_model(a.model);
  const ModelHeader& h = m.header;
  const Kernel kernel = model_kernel(m);  // its fields checked before any is shown
  std::string out;
  std::size_t bytes = 0;
  for (const auto& arr : m.arrays) bytes += arr.bytes.size();
  out += fmt::format("{}: plab model, format {}\n", a.model, kModelFormat);
  out += fmt::format("learner     {}\noptions     {}\nkernel      {}\n", h.algo, h.options.dump(), kernel.describe());
  out += fmt::format("labels      {}\n", h.classes.empty() ? (h.labels.empty() ? "+1/-1 (default spellings)" : h.labels)
                                                           : nlohmann::json(h.classes).dump() + " (class list)");
  out += fmt::format("preprocess  {}\nrounds      {}\ndim         {}\ncode        {}\n", h.preprocess, h.rounds, h.dim,
                     h.code);
  for (const auto& d : h.data) out += "trained on  " + d.dump() + "\n";
  out += fmt::format("state       {} arrays, {} bytes:", m.arrays.size(), bytes);
  for (const auto& arr : m.arrays) out += fmt::format(" {}[{}]", arr.name, arr.count);
  out += "\n";
  // Header text is the file's: control bytes (ESC, BEL, CR) are written as \xNN, never sent to the terminal.
  std::string shown;
  for (std::size_t b = 0, e; b < out.size(); b = e + 1) {
    e = out.find('\n', b);
    shown += detail::escape_controls(std::string_view(out).substr(b, e - b)) + "\n";
  }
  write_file_atomic("-", shown);  // a write error (> /dev/full) fails the command
}

void export_libsvm(const ModelArgs& a) {
  refuse_shared_paths({{"--libsvm", a.model}, {"out", a.libsvm_out, true}});
  const ModelFile m = read_model(a.model);
  write_file_atomic(a.libsvm_out, libsvm_model_text(m, *restore_learner(m, 0)));
}

}  // namespace

void register_model_command(CLI::App& app) {
  auto* c = app.add_subcommand("model", "Inspect or export a model file (plab run --save-model)");
  c->require_subcommand(1);
  auto a = std::make_shared<ModelArgs>();
  auto* s = c->add_subcommand("show", "Print the header of a model file");
  s->add_option("model", a->model, "Model file")->required();
  s->callback([a] { show(*a); });
  auto* e = c->add_subcommand("export", "Write a binary kernel learner's model as a LIBSVM model (svm-predict reads it)");
  e->add_option("--libsvm", a->model, "Model file to export")->required();
  e->add_option("out", a->libsvm_out, "LIBSVM model file to write")->required();
  e->callback([a] { export_libsvm(*a); });
}

}  // namespace plab
