#include "datasets/row_stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ios>

namespace plab {

RowStream::RowStream(std::istream& in, const std::string& name, const LoadOptions& opt)
    : opt_(opt), in_(std::make_unique<InputFile>(in, name)) {
  const std::string& f = opt_.format;
  if (opt_.labels.classes)
    throw DataError(name + ": --labels classes needs the class list of the whole data set before round 1; a stream "
                           "(--data -) gives its rows one at a time (docs/inputs.md#streams)");
  if (f == "csv" || f == "tsv") delimited_.emplace(f == "csv" ? ',' : '\t', opt_.layout.value_or(DelimitedLayout{}), opt_.labels);
  else if (f == "libsvm" || f == "auto") libsvm_labels_.emplace(opt_.labels);
  else throw DataError(name + ": --format " + f + " cannot be read as a stream (libsvm, csv or tsv)");
  if (opt_.layout && !delimited_)
    throw DataError(name + ": --header and --label-column apply to CSV/TSV, and the stream is read as LIBSVM "
                           "(pass --format csv or --format tsv)");
}

RowStream::~RowStream() = default;

bool RowStream::next(Dataset& into) {
  double y = 0.0;
  while (in_->getline(line_)) {
    const bool row = delimited_ ? delimited_->parse(line_, in_->path(), in_->lineno(), idx_, val_, y)
                                : parse_libsvm_line(line_, in_->path(), in_->lineno(), *libsvm_labels_, idx_, val_, y);
    if (!row) continue;
    into.push_back(idx_, val_, y, in_->path() + ":" + std::to_string(in_->lineno()));
    dim_ = std::max(dim_, into.dim);
    ++rows_;
    any_positive_ = any_positive_ || y == 1.0;
    any_negative_ = any_negative_ || y == -1.0;
    return true;
  }
  if (rows_ == 0) throw DataError(in_->path() + ": empty stream (no examples)");
  check_label_map_matched(in_->path(), opt_.labels, any_positive_, any_negative_);
  if (sha256_.empty()) sha256_ = in_->sha256();
  return false;
}

std::size_t RowStream::dim() const {
  // A CSV's trailing all-zero columns still count (as in load_delimited).
  return delimited_ && delimited_->columns() > 0 ? std::max(dim_, delimited_->columns() - 1) : dim_;
}

const std::string& RowStream::header() const {
  static const std::string none;
  return delimited_ ? delimited_->header() : none;
}

// read() returns what the descriptor has (a pipe: what was written so far), at least one byte.
struct FdInput::Buf : std::streambuf {
  int fd;
  std::array<char, 1 << 16> data{};
  explicit Buf(int f) : fd(f) {}
  int_type underflow() override {
    ssize_t n;
    do n = ::read(fd, data.data(), data.size());
    while (n < 0 && errno == EINTR);
    if (n < 0) throw std::ios_base::failure(std::string("read error: ") + std::strerror(errno));
    if (n == 0) return traits_type::eof();
    setg(data.data(), data.data(), data.data() + n);
    return traits_type::to_int_type(data[0]);
  }
};

FdInput::FdInput(int fd) : std::istream(nullptr), buf_(std::make_unique<Buf>(fd)) { rdbuf(buf_.get()); }
FdInput::~FdInput() = default;

}  // namespace plab
