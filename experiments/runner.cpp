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
#include "experiments/pipeline.hpp"
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
  options_from_json(o, learner_params(c), "spec " + c.figure + " algorithm " + c.algo_id);
  return o;
}

json learner_params(const Cell& c) {
  json p = json::object();
  for (const auto& [key, v] : c.options.items())
    if (key.rfind("metric_", 0) != 0) p[key] = v;  // metric switches (experiments/norma_metrics.hpp)
  return p;
}

std::string cell_key(const Cell& c, const CellData& d) {
  return sha256_hex(c.canonical().dump() + "\n" + git_revision() + "\n" + d.sha).substr(0, 24);
}

namespace {

// Curves at ~curve_points evenly spaced rounds (always including the last).
json cell_curve(const Cell& c, const RunResult& res) {
  const std::size_t T = res.rounds.size();
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
  return {{"t", ct}, {"online_error", ce}, {"support_size", cs}};
}

// The deterministic results of a cell (no timings).
json cell_results(const RunReport& rep, const CellData& d) {
  const RunResult& res = rep.run;
  const std::size_t T = res.rounds.size();
  json r = {{"rounds", T},
            {"mistakes", res.mistakes},
            {"updates", res.updates},
            {"margin_errors", res.margin_errors},
            {"support_size", res.support_size},
            {"online_error", T ? static_cast<double>(res.mistakes) / static_cast<double>(T) : 0.0},
            {"f_norm2", rep.learner->norm2()}};
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
    for (const auto& [h, e] : rep.test_error.items()) r["test_error_" + h] = e;
  return r;
}

// The bound rows the spec keeps (all when it names none); null when the spec asks for none.
json cell_bounds(const Cell& c, const RunReport& rep) {
  if (c.bounds.is_null()) return nullptr;
  const auto ids = c.bounds.value("names", std::vector<std::string>{});
  json list = json::array();
  for (const auto& b : rep.bounds)
    if (ids.empty() || std::find(ids.begin(), ids.end(), b.id) != ids.end()) list.push_back(to_json(b));
  return list;
}

}  // namespace

// The pipeline request of a cell. The comparator is seeded from the permutation, so every
// algorithm of a permutation is compared with the same g0.
RunRequest cell_request(const Cell& c, const CellData& d) {
  const Dataset& train = *d.train;
  RunRequest req;
  req.algo = c.algo;
  req.options = learner_options(c, 0);
  const json params = learner_params(c);
  for (const auto& [k, v] : params.items()) req.given.push_back(k);
  req.train = &train;
  req.test = d.test.get();
  const std::optional<uint64_t> shuffle =
      c.order == "shuffle" ? std::optional<uint64_t>(c.perm_seed) : std::nullopt;
  req.order = cell_training_order(c, train, make_order(train.size(), shuffle, c.limit));
  req.bounds = !c.bounds.is_null();
  req.exact_norm = false;  // cells record the running norm; the bounds recompute it when they read it
  if (req.bounds) {
    req.comparator.kind = c.bounds.value("comparator", "svm");
    req.comparator.svm_C = c.bounds.value("svm_C", 1.0);
  }
  req.comparator.seed = c.perm_seed;
  return req;
}

json run_cell(const Cell& c, const CellData& d, double* seconds) {
  if (!c.error.empty()) throw std::runtime_error(c.error);
  const RunRequest req = cell_request(c, d);
  RunReport rep = run_pipeline(req);
  if (seconds) *seconds = rep.run.seconds;
  json r = cell_results(rep, d);
  add_extra_metrics(c, d, rep.facts.options, *rep.learner, rep.run, req.order, r);  // NORMA / drift metrics
  const json an = run_analyses(c, rep.run, d, req.order, rep.facts.options);  // T-figure analyses
  for (const auto& [k, v] : an["results"].items()) r[k] = v;
  json doc = {{"cell", c.canonical()},
              {"git", git_revision()},
              {"data_sha256", d.sha},
              {"results", r},
              {"curve", cell_curve(c, rep.run)},
              {"bounds", cell_bounds(c, rep)}};
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

namespace {

using DoneKey = std::tuple<std::string, std::string, std::string, std::size_t, int>;

// State of one run_specs call: cells per figure, finished results for derived parameters.
class StageRunner {
 public:
  StageRunner(const std::vector<Spec>& specs, const RunnerOptions& opt) : specs_(specs), opt_(opt) {
    for (const auto& s : specs) stages_.push_back(s.stages());
  }
  std::size_t stage_count() const {
    std::size_t n = 0;
    for (const auto& st : stages_) n = std::max(n, st.size());
    return n;
  }
  void run_stage(std::size_t stage) {
    std::vector<CellOutcome*> batch = expand(stage);
    std::map<std::string, CellOutcome*> first_of_key;
    const std::vector<CellOutcome*> work = resolve(batch, first_of_key);
    if (opt_.log && !batch.empty())
      *opt_.log << "[stage " << stage << "] " << batch.size() << " cells, " << work.size() << " to compute, "
                << (batch.size() - work.size()) << " already done or failed\n";
    compute(work, stage);
    stats_.computed += work.size();
    settle(batch, first_of_key);
  }
  std::map<std::string, std::vector<CellOutcome>>& outcomes() { return out_; }
  RunStats& stats() { return stats_; }

 private:
  // This stage's cells of every figure (derived parameters looked up in earlier stages' results).
  std::vector<CellOutcome*> expand(std::size_t stage) {
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      if (stage >= stages_[i].size()) continue;
      const Spec& s = specs_[i];
      const ResultLookup lookup = [&](const std::string& ds, const std::string& a, std::size_t p, int q) {
        auto it = done_.find({s.figure, ds, a, p, q});
        return it == done_.end() ? json() : it->second;
      };
      auto& vec = out_[s.figure];
      for (const auto& id : stages_[i][stage])
        for (auto& c : expand_algorithm(s, id, lookup)) {
          CellOutcome o;
          o.cell = std::move(c);
          vec.push_back(std::move(o));
        }
    }
    std::vector<CellOutcome*> batch;
    for (auto& [fig, vec] : out_)
      for (auto& o : vec)
        if (o.key.empty() && o.doc.is_null() && o.error.empty()) batch.push_back(&o);
    return batch;
  }

  // Keys (loads data once per data set) and cached results; returns the unique work list.
  std::vector<CellOutcome*> resolve(const std::vector<CellOutcome*>& batch,
                                    std::map<std::string, CellOutcome*>& first_of_key) {
    std::vector<CellOutcome*> work;
    for (auto* o : batch) {
      o->key = "-";
      if (!o->cell.error.empty()) { o->error = o->cell.error; continue; }
      try {
        o->key = cell_key(o->cell, data_.get(o->cell));
      } catch (const std::exception& e) {
        o->error = std::string("data: ") + e.what();
        continue;
      }
      const std::string path = opt_.cells_dir + "/" + o->key + ".json";
      if (auto j = opt_.reuse ? read_json_if_valid(path) : std::nullopt; j && j->contains("results")) {
        o->doc = *j;
        o->cached = true;
        if (auto t = read_json_if_valid(opt_.cells_dir + "/" + o->key + ".time.json"))
          o->seconds = t->value("seconds", std::nan(""));
      } else if (!first_of_key.count(o->key)) {
        first_of_key[o->key] = o;
        work.push_back(o);
      }
    }
    return work;
  }

  // Runs one cell and writes its files (time first: the result file marks completion).
  void compute_one(CellOutcome* o) {
    try {
      double secs = 0.0;
      json doc = run_cell(o->cell, data_.get(o->cell), &secs);
      write_json_atomic(opt_.cells_dir + "/" + o->key + ".time.json", json{{"seconds", secs}});
      write_json_atomic(opt_.cells_dir + "/" + o->key + ".json", doc);
      o->doc = std::move(doc);
      o->seconds = secs;
    } catch (const std::exception& e) {
      o->error = e.what();
    }
  }

  // The unfinished cells on `jobs` threads, with a progress line per finished cell.
  void compute(const std::vector<CellOutcome*>& work, std::size_t stage) {
    std::atomic<std::size_t> next{0};
    std::size_t finished = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto worker = [&] {
      for (std::size_t i; (i = next++) < work.size();) {
        CellOutcome* o = work[i];
        const auto c0 = std::chrono::steady_clock::now();
        compute_one(o);
        const double dt = seconds_since(c0);
        std::lock_guard<std::mutex> lock(log_m_);
        const std::size_t n = ++finished, left = work.size() - n;
        if (!opt_.log) continue;
        *opt_.log << "[stage " << stage << "] " << n << "/" << work.size() << " cells done, " << left << " left, ETA "
                  << format_duration(static_cast<double>(left) * seconds_since(t0) / static_cast<double>(n)) << "  ("
                  << o->cell.figure << " " << o->cell.dataset << " " << o->cell.algo_id << " " << o->cell.point.dump()
                  << " perm " << o->cell.perm << ": " << (o->error.empty() ? format_duration(dt) : "FAILED: " + o->error)
                  << ")\n";
        opt_.log->flush();
      }
    };
    std::vector<std::thread> pool;
    const unsigned n_threads = std::max(1u, std::min<unsigned>(opt_.jobs, static_cast<unsigned>(work.size())));
    for (unsigned k = 0; k < n_threads; ++k) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }

  // Duplicates of a computed key share its result; finished results feed derived parameters.
  void settle(const std::vector<CellOutcome*>& batch, const std::map<std::string, CellOutcome*>& first_of_key) {
    for (auto* o : batch)
      if (o->doc.is_null() && o->error.empty()) {
        const CellOutcome* f = first_of_key.at(o->key);
        o->doc = f->doc; o->error = f->error; o->seconds = f->seconds; o->cached = true;
      }
    for (auto* o : batch) {
      if (o->cached) ++stats_.cached;
      if (o->error.empty())
        done_[{o->cell.figure, o->cell.dataset, o->cell.algo_id, o->cell.point_index, o->cell.perm}] = o->results();
    }
    stats_.total += batch.size();
  }

  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }

  const std::vector<Spec>& specs_;
  const RunnerOptions& opt_;
  std::vector<std::vector<std::vector<std::string>>> stages_;
  DataCache data_;
  std::map<std::string, std::vector<CellOutcome>> out_;
  std::map<DoneKey, json> done_;
  RunStats stats_;
  std::mutex log_m_;
};

}  // namespace

std::map<std::string, std::vector<CellOutcome>> run_specs(const std::vector<Spec>& specs,
                                                          const RunnerOptions& opt, RunStats* stats) {
  const auto t_start = std::chrono::steady_clock::now();
  fs::create_directories(opt.cells_dir);
  clean_temporaries(opt.cells_dir);
  StageRunner runner(specs, opt);
  for (std::size_t stage = 0; stage < runner.stage_count(); ++stage) runner.run_stage(stage);
  RunStats& st = runner.stats();
  st.failed = 0;
  for (const auto& [f, v] : runner.outcomes())
    for (const auto& o : v) st.failed += !o.error.empty();
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (stats) *stats = st;
  return std::move(runner.outcomes());
}

}  // namespace plab
