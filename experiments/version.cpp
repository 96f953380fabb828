#include "experiments/version.hpp"

#include <array>
#include <cstdio>
#include <optional>
#include <sstream>

#include "plab_version.hpp"  // generated at build time by scripts/version.cmake

namespace plab {

const char* git_revision() { return PLAB_GIT_REVISION; }

namespace {

// stdout of `git -C dir args` (stderr discarded), or nothing when git fails.
std::optional<std::string> git(const std::string& dir, const std::string& args) {
  std::string quoted = "'";
  for (char c : dir) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  FILE* p = popen(("git -C " + quoted + " " + args + " 2>/dev/null").c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  std::array<char, 4096> buf;
  for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  if (pclose(p) != 0) return std::nullopt;
  return out;
}

}  // namespace

TreeState tree_state(const std::string& dir, const std::string& revision) {
  TreeState t;
  t.revision = revision;
  const auto head = git(dir, "rev-parse --short=12 HEAD");
  const auto status = git(dir, "status --porcelain -- . ':(exclude)results' ':(exclude)README.md'");
  if (!head || !status) {
    t.changes.push_back("git status failed in " + dir + " (not a git work tree?)");
    return t;
  }
  const std::string h = head->substr(0, head->find('\n'));
  if (revision.size() > 6 && revision.compare(revision.size() - 6, 6, "-dirty") == 0)
    t.changes.push_back("the binary was built from uncommitted changes (" + revision + ")");
  else if (revision != h)
    t.changes.push_back("the binary was built at " + revision + ", HEAD is " + h + " (rebuild)");
  std::istringstream lines(*status);
  for (std::string l; std::getline(lines, l);)
    if (const auto k = l.find_first_not_of(' '); k != std::string::npos) t.changes.push_back(l.substr(k));
  t.clean = t.changes.empty();
  return t;
}

std::string TreeState::describe() const {
  if (clean) return "commit `" + revision + "` (clean tree)";
  return "DIRTY TREE, no commit reproduces it exactly: `" + revision + "` with " + std::to_string(changes.size()) +
         " uncommitted change(s) (" + changes[0] + (changes.size() > 1 ? ", ..." : "") + ")";
}

}  // namespace plab
