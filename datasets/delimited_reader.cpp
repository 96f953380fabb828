// Strict CSV/TSV reader: one example per line, one column holds the label, the rest are features.
#include <cmath>
#include <string>
#include <vector>

#include "datasets/readers.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

Dataset load_delimited(const std::string& path, char sep, int label_column, bool header,
                       const LabelMap& labels) {
  auto in = open_input(path);
  Dataset d;
  d.path = path;
  std::string line;
  std::size_t lineno = 0, ncols = 0;
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
    starts.clear();
    starts.push_back(0);
    for (std::size_t p = 0; p < line.size(); ++p)
      if (line[p] == sep) starts.push_back(p + 1);
    const std::size_t n = starts.size();
    if (ncols == 0) {
      ncols = n;
      if (ncols < 2)
        throw DataError(where(0) + ": only one column (expected features and a label separated by '" +
                        std::string(sep == '\t' ? "\\t" : std::string(1, sep)) + "')");
      const long lc = label_column < 0 ? static_cast<long>(ncols) + label_column : label_column;
      if (lc < 0 || lc >= static_cast<long>(ncols))
        throw DataError(where(0) + ": label column " + std::to_string(label_column) + " out of range for " +
                        std::to_string(ncols) + " columns");
    } else if (n != ncols) {
      throw DataError(where(0) + ": expected " + std::to_string(ncols) + " columns, got " + std::to_string(n));
    }
    const std::size_t lc =
        label_column < 0 ? ncols - static_cast<std::size_t>(-label_column) : static_cast<std::size_t>(label_column);
    const auto field = [&](std::size_t k) {
      const std::size_t e = k + 1 < n ? starts[k + 1] - 1 : line.size();
      return std::string_view(line).substr(starts[k], e - starts[k]);
    };
    idx.clear();
    val.clear();
    uint32_t j = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (k == lc) continue;
      const std::string_view tok = detail::trim(field(k));
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
    const double y = labels.apply(std::string(detail::trim(field(lc))), where(starts[lc]));
    d.push_back(idx, val, y, path + ":" + std::to_string(lineno));
  }
  if (in->bad()) throw DataError(path + ":" + std::to_string(lineno) + ": read error (corrupt or truncated file?)");
  if (d.size() == 0) throw DataError(path + ": empty file (no examples)");
  if (ncols - 1 > d.dim) d.dim = ncols - 1;  // trailing all-zero columns still count
  return d;
}

}  // namespace plab
