// Transparent decompression (Boost.Iostreams) and line reading that hashes the stored bytes in
// the same pass, so a FIFO or `<(...)` is read once and its checksum is the one of what was read.
#include <fmt/format.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <fstream>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sha256.hpp"
#include "datasets/readers.hpp"

namespace plab {
namespace io = boost::iostreams;

namespace {
bool ends_with(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

constexpr std::streamsize kBuf = 1 << 16;  // larger than Boost's default 4 KiB: fewer filter calls

// The stored bytes, fed to the digest as they are read (Boost copies devices: state lives in Raw).
// A stream (standard input) is read in what has arrived (at least one byte), so that its rows
// reach the learner as they come, not 64 KiB at a time.
struct Raw {
  std::ifstream file;
  std::istream* src = &file;
  bool partial = false;
  Sha256 digest;
  bool eof = false;
};
class HashingSource {
 public:
  using char_type = char;
  using category = io::source_tag;
  explicit HashingSource(Raw* raw) : raw_(raw) {}
  std::streamsize read(char* s, std::streamsize n) {
    std::istream& in = *raw_->src;
    in.read(s, raw_->partial ? 1 : n);
    std::streamsize got = in.gcount();
    if (raw_->partial && got == 1) got += in.readsome(s + 1, n - 1);
    else if (raw_->partial) raw_->eof = true;
    if (in.bad()) throw std::ios_base::failure("I/O error reading the file");
    if (got > 0) raw_->digest.feed(s, static_cast<std::size_t>(got));
    if (!raw_->partial && got < n) raw_->eof = true;
    return got > 0 ? got : -1;
  }

 private:
  Raw* raw_;
};

// Owns the file and the filter chain together.
class DecodingStream : public io::filtering_istream {
 public:
  explicit DecodingStream(Raw& raw) { push(HashingSource(&raw), kBuf); }
  DecodingStream(const std::string& path, Raw& raw, std::string& compression) {
    raw.file.open(path, std::ios::binary);
    if (!raw.file) throw DataError(path + ": cannot open for reading (missing or unreadable)");
    if (std::filesystem::is_directory(path)) throw DataError(path + ": is a directory, not a data file");
    if (ends_with(path, ".gz")) { push(io::gzip_decompressor(), kBuf); compression = "gzip"; }
    else if (ends_with(path, ".bz2")) { push(io::bzip2_decompressor(), kBuf); compression = "bzip2"; }
    else if (ends_with(path, ".xz")) { push(io::lzma_decompressor(), kBuf); compression = "xz"; }
    push(HashingSource(&raw), kBuf);
  }
  ~DecodingStream() override { reset(); }
};
}  // namespace

struct InputFile::Impl {
  Raw raw;
  std::string compression;  // "" for a plain file
  std::unique_ptr<DecodingStream> in;
  // A plain regular file is mapped whole and its lines read from the mapping (one memchr and one
  // copy a line, no stream layers).
  const char* map = nullptr;
  std::size_t size = 0, pos = 0;
  // The mapping's SHA-256, taken on a thread of its own while the lines are parsed where a core is
  // free for it, so the parse does not wait for it.
  std::thread hasher;
  std::string digest;
  void hash_in_background() {
    try {
      hasher = std::thread([this] {
        try {
          Sha256 d;
          d.feed(map, size);
          digest = d.hex();
        } catch (...) {  // digest stays empty: sha256() hashes on the caller's thread and reports
        }
      });
    } catch (const std::system_error&) {  // no thread to be had: sha256() hashes on the caller's
    }
  }
  void unmap() {
    if (hasher.joinable()) hasher.join();
    if (map) munmap(const_cast<char*>(map), size);
    map = nullptr;
  }
  ~Impl() { unmap(); }
};

namespace {
// The whole file mapped and populated, or nullptr where it is not a non-empty regular file or
// cannot be mapped (the stream reads it then, with its own errors).
const char* map_plain_file(const std::string& path, std::size_t& size) {
  if (ends_with(path, ".gz") || ends_with(path, ".bz2") || ends_with(path, ".xz")) return nullptr;
  // Only a regular file is opened here: opening a FIFO would wait for its writer, and closing it
  // again would lose what was written (the stream then opened it a second time).
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0 || !S_ISREG(named.st_mode)) return nullptr;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  void* m = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    size = static_cast<std::size_t>(st.st_size);
    m = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  }
  ::close(fd);
  return m == MAP_FAILED ? nullptr : static_cast<const char*>(m);
}
}  // namespace

InputFile::InputFile(const std::string& path, unsigned busy) : path_(path), impl_(std::make_unique<Impl>()) {
  impl_->map = map_plain_file(path, impl_->size);
  if (impl_->map) {
    // Beside `busy` threads the hash takes a core of its own only where there is one: on fewer it
    // would take its time from them (a learner's included), so sha256() hashes after the parse.
    const unsigned cores = std::thread::hardware_concurrency();
    if (cores == 0 || cores > busy) impl_->hash_in_background();
    return;
  }
  impl_->in = std::make_unique<DecodingStream>(path, impl_->raw, impl_->compression);
  // badbit rethrows the decompressor's own exception out of getline, so it can be named.
  impl_->in->exceptions(std::ios::badbit);
}
InputFile::InputFile(std::istream& in, const std::string& name) : path_(name), impl_(std::make_unique<Impl>()) {
  impl_->raw.src = &in;
  impl_->raw.partial = true;
  impl_->in = std::make_unique<DecodingStream>(impl_->raw);
  impl_->in->exceptions(std::ios::badbit);
}
InputFile::~InputFile() = default;

std::istream& InputFile::stream() {
  if (impl_->map) {  // a binary format reads the stream: from the start, through the layers
    if (impl_->pos != 0) throw std::logic_error("InputFile::stream after getline");
    impl_->unmap();
    impl_->in = std::make_unique<DecodingStream>(path_, impl_->raw, impl_->compression);
  }
  return *impl_->in;
}

namespace {
// What a decoder's exception says about the stream: truncated (input ended inside the compressed
// data), not in the format at all (bad magic / header), or corrupt (bad data or checksum).
constexpr int kLzmaFormatError = 7;  // LZMA_FORMAT_ERROR (lzma/base.h); Boost names no constant for it
std::string decoder_diagnosis(const std::exception& e) {
  if (const auto* g = dynamic_cast<const io::gzip_error*>(&e)) {
    if (g->error() == io::gzip::zlib_error && g->zlib_error_code() == io::zlib::buf_error) return "truncated";
    if (g->error() == io::gzip::bad_header) return "corrupt (not gzip data: bad header)";
    if (g->error() == io::gzip::bad_footer) return "truncated (the file ends inside the gzip trailer)";
    if (g->error() == io::gzip::bad_crc || g->error() == io::gzip::bad_length) return "corrupt (checksum mismatch)";
    return "corrupt (zlib error " + std::to_string(g->zlib_error_code()) + ")";
  }
  if (const auto* b = dynamic_cast<const io::bzip2_error*>(&e)) {
    if (b->error() == io::bzip2::unexpected_eof) return "truncated";
    if (b->error() == io::bzip2::data_error_magic) return "corrupt (not bzip2 data: bad magic)";
    return "corrupt (bzip2 error " + std::to_string(b->error()) + ")";
  }
  if (const auto* x = dynamic_cast<const io::lzma_error*>(&e)) {
    if (x->error() == io::lzma::buf_error) return "truncated";
    if (x->error() == kLzmaFormatError) return "corrupt (not xz data: bad header)";
    return "corrupt (lzma error " + std::to_string(x->error()) + ")";
  }
  return std::string("unreadable (") + e.what() + ")";
}
}  // namespace

std::string InputFile::read_error_message(const std::exception& e) const {
  const std::string at = path_ + ":" + std::to_string(lineno_ + 1) + ": ";
  if (impl_->compression.empty()) return at + "read error (" + e.what() + ")";
  return at + impl_->compression + " stream is " + decoder_diagnosis(e);
}

bool InputFile::getline(std::string& line) {
  if (impl_->map) return getline_mapped(line);
  std::istream& in = *impl_->in;
  line.clear();
  try {
    // In pieces of at most one buffer (istream::getline stops there with failbit), so that a line
    // is refused at kMaxLineBytes, not after it filled memory (/dev/zero on standard input).
    char buf[1 << 14];
    for (;;) {
      in.getline(buf, sizeof buf);
      const bool full = in.fail() && !in.eof();  // the buffer filled before the newline
      const auto got = static_cast<std::size_t>(in.gcount());
      if (in.fail() && in.eof() && got == 0 && line.empty()) return false;  // the end, no line
      line.append(buf, full || in.eof() ? got : got - 1);  // gcount counts the newline taken
      if (line.size() > kMaxLineBytes)
        throw DataError(path_ + ":" + std::to_string(lineno_ + 1) + ": the line is longer than " +
                        std::to_string(kMaxLineBytes >> 20) + " MiB, the longest line read (not a text data file?)");
      if (!full) {
        unterminated_ = in.eof();  // the last line had no newline (a stream cut mid-line shows so)
        if (in.eof()) in.clear(std::ios::eofbit);
        break;
      }
      in.clear();
    }
  } catch (const DataError&) {
    throw;
  } catch (const std::exception& e) {
    throw DataError(read_error_message(e));
  }
  return finish_line(line);
}

bool InputFile::finish_line(std::string& line) {
  ++lineno_;
  if (lineno_ == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // UTF-8 byte order mark
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

bool InputFile::mapped() const { return impl_->map != nullptr; }

std::string_view InputFile::mapping() const {
  if (!impl_->map) throw std::logic_error("InputFile::mapping on a file that is not mapped");
  return {impl_->map, impl_->size};
}

bool InputFile::next_view(std::string_view& line) {
  Impl& m = *impl_;
  if (!m.map) throw std::logic_error("InputFile::next_view on a file that is not mapped");
  if (m.pos >= m.size) return false;
  const char* b = m.map + m.pos;
  // The mapping's next pages, ahead of the reader: the hardware prefetcher stops at each 4 KB page.
  for (std::size_t ahead : {std::size_t{2048}, std::size_t{6144}})
    if (m.pos + ahead < m.size) __builtin_prefetch(b + ahead);
  const auto* nl = static_cast<const char*>(std::memchr(b, '\n', m.size - m.pos));
  const std::size_t len = nl ? static_cast<std::size_t>(nl - b) : m.size - m.pos;
  if (len > kMaxLineBytes)
    throw DataError(path_ + ":" + std::to_string(lineno_ + 1) + ": the line is longer than " +
                    std::to_string(kMaxLineBytes >> 20) + " MiB, the longest line read (not a text data file?)");
  m.pos += len + (nl ? 1 : 0);
  unterminated_ = !nl;
  line = std::string_view(b, len);
  ++lineno_;  // as finish_line
  if (lineno_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

bool InputFile::getline_mapped(std::string& line) {
  std::string_view v;
  if (!next_view(v)) return false;
  line.assign(v);
  return true;
}

std::string InputFile::sha256() {
  if (impl_->map) {
    if (impl_->hasher.joinable()) impl_->hasher.join();
    if (impl_->digest.empty()) {
      Sha256 d;
      d.feed(impl_->map, impl_->size);
      impl_->digest = d.hex();
    }
    return impl_->digest;
  }
  // Bytes after the decoded end (a gzip trailer, trailing garbage) still belong to the file.
  std::array<char, 1 << 16> buf;
  while (!impl_->raw.eof && *impl_->raw.src) HashingSource(&impl_->raw).read(buf.data(), static_cast<std::streamsize>(buf.size()));
  return impl_->raw.digest.hex();
}

namespace {
std::string mib(double bytes) { return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0)); }
}  // namespace

double data_bytes(const Dataset& d) {
  // Compressed sparse rows: 4 + 8 bytes per non-zero, rowptr + y + sqnorm 24 bytes per row.
  return 12.0 * static_cast<double>(d.idx.size()) + 24.0 * static_cast<double>(d.size());
}

std::string memory_estimate(const Dataset& d) {
  const std::string classes =
      d.multiclass() ? fmt::format("; {} classes: a multiclass learner keeps classes x 8 bytes = {} per support",
                                   d.classes.size(), mib(8.0 * static_cast<double>(d.classes.size())))
                     : "";
  return fmt::format("dimension {} (largest feature index), {} rows, {} non-zeros: the data take {}; "
                     "one support stored densely takes dimension x 8 bytes = {}{}",
                     d.dim, d.size(), d.idx.size(), mib(data_bytes(d)), mib(8.0 * static_cast<double>(d.dim)), classes);
}

DataError out_of_memory(const Dataset& d, const std::string& path) {
  return DataError(path + ": out of memory while reading row " + std::to_string(d.size() + 1) + " (so far " +
                   memory_estimate(d) + ")");
}

std::unique_ptr<std::istream> open_input(const std::string& path) {
  auto f = std::make_shared<InputFile>(path);
  // The binary readers (IDX) read the stream directly; keep its owner alive with it.
  struct Owned : std::istream {
    std::shared_ptr<InputFile> owner;
    explicit Owned(std::shared_ptr<InputFile> o) : std::istream(o->stream().rdbuf()), owner(std::move(o)) {}
  };
  auto s = std::make_unique<Owned>(std::move(f));
  s->exceptions(std::ios::goodbit);
  return s;
}

}  // namespace plab
