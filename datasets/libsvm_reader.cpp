// Strict streaming LIBSVM reader and the shared label mapping.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "datasets/readers.hpp"

namespace plab {

namespace {
// Whole-token, correctly rounded (same value as strtod). from_chars rejects a leading '+', so it
// is skipped here (but "+-1" stays an error); out-of-range values are rejected as before.
bool parse_double(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) return false;
  }
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}
}  // namespace

double LabelMap::apply(const std::string& tok, const std::string& where) const {
  if (regression) {
    double v;
    if (!parse_double(tok, v) || !std::isfinite(v))
      throw DataError(where + ": label '" + tok + "' is not a finite number");
    return v;
  }
  if (map.empty() && !others) {
    if (tok == "+1" || tok == "1" || tok == "1.0" || tok == "+1.0") return 1.0;
    if (tok == "-1" || tok == "-1.0" || tok == "0" || tok == "0.0") return -1.0;
    throw DataError(where + ": unknown label '" + tok +
                    "' (binary files use +1/1/1.0 and -1/-1.0/0; map others with --labels)");
  }
  const auto it = map.find(tok);
  if (it != map.end()) return it->second;
  if (others) return *others;
  throw DataError(where + ": label '" + tok + "' is not in the label map");
}

LabelMap LabelMap::parse(const std::string& spec) {
  LabelMap m;
  if (spec.empty()) return m;
  if (spec == "regression") { m.regression = true; return m; }
  if (spec == "classes") { m.regression = m.classes = true; return m; }
  std::size_t pos = 0;
  while (pos <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', pos), spec.size());
    const std::string item = spec.substr(pos, comma - pos);
    const std::size_t colon = item.rfind(':');
    double v;
    if (colon == std::string::npos || colon == 0 || !parse_double(item.substr(colon + 1), v) ||
        (v != 1.0 && v != -1.0))
      throw std::invalid_argument("--labels: bad item '" + item + "' (expected TOKEN:+1 or TOKEN:-1, '*' for the rest)");
    const std::string key = item.substr(0, colon);
    if (key == "*") m.others = v; else m.map[key] = v;
    pos = comma + 1;
  }
  return m;
}

LabelMap LabelMap::one_vs_rest(const std::string& positive) {
  LabelMap m;
  m.map[positive] = 1.0;
  m.others = -1.0;
  return m;
}

void read_libsvm(const std::string& path, const LabelMap& labels,
                 const std::function<void(std::span<const uint32_t>, std::span<const double>, double)>& sink) {
  auto in = open_input(path);
  std::string line;
  std::vector<uint32_t> idx;
  std::vector<double> val;
  std::size_t lineno = 0, rows = 0;
  while (std::getline(*in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto where = [&](std::size_t col) {
      return path + ":" + std::to_string(lineno) + ":" + std::to_string(col + 1);
    };
    std::size_t p = 0;
    const auto skip_ws = [&] { while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p; };
    skip_ws();
    if (p == line.size()) continue;         // blank line
    if (line[p] == '#') continue;           // comment line
    std::size_t b = p;
    while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
    const std::string label_tok = line.substr(b, p - b);
    if (label_tok.find(':') != std::string::npos)
      throw DataError(where(b) + ": missing label (line starts with '" + label_tok + "')");
    const double y = labels.apply(label_tok, where(b));
    idx.clear();
    val.clear();
    for (;;) {
      skip_ws();
      if (p == line.size() || line[p] == '#') break;
      b = p;
      while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
      const std::string_view tok(line.data() + b, p - b);
      const std::size_t colon = tok.find(':');
      if (colon == std::string_view::npos)
        throw DataError(where(b) + ": expected INDEX:VALUE, got '" + std::string(tok) + "'");
      long long ix = 0;
      const auto ir = std::from_chars(tok.data(), tok.data() + colon, ix);
      if (ir.ec != std::errc() || ir.ptr != tok.data() + colon)
        throw DataError(where(b) + ": non-numeric index '" + std::string(tok.substr(0, colon)) + "'");
      if (ix <= 0) throw DataError(where(b) + ": index " + std::to_string(ix) + " must be >= 1");
      if (ix > static_cast<long long>(UINT32_MAX)) throw DataError(where(b) + ": index too large");
      double v;
      if (!parse_double(tok.substr(colon + 1), v))
        throw DataError(where(b + colon + 1) + ": non-numeric value '" + std::string(tok.substr(colon + 1)) + "'");
      if (!std::isfinite(v))
        throw DataError(where(b + colon + 1) + ": value '" + std::string(tok.substr(colon + 1)) + "' is NaN or infinite");
      const auto j = static_cast<uint32_t>(ix - 1);
      if (!idx.empty() && j <= idx.back())
        throw DataError(where(b) + ": index " + std::to_string(ix) +
                        (j == idx.back() ? " duplicated" : " not strictly ascending") +
                        " (previous " + std::to_string(idx.back() + 1) + ")");
      if (v == 0.0) continue;  // explicit zeros (ijcnn1 has them) carry nothing
      idx.push_back(j);
      val.push_back(v);
    }
    double sq = 0.0;
    for (double v : val) sq += v * v;
    check_row_sqnorm(sq, path + ":" + std::to_string(lineno));
    sink(idx, val, y);
    ++rows;
  }
  if (in->bad()) throw DataError(path + ":" + std::to_string(lineno) + ": read error");
  if (rows == 0) throw DataError(path + ": empty file (no examples)");
}

Dataset load_libsvm(const std::string& path, const LabelMap& labels) {
  Dataset d;
  d.path = path;
  read_libsvm(path, labels, [&](auto i, auto v, double y) { d.push_back(i, v, y); });
  return d;
}

}  // namespace plab
