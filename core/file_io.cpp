#include "core/file_io.hpp"

#include "core/json_text.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace plab {

namespace fs = std::filesystem;

namespace {

WriteError sys_error(const std::string& path, const std::string& what, int err) {
  return WriteError(path + ": " + what + ": " + std::strerror(err));
}

void make_parent(const fs::path& p) {
  if (!p.has_parent_path()) return;
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  if (ec) throw WriteError(p.parent_path().string() + ": cannot create folder: " + ec.message());
}

// Writes all of content to fd; false (errno set) on failure.
bool write_all(int fd, const std::string& content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

namespace {

// The file a chain of symbolic links ends at (path itself when it is no link), so that the
// atomic rename replaces the link's target, not the link (docs/inputs.md#outputs).
std::string link_target(std::string p) {
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec) return p;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) throw std::runtime_error(p + ": cannot read symbolic link: " + ec.message());
    p = (to.is_absolute() ? to : fs::path(p).parent_path() / to).string();
  }
  throw std::runtime_error(p + ": too many levels of symbolic links");
}

// What goes into a file: writes to fd; false (errno set) on failure.
using Content = std::function<bool(int fd)>;

// Writes content through an open-for-writing of path (a FIFO or a device): nothing to rename.
void write_through(const std::string& path, int fd, const Content& content) {
  int err = content(fd) ? 0 : errno;
  if (fd > 2 && ::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) throw sys_error(path, "write failed", err);
}

// Writes to a new file in path's folder, then renames it onto path.
void write_renamed(const std::string& path, const Content& content) {
  make_parent(fs::path(path));
  // Unique per process and per call: two writers of one path never share a temporary.
  static std::atomic<uint64_t> serial{0};
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw sys_error(path, "cannot open for writing", errno);
  // close() reports deferred errors (NFS, quota): a failed close is a failed write.
  int err = content(fd) ? 0 : errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    throw sys_error(path, "write failed", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    throw sys_error(path, "cannot rename into place", err);
  }
}

void write_atomic(const std::string& path, const Content& content) {
  if (path == "-") return write_through("standard output", STDOUT_FILENO, content);
  // A FIFO or a character device (also behind a link, /dev/stdout) is written to, never replaced.
  if (is_fifo_or_device(path)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw sys_error(path, "cannot open for writing", errno);
    return write_through(path, fd, content);
  }
  write_renamed(link_target(path), content);
}

}  // namespace

bool is_fifo_or_device(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode));
}

void write_file_atomic(const std::string& path, const std::string& content) {
  write_atomic(path, [&](int fd) { return write_all(fd, content); });
}

void write_file_atomic(const std::string& path, const std::string& head, const std::string& rest_path) {
  std::ifstream rest(rest_path, std::ios::binary);
  if (!rest) throw WriteError(rest_path + ": cannot open for reading");
  write_atomic(path, [&](int fd) {
    std::string block(1 << 20, '\0');
    if (!write_all(fd, head)) return false;
    while (rest.read(block.data(), static_cast<std::streamsize>(block.size())) || rest.gcount() > 0) {
      block.resize(static_cast<std::size_t>(rest.gcount()));
      if (!write_all(fd, block)) return false;
      block.resize(1 << 20);
    }
    if (rest.bad()) errno = EIO;
    return !rest.bad();
  });
}

void refuse_shared_paths(const std::vector<PathUse>& uses) {
  namespace fs = std::filesystem;
  // "-" is standard input or output: the file behind it (a shell's `< data.svm`) is compared too.
  const auto file_of = [](const PathUse& u) { return u.path != "-" ? u.path : u.written ? "/dev/stdout" : "/dev/stdin"; };
  const auto same = [&](const PathUse& a, const PathUse& b) {
    std::error_code ea, eb;
    if (a.written && b.written && (a.path == "-" || b.path == "-"))  // two writers of standard output
      return a.path == b.path ||
             (fs::equivalent(file_of(a), file_of(b), ea) && !fs::is_character_file(fs::status(file_of(a), eb)));
    const std::string pa = file_of(a), pb = file_of(b);
    const fs::file_status sa = fs::status(pa, ea), sb = fs::status(pb, eb);
    const bool ra = fs::is_regular_file(sa), rb = fs::is_regular_file(sb);
    if (ra && rb) return fs::equivalent(pa, pb, ea) && !ea;
    // An input that is no regular file (a registered data set's name, a device) is none of them.
    if (!a.written || !b.written || ra || rb || fs::exists(sa) || fs::exists(sb)) return false;
    // Absolute first: libstdc++ gives a relative path whose first part is missing back as it is.
    const fs::path ca = fs::weakly_canonical(fs::absolute(pa), ea).lexically_normal(),
                   cb = fs::weakly_canonical(fs::absolute(pb), eb).lexically_normal();
    return !ea && !eb && ca == cb;  // two files yet to be written
  };
  for (std::size_t i = 0; i < uses.size(); ++i)
    for (std::size_t j = i + 1; j < uses.size(); ++j) {
      const PathUse &a = uses[i], &b = uses[j];
      if (a.path.empty() || b.path.empty() || !(a.written || b.written) || !same(a, b)) continue;
      const PathUse& out = a.written ? a : b;
      const PathUse& other = a.written ? b : a;
      throw std::invalid_argument(out.option + " " + out.path + ": the same file as " + other.option + " " +
                                  other.path + (other.written ? " (both written: one would be lost)"
                                                              : " (writing it would replace what is read)"));
    }
}

void write_json_atomic(const std::string& path, const nlohmann::json& j) {
  write_file_atomic(path, j.dump(2) + "\n");
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read " + path);
  return ss.str();
}

std::optional<nlohmann::json> read_json_if_valid(const std::string& path) {
  // Only a regular file of a sane size: a FIFO would block the open, /dev/zero fill memory.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::is_regular_file(st)) return std::nullopt;
  if (const auto n = std::filesystem::file_size(path, ec); ec || n > kMaxJsonFileBytes) return std::nullopt;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  try { return parse_json(text.str()); } catch (const std::exception&) { return std::nullopt; }
}

std::size_t remove_temporaries(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  std::size_t n = 0;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path& p = it->path();
    if (it->is_directory(ec)) {
      if (fs::exists(p / kFolderLockName, ec)) it.disable_recursion_pending();  // a nested results folder
      continue;
    }
    if (p.filename().string().find(".tmp.") == std::string::npos) continue;
    if (!fs::remove(p, ec)) throw std::runtime_error(p.string() + ": cannot remove stale temporary file: " + ec.message());
    ++n;
  }
  if (ec) throw std::runtime_error(dir + ": cannot list folder: " + ec.message());
  return n;
}

void check_writable(const std::string& dir) {
  const std::string probe = dir + "/.plab-write-test";
  write_file_atomic(probe, "plab reproduce checks that this folder is writable\n");
  if (::unlink(probe.c_str()) != 0) throw sys_error(probe, "cannot remove", errno);
}

namespace {
// The pid in a held lock file; a lock just taken may not hold it yet: read again for up to
// 200 ms, "" when still empty.
std::string lock_owner(const std::string& path) {
  for (int i = 0; i < 100; ++i) {
    std::ifstream in(path);
    std::string pid;
    if (std::getline(in, pid) && !pid.empty()) return pid;
    ::usleep(2000);
  }
  return "";
}
}  // namespace

FolderLock::FolderLock(const std::string& dir, std::ostream* log) {
  const std::string path = dir + "/" + kFolderLockName;
  make_parent(fs::path(path));
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw sys_error(path, "cannot open the lock file", errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw sys_error(path, "cannot lock", errno);
    const std::string pid = lock_owner(path);
    if (log)
      *log << "plab reproduce: waiting for the lock on " << dir << " held by "
           << (pid.empty() ? "another process (its pid not yet written)" : "pid " + pid)
           << " (another plab reproduce in this results folder; " << path << ")\n"
           << std::flush;
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) throw sys_error(path, "cannot lock", errno);
  }
  // The pid first, then the length: a waiter never reads an emptied file (it would print "pid ?").
  const std::string me = std::to_string(::getpid()) + "\n";
  if (::pwrite(fd_, me.data(), me.size(), 0) != static_cast<ssize_t>(me.size()) ||
      ::ftruncate(fd_, static_cast<off_t>(me.size())) != 0)
    throw sys_error(path, "cannot write the lock file", errno);
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace plab
