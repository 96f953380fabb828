#include "experiments/run/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "bounds/comparator.hpp"
#include "bounds/multiclass_comparator.hpp"
#include "core/format.hpp"
#include "core/random.hpp"
#include "core/sha256.hpp"
#include "datasets/background_load.hpp"
#include "datasets/readers.hpp"
#include "datasets/registry.hpp"
#include "algorithms/fogd.hpp"
#include "numerics/fourier_features.hpp"

namespace plab {
namespace {

constexpr double kClassTableFloor = 16.0 * 1048576.0;  // bytes a class table may take whatever the data

// A comparator of a request, computed once per (data, order, kernel, kind, C, seed) in the
// process: the cells of a figure that share a data set and a permutation share it (on MNIST the
// multiclass one costs as much as a Projectron++ pass; the binary SVM on its 3000-row subsample
// costs more than most budget learners' runs). It is a pure function of that key, so sharing
// changes no bit.
template <class T, class Make>
std::shared_ptr<const T> memo_comparator(const std::string& kind, const RunRequest& req, const Make& make) {
  static std::mutex m;
  static std::map<std::string, std::shared_ptr<const T>> memo;
  std::string order;
  for (std::size_t i : req.order) order += std::to_string(i) + ",";
  const Kernel& k = req.options().kernel;
  const std::string key = sha256_hex(req.train->name + "\n" + req.train->sha256 + "\n" + std::to_string(req.train->size()) +
                                     "\n" + order + "\n" + k.type_name() + "," + format_g(k.gamma, 17) + "," +
                                     format_g(k.coef0, 17) + "," + std::to_string(k.degree) + "\n" + kind + "\n" +
                                     format_g(req.comparator.svm_C, 17) + "\n" + std::to_string(req.comparator.seed));
  {
    std::lock_guard<std::mutex> lock(m);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  auto value = std::make_shared<const T>(make());
  std::lock_guard<std::mutex> lock(m);
  if (memo.size() >= 32) memo.clear();  // a figure's permutations; bounded memory
  return memo.emplace(key, value).first->second;
}

std::shared_ptr<const MulticlassComparator> multiclass_comparator(const std::string& kind, const RunRequest& req) {
  return memo_comparator<MulticlassComparator>(kind, req, [&] {
    return make_multiclass_comparator(kind, *req.train, req.order, req.options().kernel, req.train->classes.size(),
                                      req.comparator.svm_C, derive_seed(req.comparator.seed, 0xC0));
  });
}

// Puts the comparator's scores (multiclass: margins) into column g; non-finite ones stop the run.
nlohmann::json fill_g(const RunRequest& req, RunResult& run, const std::string& name, double norm,
                      const std::vector<double>& scores) {
  if (!std::isfinite(norm))
    throw NonFiniteError(fmt::format("the comparator {}'s norm is {}: non-finite arithmetic "
                                     "(docs/learners.md#non-finite)", name, norm));
  for (std::size_t t = 0; t < run.rounds.size(); ++t) {
    RoundRecord& r = run.rounds[t];
    r.g = scores[t];
    if (!std::isfinite(r.g))
      throw NonFiniteError(fmt::format("round {} (data row {}): the comparator score g(x_t) is {}: non-finite "
                                       "arithmetic (docs/learners.md#non-finite)", r.t, r.index + 1, r.g));
  }
  return {{"name", name}, {"norm", norm}, {"svm_C", req.comparator.svm_C}, {"seed", req.comparator.seed}};
}

// The comparator g0 of the request (docs/bounds.md#comparator): its scores go into column g.
nlohmann::json attach_comparator(const RunRequest& req, RunResult& run) {
  const std::string kind = resolve_comparator(req.comparator.kind, *req.train, req.options().kernel);
  if (req.train->multiclass()) {  // U = (u_1..u_m): its multiclass margins go into column g
    const auto U = multiclass_comparator(kind, req);
    return fill_g(req, run, U->name, U->norm, U->margins);
  }
  ComparatorRequest c = req.comparator;
  c.kind = kind;
  const LearnerOptions& o = req.options();
  if (learner_info(req.algo()).fourier_features) {  // FOGD: g0 mapped into its feature space
    const auto fogd = options_from<FourierOnlineGradientDescent::Options>(o.own);
    const std::size_t D = fogd.features;
    const std::string key = kind + " in features " + std::to_string(D) + "," + std::to_string(fogd.seed);
    const auto g = memo_comparator<Comparator>(key, req, [&] {
      const FourierFeatures z(o.kernel.gamma, D, fogd.seed);
      return make_feature_comparator(kind, *req.train, req.order, o.kernel, z, c.svm_C, derive_seed(c.seed, 0xC0));
    });
    return fill_g(req, run, g->name, g->norm, g->scores);
  }
  const auto g = memo_comparator<Comparator>(kind, req, [&] {
    return run_comparator(c, *req.train, req.order, o.kernel);
  });
  return fill_g(req, run, g->name, g->norm, g->scores);
}

// Multiclass learners keep one coefficient per class for every support (CS03 Fig. 2's m-column
// alpha), and a round costs supports x classes: with many more classes than the rows can show (a
// label column that holds no classes, 1M distinct labels and --limit 100) that table, not the
// data, fills memory and time. Refused before allocating when it can exceed both 16 MiB and 8
// times the data held (docs/inputs.md#class-cost).
void check_class_cost(const RunRequest& req, const LearnerOptions& opt) {
  if (req.stream || opt.classes == 0) return;
  std::size_t supports = req.order.size();
  if (const std::size_t budget = own_value<std::size_t>(learner_info(req.algo()), opt, "budget", 0); budget > 0)
    supports = std::min(supports, budget);
  const double table = 8.0 * static_cast<double>(supports) * static_cast<double>(opt.classes);
  const double data = data_bytes(*req.train), limit = std::max(kClassTableFloor, 8.0 * data);
  if (table <= limit) return;
  throw DataError(fmt::format(
      "{}: {} classes: {} keeps one coefficient per class for each support: up to {} supports x {} classes x 8 bytes "
      "= {:.1f} MiB (and as many operations a round), more than max(16 MiB, 8 x the data's {:.1f} MiB); does the label "
      "column hold classes? (docs/inputs.md#class-cost)",
      req.train->path.empty() ? req.train->name : req.train->path, opt.classes, req.algo(), supports, opt.classes,
      table / 1048576.0, data / 1048576.0));
}

}  // namespace

Comparator run_comparator(const ComparatorRequest& c, const Dataset& data, const std::vector<std::size_t>& order,
                          const Kernel& k) {
  const std::string kind = resolve_comparator(c.kind, data, k);
  return make_comparator(kind, data, order, k, c.svm_C, derive_seed(c.seed, 0xC0));
}

namespace {
// After the rounds: ||f_T||^2 when read, the test errors, the comparator and the bound rows.
RunReport finish_run(const RunRequest& req, RunReport rep, LearnerOptions& opt, const Dataset* test) {
  if (req.stream) opt.dim = std::max(opt.dim, req.stream->dim());  // the model file's dim, as from the file
  // alpha^T K alpha costs O(|S|^2 nnz) (20 s for PA-I on MNIST): only when asked or the bounds read it.
  const bool exact = req.exact_norm || (req.bounds && !req.stream && !learner_info(req.algo()).bounds.empty());
  rep.f_norm2_exact = exact ? rep.learner->norm2_exact() : kNone;
  if (exact && !std::isfinite(rep.f_norm2_exact))
    throw NonFiniteError(fmt::format("after round {}: ||f_T||^2 = alpha^T K alpha recomputed is {}: non-finite "
                                     "arithmetic (docs/learners.md#non-finite)", rep.run.count, rep.f_norm2_exact));
  rep.test_error = nlohmann::json::object();
  rep.test_no_score = nlohmann::json::object();
  if (test)
    for (const auto& h : rep.learner->hypotheses()) {
      std::size_t no_score = 0;
      rep.test_error[h] = test_error(*rep.learner, h, *test, &no_score);
      rep.test_no_score[h] = no_score;
    }
  rep.facts.algo = req.algo();
  rep.facts.options = opt;
  rep.facts.f_norm2_exact = rep.f_norm2_exact;
  if (!req.bounds) return rep;
  if (req.stream) {  // no records kept, and no comparator without the whole data set
    rep.bounds = bounds_not_applicable(rep.facts, rep.run.count, rep.run.mistakes, kStreamNoBounds);
    return rep;
  }
  rep.comparator = attach_comparator(req, rep.run);
  rep.facts.comparator = rep.comparator["name"];
  rep.facts.g_norm = rep.comparator["norm"];
  rep.bounds = evaluate_bounds(rep.run.rounds, rep.facts);
  return rep;
}
}  // namespace

RunReport run_pipeline(const RunRequest& req) {
  BackgroundLoad* const loading = req.loading;
  if (!req.train && !loading) throw std::invalid_argument("run_pipeline: no training data");
  if (loading && (req.stream || req.init || !req.order.empty() || learner_info(req.algo()).multiclass))
    throw std::invalid_argument("run_pipeline: rows read while learning are learned in file order by a new binary learner");
  LearnerOptions opt = req.options();
  // Rows read while learning: the learner's dimension grows with them, as a stream's (docs/inputs.md#streams).
  opt.dim = std::max(loading ? 0 : req.train->dim, req.test ? req.test->dim : std::size_t{0});
  const bool multiclass = learner_info(req.algo()).multiclass;
  if (!loading && multiclass != req.train->multiclass())
    throw std::invalid_argument(multiclass ? req.algo() + " is a multiclass learner: load the data with --labels classes"
                                           : req.algo() + " is a binary learner and the data has class labels: map them "
                                                        "to +1/-1 with --labels (e.g. 3:+1,*:-1)");
  opt.classes = multiclass ? req.train->classes.size() : 0;
  Dataset test_indexed;  // a multiclass test set indexed by the training set's classes
  const Dataset* test = req.test;
  if (test && multiclass) {
    if (!req.test->multiclass()) throw std::invalid_argument("--test: the test set has no class labels (load it with --labels classes)");
    test_indexed = *req.test;
    test_indexed.y.clear();
    for (std::size_t i = 0; i < req.test->size(); ++i) test_indexed.y.push_back(req.test->classes.at(static_cast<std::size_t>(req.test->y[i])));
    index_classes(test_indexed, req.train->classes);
    test = &test_indexed;
  }
  check_class_cost(req, opt);
  opt.record_norms = req.bounds && !req.stream;  // nothing only a bound reads is kept without them
  RunReport rep;
  LearnerConfig learner = *req.learner;
  learner.with_data(opt.dim, opt.classes).with_record_norms(opt.record_norms);
  rep.learner = req.init ? restore_learner(*req.init, opt.dim, opt.record_norms) : make_learner(learner);
  const int64_t first = req.init ? req.init->header.rounds + 1 : 1;
  const bool keep = req.keep_rounds || req.bounds;
  if (req.stream) {
    rep.run = run_stream(*rep.learner, *req.stream, req.stream_limit, req.observe, first);
  } else if (loading) {
    try {
      rep.run = run_arriving(*rep.learner, loading->arrivals(), req.stream_limit, req.observe, first, keep, [&] {
        const Dataset& d = loading->finish();
        return d.path.empty() ? d.name : d.path;
      });
    } catch (...) {
      loading->finish();  // an error of the file's comes first, as when it is read before learning
      throw;
    }
  } else {
    rep.run = run_online(*rep.learner, *req.train, req.order, req.observe, first, keep);
  }
  RunRequest whole;  // rows read while learning: the same request over the whole data set, now read
  if (loading) {
    whole = req;
    whole.loading = nullptr;
    whole.train = &loading->finish();
    whole.order = make_order(whole.train->size(), std::nullopt, req.stream_limit);
    opt.dim = std::max(opt.dim, whole.train->dim);
  }
  return finish_run(loading ? whole : req, std::move(rep), opt, test);
}

void RunRequest::take(const RunConfig& c) {
  learner = c.learner();
  comparator = c.comparator();
  bounds = c.bounds();
}

nlohmann::json run_meta(const RunRequest& req, const RunReport& rep) {
  const LearnerInfo& info = learner_info(req.algo());
  nlohmann::json m = {{"algo", req.algo()},
                      {"kernel", req.options().kernel.options_json()},
                      {"options", info.options_json(rep.facts.options)},
                      {"f_norm2_exact", rep.f_norm2_exact}};
  if (!rep.learner->keeps_norm()) m["norms_kept"] = false;  // docs/learners.md#bookkeeping: no f_norm2, delta_norm
  if (!rep.comparator.is_null()) m["comparator"] = rep.comparator;
  if (req.train->multiclass()) m["classes"] = req.train->classes;  // original label of each class index
  return m;
}

}  // namespace plab
