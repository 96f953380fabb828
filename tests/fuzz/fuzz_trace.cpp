// libFuzzer harness of the trace reader and of the bounds evaluated on what it accepts (what
// `plab bounds --trace` does): any input is evaluated or refused with plab::DataError, the trace
// reader's own error naming file and line; any other exception escapes and is a finding
// (docs/testing.md#fuzzing).
#include "bounds/bounds.hpp"
#include "datasets/dataset.hpp"
#include "experiments/run/trace.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string path = plab::fuzz::write_input(data, size, ".csv");
  try {
    const plab::Trace tr = plab::read_trace(path);
    (void)plab::evaluate_bounds(tr.rounds, plab::trace_facts(tr));
  } catch (const plab::DataError&) {
  }
  return 0;
}
