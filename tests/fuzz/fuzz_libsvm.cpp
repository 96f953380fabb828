// libFuzzer harness of the LIBSVM reader (plain and compressed): any input either loads into a
// Dataset meeting its invariants or throws DataError; a crash, a sanitizer report or any other
// exception is a bug. The first byte picks the compression by file extension and the label map.
#include <cstdlib>

#include "datasets/readers.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* kExt[] = {".svm", ".gz", ".bz2", ".xz"};
  static const char* kLabels[] = {"", "3:+1,*:-1", "regression", "1:+1,0:-1"};
  const std::string path = plab::fuzz::write_input(data + 1, size - 1, kExt[data[0] & 3]);
  try {
    const plab::Dataset d = plab::load_libsvm(path, plab::LabelMap::parse(kLabels[(data[0] >> 2) & 3]));
    for (std::size_t t = 0; t < d.size(); ++t) {
      const plab::Example e = d[t];
      for (std::size_t k = 0; k < e.idx.size(); ++k)
        if (e.idx[k] >= d.dim || (k && e.idx[k] <= e.idx[k - 1]) || !std::isfinite(e.val[k])) std::abort();
      if (!plab::row_sqnorm_ok(e.sqnorm, !e.val.empty())) std::abort();  // explicit zeros are dropped
    }
  } catch (const plab::DataError&) {
  }
  return 0;
}
