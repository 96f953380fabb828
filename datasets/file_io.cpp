// Transparent decompression (Boost.Iostreams).
#include <filesystem>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <fstream>

#include "datasets/readers.hpp"

namespace plab {
namespace io = boost::iostreams;

namespace {
bool ends_with(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// Owns the file and the filter chain together.
constexpr std::streamsize kBuf = 1 << 16;  // larger than Boost's default 4 KiB: fewer filter calls

class DecodingStream : public io::filtering_istream {
 public:
  explicit DecodingStream(const std::string& path) : file_(path, std::ios::binary) {
    if (!file_) throw DataError(path + ": cannot open for reading (missing or unreadable)");
    if (std::filesystem::is_directory(path)) throw DataError(path + ": is a directory, not a data file");
    if (ends_with(path, ".gz")) push(io::gzip_decompressor(), kBuf);
    else if (ends_with(path, ".bz2")) push(io::bzip2_decompressor(), kBuf);
    else if (ends_with(path, ".xz")) push(io::lzma_decompressor(), kBuf);
    push(file_, kBuf);
  }
  ~DecodingStream() override { reset(); }

 private:
  std::ifstream file_;
};
}  // namespace

std::unique_ptr<std::istream> open_input(const std::string& path) {
  auto s = std::make_unique<DecodingStream>(path);
  s->exceptions(std::ios::goodbit);
  return s;
}

}  // namespace plab
