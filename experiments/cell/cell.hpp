// One cell of an experiment (a data set x algorithm x grid point x permutation of a spec): its
// data, its learner options, its run and the deterministic result document the scheduler stores
// (experiments/schedule/) and the report aggregates (experiments/report/).
// The cell file <results>/cells/<key>.json, key = SHA-256 of (the cell's canonical JSON,
// git_revision(), the data files' SHA-256), holds only deterministic numbers.
#pragma once
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "algorithms/learner.hpp"
#include "experiments/cell/cell_data.hpp"
#include "experiments/run/pipeline.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {


// Runs one cell (no caching): the deterministic result document {cell, results, curve, bounds}
// and the learning time in seconds. Throws on bad options / unknown learners.
nlohmann::json run_cell(const Cell& c, const CellData& d, double* seconds);

// The cell's learner options without its metric switches (params named metric_*).
nlohmann::json learner_params(const Cell& c);

std::string cell_key(const Cell& c, const CellData& d);

// A cell as the scheduler ran it (or found it finished) and the report reads it.
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

}  // namespace plab
