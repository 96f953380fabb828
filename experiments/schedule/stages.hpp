// The cells of one run_specs call, stage by stage, on every rank alike: a stage's cells are
// expanded from the specs with the derived parameters looked up in earlier stages' results, so
// every rank expands the same stages in the same order and a cell is named across ranks by its
// index in the stage's batch (and its key).
#pragma once
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "experiments/cell/cell.hpp"
#include "experiments/schedule/messages.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

class StagePlan {
 public:
  explicit StagePlan(const std::vector<Spec>& specs);
  std::size_t stage_count() const;
  // This stage's cells of every figure, in expansion order (independent of threads and ranks).
  std::vector<CellOutcome*> expand(std::size_t stage);
  // Keys (loads data once per data set) and finished cell files (reuse); the unique work list,
  // with the first outcome of each key to compute.
  std::vector<CellOutcome*> resolve(const std::vector<CellOutcome*>& batch, const std::string& cells_dir, bool reuse,
                                    std::map<std::string, CellOutcome*>& first_of_key);
  // Duplicates of a computed key share its result; finished results feed derived parameters.
  // Returns the number of outcomes reused.
  std::size_t settle(const std::vector<CellOutcome*>& batch, const std::map<std::string, CellOutcome*>& first_of_key);
  // The finished results of a batch, for the other ranks' derived parameters, and their side.
  StageEnd stage_end(const std::vector<CellOutcome*>& batch) const;
  void apply(const StageEnd& end);

  DataCache& data() { return data_; }
  std::map<std::string, std::vector<CellOutcome>>& outcomes() { return out_; }

 private:
  using DoneKey = std::tuple<std::string, std::string, std::string, std::size_t, int>;
  const std::vector<Spec>& specs_;
  std::vector<std::vector<std::vector<std::string>>> stages_;
  DataCache data_;
  std::map<std::string, std::vector<CellOutcome>> out_;
  std::map<DoneKey, nlohmann::json> done_;
};

}  // namespace plab
