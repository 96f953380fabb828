#include "cli/run_stream.hpp"

#include <unistd.h>

#include <stdexcept>
#include <utility>

#include "algorithms/registry.hpp"
#include "bounds/comparator.hpp"
#include "core/option_decl.hpp"

namespace plab {

RoundObserver StreamInput::observer(const std::string& trace_path, RoundObserver progress) {
  if (!rows || trace_path.empty()) return progress;
  trace = std::make_unique<TraceWriter>(trace_path);
  return [p = std::move(progress), t = trace.get()](const RoundRecord& r, const RunResult& s) {
    t->add(r);
    if (p) p(r, s);
  };
}

void StreamInput::describe(Dataset& d) const {
  if (!rows) return;
  d.sha256 = rows->sha256();
  d.dim = rows->dim();
  d.header = rows->header();
}

namespace {
// What needs the whole data set is refused with --data -, naming the flag (docs/inputs.md#streams).
void check_stream_flags(const StreamFlags& f) {
  const auto refuse = [](const std::string& flag, const std::string& why) {
    throw std::invalid_argument(flag + " with --data -: " + why + " (docs/inputs.md#streams)");
  };
  const std::string whole = "needs the whole data set, and a stream is read once, row by row";
  if (f.shuffle) refuse("--shuffle", "a permutation " + whole);
  if (f.test)
    refuse("--test", "not taken; save the model (--save-model M) and score the test set with plab predict --model M --data TEST");
  if (f.preprocess != "none") refuse("--preprocess", "not taken (pm1-to-01 needs the dimension of the whole data set)");
  for (const OptionDecl& d : comparator_options())
    if (f.flags->was_given("comparator", d.name)) refuse(d.flag(), "the comparator " + whole + "; a stream's bound rows are n/a");
  if (learner_info(f.algo).multiclass) refuse("--algo " + f.algo, "a multiclass learner's class list " + whole);
}
}  // namespace

StreamInput stream_input(const std::string& data, const StreamFlags& f, const LoadOptions& load) {
  StreamInput in;
  if (data != "-") return in;
  check_stream_flags(f);
  in.fd = std::make_unique<FdInput>(STDIN_FILENO);
  in.rows = std::make_unique<RowStream>(*in.fd, kStdinName, load);
  return in;
}

}  // namespace plab
