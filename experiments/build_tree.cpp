// Linked (as an object) into this build's own programs: plab, tests and benches find the data sets
// in ../shared/datasets next to the source tree. The installed library has no source-tree path
// (datasets/registry.hpp).
#include <filesystem>

#include "datasets/registry.hpp"

namespace {
[[maybe_unused]] const bool registered = [] {
  plab::set_build_data_dir(
      (std::filesystem::path(PLAB_SOURCE_DIR) / "../shared/datasets").lexically_normal().string());
  return true;
}();
}  // namespace
