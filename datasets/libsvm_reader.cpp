// Strict streaming LIBSVM reader and the shared label mapping.
#include <filesystem>
#include <cerrno>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include <immintrin.h>

#include "core/huge_pages.hpp"
#include "datasets/readers.hpp"
#include "datasets/row_arrivals.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

namespace {
bool parse_double(std::string_view s, double& out) { return detail::parse_double_token(s, out); }
}  // namespace

double LabelMap::apply(const std::string& tok, const Where& where) const {
  if (regression) {
    double v;
    if (!parse_double(tok, v) || !std::isfinite(v))
      throw DataError(where() + ": label " + detail::quote(tok) + " is not a finite number");
    return v;
  }
  if (map.empty() && !others) {
    if (tok == "+1" || tok == "1" || tok == "1.0" || tok == "+1.0") return 1.0;
    if (tok == "-1" || tok == "-1.0" || tok == "0" || tok == "0.0") return -1.0;
    throw DataError(where() + ": unknown label " + detail::quote(tok) +
                    " (binary files use +1/1/1.0 and -1/-1.0/0; map others with --labels)");
  }
  const auto it = map.find(tok);
  if (it != map.end()) return it->second;
  if (others) return *others;
  throw DataError(where() + ": label " + detail::quote(tok) + " is not in the label map");
}

double LabelReader::apply(const std::string& tok, const Where& where) {
  const double y = map_.apply(tok, where);
  if (!map_.map.empty() || map_.others || map_.regression || y > 0) return y;
  // Default binary spellings: -1 and 0 are both "negative"; seeing both means three label values.
  const bool zero = tok == "0" || tok == "0.0";
  if (neg_tok_.empty()) { neg_tok_ = tok; neg_where_ = where(); return y; }
  const bool first_zero = neg_tok_ == "0" || neg_tok_ == "0.0";
  if (zero != first_zero)
    throw DataError(where() + ": label " + detail::quote(tok) + " after label " + detail::quote(neg_tok_) + " at " +
                    neg_where_ + ": the file has a third label value (a binary file uses -1 or 0 for the "
                    "negative class, not both); map the labels explicitly with --labels, e.g. 1:+1,*:-1");
  return y;
}

LabelMap LabelMap::parse(const std::string& spec, const std::string& option) {
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
      throw std::invalid_argument((option.empty() ? "" : option + ": ") + "bad item '" + item +
                                  "' (expected TOKEN:+1 or TOKEN:-1, '*' for the rest)");
    const std::string key = item.substr(0, colon);
    // A token mapped twice (or '*' given twice) would leave its class to the order of the items.
    if (key == "*" ? m.others.has_value() : m.map.count(key) > 0)
      throw std::invalid_argument((option.empty() ? "" : option + ": ") + "'" + key + "' is mapped twice (in '" +
                                  spec + "'): give each token once");
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

namespace {

// The INDEX:VALUE pairs of `line` from position p on (up to the end or a '#' comment), into idx
// (0-based, strictly ascending) and val (explicit zeros dropped); `where(col)` names a column.
template <class WhereCol>
void parse_features(const std::string& line, std::size_t p, const WhereCol& where, std::vector<uint32_t>& idx,
                    std::vector<double>& val) {
  idx.clear();
  val.clear();
  for (;;) {
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    if (p == line.size() || line[p] == '#') return;
    const std::size_t b = p;
    while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
    const std::string_view tok(line.data() + b, p - b);
    const std::size_t colon = tok.find(':');
    if (colon == std::string_view::npos)
      throw DataError(where(b) + ": expected INDEX:VALUE, got " + detail::quote(tok));
    long long ix = 0;
    const auto ir = std::from_chars(tok.data(), tok.data() + colon, ix);
    if (ir.ec == std::errc::result_out_of_range && ir.ptr == tok.data() + colon)
      throw DataError(where(b) + ": index " + detail::quote(tok.substr(0, colon)) + " too large");
    if (ir.ec != std::errc() || ir.ptr != tok.data() + colon)
      throw DataError(where(b) + ": non-numeric index " + detail::quote(tok.substr(0, colon)));
    if (ix <= 0) throw DataError(where(b) + ": index " + std::to_string(ix) + " must be >= 1");
    if (ix > static_cast<long long>(UINT32_MAX)) throw DataError(where(b) + ": index too large");
    double v;
    if (detail::parse_number(tok.substr(colon + 1), v) != detail::Number::ok || !std::isfinite(v))
      throw DataError(where(b + colon + 1) + ": " + detail::bad_value(tok.substr(colon + 1), v));
    const auto j = static_cast<uint32_t>(ix - 1);
    if (!idx.empty() && j <= idx.back())
      throw DataError(where(b) + ": index " + std::to_string(ix) +
                      (j == idx.back() ? " duplicated" : " not strictly ascending") +
                      " (previous " + std::to_string(idx.back() + 1) + ")");
    if (v == 0.0) continue;  // explicit zeros (ijcnn1 has them) carry nothing
    idx.push_back(j);
    val.push_back(v);
  }
}

// The common case of parse_features in one pass: tokens INDEX:VALUE separated by blanks, decimal
// indices 1..2^32-1 strictly ascending, values that fast_decimal takes, over [c, end), appended to
// idx and val. Returns false, with some of them appended, on anything else (comments, junk, a value
// needing from_chars, an error), and parse_features then reads the line again and decides: the
// same result, or its error.
template <class IdxVec, class ValVec>
bool fast_features(const char* c, const char* const end, IdxVec& idx, ValVec& val) {
  int64_t prev = 0;
  for (;;) {
    while (c != end && (*c == ' ' || *c == '\t')) ++c;
    if (c == end) return true;
    int64_t ix = 0;
    const char* const b = c;
    for (; c != end && static_cast<unsigned>(*c - '0') < 10u && c - b < 11; ++c) ix = ix * 10 + (*c - '0');
    if (c == b || c == end || *c != ':' || ix <= prev || ix > static_cast<int64_t>(UINT32_MAX)) return false;
    double x;
    if (!detail::fast_decimal_to_blank(c + 1, end, c, x)) return false;
    prev = ix;
    if (x == 0.0) continue;  // explicit zeros carry nothing
    idx.push_back(static_cast<uint32_t>(ix - 1));
    val.push_back(x);
  }
}

}  // namespace

bool parse_libsvm_line(const std::string& line, const std::string& path, std::size_t lineno, LabelReader& labels,
                       std::vector<uint32_t>& idx, std::vector<double>& val, double& y) {
  const auto where = [&](std::size_t col) {
    return path + ":" + std::to_string(lineno) + ":" + std::to_string(col + 1);
  };
  std::size_t p = 0;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  if (p == line.size() || line[p] == '#') return false;  // blank or comment line
  const std::size_t b = p;
  while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
  const std::string label_tok = line.substr(b, p - b);
  if (label_tok.find(':') != std::string::npos)
    throw DataError(where(b) + ": missing label (line starts with " + detail::quote(label_tok) + ")");
  y = labels.apply(label_tok, [&] { return where(b); });
  idx.clear();
  val.clear();
  if (!fast_features(line.data() + p, line.data() + line.size(), idx, val)) parse_features(line, p, where, idx, val);
  double sq = 0.0;
  for (double v : val) sq += v * v;
  if (!row_sqnorm_ok(sq, !val.empty())) check_row_sqnorm(sq, path + ":" + std::to_string(lineno), !val.empty());
  return true;
}

namespace {
// The file's size when it is stored uncompressed (0 otherwise: a compressed file's rows are not
// known from its size).
std::size_t plain_file_bytes(const std::string& path) {
  for (const std::string ext : {".gz", ".bz2", ".xz"})
    if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0) return 0;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return 0;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<std::size_t>(n);
}
}  // namespace

namespace {
// A label token read the strict way and its value: the same token gives the same value (and
// LabelReader nothing new to check), so later rows with it skip the reader.
struct SeenLabel {
  std::string tok;
  double y;
};
constexpr std::size_t kSeenLabels = 8;  // a binary file has 2; a regression file misses and is read strictly

std::string_view label_token(std::string_view line) {
  std::size_t b = 0;
  while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
  std::size_t e = b;
  while (e < line.size() && line[e] != ' ' && line[e] != '\t') ++e;
  return line.substr(b, e - b);
}

// A row of the common shape appended to d in place: a label token seen before, then features
// fast_features takes, with a squared norm row_sqnorm_ok accepts. False, with d as it was, on
// anything else (a blank or comment line too): the caller reads the line strictly
// (parse_libsvm_line), which gives the same row or the error. In place, the row skips the line's
// copy, the staging vectors and Dataset::push_back's second pass over it.
bool fast_row(std::string_view line, const std::vector<SeenLabel>& seen, Dataset& d) {
  const std::string_view tok = label_token(line);
  const SeenLabel* label = nullptr;
  for (const SeenLabel& l : seen)
    if (l.tok == tok) label = &l;
  if (tok.empty() || !label) return false;
  auto& idx = d.idx.owned();
  auto& val = d.val.owned();
  const std::size_t nnz = idx.size();
  const auto undo = [&] {
    idx.resize(nnz);
    val.resize(nnz);
    return false;
  };
  if (!fast_features(tok.data() + tok.size(), line.data() + line.size(), idx, val)) return undo();
  double s = 0.0;  // in index order, as parse_libsvm_line and Dataset::push_back sum it
  for (std::size_t k = nnz; k < val.size(); ++k) s += val[k] * val[k];
  const bool nonzero = val.size() > nnz;  // explicit zeros were dropped
  if (!row_sqnorm_ok(s, nonzero)) return undo();
  if (nonzero && idx.back() + std::size_t{1} > d.dim) d.dim = idx.back() + std::size_t{1};
  d.rowptr.push_back(idx.size());
  d.y.push_back(label->y);
  d.sqnorm.push_back(s);
  return true;
}
}  // namespace

namespace {
// 1 + the newlines of `text`, and its ':' bytes: upper bounds of the rows and values it holds.
std::pair<std::size_t, std::size_t> count_lines_and_colons(std::string_view text) {
  std::size_t lines = 1, colons = 0, i = 0;
#ifdef __AVX2__
  const __m256i nl = _mm256_set1_epi8('\n'), colon = _mm256_set1_epi8(':');
  for (; i + 32 <= text.size(); i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text.data() + i));
    lines += static_cast<std::size_t>(std::popcount(static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nl)))));
    colons += static_cast<std::size_t>(std::popcount(static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, colon)))));
  }
#endif
  for (; i < text.size(); ++i) {
    lines += text[i] == '\n';
    colons += text[i] == ':';
  }
  return {lines, colons};
}

// Room for every row and value `text` can hold, so that the arrays never move while a learner
// reads them: a row takes at least 2 bytes ("1\n"), a value at least 4 (" 1:1"). Reserving touches
// no page; where the system refuses that much address space, the newlines and ':' are counted
// (a pass over the text before the first row).
void reserve_every_row(Dataset& d, std::string_view text) {
  try {
    d.reserve(text.size() / 2 + 1, text.size() / 4 + 1);
    return;
  } catch (const std::bad_alloc&) {
  }
  const auto [lines, colons] = count_lines_and_colons(text);
  d.reserve(lines, colons);
}
}  // namespace

Dataset load_libsvm(const std::string& path, const LabelMap& labels, RowArrivals* arrivals) {
  Dataset d;
  d.path = path;
  // After the first rows the arrays are reserved for the rows the file's size implies (10% to
  // spare): growing by doubling copied them and touched twice their pages, a third of loading
  // ijcnn1 on a VM where a page fault is dear. Reserving touches no page; a short guess only
  // means one more growth.
  const std::size_t file_bytes = plain_file_bytes(path);
  if (labels.classes) arrivals = nullptr;  // load_dataset rewrites every label at the end
  // The arrays take up to ~3 bytes a byte of text (a9a: "j:1 " per value). A learner that takes
  // the rows as they come does not wait for this: the arrays' pages are faulted in behind it.
  if (!arrivals) warm_heap(3 * file_bytes);
  constexpr std::size_t kSample = 512;
  std::size_t text = 0;  // bytes of the lines read so far, newlines included
  constexpr std::size_t kPublish = 32;  // rows between two publishes (a block is 96)
  const auto added = [&] {
    if (arrivals) {  // reserved whole: never grown while a learner reads the rows
      if (d.size() % kPublish) return;
      if (d.size() == kPublish)  // what the learner reserves for its round records
        arrivals->expected = static_cast<std::size_t>(1.1 * kPublish * static_cast<double>(file_bytes) / static_cast<double>(text));
      arrivals->publish(d);
      return;
    }
    if (file_bytes == 0 || d.size() != kSample || text == 0) return;
    const double rows = 1.1 * static_cast<double>(kSample) * static_cast<double>(file_bytes) / static_cast<double>(text);
    const double nnz = rows * static_cast<double>(d.idx.size()) / static_cast<double>(kSample);
    d.reserve(static_cast<std::size_t>(rows), static_cast<std::size_t>(nnz));
  };
  try {
    InputFile in(path, arrivals ? 2 : 1);  // a learner reading the rows as they come keeps a core busy
    LabelReader label_reader(labels);
    std::vector<SeenLabel> seen;
    std::string line;
    std::vector<uint32_t> idx;
    std::vector<double> val;
    // One line the strict way (the only way for a stream or a compressed file).
    const auto strict = [&] {
      double y = 0.0;
      if (!parse_libsvm_line(line, path, in.lineno(), label_reader, idx, val, y)) return;
      d.push_back(idx, val, y);
      const std::string_view tok = label_token(line);
      bool known = false;
      for (const SeenLabel& l : seen) known = known || l.tok == tok;
      if (!known && seen.size() < kSeenLabels) seen.push_back({std::string(tok), y});
      added();
    };
    if (!in.mapped()) arrivals = nullptr;  // handed over whole when read (BackgroundLoad)
    if (arrivals) reserve_every_row(d, in.mapping());
    if (in.mapped()) {
      std::string_view v;
      while (in.next_view(v)) {
        text += v.size() + 1;
        if (fast_row(v, seen, d)) {
          added();
          continue;
        }
        line.assign(v);
        strict();
      }
    } else {
      while (in.getline(line)) {
        text += line.size() + 1;
        strict();
      }
    }
    if (arrivals && d.size() > 0) arrivals->publish(d);
    if (d.size() == 0) throw DataError(path + ": empty file (no examples)");
    d.sha256 = in.sha256();
  } catch (const std::bad_alloc&) {
    const auto e = out_of_memory(d, path);
    if (arrivals) arrivals->keep(std::move(d));
    throw e;
  } catch (...) {
    if (arrivals) arrivals->keep(std::move(d));  // rows handed over may still be in a learner's hands
    throw;
  }
  return d;
}

}  // namespace plab
