// The parallel, resumable grid runner behind `plab reproduce`.
// Each cell's result is a file <results>/cells/<key>.json, key = SHA-256 of (the cell's
// canonical JSON, git_revision(), the data files' SHA-256), written atomically (temporary file +
// rename); a cell whose file exists is not recomputed, so an interrupted run (even kill -9)
// resumes. The file holds only deterministic numbers; the learning time goes to a sidecar
// <key>.time.json (written first, so the result file marks completion).
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "algorithms/learner.hpp"
#include "core/sha256.hpp"
#include "datasets/dataset.hpp"
#include "experiments/pipeline.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

struct CellData {
  std::shared_ptr<const Dataset> train, test;  // test may be null
  std::string sha;                             // train sha + test sha ("" parts for generated data)
};

// Loads each (data, labels, test) combination once per process; thread-safe.
class DataCache {
 public:
  CellData get(const Cell& c);

 private:
  std::mutex m_;
  std::map<std::string, CellData> cache_;
};

// Runs one cell (no caching): the deterministic result document {cell, results, curve, bounds}
// and the learning time in seconds. Throws on bad options / unknown learners.
nlohmann::json run_cell(const Cell& c, const CellData& d, double* seconds);

// Options JSON of a cell -> LearnerOptions (throws std::invalid_argument naming a bad option).
LearnerOptions learner_options(const Cell& c, std::size_t dim);
// The cell's learner options without its metric switches (params named metric_*).
nlohmann::json learner_params(const Cell& c);
// The run-pipeline request of a cell (experiments/pipeline.hpp).
RunRequest cell_request(const Cell& c, const CellData& d);

std::string cell_key(const Cell& c, const CellData& d);

struct CellOutcome {
  Cell cell;
  std::string key;
  nlohmann::json doc;          // the cell file's content (null when failed)
  double seconds = std::nan("");  // learning time (NaN if unknown)
  double cell_seconds = std::nan("");  // the whole cell's wall time (NaN if unknown)
  std::size_t stage = 0;       // the stage it ran in (derived parameters come from earlier stages)
  bool cached = false;
  std::string error;           // non-empty when the cell failed
  const nlohmann::json& results() const { return doc.at("results"); }
};

struct RunnerOptions {
  std::string cells_dir;       // where <key>.json files live
  unsigned jobs = 1;
  std::ostream* log = nullptr;  // progress lines (null = silent)
  // Reuse finished cell files. The key holds the git revision, not uncommitted edits, so the
  // regression check (--check / --update-reference) and --fresh recompute every cell.
  bool reuse = true;
};

struct RunStats {
  std::size_t total = 0, computed = 0, cached = 0, failed = 0;
  double wall_seconds = 0.0;
};

// Runs every cell of `specs` stage by stage (derived parameters resolved from earlier stages),
// computing unfinished cells on `jobs` threads, the most expensive first. Returns the outcomes per
// figure, in expansion order (independent of thread count and completion order).
// Under MPI with several ranks (experiments/mpi_comm.hpp, docs/cluster.md), rank 0 does this and
// hands cells out to the other ranks' threads as well; on the other ranks run_specs computes what
// rank 0 hands out, writes the cell files, and returns an empty map. A rank that fails ends the
// job with a message naming the cells in flight.
std::map<std::string, std::vector<CellOutcome>> run_specs(const std::vector<Spec>& specs,
                                                          const RunnerOptions& opt,
                                                          RunStats* stats = nullptr);

// Rank 0: lets the other ranks finish (call once, after the report, or when stopping early).
void release_workers();
// The other ranks: wait until rank 0 releases them (returns at once if it already did in run_specs).
void wait_for_release();

// Every cell's stage and times as tab-separated values (RESULTS/cell_times.csv, read by
// `plab reproduce --plan`; not deterministic, like timings.csv).
void write_cell_times(const std::string& path, const std::map<std::string, std::vector<CellOutcome>>& outcomes);

}  // namespace plab
