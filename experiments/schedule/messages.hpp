// The messages between rank 0 (the scheduler) and the other ranks of `plab reproduce` under MPI
// (docs/cluster.md#protocol): one struct per message, encoded and decoded here only (a tag and a
// JSON payload on the wire).
#pragma once
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace plab {

// worker -> 0: one free thread of the worker wants a cell of `stage`.
struct WantCell {
  std::size_t stage = 0;
};
// 0 -> worker: the answer to a WantCell: cell `index` of the stage's batch (every rank expands the
// same batch) with its key, or no index when the stage has no cell left to hand out.
struct AssignCell {
  std::size_t stage = 0;
  std::optional<std::size_t> index;
  std::string key;
};
// worker -> 0: a finished (or failed) cell; NaN times travel as null.
struct CellDone {
  std::string key;
  nlohmann::json doc;  // the cell file's content (null when failed)
  std::string error;
  double seconds = std::nan(""), cell_seconds = std::nan("");
};
// One finished cell's results, as later stages' derived parameters look them up.
struct StageResult {
  std::string figure, dataset, algo_id;
  std::size_t point_index = 0;
  int perm = 0;
  nlohmann::json results;
};
// 0 -> worker: the stage is over; its finished results.
struct StageEnd {
  std::vector<StageResult> results;
};
// worker -> 0: the rank cannot go on.
struct RankFailed {
  std::string what;
};
// 0 -> worker: the run is over (or stopped): finish.
struct Release {};

using Message = std::variant<WantCell, AssignCell, CellDone, StageEnd, RankFailed, Release>;

struct Envelope {
  int source = 0;
  Message message;
};

// The wire form: the tag is the message's index in Message plus 1 (docs/cluster.md#protocol).
struct WireMessage {
  int tag = 0;
  std::string payload;
};
WireMessage encode(const Message& m);
// Throws std::runtime_error naming the tag on an unknown tag or a malformed payload.
Message decode(const WireMessage& w);

}  // namespace plab
