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
  if (!meta.is_null()) out += "# " + meta.dump() + "\n";
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

Trace read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open trace for reading");
  Trace tr;
  std::string line;
  std::size_t lineno = 0;
  std::vector<const Column*> order;
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(lineno) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    if (lineno == 1 && line.rfind("# ", 0) == 0) {
      try { tr.meta = nlohmann::json::parse(line.substr(2)); } catch (const std::exception& e) {
        fail(std::string("metadata is not valid JSON: ") + e.what());
      }
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    if (order.empty()) {
      for (const auto& name : cells) {
        const Column* c = nullptr;
        for (const auto& col : columns()) if (col.name == name) c = &col;
        if (!c) fail("unknown column '" + name + "'");
        order.push_back(c);
      }
      if (cells.empty() || cells[0] != "t") fail("header must start with column t");
      continue;
    }
    if (cells.size() != order.size())
      fail("expected " + std::to_string(order.size()) + " cells, got " + std::to_string(cells.size()));
    RoundRecord r;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      try { order[i]->set(r, cells[i]); } catch (const std::exception&) {
        fail("bad value '" + cells[i] + "' in column " + order[i]->name);
      }
    }
    tr.rounds.push_back(r);
  }
  if (order.empty()) fail("no header line (empty trace)");
  return tr;
}

}  // namespace plab
