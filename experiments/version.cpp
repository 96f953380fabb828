#include "experiments/version.hpp"

#include "plab_version.hpp"  // generated at build time by scripts/version.cmake

namespace plab {
const char* git_revision() { return PLAB_GIT_REVISION; }
}  // namespace plab
