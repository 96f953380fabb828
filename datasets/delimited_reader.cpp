// Strict CSV/TSV reader: one example per line, one column holds the label, the rest are features.
// Header detection and the label column are explicit (docs/inputs.md#csv-and-tsv).
#include <cctype>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "datasets/readers.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

namespace {

std::string sep_name(char sep) { return sep == '\t' ? "\\t" : std::string(1, sep); }

// 0-based start offset of every field of `line`.
void split(const std::string& line, char sep, std::vector<std::size_t>& starts) {
  starts.assign(1, 0);
  for (std::size_t p = 0; p < line.size(); ++p)
    if (line[p] == sep) starts.push_back(p + 1);
}

std::string_view cell(const std::string& line, const std::vector<std::size_t>& starts, std::size_t k) {
  const std::size_t e = k + 1 < starts.size() ? starts[k + 1] - 1 : line.size();
  return detail::trim(std::string_view(line).substr(starts[k], e - starts[k]));
}

// auto: a header only when every cell is non-numeric text; an empty cell, "NA" next to numbers or
// a number anywhere make the line data (so a defect in it is reported, not silently dropped).
bool is_header(const std::string& line, const std::vector<std::size_t>& starts, DelimitedLayout::Header h) {
  if (h != DelimitedLayout::Header::auto_detect) return h == DelimitedLayout::Header::yes;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::string_view c = cell(line, starts, k);
    double v;
    if (c.empty() || detail::parse_number(c, v) != detail::Number::junk) return false;
  }
  return true;
}

// The 0-based label column from --label-column (last | first | 1-based number | header name).
// `where`: the first data row; `header_at`: the header line (names are looked up there).
// --label-column last/first next to a header that names another column "label" or "class" is
// ambiguous: refused rather than read with the wrong label (docs/inputs.md#csv-and-tsv).
void check_named_label(const std::string& spec, std::size_t chosen, const std::string& header_line,
                       const std::vector<std::size_t>& header_starts, const std::string& header_at) {
  if (spec != "last" && spec != "first") return;
  for (std::size_t k = 0; k < header_starts.size(); ++k) {
    std::string c(cell(header_line, header_starts, k));
    for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if ((c == "label" || c == "class") && k != chosen)
      throw DataError(header_at + ": the header names column " + std::to_string(k + 1) + " " +
                      detail::quote(cell(header_line, header_starts, k)) + ", but --label-column " + spec +
                      " reads column " + std::to_string(chosen + 1) + "; pass --label-column " +
                      detail::quote(cell(header_line, header_starts, k)) + " (or a column number)");
  }
}

std::size_t label_index(const std::string& spec, std::size_t n, const std::string& header_line,
                        const std::vector<std::size_t>& header_starts, const std::string& where,
                        const std::string& header_at) {
  if (spec == "last") return n - 1;
  if (spec == "first") return 0;
  if (!spec.empty() && spec.find_first_not_of("0123456789") == std::string::npos) {
    const unsigned long k = spec.size() > 9 ? 0 : std::stoul(spec);
    if (k < 1 || k > n)
      throw DataError(where + ": label column " + spec + " out of range for " + std::to_string(n) +
                      " columns (--label-column counts from 1)");
    return k - 1;
  }
  if (header_starts.empty())
    throw DataError(where + ": --label-column " + detail::quote(spec) +
                    " names a column, but the file has no header line (use --header yes, or a column number)");
  std::string names;
  std::size_t found = header_starts.size();
  for (std::size_t k = 0; k < header_starts.size(); ++k) {
    const std::string_view c = cell(header_line, header_starts, k);
    if (c == spec && found < k)  // which one is meant would be a guess
      throw DataError(header_at + ": the header names columns " + std::to_string(found + 1) + " and " +
                      std::to_string(k + 1) + " " + detail::quote(spec) + ": give --label-column as a column number");
    if (c == spec) found = k;
    names += (k ? ", " : "") + std::string(c);
  }
  if (found < header_starts.size()) {
    if (found >= n)
      throw DataError(header_at + ": label column " + detail::quote(spec) + " is column " + std::to_string(found + 1) +
                      " of the header, but the rows have " + std::to_string(n) + " columns");
    return found;
  }
  throw DataError(header_at + ": no column named " + detail::quote(spec) + " in the header (" +
                  detail::quote(names) + ")");
}

// The feature values of one row (every column but the label), non-zeros only.
void parse_features(const std::string& line, const std::vector<std::size_t>& starts, std::size_t label,
                    const std::function<std::string(std::size_t)>& where, std::vector<uint32_t>& idx,
                    std::vector<double>& val) {
  idx.clear();
  val.clear();
  uint32_t j = 0;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    if (k == label) continue;
    double v;
    if (const std::string bad = detail::bad_value(cell(line, starts, k), v); !bad.empty())
      throw DataError(where(starts[k]) + ": " + bad + " in column " + std::to_string(k + 1));
    if (v != 0.0) { idx.push_back(j); val.push_back(v); }
    ++j;
  }
}

}  // namespace

DelimitedLayout::Header DelimitedLayout::parse_header(const std::string& s) {
  if (s == "auto") return Header::auto_detect;
  if (s == "yes") return Header::yes;
  if (s == "no") return Header::no;
  throw std::invalid_argument("--header: expected auto, yes or no, got '" + s + "'");
}

DelimitedRows::DelimitedRows(char sep, DelimitedLayout layout, const LabelMap& labels)
    : sep_(sep), layout_(std::move(layout)), labels_(labels) {}

bool DelimitedRows::parse(const std::string& line, const std::string& path, std::size_t lineno,
                          std::vector<uint32_t>& idx, std::vector<double>& val, double& y) {
  if (detail::trim(line).empty()) return false;  // blank line
  const auto where = [&](std::size_t col) {
    return path + ":" + std::to_string(lineno) + ":" + std::to_string(col + 1);
  };
  split(line, sep_, starts_);
  if (first_ && (first_ = false, is_header(line, starts_, layout_.header))) {
    // Only names: the first data row fixes the column count (wdbc's header has 4 cells).
    header_line_ = line;
    header_starts_ = starts_;
    header_at_ = where(0);
    header_ = path + ":" + std::to_string(lineno) + ": " + detail::quote(line);
    return false;
  }
  if (ncols_ == 0) {  // the first data row fixes the layout
    ncols_ = starts_.size();
    if (ncols_ < 2)
      throw DataError(where(0) + ": only one column (expected features and a label separated by '" + sep_name(sep_) + "')");
    label_ = label_index(layout_.label_column, ncols_, header_line_, header_starts_, where(0), header_at_);
    check_named_label(layout_.label_column, label_, header_line_, header_starts_, header_at_);
  } else if (starts_.size() != ncols_) {
    throw DataError(where(0) + ": expected " + std::to_string(ncols_) + " columns, got " + std::to_string(starts_.size()));
  }
  parse_features(line, starts_, label_, where, idx, val);
  y = labels_.apply(std::string(cell(line, starts_, label_)), where(starts_[label_]));
  return true;
}

Dataset load_delimited(const std::string& path, char sep, const DelimitedLayout& layout, const LabelMap& labels) {
  InputFile in(path);
  DelimitedRows rows(sep, layout, labels);
  Dataset d;
  d.path = path;
  std::string line;
  std::vector<uint32_t> idx;
  std::vector<double> val;
  double y = 0.0;
  while (in.getline(line)) {
    if (!rows.parse(line, path, in.lineno(), idx, val, y)) continue;
    try {
      d.push_back(idx, val, y, path + ":" + std::to_string(in.lineno()));
    } catch (const std::bad_alloc&) {
      throw out_of_memory(d, path);
    }
  }
  if (d.size() == 0) throw DataError(path + ": empty file (no examples)");
  if (rows.columns() - 1 > d.dim) d.dim = rows.columns() - 1;  // trailing all-zero columns still count
  d.header = rows.header();
  d.sha256 = in.sha256();
  return d;
}

Dataset load_delimited(const std::string& path, char sep, int label_column, bool header, const LabelMap& labels) {
  if (label_column < -1) throw std::invalid_argument("load_delimited: label_column must be >= -1");
  DelimitedLayout layout;
  layout.header = header ? DelimitedLayout::Header::yes : DelimitedLayout::Header::no;
  layout.label_column = label_column == -1 ? "last" : std::to_string(label_column + 1);
  return load_delimited(path, sep, layout, labels);
}

}  // namespace plab
