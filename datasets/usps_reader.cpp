// USPS digits as distributed with ESL (zip.train / zip.test): "digit v1 ... v256" per line,
// digit written as a real ("6.0000"), grey values in [-1, 1].
#include <cmath>
#include <string>
#include <vector>

#include "datasets/readers.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

Dataset load_usps(const std::string& path, const LabelMap& labels) {
  constexpr std::size_t kPixels = 256;
  InputFile in(path);
  Dataset d;
  d.path = path;
  std::string line;
  std::vector<uint32_t> idx;
  std::vector<double> val;
  while (in.getline(line)) {
    const std::size_t lineno = in.lineno();
    const auto where = [&](std::size_t col) {
      return path + ":" + std::to_string(lineno) + ":" + std::to_string(col + 1);
    };
    std::size_t p = 0, field = 0, label_col = 0;
    std::string label_tok;
    idx.clear();
    val.clear();
    for (;;) {
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
      if (p == line.size()) break;
      const std::size_t b = p;
      while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
      const std::string_view tok(line.data() + b, p - b);
      if (field == 0) {
        label_tok = tok;
        label_col = b;
      } else {
        if (field > kPixels)
          throw DataError(where(b) + ": expected 257 values (digit + 256 pixels), got more");
        double v;
        if (const std::string bad = detail::bad_value(tok, v); !bad.empty()) throw DataError(where(b) + ": " + bad);
        if (v != 0.0) { idx.push_back(static_cast<uint32_t>(field - 1)); val.push_back(v); }
      }
      ++field;
    }
    if (field == 0) continue;  // blank line
    if (field != kPixels + 1)
      throw DataError(where(0) + ": expected 257 values (digit + 256 pixels), got " + std::to_string(field));
    // "6.0000" -> "6", so label maps are written with plain digits (--labels 6:+1,*:-1).
    double digit;
    if (!detail::parse_double_token(label_tok, digit) || digit != std::floor(digit) || digit < 0 || digit > 9)
      throw DataError(where(label_col) + ": label " + detail::quote(label_tok) + " is not a digit 0-9");
    const double y = labels.apply(std::to_string(static_cast<int>(digit)), where(label_col));
    try {
      d.push_back(idx, val, y, path + ":" + std::to_string(lineno));
    } catch (const std::bad_alloc&) {
      throw out_of_memory(d, path);
    }
  }
  if (d.size() == 0) throw DataError(path + ": empty file (no examples)");
  if (kPixels > d.dim) d.dim = kPixels;
  d.sha256 = in.sha256();
  return d;
}

}  // namespace plab
