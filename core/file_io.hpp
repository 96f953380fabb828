// File writing shared by every layer: results are written atomically so that an interrupted run
// never leaves a half-written file where a finished one is expected.
#pragma once
#include <nlohmann/json.hpp>
#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace plab {

// A file could not be written (no space, read-only file system, file too large, ...): the
// environment's failure, not the data's. plab reproduce stops at the first one (runner.hpp).
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes to path atomically (temporary file "<path>.tmp.<pid>.<serial>" in the same directory,
// then rename); creates missing parent directories. A symbolic link is followed and its final
// target replaced atomically; a FIFO or character device (also behind links: /dev/stdout) is
// written through, never replaced; "-" is standard output (docs/inputs.md#outputs). Two writers of one path each rename a
// complete file, so a reader sees one of them whole, never a mix. Throws std::runtime_error
// (WriteError) naming the path and the system's reason (no space, permission denied, read-only file system).
void write_file_atomic(const std::string& path, const std::string& content);
// The same for `head` followed by the bytes of the file `rest_path`, copied in blocks (a trace
// assembled from its rows file without holding it in memory).
void write_file_atomic(const std::string& path, const std::string& head, const std::string& rest_path);
// True when path is (or links to) a FIFO or a character device: written through, never replaced.
bool is_fifo_or_device(const std::string& path);
// One path a command reads or writes: the option that gives it ("--trace"), the path ("" when not
// given), and whether the command writes it.
struct PathUse {
  std::string option, path;
  bool written = false;
};
// Refuses (std::invalid_argument naming both options) two paths of one command that name one
// regular file, or one file yet to be written, where at least one of them is written: an output
// over an input would replace the input, two outputs would keep only the last; two outputs "-"
// would interleave on standard output. Devices and FIFOs (/dev/null) may be given twice
// (docs/inputs.md#outputs).
void refuse_shared_paths(const std::vector<PathUse>& uses);
// The same for a JSON document (two-space indentation, trailing newline).
void write_json_atomic(const std::string& path, const nlohmann::json& j);
// A whole file; throws std::runtime_error naming the path when it cannot be read.
std::string read_text_file(const std::string& path);
// The largest JSON file a reader takes (specs, results files): the project's own are kilobytes.
inline constexpr std::uintmax_t kMaxJsonFileBytes = std::uintmax_t{64} << 20;
// Parses a JSON file; nullopt when it is missing, not a regular file (a FIFO, a device), larger than
// kMaxJsonFileBytes or not valid JSON (a cache miss, not an error).
std::optional<nlohmann::json> read_json_if_valid(const std::string& path);

// Removes every temporary file ("*.tmp.*", left by a killed or failed writer) under dir,
// recursively, skipping sub-folders that hold their own kFolderLockName (another results folder,
// e.g. results/quick/, which a concurrent run may be writing). Returns how many were removed.
std::size_t remove_temporaries(const std::string& dir);

// Creates dir and checks that a file can be written and renamed in it (throws as write_file_atomic).
void check_writable(const std::string& dir);

inline constexpr const char* kFolderLockName = ".plab-reproduce.lock";

// An exclusive lock on a folder (flock on <dir>/kFolderLockName holding the owner's pid), held
// until the object is destroyed or the process ends (even by kill -9). When another process holds
// it, says "waiting for the lock ... held by pid N" on `log` and waits.
class FolderLock {
 public:
  FolderLock(const std::string& dir, std::ostream* log);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace plab
