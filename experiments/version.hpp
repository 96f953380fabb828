// The code version stamped into summaries and reproduction cell keys: the git revision the
// binary was built from, with "-dirty" when tracked files had uncommitted changes.
#pragma once
#include <string>
#include <vector>

namespace plab {
const char* git_revision();

// Whether a report can be reproduced from a commit (docs/report.md#provenance): the binary was
// built from a clean tree at HEAD, and no file of the work tree differs from HEAD (tracked or
// untracked, not ignored) outside results/ and README.md, which `make reproduce` writes.
struct TreeState {
  std::string revision;              // the binary's git_revision()
  bool clean = false;
  std::vector<std::string> changes;  // `git status --porcelain` lines, or why the state is unknown
  std::string describe() const;      // "commit `abc` (clean tree)" / "DIRTY TREE: ..."
};
// `revision` is the binary's; `dir` the source tree (PLAB_SOURCE_DIR for plab reproduce).
TreeState tree_state(const std::string& dir, const std::string& revision);
}  // namespace plab
