// `plab run`: one online pass of one learner over one data set, with its trace, summary and the
// bounds that apply.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/commands.hpp"
#include "core/random.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "datasets/registry.hpp"
#include "experiments/run.hpp"
#include "experiments/trace.hpp"
#include "experiments/version.hpp"

namespace plab {
namespace {

struct RunArgs {
  std::string algo, data, test, labels, trace, summary, kernel = "linear", eta_convention = "paper";
  std::string comparator = "auto";
  double gamma = 1.0, coef0 = 0.0, svm_C = 1.0;
  int degree = 2;
  std::size_t limit = 0;
  std::optional<uint64_t> shuffle;
  bool quiet = false, no_bounds = false, strict = false;
  LearnerOptions opt;
};

nlohmann::json options_json(const RunArgs& a) {
  const LearnerOptions& o = a.opt;
  return {{"eta", o.eta}, {"eta_convention", a.eta_convention}, {"U", o.U}, {"budget", o.budget},
          {"C", o.C}, {"beta", o.beta}, {"seed", o.seed}, {"task", o.task}, {"loss", o.loss},
          {"lambda", o.lambda}, {"learning_rate", o.learning_rate}, {"rho", o.rho}, {"nu", o.nu},
          {"epsilon", o.epsilon}, {"decay_rate", o.decay_rate}, {"bias", o.bias},
          {"truncate", o.truncate}, {"inclusive_ties", o.inclusive_ties}, {"limit", a.limit},
          {"labels", a.labels}};
}

nlohmann::json kernel_json(const Kernel& k) {
  return {{"type", k.type_name()}, {"gamma", k.gamma}, {"coef0", k.coef0}, {"degree", k.degree}};
}

void run(RunArgs& a) {
  a.opt.kernel = Kernel{Kernel::parse_type(a.kernel), a.gamma, a.coef0, a.degree};
  if (a.eta_convention == "paper") a.opt.eta_convention = EtaConvention::paper;
  else if (a.eta_convention == "dogma") a.opt.eta_convention = EtaConvention::dogma;
  else throw std::invalid_argument("--eta-convention must be paper or dogma, got '" + a.eta_convention + "'");
  if (a.opt.kernel.type == Kernel::Type::rbf && !(a.gamma > 0))
    throw std::invalid_argument("--gamma must be > 0 for the rbf kernel");
  if (a.opt.kernel.type == Kernel::Type::poly && a.degree < 1)
    throw std::invalid_argument("--degree must be >= 1");

  const LabelMap labels = LabelMap::parse(a.labels);
  const Dataset data = load_dataset(a.data, labels);
  std::optional<Dataset> test;
  if (!a.test.empty()) test = load_dataset(a.test, labels);
  a.opt.dim = std::max(data.dim, test ? test->dim : 0);
  auto learner = make_learner(a.algo, a.opt);
  const auto order = make_order(data.size(), a.shuffle, a.limit);

  if (!a.quiet)
    std::fprintf(stderr, "plab run: %s on %s (%zu rounds, dim %zu, kernel %s, shuffle %s)\n",
                 a.algo.c_str(), data.name.c_str(), order.size(), data.dim,
                 a.opt.kernel.describe().c_str(),
                 a.shuffle ? std::to_string(*a.shuffle).c_str() : "none (file order)");
  const RoundObserver progress = [&](const RoundRecord& r, const RunResult& s) {
    if (a.quiet || !is_power_of_two(r.t)) return;
    std::fprintf(stderr, "%10lld rounds  %8zu mistakes (%6.3f%%)  %8lld supports\n",
                 static_cast<long long>(r.t), s.mistakes, 100.0 * s.mistakes / r.t,
                 static_cast<long long>(r.support_size));
  };
  RunResult res = run_online(*learner, data, order, progress);

  nlohmann::json results = {{"rounds", order.size()},       {"mistakes", res.mistakes},
                            {"updates", res.updates},       {"margin_errors", res.margin_errors},
                            {"support_size", res.support_size}, {"seconds", res.seconds},
                            {"f_norm2", learner->norm2()}};
  // The running ||f_T||^2 (sum of per-round increments) against alpha^T K alpha recomputed: a
  // disagreement means an update rule or its bookkeeping is wrong (or numerically broken).
  const double exact = learner->norm2_exact();
  results["f_norm2_exact"] = exact;
  if (std::abs(exact - learner->norm2()) > 1e-6 * std::max(1.0, std::abs(exact)))
    std::fprintf(stderr, "plab run: WARNING: running ||f||^2 = %.12g differs from alpha^T K alpha = %.12g\n",
                 learner->norm2(), exact);
  if (test) {
    nlohmann::json te;
    for (const auto& h : learner->hypotheses()) te[h] = test_error(*learner, h, *test);
    results["test_error"] = te;
  }
  nlohmann::json meta = {{"algo", a.algo}, {"kernel", kernel_json(a.opt.kernel)},
                         {"options", options_json(a)},
                         {"data", {{"name", data.name}, {"path", data.path}, {"sha256", data.sha256},
                                   {"size", data.size()}, {"dim", data.dim}}},
                         {"shuffle_seed", a.shuffle ? nlohmann::json(*a.shuffle) : nlohmann::json()},
                         {"git", git_revision()}, {"f_norm2_exact", exact}};
  if (test) meta["test"] = {{"name", test->name}, {"path", test->path}, {"sha256", test->sha256}};

  if (!a.quiet) {
    std::fprintf(stderr, "done: %zu rounds, %zu mistakes (%.3f%%), %zu updates, %zu supports, %.3f s\n",
                 order.size(), res.mistakes, 100.0 * res.mistakes / std::max<std::size_t>(1, order.size()),
                 res.updates, res.support_size, res.seconds);
    if (test)
      for (const auto& [h, e] : results["test_error"].items())
        std::fprintf(stderr, "test error (%s hypothesis): %.4f%%\n", h.c_str(), 100.0 * e.get<double>());
  }
  std::vector<BoundResult> bounds;
  if (!a.no_bounds) {
    // theory.md 9: any comparator fixed independently of the learner's coins gives valid bounds.
    std::string kind = a.comparator;
    if (kind == "auto")
      kind = !data.truth.empty() && a.opt.kernel.type == Kernel::Type::linear ? "truth" : "svm";
    const Comparator g = make_comparator(kind, data, order, a.opt.kernel, a.svm_C,
                                         derive_seed(a.opt.seed, 0xC0));
    for (std::size_t t = 0; t < res.rounds.size(); ++t) res.rounds[t].g = g.scores[t];
    meta["comparator"] = {{"name", g.name}, {"norm", g.norm}, {"svm_C", a.svm_C}};
    bounds = evaluate_bounds(res.rounds, RunFacts::from_meta(meta));
    if (!a.quiet) print_bounds_table(std::cerr, bounds);
    nlohmann::json list = nlohmann::json::array();
    for (const auto& b : bounds) list.push_back(to_json(b));
    results["bounds"] = list;
  }
  if (!a.trace.empty()) write_trace(a.trace, res.rounds, meta);
  if (!a.summary.empty()) {
    nlohmann::json s = meta;
    s["results"] = results;
    s["bounds"] = results.contains("bounds") ? results["bounds"] : nlohmann::json::array();
    s["results"].erase("bounds");
    write_json_atomic(a.summary, s);
  }
  if (any_hard_violation(bounds)) {
    std::fprintf(stderr, "plab run: A PROVEN MISTAKE BOUND IS VIOLATED on this run (see the table): this is a bug.\n");
    if (a.strict) throw BoundViolation("hard bound violated (--strict)");
  }
}

}  // namespace

void register_run_command(CLI::App& app) {
  auto* c = app.add_subcommand("run", "Run one online learner over a data set");
  auto a = std::make_shared<RunArgs>();
  LearnerOptions& o = a->opt;
  c->add_option("--algo", a->algo, "Algorithm: " + [] {
    std::string s;
    for (const auto& n : learner_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
  }())->required();
  c->add_option("--data", a->data, "Registry name, synthetic:NAME[:k=v,...] or file path")->required();
  c->add_option("--test", a->test, "Test set (registry name or file): reports the test error of each hypothesis");
  c->add_option("--labels", a->labels, "Label map, e.g. '3:+1,*:-1' (digit 3 against the rest) or 'regression'");
  c->add_option("--kernel", a->kernel, "linear | poly | rbf")->capture_default_str();
  c->add_option("--gamma", a->gamma, "Kernel gamma: rbf exp(-gamma||x-x'||^2), poly (gamma<x,x'>+coef0)^degree")->capture_default_str();
  c->add_option("--degree", a->degree, "Polynomial degree")->capture_default_str();
  c->add_option("--coef0", a->coef0, "Polynomial coef0")->capture_default_str();
  // Unsigned options check NonNegativeNumber: CLI11 would wrap "-3" into a huge size_t.
  c->add_option("--limit", a->limit, "Use only the first N rounds (0 = all)")->check(CLI::NonNegativeNumber);
  c->add_option("--shuffle", a->shuffle, "Permute the rounds with this seed (default: file order)")->check(CLI::NonNegativeNumber);
  c->add_option("--trace", a->trace, "Write the per-round trace CSV here");
  c->add_option("--summary", a->summary, "Write the summary JSON here");
  c->add_flag("--quiet", a->quiet, "No progress lines");
  c->add_option("--eta", o.eta, "Projectron(++) threshold eta")->capture_default_str();
  c->add_option("--eta-convention", a->eta_convention, "paper (||delta|| <= eta) | dogma (||delta||^2 <= eta)")->capture_default_str();
  c->add_option("--U", o.U, "Projectron: per-round eta_t from U (ICML Eq. 13); 0 = off");
  c->add_option("--budget", o.budget, "Budget B (forgetron, forgetron-basic, rbp, stoptron, cks)")->check(CLI::NonNegativeNumber);
  c->add_option("--C", o.C, "PA-I aggressiveness C")->capture_default_str();
  c->add_option("--beta", o.beta, "CKS margin threshold beta")->capture_default_str();
  c->add_option("--seed", o.seed, "Seed of the learner's own randomness (rbp)")->capture_default_str()->check(CLI::NonNegativeNumber);
  c->add_option("--task", o.task, "NORMA task: classification | novelty | regression")->capture_default_str();
  c->add_option("--loss", o.loss, "NORMA regression loss: squared | eps")->capture_default_str();
  c->add_option("--lambda", o.lambda, "NORMA regulariser lambda")->capture_default_str();
  c->add_option("--learning-rate", o.learning_rate, "NORMA learning rate Lambda")->capture_default_str();
  c->add_flag("--decay-rate", o.decay_rate, "NORMA: learning rate Lambda/sqrt(t)");
  c->add_option("--rho", o.rho, "NORMA margin rho")->capture_default_str();
  c->add_option("--nu", o.nu, "NORMA nu-trick (negative = off)")->capture_default_str();
  c->add_option("--epsilon", o.epsilon, "NORMA eps-insensitive width")->capture_default_str();
  c->add_flag("--bias", o.bias, "NORMA: unregularised bias");
  c->add_option("--truncate", o.truncate, "NORMA: drop terms older than tau rounds (0 = never)")->check(CLI::NonNegativeNumber);
  c->add_flag("--inclusive-ties", o.inclusive_ties, "NORMA: violation on y f <= rho (Perceptron ties) instead of y f < rho (slides)");
  c->add_option("--comparator", a->comparator, "Comparator for the bounds: auto | truth | svm | multipass | zero")->capture_default_str();
  c->add_option("--svm-C", a->svm_C, "C of the hinge-loss SVM comparator")->capture_default_str();
  c->add_flag("--no-bounds", a->no_bounds, "Do not evaluate the bounds");
  c->add_flag("--strict", a->strict, "Exit non-zero when a hard bound is violated");
  c->callback([a] { run(*a); });
}

}  // namespace plab
