// The code version stamped into summaries and reproduction cell keys: the git revision the
// binary was built from, with "-dirty" when tracked files had uncommitted changes.
#pragma once

namespace plab {
const char* git_revision();
}
