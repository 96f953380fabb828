// Rows of a LIBSVM or CSV/TSV text arriving on a stream (`plab run --data -`, docs/inputs.md#streams),
// parsed one at a time as they arrive by the file readers' own line parsers (parse_libsvm_line,
// DelimitedRows), so that a row, its error messages ("<stdin>:LINE:COL: what") and its bits are those
// of the same text read from a file. Memory: one line and the rows not yet handed on.
#pragma once
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"
#include "datasets/readers.hpp"
#include "datasets/registry.hpp"

namespace plab {

// The name of standard input in messages and summaries.
inline constexpr const char* kStdinName = "<stdin>";

class RowStream {
 public:
  // `opt.format`: libsvm (also "auto"), csv or tsv; other formats throw DataError. `opt.labels`
  // with `classes` throws (a class list needs every row before the first round).
  RowStream(std::istream& in, const std::string& name, const LoadOptions& opt);
  ~RowStream();
  // Appends the next row to `into` (Dataset::push_back: the bits of a file read); false at the
  // end of the stream, which throws DataError when it held no row.
  bool next(Dataset& into);
  std::size_t rows() const { return rows_; }
  const std::string& name() const { return in_->path(); }  // as given to the constructor
  // 1 + the largest feature index so far (CSV/TSV: at least the columns but the label).
  std::size_t dim() const;
  const std::string& header() const;  // a CSV/TSV header line dropped, "" when none
  // The last line had no newline (a writer cut off mid-line leaves one): its line number, else 0.
  std::size_t unterminated_line() const { return in_->unterminated() ? in_->lineno() : 0; }
  // SHA-256 of every byte of the stream: after next() returned false; "" before.
  const std::string& sha256() const { return sha256_; }

 private:
  LoadOptions opt_;
  std::unique_ptr<InputFile> in_;
  std::optional<LabelReader> libsvm_labels_;
  std::optional<DelimitedRows> delimited_;
  std::string line_, sha256_;
  std::vector<uint32_t> idx_;
  std::vector<double> val_;
  std::size_t rows_ = 0, dim_ = 0;
  bool any_positive_ = false, any_negative_ = false;  // labels seen: a label map's check at the end
};

// An istream over a file descriptor (0: standard input) whose reads return what has arrived, so
// that a pipe's rows are learned as they come (std::cin's stdio buffer gives no such count).
class FdInput : public std::istream {
 public:
  explicit FdInput(int fd);
  ~FdInput() override;

 private:
  struct Buf;
  std::unique_ptr<Buf> buf_;
};

}  // namespace plab
