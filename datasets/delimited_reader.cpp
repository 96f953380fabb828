// Strict CSV/TSV reader: one example per line, one column holds the label, the rest are features.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "datasets/readers.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

namespace {

// Column layout fixed by the first data row: its count and the label column (checked).
struct Columns {
  std::size_t n = 0, label = 0;
};

Columns first_row_columns(std::size_t n, int label_column, char sep, const std::string& where) {
  if (n < 2)
    throw DataError(where + ": only one column (expected features and a label separated by '" +
                    std::string(sep == '\t' ? "\\t" : std::string(1, sep)) + "')");
  const long lc = label_column < 0 ? static_cast<long>(n) + label_column : label_column;
  if (lc < 0 || lc >= static_cast<long>(n))
    throw DataError(where + ": label column " + std::to_string(label_column) + " out of range for " +
                    std::to_string(n) + " columns");
  return {n, static_cast<std::size_t>(lc)};
}

// The feature values of one row (every column but the label), non-zeros only.
void parse_features(const std::string& line, const std::vector<std::size_t>& starts, std::size_t label,
                    const std::function<std::string(std::size_t)>& where, std::vector<uint32_t>& idx,
                    std::vector<double>& val) {
  const std::size_t n = starts.size();
  idx.clear();
  val.clear();
  uint32_t j = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k == label) continue;
    const std::size_t e = k + 1 < n ? starts[k + 1] - 1 : line.size();
    const std::string_view tok = detail::trim(std::string_view(line).substr(starts[k], e - starts[k]));
    double v;
    if (!detail::parse_double_token(tok, v))
      throw DataError(where(starts[k]) + ": non-numeric value '" + std::string(tok) + "' in column " +
                      std::to_string(k + 1));
    if (!std::isfinite(v))
      throw DataError(where(starts[k]) + ": value '" + std::string(tok) + "' is NaN or infinite (column " +
                      std::to_string(k + 1) + ")");
    if (v != 0.0) { idx.push_back(j); val.push_back(v); }
    ++j;
  }
}

}  // namespace

Dataset load_delimited(const std::string& path, char sep, int label_column, bool header,
                       const LabelMap& labels) {
  auto in = open_input(path);
  Dataset d;
  d.path = path;
  std::string line;
  std::size_t lineno = 0;
  Columns cols;
  std::vector<std::size_t> starts;  // 0-based character offset of every field
  std::vector<uint32_t> idx;
  std::vector<double> val;
  while (std::getline(*in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (header && lineno == 1) continue;
    if (detail::trim(line).empty()) continue;  // blank line
    const auto where = [&](std::size_t col) {
      return path + ":" + std::to_string(lineno) + ":" + std::to_string(col + 1);
    };
    starts.assign(1, 0);
    for (std::size_t p = 0; p < line.size(); ++p)
      if (line[p] == sep) starts.push_back(p + 1);
    if (cols.n == 0) cols = first_row_columns(starts.size(), label_column, sep, where(0));
    else if (starts.size() != cols.n)
      throw DataError(where(0) + ": expected " + std::to_string(cols.n) + " columns, got " + std::to_string(starts.size()));
    parse_features(line, starts, cols.label, where, idx, val);
    const std::size_t b = starts[cols.label], e = cols.label + 1 < cols.n ? starts[cols.label + 1] - 1 : line.size();
    const double y = labels.apply(std::string(detail::trim(std::string_view(line).substr(b, e - b))), where(b));
    d.push_back(idx, val, y, path + ":" + std::to_string(lineno));
  }
  if (in->bad()) throw DataError(path + ":" + std::to_string(lineno) + ": read error (corrupt or truncated file?)");
  if (d.size() == 0) throw DataError(path + ": empty file (no examples)");
  if (cols.n - 1 > d.dim) d.dim = cols.n - 1;  // trailing all-zero columns still count
  return d;
}

}  // namespace plab
