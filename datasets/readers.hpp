// Readers for the on-disk formats. All of them throw DataError whose message names the file,
// the line and (where it applies) the column: "path:line:col: what". Compressed files (.gz,
// .bz2, .xz) are decoded transparently by Boost.Iostreams.
#pragma once
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab {

struct OptionDecl;  // core/option_decl.hpp
class RowArrivals;  // datasets/row_arrivals.hpp

// The reader options (datasets/reader_options.cpp): "format" (auto | libsvm | csv | tsv | usps)
// for data files, "header" and "label_column" for the csv and tsv readers (DelimitedLayout). A
// generator (synthetic:...) and a registered data set (layout fixed in the registry) take none.
// Owners are the readers of data_reader() (datasets/registry.hpp).
const std::vector<OptionDecl>& reader_options();
// The run's own options (datasets/reader_options.cpp), taken by every run: "labels" (the label
// map, LabelMap::parse), "preprocess" (Preprocess::parse), "limit", "shuffle" (the permutation's
// seed, none by default) and "threads" (0 = the hardware threads, at most kMaxThreads). The one
// configuration step checks them (RunOptions, config/run_config.hpp).
const std::vector<OptionDecl>& run_options();

// Names a place in a file ("path:line:col") for a message: a string, or a callable that builds it
// only when a message needs it (building it for every row was a tenth of loading a file).
// Refers to its argument, so it lives only as long as the call it is passed to.
class Where {
 public:
  Where(const std::string& s) : obj_(&s), fn_(&copy) {}  // NOLINT: implicit, as a string is passed
  template <class F, class = std::enable_if_t<std::is_invocable_r_v<std::string, const F&>>>
  Where(const F& f) : obj_(&f), fn_([](const void* o) -> std::string { return (*static_cast<const F*>(o))(); }) {}
  std::string operator()() const { return fn_(obj_); }

 private:
  static std::string copy(const void* o) { return *static_cast<const std::string*>(o); }
  const void* obj_;
  std::string (*fn_)(const void*);
};

// How raw label tokens become training labels.
struct LabelMap {
  // Empty: the binary spellings +1, 1, 1.0 -> +1 and -1, -1.0, 0 -> -1 (the shared files'
  // spellings). Otherwise: an exact-token map, e.g. {"3": +1} with `others` = -1 for
  // "digit 3 against the rest"; tokens neither mapped nor covered by `others` are errors.
  std::map<std::string, double> map;
  std::optional<double> others;
  bool regression = false;  // keep the numeric label as it is
  // Multiclass ("classes"): the numeric label is kept while reading, then load_dataset maps the
  // distinct values, in ascending order, to class indices 0..m-1 (Dataset::classes keeps them).
  bool classes = false;
  double apply(const std::string& tok, const Where& where) const;
  // Parses "3:+1,*:-1" style specs, "regression" and "classes"; `option` (if not empty) starts the
  // error message, spelled by the front end that reports it (--labels, labels=, header: labels).
  static LabelMap parse(const std::string& spec, const std::string& option = "--labels");
  // Digit d against the rest.
  static LabelMap one_vs_rest(const std::string& positive);
};

// Binary labels as read from one file: the default spellings allow two values for the negative
// class (-1 and 0); a file using both has three label values and is refused, not merged.
class LabelReader {
 public:
  explicit LabelReader(const LabelMap& m) : map_(m) {}
  double apply(const std::string& tok, const Where& where);

 private:
  const LabelMap& map_;
  std::string neg_tok_, neg_where_;  // first negative-class token seen and where
};

// A data file read line by line, decompressed by its extension (.gz, .bz2, .xz), its stored
// bytes hashed in the same single pass (a FIFO is never reopened). A UTF-8 byte order mark at the
// start and a trailing CR on every line are dropped. A decoder or I/O error throws DataError
// "path:line: gzip stream is corrupt|truncated (...)".
class InputFile {
 public:
  // Throws DataError if unreadable. A plain file's hash is taken on a thread of its own where the
  // machine has a core beside `busy` threads (this one, and a learner taking the rows as they come).
  explicit InputFile(const std::string& path, unsigned busy = 1);
  // A stream (standard input), read as its bytes arrive, not decompressed; `name` ("<stdin>")
  // names it in messages.
  InputFile(std::istream& in, const std::string& name);
  ~InputFile();
  // The next line without its newline; false at the end. A line over kMaxLineBytes is a DataError.
  bool getline(std::string& line);
  // A plain file is mapped: its lines can be viewed in place (next_view) rather than copied.
  bool mapped() const;
  // getline without the copy, for a mapped file only: the next line as a view into the mapping
  // (valid while this InputFile lives), counted, its BOM and final CR dropped as getline drops them.
  bool next_view(std::string_view& line);
  // The whole mapped file, for a mapped file only.
  std::string_view mapping() const;
  static constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;
  std::size_t lineno() const { return lineno_; }  // of the last line returned
  // The last line returned ended the input without a newline (on a stream: possibly cut mid-line).
  bool unterminated() const { return unterminated_; }
  const std::string& path() const { return path_; }
  std::istream& stream();  // raw decoded stream, for binary formats
  // SHA-256 of the bytes as stored: reads what is left of the file, then digests.
  std::string sha256();

 private:
  std::string read_error_message(const std::exception& e) const;
  bool getline_mapped(std::string& line);
  bool finish_line(std::string& line);  // counts the line; drops a first line's BOM and a final CR
  struct Impl;
  std::string path_;
  std::size_t lineno_ = 0;
  bool unterminated_ = false;
  std::unique_ptr<Impl> impl_;
};

// Bytes `d` holds: compressed sparse rows, 12 bytes per non-zero and 24 per row.
double data_bytes(const Dataset& d);
// Memory of `d`, of one densely stored support and (multiclass) of one support's class
// coefficients: named in every out-of-memory message.
std::string memory_estimate(const Dataset& d);
// The DataError for std::bad_alloc while reading `path` into `d` (the row that did not fit).
DataError out_of_memory(const Dataset& d, const std::string& path);

// Opens a file for reading, decompressing by its extension; throws DataError if unreadable.
std::unique_ptr<std::istream> open_input(const std::string& path);

// A LIBSVM file, strict (see tests/test_readers.cpp), its SHA-256 (of the bytes as stored) hashed
// while it is read.
// `arrivals` (not with labels.classes): the rows are published as they are stored when the file is
// mapped, its arrays first reserved for as many rows and values as its size allows, and the heap
// not warmed (datasets/row_arrivals.hpp).
Dataset load_libsvm(const std::string& path, const LabelMap& labels = {}, RowArrivals* arrivals = nullptr);
// One LIBSVM line (the file reader's and the stream's, datasets/row_stream.hpp): false for a blank
// or comment line, else its features and label y; throws DataError "path:lineno:col: what".
bool parse_libsvm_line(const std::string& line, const std::string& path, std::size_t lineno, LabelReader& labels,
                       std::vector<uint32_t>& idx, std::vector<double>& val, double& y);

// Delimited text (CSV/TSV): `label_column` is 0-based, negative counts from the end;
// `header` skips the first line.
Dataset load_delimited(const std::string& path, char sep, int label_column, bool header,
                       const LabelMap& labels = {});

// How a CSV/TSV file is laid out (the CLI's --header and --label-column, docs/inputs.md#csv-and-tsv).
struct DelimitedLayout {
  // auto: the first line is a header only when every cell is non-numeric text (not empty, not a
  // number); yes / no force it. The dropped line is recorded in Dataset::header.
  enum class Header { auto_detect, yes, no } header = Header::auto_detect;
  // "last" (default), "first", a 1-based column number, or a header name (needs a header).
  std::string label_column = "last";
  static Header parse_header(const std::string& s);  // throws std::invalid_argument
};
Dataset load_delimited(const std::string& path, char sep, const DelimitedLayout& layout,
                       const LabelMap& labels = {});
// The rows of a CSV/TSV text, one line at a time (the file reader's and the stream's,
// datasets/row_stream.hpp): the first non-blank line may be a header, the first data row fixes the
// column count and the label column.
class DelimitedRows {
 public:
  DelimitedRows(char sep, DelimitedLayout layout, const LabelMap& labels);
  // false for a blank or header line, else the row's features and label y; throws DataError
  // "path:lineno:col: what".
  bool parse(const std::string& line, const std::string& path, std::size_t lineno, std::vector<uint32_t>& idx,
             std::vector<double>& val, double& y);
  const std::string& header() const { return header_; }  // "path:line: 'text'" of the dropped header, or ""
  std::size_t columns() const { return ncols_; }          // of every data row (0 before the first)

 private:
  char sep_;
  DelimitedLayout layout_;
  LabelReader labels_;
  bool first_ = true;
  std::size_t ncols_ = 0, label_ = 0;
  std::string header_line_, header_at_, header_;
  std::vector<std::size_t> starts_, header_starts_;  // 0-based character offset of every field
};
// MNIST IDX images + labels (pixels scaled to [0,1]).
Dataset load_idx(const std::string& images, const std::string& labels_path, const LabelMap& labels);
// USPS / ESL zip.train format: label first, then 256 grey values, space separated.
Dataset load_usps(const std::string& path, const LabelMap& labels);

}  // namespace plab
