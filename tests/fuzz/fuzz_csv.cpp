// libFuzzer harness of the CSV/TSV reader: any input loads or throws DataError. The first byte
// picks the separator, the header mode and the label column (last, first, 2, or a name).
#include <algorithm>
#include <cstdlib>

#include "datasets/readers.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const uint8_t c = data[0];
  const char sep = c & 1 ? '\t' : ',';
  plab::DelimitedLayout layout;
  static const plab::DelimitedLayout::Header kHeader[] = {plab::DelimitedLayout::Header::auto_detect,
                                                          plab::DelimitedLayout::Header::yes,
                                                          plab::DelimitedLayout::Header::no,
                                                          plab::DelimitedLayout::Header::auto_detect};
  static const char* kLabel[] = {"last", "first", "2", "label"};
  layout.header = kHeader[(c >> 1) & 3];
  layout.label_column = kLabel[(c >> 3) & 3];
  const std::string path = plab::fuzz::write_input(data + 1, size - 1, sep == ',' ? ".csv" : ".tsv");
  try {
    const plab::Dataset d = plab::load_delimited(path, sep, layout, plab::LabelMap::parse(c & 0x20 ? "regression" : ""));
    if (d.size() == 0 || d.dim == 0) std::abort();
    for (std::size_t t = 0; t < d.size(); ++t) {
      const plab::Example e = d[t];
      const bool nonzero = std::any_of(e.val.begin(), e.val.end(), [](double v) { return v != 0.0; });
      if (!plab::row_sqnorm_ok(e.sqnorm, nonzero) || (!(c & 0x20) && e.y != 1.0 && e.y != -1.0)) std::abort();
    }
  } catch (const plab::DataError&) {
  }
  return 0;
}
