// The one CSV layout of round records.
// Layout: a first line "# " + JSON (run metadata: algorithm, kernel, options, data, comparator
// facts, and "rounds" = T), then a header line, then one row per round t = 1..T. Columns are the RoundRecord
// fields in schema order, starting t,y,score,mistake,update,support_size; fields that do not
// apply are empty cells.
#pragma once
#include <nlohmann/json.hpp>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/round_record.hpp"
#include "core/file_io.hpp"
#include "core/signal_cleanup.hpp"

namespace plab {

const std::vector<std::string>& trace_columns();

std::string trace_csv(const std::vector<RoundRecord>& rounds, const nlohmann::json& meta);
void write_trace(const std::string& path, const std::vector<RoundRecord>& rounds,
                 const nlohmann::json& meta);

// A trace written as a stream runs (docs/inputs.md#streams): the header and each row go to a
// temporary file "<path>.rows.tmp.<pid>" (in the temporary folder for "-", a FIFO or a device) as
// the rounds come, flushed every 4096 rounds; finish() then writes `path` atomically as the
// metadata line (its "rounds" the rows written) followed by those rows: the bytes trace_csv gives
// for the same records, without holding them in memory. The temporary file is removed with the writer.
class TraceWriter {
 public:
  explicit TraceWriter(const std::string& path);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  void add(const RoundRecord& r);
  void finish(const nlohmann::json& meta);

 private:
  std::string path_, rows_path_, line_;
  std::unique_ptr<RemovedOnSignal> cleanup_;  // the rows file goes with the process on SIGINT, SIGTERM, ...
  std::ofstream rows_;
  std::size_t count_ = 0;
};

struct Trace {
  nlohmann::json meta;
  std::vector<RoundRecord> rounds;
  std::string non_finite;  // "FILE:LINE: column 'c' = 'nan'": the first NaN/inf written in a cell
};
// What a trace is read for: its bounds (`plab bounds`), or only its curves (`plab plot` without
// --bounds), which also reads a run that kept no norms ("norms_kept": false,
// docs/learners.md#bookkeeping): its empty f_norm2 and delta_norm cells are then not required.
enum class TraceUse { bounds, curves };
// Reads a trace and checks it against its metadata (docs/inputs.md#trace-checks): a known
// algorithm, the columns its bounds read, rounds 1..T with T as declared. Throws DataError
// "path:line: column 'c': what" on anything else.
// Every invariant the trace's own cells allow is checked (docs/inputs.md#trace-invariants).
Trace read_trace(const std::string& path, TraceUse use = TraceUse::bounds);
// The run facts of a trace: its metadata, and its first non-finite cell as the reason every
// bound is n/a (docs/bounds.md#non-finite).
struct RunFacts;
RunFacts trace_facts(const Trace& tr);

}  // namespace plab
