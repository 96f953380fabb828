// libFuzzer harness of the model reader (models/model_file.hpp) and of every learner's load_state:
// the input is taken as a model file's content (the JSON header line and the arrays) and given a
// valid first line, so the checksum does not stop the fuzzer before the header and the arrays are
// read; what is accepted is restored, scores a row and learns one more round (as plab run
// --init-model continues it). Any input is read or refused with
// plab::ModelError; any other exception escapes and is a finding (docs/testing.md#fuzzing).
#include <cstdint>
#include <string>
#include <vector>

#include "core/sha256.hpp"
#include "config/recorded_options.hpp"
#include "models/model_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  const std::string file = "plab-model format 1 bytes " + std::to_string(size) + " sha256 " +
                           plab::sha256_hex(content) + "\n" + content;
  try {
    const plab::ModelFile m = plab::parse_model(file, "fuzz");
    const auto learner = plab::restore_learner(m, 0);
    const std::vector<uint32_t> idx = {0, 3};
    const std::vector<double> val = {0.5, -1.0};
    const plab::Example x{idx, val, 1.25, 0.0};
    for (const auto& h : learner->hypotheses()) (void)plab::predict(*learner, m.header, h, x);
    const plab::Example z{idx, val, 1.25, m.header.classes.empty() ? 1.0 : 0.0};  // +1, or class index 0
    (void)learner->learn(z, static_cast<int64_t>(m.header.rounds) + 1);
  } catch (const plab::ModelError&) {
  }
  return 0;
}
