#include "experiments/trace.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include <map>

#include "algorithms/registry.hpp"
#include "datasets/dataset.hpp"
#include "datasets/text_parse.hpp"

namespace plab {
namespace {

// One accessor per column keeps writer and reader in step.
struct Column {
  std::string name;
  std::function<std::string(const RoundRecord&)> get;
  std::function<void(RoundRecord&, const std::string&)> set;
};

std::string fmt_real(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  return std::string(buf, r.ptr);
}
double parse_real(const std::string& s) {
  if (s.empty()) return kNone;
  double v;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) throw std::invalid_argument(s);
  return v;
}
int64_t parse_int(const std::string& s, int64_t empty) {
  if (s.empty()) return empty;
  int64_t v;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) throw std::invalid_argument(s);
  return v;
}
UpdateKind parse_kind(const std::string& s) {
  for (int k = 0; k <= static_cast<int>(UpdateKind::update); ++k)
    if (to_string(static_cast<UpdateKind>(k)) == s) return static_cast<UpdateKind>(k);
  throw std::invalid_argument(s);
}

#define PLAB_REAL(f) Column{#f, [](const RoundRecord& r) { return fmt_real(r.f); }, \
                            [](RoundRecord& r, const std::string& s) { r.f = parse_real(s); }}
#define PLAB_INT(f, empty) Column{#f, [](const RoundRecord& r) { \
    return r.f == (empty) ? std::string() : std::to_string(r.f); }, \
    [](RoundRecord& r, const std::string& s) { r.f = parse_int(s, empty); }}
#define PLAB_BOOL(f) Column{#f, [](const RoundRecord& r) { return std::string(r.f ? "1" : "0"); }, \
                            [](RoundRecord& r, const std::string& s) { r.f = parse_int(s, 0) != 0; }}

const std::vector<Column>& columns() {
  static const std::vector<Column> c = {
      PLAB_INT(t, INT64_MIN), PLAB_REAL(y), PLAB_REAL(score), PLAB_BOOL(mistake),
      Column{"update", [](const RoundRecord& r) { return std::string(to_string(r.update)); },
             [](RoundRecord& r, const std::string& s) { r.update = parse_kind(s); }},
      PLAB_INT(support_size, INT64_MIN), PLAB_INT(index, -1), PLAB_INT(pred, -1), PLAB_INT(competitor, -1),
      PLAB_REAL(kxx),
      PLAB_BOOL(margin_error), PLAB_REAL(f_norm2), PLAB_REAL(delta_norm), PLAB_REAL(pk2),
      PLAB_REAL(tau), PLAB_REAL(eta_t), PLAB_REAL(phi), PLAB_REAL(psi), PLAB_REAL(Q),
      PLAB_REAL(sigma_r), PLAB_REAL(f_r), PLAB_INT(removed, -1), PLAB_REAL(rho), PLAB_REAL(coef),
      PLAB_REAL(trunc_norm), PLAB_REAL(trunc_bound), PLAB_REAL(g)};
  return c;
}
#undef PLAB_REAL
#undef PLAB_INT
#undef PLAB_BOOL

}  // namespace

const std::vector<std::string>& trace_columns() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& c : columns()) n.push_back(c.name);
    return n;
  }();
  return names;
}

std::string trace_csv(const std::vector<RoundRecord>& rounds, const nlohmann::json& meta) {
  std::string out;
  if (!meta.is_null()) {
    nlohmann::json m = meta;
    m["rounds"] = rounds.size();  // the declared T that read_trace checks the rows against
    out += "# " + m.dump() + "\n";
  }
  const auto& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + cols[i].name;
  out += "\n";
  for (const auto& r : rounds) {
    for (std::size_t i = 0; i < cols.size(); ++i) {
      if (i) out += ',';
      out += cols[i].get(r);
    }
    out += '\n';
  }
  return out;
}

void write_trace(const std::string& path, const std::vector<RoundRecord>& rounds,
                 const nlohmann::json& meta) {
  write_file_atomic(path, trace_csv(rounds, meta));
}

namespace {

// Columns a trace must have to be evaluated, per bound family of the learner (algorithms/registry.hpp):
// a missing column would silently read as its default (no `mistake`: 0 mistakes, every bound
// "holds"; no `kxx`: false violations). `on_mistake`: filled on every mistake round by every
// learner of the family (a Perceptron trace under Projectron metadata has no delta_norm).
struct FamilyColumns {
  std::vector<std::string> columns, on_mistake;
};
const std::vector<std::string> kCommonColumns = {"t", "y", "score", "mistake", "update", "support_size"};
FamilyColumns family_columns(BoundFamily f) {
  switch (f) {
    case BoundFamily::perceptron:
    case BoundFamily::perceptron_prefix: return {{"kxx", "g", "f_norm2"}, {}};
    case BoundFamily::projectron: return {{"kxx", "g", "delta_norm", "pk2", "tau", "eta_t"}, {"delta_norm", "tau"}};
    case BoundFamily::projectron_pp:
      return {{"kxx", "g", "margin_error", "delta_norm", "pk2", "tau", "eta_t"}, {"delta_norm", "tau"}};
    case BoundFamily::forgetron: return {{"kxx", "g", "phi", "psi", "Q", "sigma_r", "f_r", "removed"}, {}};
    case BoundFamily::norma:
      return {{"kxx", "g", "margin_error", "f_norm2", "rho", "coef", "trunc_norm", "trunc_bound"}, {}};
  }
  return {};
}

void split_cells(const std::string& line, std::vector<std::string>& cells) {
  cells.clear();
  std::size_t pos = 0;
  for (;;) {
    const std::size_t c = line.find(',', pos);
    cells.push_back(line.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
    if (c == std::string::npos) break;
    pos = c + 1;
  }
}

}  // namespace

Trace read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(path + ": cannot open trace for reading");
  Trace tr;
  std::string line;
  std::size_t lineno = 0;
  std::vector<const Column*> order;
  std::vector<std::string> cells;
  std::map<std::string, std::size_t> position;  // column name -> index in the header
  FamilyColumns need;
  int64_t declared_T = 0;
  const auto fail = [&](const std::string& what) {
    throw DataError(path + ":" + std::to_string(lineno) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF
    if (lineno == 1) {  // the metadata line says what the rows must be (docs/inputs.md#trace-checks)
      if (line.rfind("# ", 0) != 0)
        fail("no metadata line (expected '# {json}' as written by plab run --trace; without it the algorithm, "
             "comparator and round count are unknown)");
      try { tr.meta = nlohmann::json::parse(line.substr(2)); } catch (const std::exception& e) {
        fail(std::string("metadata is not valid JSON: ") + e.what());
      }
      if (!tr.meta.is_object() || !tr.meta.contains("algo") || !tr.meta["algo"].is_string())
        fail("metadata has no \"algo\"");
      const std::string algo = tr.meta["algo"].get<std::string>();
      const LearnerInfo* info = find_learner(algo);
      if (!info) fail("unknown algorithm " + detail::quote(algo) + " in the metadata");
      if (!tr.meta.contains("rounds") || !tr.meta["rounds"].is_number_unsigned())
        fail("metadata has no \"rounds\" (the declared number of rounds T)");
      declared_T = tr.meta["rounds"].get<int64_t>();
      need.columns = kCommonColumns;
      for (BoundFamily f : info->bounds) {
        const FamilyColumns fc = family_columns(f);
        need.columns.insert(need.columns.end(), fc.columns.begin(), fc.columns.end());
        need.on_mistake.insert(need.on_mistake.end(), fc.on_mistake.begin(), fc.on_mistake.end());
      }
      continue;
    }
    if (line.empty()) fail("empty line");
    split_cells(line, cells);
    if (order.empty()) {  // header
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const Column* c = nullptr;
        for (const auto& col : columns()) if (col.name == cells[i]) c = &col;
        if (!c) fail("column " + std::to_string(i + 1) + ": unknown column " + detail::quote(cells[i]));
        if (!position.emplace(cells[i], i).second) fail("column " + std::to_string(i + 1) + ": duplicated column " + detail::quote(cells[i]));
        order.push_back(c);
      }
      if (cells[0] != "t") fail("column 1: header must start with column t");
      for (const auto& name : need.columns)
        if (!position.count(name))
          fail("missing column '" + name + "' (the bounds of " + tr.meta["algo"].get<std::string>() + " read it)");
      continue;
    }
    if (cells.size() != order.size())
      fail("expected " + std::to_string(order.size()) + " cells, got " + std::to_string(cells.size()));
    RoundRecord r;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      try { order[i]->set(r, cells[i]); } catch (const std::exception&) {
        fail("column '" + order[i]->name + "': bad value " + detail::quote(cells[i]));
      }
    }
    const auto cell_of = [&](const std::string& name) -> const std::string& { return cells[position.at(name)]; };
    for (const char* flag : {"mistake", "margin_error"})
      if (position.count(flag) && cell_of(flag) != "0" && cell_of(flag) != "1")
        fail(std::string("column '") + flag + "': expected 0 or 1, got " + detail::quote(cell_of(flag)));
    for (const char* real : {"y", "score"})
      if (cell_of(real).empty()) fail(std::string("column '") + real + "': empty");
    const int64_t want = static_cast<int64_t>(tr.rounds.size()) + 1;
    if (r.t != want)
      fail("column 't': round " + std::to_string(r.t) + " where round " + std::to_string(want) +
           " was expected (rounds must be 1, 2, ..., T in order)");
    if (r.t > declared_T)
      fail("column 't': round " + std::to_string(r.t) + " beyond the " + std::to_string(declared_T) +
           " rounds the metadata declares");
    if (r.mistake)
      for (const auto& name : need.on_mistake)
        if (cell_of(name).empty())
          fail("column '" + name + "': empty on a mistake round, but " + tr.meta["algo"].get<std::string>() +
               " records it on every mistake (rows of another algorithm?)");
    tr.rounds.push_back(r);
  }
  if (lineno == 0) throw DataError(path + ": empty trace");
  if (order.empty()) fail("no header line");
  if (static_cast<int64_t>(tr.rounds.size()) != declared_T)
    fail("the trace ends after " + std::to_string(tr.rounds.size()) + " rounds, but the metadata declares " +
         std::to_string(declared_T) + " (truncated file?)");
  return tr;
}

}  // namespace plab
