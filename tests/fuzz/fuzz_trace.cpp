// libFuzzer harness of the trace reader and of the bounds evaluated on what it accepts (what
// `plab bounds --trace` does): any input is evaluated or refused with std::runtime_error (the
// trace's own errors) or std::invalid_argument (bad options in its metadata).
#include "bounds/bounds.hpp"
#include "experiments/trace.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string path = plab::fuzz::write_input(data, size, ".csv");
  try {
    const plab::Trace tr = plab::read_trace(path);
    const plab::RunFacts facts = plab::RunFacts::from_meta(tr.meta);
    (void)plab::evaluate_bounds(tr.rounds, facts);
  } catch (const std::invalid_argument&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
