// libFuzzer harness of the stream reader (`plab run --data -`, datasets/row_stream.hpp): any bytes
// on standard input either give rows meeting the Dataset invariants or throw DataError; a last line
// is reported unterminated exactly when the bytes do not end with a newline. The first byte picks
// the format (LIBSVM, CSV, TSV) and the label map.
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "datasets/row_stream.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* kFormat[] = {"libsvm", "csv", "tsv", "auto"};
  static const char* kLabels[] = {"", "3:+1,*:-1", "regression", "1:+1,0:-1"};
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  plab::LoadOptions opt;
  opt.format = kFormat[data[0] & 3];
  try {
    opt.labels = plab::LabelMap::parse(kLabels[(data[0] >> 2) & 3]);
    plab::RowStream rows(in, plab::kStdinName, opt);
    plab::Dataset d;
    while (rows.next(d)) {
      const plab::Example e = d[d.size() - 1];
      for (std::size_t k = 0; k < e.idx.size(); ++k)
        if (e.idx[k] >= d.dim || (k && e.idx[k] <= e.idx[k - 1]) || !std::isfinite(e.val[k])) std::abort();
      if (!plab::row_sqnorm_ok(e.sqnorm, !e.val.empty())) std::abort();
    }
    if (size > 1 && data[size - 1] == '\n' && rows.unterminated_line() != 0) std::abort();
    if (size > 1 && data[size - 1] != '\n' && rows.unterminated_line() == 0) std::abort();
  } catch (const plab::DataError&) {
  }
  return 0;
}
