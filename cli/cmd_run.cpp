// `plab run`: parses flags (grouped in --help by their owner: run, kernel, comparator, reader, each
// learner family), runs its configuration through run_configured (experiments/run/run_job.hpp) and prints the progress
// lines, the bounds table, the trace and the summary.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <optional>

#include "core/file_io.hpp"
#include "cli/commands.hpp"
#include "bounds/comparator.hpp"
#include "cli/option_flags.hpp"
#include "cli/run_stream.hpp"
#include "datasets/background_load.hpp"
#include "core/thread_pool.hpp"
#include "datasets/preprocess.hpp"
#include "datasets/registry.hpp"
#include "config/run_config.hpp"
#include "experiments/run/run_job.hpp"
#include "experiments/run/trace.hpp"
#include "experiments/version.hpp"
#include "models/model_file.hpp"

namespace plab {
namespace {

// The learner, kernel, comparator, reader and run options (--labels, --preprocess, --limit,
// --shuffle, --threads) live in `flags`; configure checks them.
struct RunArgs {
  std::string algo, data, test, trace, summary;
  bool quiet = false, no_bounds = false, strict = false;
  std::string save_model, init_model;  // docs/models.md
  OptionFlags flags;
};

// The data sets the reader flags apply to: --data and --test.
std::vector<DataSource> sources(const RunArgs& a) {
  std::vector<DataSource> v;
  for (const auto& [flag, spec] : {std::pair{"--data", a.data}, std::pair{"--test", a.test}})
    if (!spec.empty()) v.push_back({flag + (" " + spec), spec});
  return v;
}

void print_start(const RunArgs& a, const RunOptions& run, const RunRequest& req) {
  if (a.quiet) return;
  if (req.stream || req.loading) {
    std::cerr << fmt::format("plab run: {} on {} (rows learned as they {}, kernel {})\n", a.algo,
                             req.stream ? "standard input" : a.data, req.stream ? "arrive" : "are read, in file order",
                             req.options().kernel.describe());
    return;
  }
  std::cerr << fmt::format("plab run: {} on {} ({} rounds, dim {}, kernel {}, shuffle {})\n", a.algo, req.train->name,
                           req.order.size(), req.train->dim, req.options().kernel.describe(),
                           run.shuffle ? std::to_string(*run.shuffle) : "none (file order)");
}

// Progress lines at rounds 1, 2, 4, 8, ...
RoundObserver progress(const RunArgs& a) {
  if (a.quiet) return {};
  return [](const RoundRecord& r, const RunResult& s) {
    if (!is_power_of_two(r.t)) return;
    std::cerr << fmt::format("{:>10} rounds  {:>8} mistakes ({:6.3f}%)  {:>8} supports\n", r.t, s.mistakes,
                             100.0 * static_cast<double>(s.mistakes) / static_cast<double>(r.t), r.support_size);
  };
}

void print_done(const RunArgs& a, const RunReport& rep) {
  if (a.quiet) return;
  const RunResult& res = rep.run;
  const std::size_t T = res.count;
  std::cerr << fmt::format("done: {} rounds, {} mistakes ({:.3f}%), {} updates, {} supports, {:.3f} s\n", T,
                           res.mistakes, 100.0 * static_cast<double>(res.mistakes) / static_cast<double>(std::max<std::size_t>(1, T)),
                           res.updates, res.support_size, res.seconds);
  for (const auto& [h, e] : rep.test_error.items()) {
    const auto no_score = rep.test_no_score.at(h).get<std::size_t>();
    std::cerr << fmt::format("test error ({} hypothesis): {:.4f}%{}\n", h, 100.0 * e.get<double>(),
                             no_score ? fmt::format(" ({} rows with no finite score, counted as errors)", no_score) : "");
  }
}

// The rows of the training data: a stream's, counted as they came.
std::size_t data_rows(const RunRequest& req) { return req.stream ? req.stream->rows() : req.train->size(); }

nlohmann::json results_json(const RunReport& rep) {
  const RunResult& res = rep.run;
  nlohmann::json r = {{"rounds", res.count}, {"mistakes", res.mistakes}, {"updates", res.updates},
                      {"margin_errors", res.margin_errors}, {"support_size", res.support_size},
                      {"seconds", res.seconds}, {"f_norm2", rep.learner->norm2()},
                      {"f_norm2_exact", rep.f_norm2_exact}};
  if (!rep.test_error.empty()) {
    r["test_error"] = rep.test_error;
    r["test_rows_no_finite_score"] = rep.test_no_score;
  }
  return r;
}

// The running ||f_T||^2 (sum of per-round increments) against alpha^T K alpha recomputed: a
// disagreement means an update rule or its bookkeeping is wrong (or numerically broken).
void check_norm(const RunReport& rep) {
  const double exact = rep.f_norm2_exact, running = rep.learner->norm2();
  if (std::isnan(exact) || std::isnan(running)) return;  // not computed or not kept (--no-bounds)
  if (std::abs(exact - running) > 1e-6 * std::max(1.0, std::abs(exact)))
    std::cerr << fmt::format("plab run: WARNING: running ||f||^2 = {:.12g} differs from alpha^T K alpha = {:.12g}\n",
                             running, exact);
}

// `trace`: the writer of a stream's trace (docs/inputs.md#streams), else null.
void write_outputs(const RunArgs& a, const RunOptions& run, const RunRequest& req, const RunReport& rep,
                   TraceWriter* trace) {
  nlohmann::json meta = run_meta(req, rep);
  meta["data"] = {{"name", req.train->name}, {"path", req.train->path}, {"sha256", req.train->sha256},
                  {"size", data_rows(req)}, {"dim", req.train->dim}, {"labels", run.labels}, {"limit", run.limit},
                  {"source", req.stream ? "stream" : dataset_source(a.data)}, {"preprocess", run.preprocess}};
  if (!req.train->header.empty()) meta["data"]["header"] = req.train->header;
  if (req.stream && req.stream->unterminated_line()) meta["data"]["unterminated_last_line"] = req.stream->unterminated_line();
  meta["shuffle_seed"] = run.shuffle ? nlohmann::json(*run.shuffle) : nlohmann::json();
  meta["git"] = git_revision();
  if (req.test) meta["test"] = {{"name", req.test->name}, {"path", req.test->path}, {"sha256", req.test->sha256}};
  if (trace) trace->finish(meta);
  else if (!a.trace.empty()) write_trace(a.trace, rep.run.rounds, meta);
  if (a.summary.empty()) return;
  nlohmann::json s = meta;
  s["results"] = results_json(rep);
  s["bounds"] = nlohmann::json::array();
  for (const auto& b : rep.bounds) s["bounds"].push_back(to_json(b));
  write_json_atomic(a.summary, s);
}

// Says where the data came from and which first line was dropped as a CSV header.
void print_source(const RunArgs& a, const std::string& spec, const Dataset& d) {
  if (a.quiet) return;
  const std::string src = dataset_source(spec);
  if (src == "registry") std::cerr << fmt::format("plab run: data: registered data set '{}' ({})\n", d.name, d.path);
  if (src == "file") std::cerr << fmt::format("plab run: data: file '{}'\n", spec);
  if (!d.header.empty())
    std::cerr << fmt::format("plab run: first line taken as a header and not used as data: {} (--header no reads it as data)\n",
                             d.header);
}

// std::bad_alloc during a run says which data set and how large, not just "std::bad_alloc".
JobReport run_or_explain(const RunConfig& config, const RunJob& job) {
  try {
    return run_configured(config, job);
  } catch (const std::bad_alloc&) {
    if (job.loading) {  // the file's own error first
      const Dataset& d = job.loading->finish();
      throw DataError(fmt::format("out of memory running {} on {}: {}", config.algo(), d.name, memory_estimate(d)));
    }
    if (job.stream)  // no rows are held: what the stream gave so far (the model holds the rest)
      throw DataError(fmt::format("out of memory running {} on {} after {} rows (dimension {}: one support stored "
                                  "densely takes {:.1f} MiB)", config.algo(), job.train->name, job.stream->rows(),
                                  job.stream->dim(), 8.0 * static_cast<double>(job.stream->dim()) / 1048576.0));
    throw DataError(fmt::format("out of memory running {} on {}: {}", config.algo(), job.train->name,
                                memory_estimate(*job.train)));
  }
}

// --init-model: the model fixes the learner, its options, the kernel, the label map and the
// preprocessing; flags that would change them are errors (configure compares them), and so is
// --algo naming another learner.
std::optional<ModelFile> init_model(RunArgs& a) {
  if (a.init_model.empty()) {
    if (a.algo.empty()) throw std::invalid_argument("--algo is required (or --init-model)");
    return std::nullopt;
  }
  ModelFile m = read_model(a.init_model);
  if (!a.algo.empty() && a.algo != m.header.algo)
    throw ModelError(a.init_model + ": a model of " + m.header.algo + ", not of --algo " + a.algo);
  a.algo = m.header.algo;
  return m;
}

// --save-model: the trained learner with what it was trained on, after the model it continued.
void save_trained(const RunArgs& a, const RunOptions& run, const RunRequest& req, const RunReport& rep) {
  if (a.save_model.empty()) return;
  ModelHeader h = model_header(req.algo(), rep.facts.options);
  if (req.init) {
    h.data = req.init->header.data;
    h.rounds = req.init->header.rounds;
    h.dim = std::max(h.dim, req.init->header.dim);
  }
  h.labels = req.train->multiclass() ? "classes" : run.labels;
  h.preprocess = run.preprocess;
  h.classes = req.train->classes;
  h.data.push_back({{"name", req.train->name}, {"sha256", req.train->sha256},
                    {"rows", req.stream ? rep.run.count : req.order.size()}});
  h.rounds += static_cast<int64_t>(rep.run.count);
  h.code = git_revision();
  save_model(a.save_model, h, *rep.learner);
}

void run(RunArgs& a) {
  refuse_shared_paths({{"--data", a.data}, {"--test", a.test}, {"--init-model", a.init_model},
                       {"--trace", a.trace, true}, {"--summary", a.summary, true}, {"--save-model", a.save_model, true}});
  const std::optional<ModelFile> init = init_model(a);
  if (a.strict && (a.no_bounds || init || a.data == "-"))  // it would never fire
    throw std::invalid_argument(std::string("--strict exits with code 3 when a bound is violated, but this run evaluates none (") +
                                (a.no_bounds ? "--no-bounds" : init ? "--init-model: a continued run has no bound rows"
                                                                    : "--data -: a stream's bounds are n/a") + ")");
  const GivenOptions given =
      a.flags.given(init ? "--init-model (a continued run has no bound rows)" : "--no-bounds (no comparator)");
  // Usage errors, the model's options included, before any data is read; the bounds assume
  // f_0 = 0: a continued run has none.
  const RunConfig config =
      configure(given, {.algo = a.algo, .init = init ? &*init : nullptr, .bounds = !a.no_bounds && !init,
                        .sources = sources(a)});
  const RunOptions& run = config.run();
  const LoadOptions& load = config.load();
  const Preprocess pre = Preprocess::parse(run.preprocess);
  StreamInput in = stream_input(a.data, {run.shuffle.has_value(), !a.test.empty(), run.preprocess, a.algo, &a.flags}, load);
  Dataset data;
  std::optional<BackgroundLoad> loading;  // docs/inputs.md#read-while-learning
  if (in.rows) {
    data.name = kStdinName;
    data.path = "-";
  } else if (!run.shuffle && pre.none() && !init && !load.labels.classes && !learner_info(a.algo).multiclass &&
             config.options().kernel.type != Kernel::Type::linear && data_reader(a.data, load.format) == "libsvm") {
    loading.emplace(a.data, load);
  } else {
    data = load_dataset(a.data, load);
    print_source(a, a.data, data);
  }
  // pm1-to-01 fills the feature space of the model continued, and the test rows the training data's.
  apply_preprocess(data, pre, init ? init->header.dim : 0);
  if (init) fit_labels(data, *init);
  std::optional<Dataset> test;
  if (!a.test.empty()) {
    test = load_dataset(a.test, load);
    print_source(a, a.test, *test);
    apply_preprocess(*test, pre, data.dim);
  }
  RunJob job{.train = &data, .test = test ? &*test : nullptr, .stream = in.rows.get(),
             .loading = loading ? &*loading : nullptr, .init = init ? &*init : nullptr,
             .observe = in.observer(a.trace, progress(a)),
             .keep_rounds = !a.trace.empty()};  // the trace is the one reader of the records besides the bounds
  job.on_start = [&a, &run](const RunRequest& req, unsigned started) {
    print_start(a, run, req);
    if (const unsigned asked = resolve_threads(run.threads); started < asked)
      std::cerr << fmt::format("plab run: note: the system started {} of the {} threads asked for (--threads): the run "
                               "goes on with {} (the same results)\n", started, asked, started);
  };
  // "auto" resolved to the comparator it picks on the data (a LIBSVM file read while learning: as on
  // any file, whose rows have no generating hyperplane)
  const auto [req, rep] = run_or_explain(config.on_data(given, data), job);
  if (loading) print_source(a, a.data, *req.train);  // the whole file, now read
  in.describe(data);
  if (const std::size_t cut = req.stream ? req.stream->unterminated_line() : 0)  // said even with --quiet
    std::cerr << fmt::format("plab run: note: the stream's last line ({}:{}) has no newline: if its writer was cut off "
                             "mid-line, that row may be incomplete, and it was learned (docs/inputs.md#streams)\n",
                             kStdinName, cut);
  print_done(a, rep);
  check_norm(rep);
  if (!a.quiet && req.bounds) print_bounds_table(std::cerr, rep.bounds);
  write_outputs(a, run, req, rep, in.trace.get());
  save_trained(a, run, req, rep);
  if (any_hard_violation(rep.bounds)) {
    std::cerr << "plab run: A PROVEN MISTAKE BOUND IS VIOLATED on this run (see the table): this is a bug.\n";
    if (a.strict) throw BoundViolation("hard bound violated (--strict)");
  }
}

std::string algo_help() {
  std::string s = "Algorithm:";
  for (const auto& l : learners()) s += "\n  " + l.name + ": " + l.summary;
  return s;
}

}  // namespace

void register_run_command(CLI::App& app) {
  auto* c = app.add_subcommand("run", "Run one online learner over a data set");
  auto a = std::make_shared<RunArgs>();
  c->option_defaults()->group("Run options");
  c->add_option("--algo", a->algo, algo_help() + "\n(required unless --init-model gives the learner)");
  c->add_option("--data", a->data, "Registry name, synthetic:NAME[:k=v,...], file path, or - for standard input "
                                    "(LIBSVM, or --format csv|tsv; learned as the rows arrive: docs/inputs.md#streams)")->required();
  c->add_option("--test", a->test, "Test set (registry name or file): reports the test error of each hypothesis");
  a->flags.add(c, run_options());  // --labels, --preprocess, --limit, --shuffle, --threads
  c->add_option("--trace", a->trace, "Write the per-round trace CSV here");
  c->add_option("--summary", a->summary, "Write the summary JSON here");
  c->add_flag("--quiet", a->quiet, "No progress lines");
  c->add_flag("--no-bounds", a->no_bounds, "Do not evaluate the bounds");
  c->add_flag("--strict", a->strict, "Exit non-zero when a hard bound is violated");
  c->add_option("--save-model", a->save_model, "Write the trained learner to this model file (docs/models.md)");
  c->add_option("--init-model", a->init_model,
                "Continue training the learner of this model file on --data, rounds numbered after its own; "
                "the model fixes the learner, its options, the kernel and the label map (docs/models.md#continue)");
  for (const auto* decls : {&kernel_options(), &comparator_options(), &reader_options()}) a->flags.add(c, *decls);
  a->flags.add_learner_options(c);
  c->callback([a] { run(*a); });
}

}  // namespace plab
