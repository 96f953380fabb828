// The one CSV layout of round records.
// Layout: an optional first line "# " + JSON (run metadata: algorithm, kernel, options, data,
// comparator facts), then a header line, then one row per round. Columns are the RoundRecord
// fields in schema order, starting t,y,score,mistake,update,support_size; fields that do not
// apply are empty cells.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/round_record.hpp"
#include "core/file_io.hpp"

namespace plab {

const std::vector<std::string>& trace_columns();

std::string trace_csv(const std::vector<RoundRecord>& rounds, const nlohmann::json& meta);
void write_trace(const std::string& path, const std::vector<RoundRecord>& rounds,
                 const nlohmann::json& meta);

struct Trace {
  nlohmann::json meta;  // null when the file has no metadata line
  std::vector<RoundRecord> rounds;
};
// Reads a trace; throws std::runtime_error naming file and line on malformed content.
Trace read_trace(const std::string& path);

}  // namespace plab
