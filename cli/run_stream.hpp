// `plab run --data -` (docs/inputs.md#streams): the rows of standard input, learned as they arrive,
// and the trace written as they go; the flags that need the whole data set are refused.
#pragma once
#include <memory>
#include <string>

#include "cli/option_flags.hpp"
#include "datasets/registry.hpp"
#include "datasets/row_stream.hpp"
#include "experiments/run/run.hpp"
#include "experiments/run/trace.hpp"

namespace plab {

// All empty for a data set read whole.
struct StreamInput {
  std::unique_ptr<FdInput> fd;
  std::unique_ptr<RowStream> rows;
  std::unique_ptr<TraceWriter> trace;
  // `progress`, and for a stream each record into its trace (`trace_path`, "" = none).
  RoundObserver observer(const std::string& trace_path, RoundObserver progress);
  // What the stream held (its checksum, dimension and CSV header), once it has been read.
  void describe(Dataset& d) const;
};

// The run flags a stream refuses (exit 2 naming the flag).
struct StreamFlags {
  bool shuffle = false, test = false;
  std::string preprocess, algo;
  const OptionFlags* flags = nullptr;  // the comparator's flags given
};

// For `data` "-": checks `f` and opens standard input; otherwise an empty StreamInput.
StreamInput stream_input(const std::string& data, const StreamFlags& f, const LoadOptions& load);

}  // namespace plab
