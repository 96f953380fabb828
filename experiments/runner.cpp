#include "experiments/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/random.hpp"
#include "core/format.hpp"
#include "core/sha256.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "datasets/registry.hpp"
#include "experiments/norma_metrics.hpp"
#include "experiments/run.hpp"
#include "experiments/theory_figures.hpp"
#include "experiments/trace.hpp"
#include "experiments/version.hpp"

namespace plab {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Rows [b, e) of d as a new data set.
Dataset slice(const Dataset& d, std::size_t b, std::size_t e, const std::string& suffix) {
  Dataset out;
  out.name = d.name + suffix;
  out.path = d.path;
  out.sha256 = d.sha256;
  for (std::size_t i = b; i < e; ++i) {
    const Example x = d[i];
    out.push_back(x.idx, x.val, x.y);
  }
  out.dim = d.dim;
  return out;
}

}  // namespace

CellData DataCache::get(const Cell& c) {
  const std::string k = c.data + "\n" + c.labels + "\n" + c.test;
  std::lock_guard<std::mutex> lock(m_);  // loads are serialised; each happens once
  if (auto it = cache_.find(k); it != cache_.end()) return it->second;
  const LabelMap labels = c.labels.empty() ? LabelMap{} : LabelMap::parse(c.labels);
  auto full = std::make_shared<Dataset>(load_dataset(c.data, labels));
  CellData d;
  if (c.test == "halves") {
    const std::size_t h = full->size() / 2;  // DOGMA demo: first half trains, second half tests
    d.train = std::make_shared<Dataset>(slice(*full, 0, h, "[train half]"));
    d.test = std::make_shared<Dataset>(slice(*full, h, full->size(), "[test half]"));
    d.sha = full->sha256 + "/halves";
  } else {
    d.train = full;
    if (!c.test.empty()) d.test = std::make_shared<Dataset>(load_dataset(c.test, labels));
    d.sha = full->sha256 + "/" + (d.test ? d.test->sha256 : std::string());
  }
  cache_[k] = d;
  return d;
}

LearnerOptions learner_options(const Cell& c, std::size_t dim) {
  LearnerOptions o;
  const json& k = c.kernel;
  o.kernel = Kernel{Kernel::parse_type(k.value("type", "linear")), k.value("gamma", 1.0),
                    k.value("coef0", 0.0), k.value("degree", 2)};
  o.dim = dim;
  for (const auto& [key, v] : c.options.items()) {
    if (key == "eta") o.eta = v.get<double>();
    else if (key == "eta_convention") {
      const std::string s = v.get<std::string>();
      if (s == "paper") o.eta_convention = EtaConvention::paper;
      else if (s == "dogma") o.eta_convention = EtaConvention::dogma;
      else throw std::invalid_argument("eta_convention must be paper or dogma, got '" + s + "'");
    } else if (key == "U") o.U = v.get<double>();
    else if (key == "budget") o.budget = v.get<std::size_t>();
    else if (key == "C") o.C = v.get<double>();
    else if (key == "beta") o.beta = v.get<double>();
    else if (key == "seed") o.seed = v.get<uint64_t>();
    else if (key == "task") o.task = v.get<std::string>();
    else if (key == "loss") o.loss = v.get<std::string>();
    else if (key == "lambda") o.lambda = v.get<double>();
    else if (key == "learning_rate") o.learning_rate = v.get<double>();
    else if (key == "rho") o.rho = v.get<double>();
    else if (key == "nu") o.nu = v.get<double>();
    else if (key == "epsilon") o.epsilon = v.get<double>();
    else if (key == "decay_rate") o.decay_rate = v.get<bool>();
    else if (key == "bias") o.bias = v.get<bool>();
    else if (key == "truncate") o.truncate = v.get<std::size_t>();
    else if (key == "inclusive_ties") o.inclusive_ties = v.get<bool>();
    else if (key.rfind("metric_", 0) == 0) continue;  // per-cell metric switches (experiments/norma_metrics.hpp)
    else throw std::invalid_argument("spec option '" + key + "' is not a learner option");
  }
  return o;
}

std::string cell_key(const Cell& c, const CellData& d) {
  return sha256_hex(c.canonical().dump() + "\n" + git_revision() + "\n" + d.sha).substr(0, 24);
}

// The bounds of theory.md that apply to this run (bounds/bounds.hpp), against the comparator the
// spec names (bounds/comparator.hpp; seeded from the permutation so every algorithm of a
// permutation is compared with the same g0). Null when the spec asks for none.
static json cell_bounds(const Cell& c, RunResult& res, const Dataset& train,
                        const std::vector<std::size_t>& order, const LearnerOptions& o) {
  if (c.bounds.is_null()) return nullptr;
  const std::string kind = c.bounds.value("comparator", "svm");
  const double svm_C = c.bounds.value("svm_C", 1.0);
  const Comparator g = make_comparator(kind, train, order, o.kernel, svm_C, derive_seed(c.perm_seed, 0xC0));
  for (std::size_t t = 0; t < res.rounds.size(); ++t) res.rounds[t].g = g.scores[t];
  const json meta = {{"algo", c.algo},
                     {"kernel", c.kernel},
                     {"options", c.options},
                     {"comparator", {{"name", g.name}, {"norm", g.norm}, {"svm_C", svm_C}}}};
  const auto names = c.bounds.value("names", std::vector<std::string>{});
  json list = json::array();
  for (const auto& b : evaluate_bounds(res.rounds, RunFacts::from_meta(meta)))
    if (names.empty() || std::find(names.begin(), names.end(), b.name) != names.end()) list.push_back(to_json(b));
  return list;
}

json run_cell(const Cell& c, const CellData& d, double* seconds) {
  if (!c.error.empty()) throw std::runtime_error(c.error);
  const Dataset& train = *d.train;
  const std::size_t dim = std::max(train.dim, d.test ? d.test->dim : std::size_t{0});
  const LearnerOptions lo = learner_options(c, dim);
  auto learner = make_learner(c.algo, lo);
  const std::optional<uint64_t> shuffle =
      c.order == "shuffle" ? std::optional<uint64_t>(c.perm_seed) : std::nullopt;
  const auto order = cell_training_order(c, train, make_order(train.size(), shuffle, c.limit));
  RunResult res = run_online(*learner, train, order);
  if (seconds) *seconds = res.seconds;
  const std::size_t T = res.rounds.size();

  // Curves at ~curve_points evenly spaced rounds (always including the last).
  json ct = json::array(), ce = json::array(), cs = json::array();
  std::size_t mistakes = 0, next = 0;
  for (std::size_t t = 1, k = 1; t <= T; ++t) {
    mistakes += res.rounds[t - 1].mistake;
    if (next == 0) next = (k * T + c.curve_points - 1) / c.curve_points;
    if (t == next || t == T) {
      ct.push_back(t);
      ce.push_back(static_cast<double>(mistakes) / static_cast<double>(t));
      cs.push_back(res.rounds[t - 1].support_size);
      ++k;
      next = (k * T + c.curve_points - 1) / c.curve_points;
    }
  }
  json r = {{"rounds", T},
            {"mistakes", res.mistakes},
            {"updates", res.updates},
            {"margin_errors", res.margin_errors},
            {"support_size", res.support_size},
            {"online_error", T ? static_cast<double>(res.mistakes) / static_cast<double>(T) : 0.0},
            {"f_norm2", learner->norm2()}};
  // First round at which the support reached its final size (a budget learner filling B).
  for (std::size_t t = 1; t <= T; ++t)
    if (res.rounds[t - 1].support_size >= static_cast<int64_t>(res.support_size)) {
      r["support_reached_at"] = t;
      break;
    }
  // Support at T over support at T/2: about 2 for linear growth, less for sub-linear.
  if (T >= 2 && res.rounds[T / 2 - 1].support_size > 0)
    r["support_growth"] = static_cast<double>(res.support_size) /
                          static_cast<double>(res.rounds[T / 2 - 1].support_size);
  if (d.test)
    for (const auto& h : learner->hypotheses()) r["test_error_" + h] = test_error(*learner, h, *d.test);
  add_extra_metrics(c, d, lo, *learner, res, order, r);  // NORMA / drift metrics (experiments/norma_metrics.hpp)
  const json an = run_analyses(c, res, d, order, lo);  // T-figure analyses (experiments/theory_figures.hpp)
  for (const auto& [k, v] : an["results"].items()) r[k] = v;
  json doc = {{"cell", c.canonical()},
              {"git", git_revision()},
              {"data_sha256", d.sha},
              {"results", r},
              {"curve", {{"t", ct}, {"online_error", ce}, {"support_size", cs}}},
              {"bounds", cell_bounds(c, res, train, order, lo)}};
  if (!an["profiles"].empty()) doc["profiles"] = an["profiles"];
  return doc;
}

namespace {

// Removes temporary files an interrupted run left behind.
void clean_temporaries(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) fs::remove(e.path(), ec);
}

}  // namespace

std::map<std::string, std::vector<CellOutcome>> run_specs(const std::vector<Spec>& specs,
                                                          const RunnerOptions& opt, RunStats* stats) {
  const auto t_start = std::chrono::steady_clock::now();
  fs::create_directories(opt.cells_dir);
  clean_temporaries(opt.cells_dir);
  DataCache data;
  std::map<std::string, std::vector<CellOutcome>> out;
  // (figure, dataset, algo id, point, perm) -> results, for derived parameters.
  std::map<std::tuple<std::string, std::string, std::string, std::size_t, int>, json> done;
  RunStats st;
  std::size_t max_stages = 0;
  std::vector<std::vector<std::vector<std::string>>> stages;
  for (const auto& s : specs) {
    stages.push_back(s.stages());
    max_stages = std::max(max_stages, stages.back().size());
  }
  std::mutex log_m;
  for (std::size_t stage = 0; stage < max_stages; ++stage) {
    // Expand this stage's cells of every figure.
    std::vector<CellOutcome*> batch;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (stage >= stages[i].size()) continue;
      const Spec& s = specs[i];
      const ResultLookup lookup = [&](const std::string& ds, const std::string& a, std::size_t p, int q) {
        auto it = done.find({s.figure, ds, a, p, q});
        return it == done.end() ? json() : it->second;
      };
      auto& vec = out[s.figure];
      for (const auto& id : stages[i][stage])
        for (auto& c : expand_algorithm(s, id, lookup)) { CellOutcome o; o.cell = std::move(c); vec.push_back(std::move(o)); }
    }
    for (auto& [fig, vec] : out)
      for (auto& o : vec)
        if (o.key.empty() && o.doc.is_null() && o.error.empty()) batch.push_back(&o);
    // Keys (loads data once per data set), cached results, and the unique work list.
    std::map<std::string, CellOutcome*> first_of_key;
    std::vector<CellOutcome*> work;
    for (auto* o : batch) {
      if (!o->cell.error.empty()) { o->error = o->cell.error; o->key = std::string(1, '-'); continue; }
      try {
        o->key = cell_key(o->cell, data.get(o->cell));
      } catch (const std::exception& e) {
        o->error = std::string("data: ") + e.what();
        o->key = std::string(1, '-');
        continue;
      }
      const std::string path = opt.cells_dir + "/" + o->key + ".json";
      if (auto j = opt.reuse ? read_json_if_valid(path) : std::nullopt; j && j->contains("results")) {
        o->doc = *j;
        o->cached = true;
        if (auto t = read_json_if_valid(opt.cells_dir + "/" + o->key + ".time.json"))
          o->seconds = t->value("seconds", std::nan(""));
      } else if (!first_of_key.count(o->key)) {
        first_of_key[o->key] = o;
        work.push_back(o);
      }
    }
    // Compute the unfinished cells on `jobs` threads.
    std::atomic<std::size_t> next{0}, finished{0};
    double busy = 0.0;
    const auto t0 = std::chrono::steady_clock::now();
    auto worker = [&] {
      for (std::size_t i; (i = next++) < work.size();) {
        CellOutcome* o = work[i];
        const auto c0 = std::chrono::steady_clock::now();
        try {
          double secs = 0.0;
          json doc = run_cell(o->cell, data.get(o->cell), &secs);
          write_json_atomic(opt.cells_dir + "/" + o->key + ".time.json", json{{"seconds", secs}});
          write_json_atomic(opt.cells_dir + "/" + o->key + ".json", doc);
          o->doc = std::move(doc);
          o->seconds = secs;
        } catch (const std::exception& e) {
          o->error = e.what();
        }
        const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
        std::lock_guard<std::mutex> lock(log_m);
        busy += dt;
        const std::size_t n = ++finished, left = work.size() - n;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (opt.log) {
          *opt.log << "[stage " << stage << "] " << n << "/" << work.size() << " cells done, " << left
                   << " left, ETA " << format_duration(left * wall / n) << "  (" << o->cell.figure << " "
                   << o->cell.dataset << " " << o->cell.algo_id << " " << o->cell.point.dump() << " perm "
                   << o->cell.perm << ": "
                   << (o->error.empty() ? format_duration(dt) : "FAILED: " + o->error) << ")\n";
          opt.log->flush();
        }
      }
    };
    if (opt.log && !batch.empty())
      *opt.log << "[stage " << stage << "] " << batch.size() << " cells, " << work.size()
               << " to compute, " << (batch.size() - work.size()) << " already done or failed\n";
    std::vector<std::thread> pool;
    const unsigned n_threads = std::max(1u, std::min<unsigned>(opt.jobs, static_cast<unsigned>(work.size())));
    for (unsigned k = 0; k < n_threads; ++k) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    st.computed += work.size();
    // Duplicates of a computed key share its result.
    for (auto* o : batch)
      if (o->doc.is_null() && o->error.empty()) {
        const CellOutcome* f = first_of_key.at(o->key);
        o->doc = f->doc; o->error = f->error; o->seconds = f->seconds; o->cached = true;
      }
    for (auto* o : batch) {
      if (o->cached) ++st.cached;
      if (!o->error.empty()) ++st.failed;
      else done[{o->cell.figure, o->cell.dataset, o->cell.algo_id, o->cell.point_index, o->cell.perm}] =
          o->results();
    }
    st.total += batch.size();
  }
  st.failed = 0;
  for (const auto& [f, v] : out) for (const auto& o : v) st.failed += !o.error.empty();
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (stats) *stats = st;
  return out;
}

}  // namespace plab
