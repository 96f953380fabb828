#include "experiments/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/random.hpp"
#include "core/file_io.hpp"
#include "experiments/cell_schedule.hpp"
#include "experiments/exit_codes.hpp"
#include "experiments/mpi_comm.hpp"
#include "core/format.hpp"
#include "core/sha256.hpp"
#include "bounds/bounds.hpp"
#include "bounds/comparator.hpp"
#include "datasets/preprocess.hpp"
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
  const std::string k = c.data + "\n" + c.labels + "\n" + c.test + "\n" + c.preprocess;
  std::lock_guard<std::mutex> lock(m_);  // loads are serialised; each happens once
  if (auto it = cache_.find(k); it != cache_.end()) return it->second;
  const LabelMap labels = c.labels.empty() ? LabelMap{} : LabelMap::parse(c.labels);
  const Preprocess pre = Preprocess::parse(c.preprocess, "");
  auto load = [&](const std::string& spec) {  // docs/conventions.md#preprocess: before the halves split
    Dataset d = load_dataset(spec, labels);
    apply_preprocess(d, pre);
    return d;
  };
  auto full = std::make_shared<Dataset>(load(c.data));
  CellData d;
  if (c.test == "halves") {
    const std::size_t h = full->size() / 2;  // DOGMA demo: first half trains, second half tests
    d.train = std::make_shared<Dataset>(slice(*full, 0, h, "[train half]"));
    d.test = std::make_shared<Dataset>(slice(*full, h, full->size(), "[test half]"));
    d.sha = full->sha256 + "/halves";
  } else {
    d.train = full;
    if (!c.test.empty()) d.test = std::make_shared<Dataset>(load(c.test));
    d.sha = full->sha256 + "/" + (d.test ? d.test->sha256 : std::string());
  }
  cache_[k] = d;
  return d;
}

LearnerOptions learner_options(const Cell& c, std::size_t dim) {
  LearnerOptions o;
  const json& k = c.kernel;
  const Kernel def;  // the kernel options' defaults (numerics/kernel.hpp)
  o.kernel = Kernel{Kernel::parse_type(k.value("type", def.type_name())), k.value("gamma", def.gamma),
                    k.value("coef0", def.coef0), k.value("degree", def.degree)};
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

using DoneKey = std::tuple<std::string, std::string, std::string, std::size_t, int>;

// Messages between rank 0 (the scheduler) and the other ranks (docs/cluster.md#protocol).
enum Tag : int {
  kWant = 1,      // worker -> 0: "stage": one free thread wants a cell
  kCell = 2,      // 0 -> worker: "stage index key" (index into the stage's batch), or "stage" alone: none left
  kDone = 3,      // worker -> 0: JSON {key, doc, seconds, cell_seconds, error}
  kStageEnd = 4,  // 0 -> worker: JSON [[figure, dataset, algo id, point index, perm, results], ...]
  kFail = 5,      // worker -> 0: the rank cannot go on (text)
  kRelease = 6,   // 0 -> worker: the run is over (or stopped): finish
};

bool g_released = false;  // this (non-zero) rank received kRelease

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string describe(const Cell& c) {
  return c.figure + " " + c.dataset + " " + c.algo_id + " " + c.point.dump() + " perm " + std::to_string(c.perm);
}

// The cells in flight on every rank, preformatted for rank 0's SIGTERM handler: a launcher ends
// the job that way when a rank dies (kill -9, OOM), and the handler may only write(2).
struct FlightBoard {
  static constexpr std::size_t kSize = 1 << 16;
  char text[2][kSize];
  std::size_t len[2] = {0, 0};
  std::atomic<int> shown{-1};
  void publish(const std::string& s) {
    const int next = shown.load() == 0 ? 1 : 0;
    len[next] = std::min(s.size(), kSize);
    std::memcpy(text[next], s.data(), len[next]);
    shown.store(next);
  }
};
FlightBoard g_board;

extern "C" void on_terminate(int sig) {
  static const char head[] = "plab reproduce: rank 0 stopped by a signal (the launcher ends the job when a rank dies)\n";
  [[maybe_unused]] ssize_t w = ::write(2, head, sizeof head - 1);
  if (const int i = g_board.shown.load(); i >= 0) w = ::write(2, g_board.text[i], g_board.len[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Rank 0, on a kFail message: names the failed rank and the cells in flight, ends the job.
[[noreturn]] void stop_for_failed_rank(const mpi::Message& msg, const std::string& in_flight) {
  std::cerr << fmt::format("plab reproduce: rank {} failed: {}\n", msg.source, msg.payload) << in_flight << std::flush;
  mpi::abort(kExitError);
}

// `PLAB_TEST_RANK_FAIL=R:K`: rank R stops with an error after finishing K cells (tests the
// failure path of docs/cluster.md; never set in normal use).
std::optional<std::size_t> injected_failure_after() {
  const char* v = std::getenv("PLAB_TEST_RANK_FAIL");
  if (!v) return std::nullopt;
  int r = -1;
  std::size_t k = 0;
  if (std::sscanf(v, "%d:%zu", &r, &k) != 2) throw std::invalid_argument("PLAB_TEST_RANK_FAIL: expected RANK:CELLS, got '" + std::string(v) + "'");
  if (r != mpi::rank()) return std::nullopt;
  return k;
}

// State of one run_specs call: cells per figure, finished results for derived parameters.
// Every rank expands the same stages in the same order (derived parameters from the same
// results), so a cell is named across ranks by its index in the stage's batch (and its key).
class StageRunner {
  std::atomic<bool> write_failed_{false};  // a cell file could not be written: stop (compute_one)
  std::string write_error_;                // the first write error

 public:
  StageRunner(const std::vector<Spec>& specs, const RunnerOptions& opt) : specs_(specs), opt_(opt) {
    for (const auto& s : specs) stages_.push_back(s.stages());
  }
  std::size_t stage_count() const {
    std::size_t n = 0;
    for (const auto& st : stages_) n = std::max(n, st.size());
    return n;
  }
  // Rank 0 (or the only process).
  void run_stage(std::size_t stage) {
    std::vector<CellOutcome*> batch = expand(stage);
    std::map<std::string, CellOutcome*> first_of_key;
    const std::vector<CellOutcome*> work = resolve(batch, first_of_key);
    if (opt_.log && !batch.empty())
      *opt_.log << "[stage " << stage << "] " << batch.size() << " cells, " << work.size() << " to compute, "
                << (batch.size() - work.size()) << " already done or failed\n";
    compute(batch, work, stage);
    stats_.computed += work.size();
    settle(batch, first_of_key);
    if (mpi::size() > 1) {
      json done = json::array();
      for (auto* o : batch)
        if (o->error.empty())
          done.push_back({o->cell.figure, o->cell.dataset, o->cell.algo_id, o->cell.point_index, o->cell.perm, o->results()});
      const std::string msg = done.dump();
      for (int r = 1; r < mpi::size(); ++r) mpi::send(r, kStageEnd, msg);
    }
  }
  // Another rank: computes the cells rank 0 hands out. False when rank 0 released it early.
  bool serve_stage(std::size_t stage);
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
          o.stage = stage;
          vec.push_back(std::move(o));
        }
    }
    std::vector<CellOutcome*> batch;
    for (auto& [fig, vec] : out_)
      for (auto& o : vec)
        if (o.stage == stage && o.key.empty() && o.doc.is_null() && o.error.empty()) batch.push_back(&o);
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
        if (auto t = read_json_if_valid(opt_.cells_dir + "/" + o->key + ".time.json")) {
          o->seconds = t->value("seconds", std::nan(""));
          o->cell_seconds = t->value("cell_seconds", std::nan(""));
        }
      } else if (!first_of_key.count(o->key)) {
        first_of_key[o->key] = o;
        work.push_back(o);
      }
    }
    return work;
  }

  // Runs one cell and writes its files (time first: the result file marks completion).
  void compute_one(CellOutcome* o) {
    const auto c0 = std::chrono::steady_clock::now();
    try {
      double secs = 0.0;
      json doc = run_cell(o->cell, data_.get(o->cell), &secs);
      const double wall = seconds_since(c0);
      write_json_atomic(opt_.cells_dir + "/" + o->key + ".time.json", json{{"seconds", secs}, {"cell_seconds", wall}});
      write_json_atomic(opt_.cells_dir + "/" + o->key + ".json", doc);
      o->doc = std::move(doc);
      o->seconds = secs;
    } catch (const WriteError& e) {  // the disk, not the cell: stop at the first one (no more work to lose)
      o->error = e.what();
      if (!write_failed_.exchange(true)) write_error_ = e.what();  // read after the threads join
    } catch (const std::exception& e) {
      o->error = e.what();
    }
    o->cell_seconds = seconds_since(c0);
  }

  void log_done(const CellOutcome* o, std::size_t stage, std::size_t n, std::size_t total,
                std::chrono::steady_clock::time_point t0, int rank) {
    if (!opt_.log) return;
    const std::size_t left = total - n;
    *opt_.log << "[stage " << stage << "] " << n << "/" << total << " cells done, " << left << " left, ETA "
              << format_duration(static_cast<double>(left) * seconds_since(t0) / static_cast<double>(n)) << "  ("
              << describe(o->cell) << ": "
              << (o->error.empty() ? format_duration(o->cell_seconds) : "FAILED: " + o->error)
              << (rank > 0 ? " on rank " + std::to_string(rank) : "") << ")\n";
    opt_.log->flush();
  }

  // Rank 0: the unfinished cells, most expensive first, on `jobs` threads here and on the other
  // ranks' threads as they ask; a progress line per finished cell.
  void compute(const std::vector<CellOutcome*>& batch, const std::vector<CellOutcome*>& work, std::size_t stage) {
    std::vector<std::pair<double, CellOutcome*>> order;
    for (auto* o : work) order.emplace_back(estimate_cost(o->cell, *data_.get(o->cell).train), o);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::deque<CellOutcome*> queue;
    for (const auto& [cost, o] : order) queue.push_back(o);
    std::map<const CellOutcome*, std::size_t> index;
    for (std::size_t i = 0; i < batch.size(); ++i) index[batch[i]] = i;
    std::map<std::string, CellOutcome*> by_key;
    for (auto* o : work) by_key[o->key] = o;

    std::mutex m;  // guards queue, finished, in_flight and the log
    std::size_t finished = 0;
    std::map<int, std::vector<CellOutcome*>> in_flight;  // rank -> cells handed out, not yet done
    const auto t0 = std::chrono::steady_clock::now();
    auto in_flight_text = [&] {
      std::string text = fmt::format(
          "Cells in flight (not finished; every finished cell is kept in {}, rerun the same command to resume):\n",
          opt_.cells_dir);
      for (const auto& [r, v] : in_flight)
        for (const auto* o : v) text += fmt::format("  rank {}: {}\n", r, describe(o->cell));
      return text;
    };
    auto take = [&](int rank) -> CellOutcome* {
      if (queue.empty()) return nullptr;
      CellOutcome* o = queue.front();
      queue.pop_front();
      in_flight[rank].push_back(o);
      if (mpi::size() > 1) g_board.publish(in_flight_text());
      return o;
    };
    auto finish = [&](CellOutcome* o, int rank) {
      auto& v = in_flight[rank];
      v.erase(std::find(v.begin(), v.end(), o));
      if (mpi::size() > 1) g_board.publish(in_flight_text());
      log_done(o, stage, ++finished, work.size(), t0, rank);
    };
    if (mpi::size() > 1) std::signal(SIGTERM, on_terminate);
    auto worker = [&] {
      for (;;) {
        CellOutcome* o;
        {
          std::lock_guard<std::mutex> lock(m);
          if (write_failed_ || !(o = take(0))) return;
        }
        compute_one(o);
        std::lock_guard<std::mutex> lock(m);
        finish(o, 0);
      }
    };
    std::vector<std::thread> pool;
    const unsigned n_threads = std::max(1u, std::min<unsigned>(opt_.jobs, static_cast<unsigned>(work.size())));
    for (unsigned k = 0; k < n_threads && !work.empty(); ++k) pool.emplace_back(worker);
    // The other ranks: answer their requests until every cell is done.
    try {
      if (mpi::size() > 1)
        serve_ranks(stage, index, by_key, m, finished, work.size(), in_flight, take, finish, in_flight_text);
    } catch (const std::exception& e) {  // threads are computing: stop the job rather than unwind
      std::cerr << "plab reproduce: rank 0: " << e.what() << "\n" << in_flight_text() << std::flush;
      mpi::abort(kExitError);
    }
    for (auto& t : pool) t.join();
    if (write_failed_)
      throw WriteError(fmt::format("{}; stopped at the first write error with {} cell(s) of stage {} not computed "
                                   "(every finished cell is kept in {}: free space, then rerun the same command "
                                   "to resume)", write_error_, queue.size(), stage, opt_.cells_dir));
  }

  // Rank 0 with other ranks: answers their requests until every cell of the stage is done.
  template <class Take, class Finish, class Text>
  void serve_ranks(std::size_t stage, const std::map<const CellOutcome*, std::size_t>& index,
                   const std::map<std::string, CellOutcome*>& by_key, std::mutex& m, const std::size_t& finished,
                   std::size_t total, std::map<int, std::vector<CellOutcome*>>& in_flight, Take& take, Finish& finish,
                   Text& in_flight_text) {
    for (;;) {
      bool idle = true;
      while (auto msg = mpi::try_recv(-1)) {  // every waiting message, then the end test
        idle = false;
        std::lock_guard<std::mutex> lock(m);
        if (msg->tag == kWant) {
          CellOutcome* o = std::stoul(msg->payload) == stage ? take(msg->source) : nullptr;
          mpi::send(msg->source, kCell,
                    o ? fmt::format("{} {} {}", stage, index.at(o), o->key) : msg->payload);  // "stage": none left
        } else if (msg->tag == kDone) {
          const json r = json::parse(msg->payload);
          CellOutcome* o = by_key.at(r.at("key").get<std::string>());
          o->doc = r.at("doc");
          o->error = r.at("error").get<std::string>();
          o->seconds = r.at("seconds").is_number() ? r.at("seconds").get<double>() : std::nan("");
          o->cell_seconds = r.at("cell_seconds").is_number() ? r.at("cell_seconds").get<double>() : std::nan("");
          finish(o, msg->source);
        } else if (msg->tag == kFail) {
          stop_for_failed_rank(*msg, in_flight_text());
        }
      }
      {
        std::lock_guard<std::mutex> lock(m);
        std::size_t remote = 0;
        for (const auto& [r, v] : in_flight) remote += r > 0 ? v.size() : 0;
        if (finished == total && remote == 0) return;
      }
      if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
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

  const std::vector<Spec>& specs_;
  const RunnerOptions& opt_;
  std::vector<std::vector<std::vector<std::string>>> stages_;
  DataCache data_;
  std::map<std::string, std::vector<CellOutcome>> out_;
  std::map<DoneKey, json> done_;
  RunStats stats_;
};

// One finished cell of a worker rank, as sent to rank 0.
struct Finished {
  std::string key;
  json message;
};

bool StageRunner::serve_stage(std::size_t stage) {
  std::vector<CellOutcome*> batch = expand(stage);
  static const std::optional<std::size_t> fail_after = injected_failure_after();
  static std::size_t done_here = 0;
  std::mutex m;
  std::vector<Finished> finished;
  std::vector<std::thread> threads;
  std::size_t outstanding = 0, running = 0;
  bool open = true;
  try {
    for (;;) {
      for (; open && running + outstanding < opt_.jobs; ++outstanding) mpi::send(0, kWant, std::to_string(stage));
      bool busy = false;
      if (auto msg = mpi::try_recv(0)) {
        busy = true;
        if (msg->tag == kRelease) {
          g_released = true;
          break;
        }
        if (msg->tag == kStageEnd) {
          for (const json& d : json::parse(msg->payload))
            done_[{d[0].get<std::string>(), d[1].get<std::string>(), d[2].get<std::string>(), d[3].get<std::size_t>(),
                   d[4].get<int>()}] = d[5];
          for (auto& t : threads) t.join();
          return true;
        }
        std::size_t s = 0, i = 0;
        char key[64] = "";
        const int n = std::sscanf(msg->payload.c_str(), "%zu %zu %63s", &s, &i, key);
        if (s != stage) continue;  // the answer to a request of an earlier stage
        --outstanding;
        if (n < 3) {
          open = false;  // no cell left in this stage
          continue;
        }
        if (i >= batch.size()) throw std::runtime_error(fmt::format("rank 0 sent cell {} of a stage of {} cells: the ranks expand different specs", i, batch.size()));
        ++running;
        threads.emplace_back([this, o = batch[i], k = std::string(key), &m, &finished] {
          try {
            o->key = cell_key(o->cell, data_.get(o->cell));
            if (o->key != k)
              o->error = fmt::format("rank {} computes key {} for this cell, rank 0 {}: the ranks see different data or code",
                                     mpi::rank(), o->key, k);
          } catch (const std::exception& e) {
            o->error = std::string("data: ") + e.what();
          }
          if (o->error.empty()) compute_one(o);
          json r = {{"key", k}, {"doc", o->doc}, {"error", o->error}, {"cell_seconds", o->cell_seconds},
                    {"seconds", std::isfinite(o->seconds) ? json(o->seconds) : json()}};
          std::lock_guard<std::mutex> lock(m);
          finished.push_back({k, std::move(r)});
        });
      }
      std::vector<Finished> now;
      {
        std::lock_guard<std::mutex> lock(m);
        now.swap(finished);
      }
      for (auto& f : now) {
        mpi::send(0, kDone, f.message.dump());
        --running;
        busy = true;
        if (fail_after && ++done_here >= *fail_after)
          throw std::runtime_error(fmt::format("PLAB_TEST_RANK_FAIL: injected failure after {} cell(s)", done_here));
      }
      if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  } catch (const std::exception& e) {
    // Tell rank 0, which names the cells in flight and ends the job; end it ourselves if it cannot.
    for (auto& t : threads) t.detach();
    mpi::send(0, kFail, e.what());
    // Rank 0 aborts the job on this message; if it released us first (it had just finished), or
    // does not answer, end the job here.
    for (int ms = 0; ms < 60000 && !mpi::try_recv(0); ++ms) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::cerr << "plab reproduce: rank " << mpi::rank() << ": " << e.what() << "\n";
    mpi::abort(kExitError);
  }
  for (auto& t : threads) t.join();
  return false;
}

}  // namespace

std::map<std::string, std::vector<CellOutcome>> run_specs(const std::vector<Spec>& specs,
                                                          const RunnerOptions& opt, RunStats* stats) {
  const auto t_start = std::chrono::steady_clock::now();
  StageRunner runner(specs, opt);
  if (mpi::rank() > 0) {
    for (std::size_t stage = 0; stage < runner.stage_count(); ++stage)
      if (!runner.serve_stage(stage)) return {};
    return {};
  }
  fs::create_directories(opt.cells_dir);
  remove_temporaries(opt.cells_dir);
  for (std::size_t stage = 0; stage < runner.stage_count(); ++stage) runner.run_stage(stage);
  RunStats& st = runner.stats();
  st.failed = 0;
  for (const auto& [f, v] : runner.outcomes())
    for (const auto& o : v) st.failed += !o.error.empty();
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (stats) *stats = st;
  return std::move(runner.outcomes());
}

void release_workers() {
  if (mpi::size() <= 1) return;
  while (auto msg = mpi::try_recv(-1))  // late requests are moot; a late failure still fails the run
    if (msg->tag == kFail) stop_for_failed_rank(*msg, "Cells in flight: none (every cell was finished).\n");
  for (int r = 1; r < mpi::size(); ++r) mpi::send(r, kRelease, "");
}

void wait_for_release() {
  while (!g_released)
    g_released = mpi::recv(0).tag == kRelease;
}

void write_cell_times(const std::string& path, const std::map<std::string, std::vector<CellOutcome>>& outcomes) {
  std::ostringstream out;
  out << "figure\tdataset\talgorithm\tpoint\tperm\tstage\tkey\tcell_seconds\tlearn_seconds\tcached\n";
  std::set<std::string> keys;  // a key computed once for several figures costs once
  for (const auto& [fig, v] : outcomes)
    for (const auto& o : v)
      out << o.cell.figure << '\t' << o.cell.dataset << '\t' << o.cell.algo_id << '\t'
          << (o.cell.point.empty() ? "" : o.cell.point.dump()) << '\t' << o.cell.perm << '\t' << o.stage << '\t'
          << o.key << '\t' << fmt::format("{:.6g}", keys.insert(o.key).second ? o.cell_seconds : std::nan("")) << '\t' << fmt::format("{:.6g}", o.seconds) << '\t'
          << o.cached << '\n';
  write_file_atomic(path, out.str());
}

}  // namespace plab
