#include "experiments/run/trace.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <map>

#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "bounds/bounds.hpp"
#include "config/recorded_options.hpp"
#include "datasets/dataset.hpp"
#include "core/format.hpp"
#include "core/json_text.hpp"
#include "datasets/text_parse.hpp"

namespace plab {
namespace {

// One accessor per column keeps writer and reader in step.
struct Column {
  std::string name;
  std::function<std::string(const RoundRecord&)> get;
  std::function<void(RoundRecord&, const std::string&)> set;
  bool real = false;  // a double field: a non-empty cell that reads as NaN or inf is non-finite
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
// Every integer column (t, support_size, index, pred, competitor, removed) counts from 0: a
// negative cell is no value it can hold (its "none" is the empty cell).
int64_t parse_int(const std::string& s, int64_t empty) {
  if (s.empty()) return empty;
  int64_t v;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0) throw std::invalid_argument(s);
  return v;
}
UpdateKind parse_kind(const std::string& s) {
  for (int k = 0; k <= static_cast<int>(UpdateKind::update); ++k)
    if (to_string(static_cast<UpdateKind>(k)) == s) return static_cast<UpdateKind>(k);
  throw std::invalid_argument(s);
}

#define PLAB_REAL(f) Column{#f, [](const RoundRecord& r) { return fmt_real(r.f); }, \
                            [](RoundRecord& r, const std::string& s) { r.f = parse_real(s); }, true}
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

namespace {
std::string header_line() {
  std::string out;
  const auto& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + cols[i].name;
  return out + "\n";
}
void append_row(std::string& out, const RoundRecord& r) {
  const auto& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (i) out += ',';
    out += cols[i].get(r);
  }
  out += '\n';
}
// The metadata line, with the declared T that read_trace checks the rows against.
std::string meta_line(const nlohmann::json& meta, std::size_t rounds) {
  nlohmann::json m = meta;
  m["rounds"] = rounds;
  return "# " + m.dump() + "\n";
}
}  // namespace

std::string trace_csv(const std::vector<RoundRecord>& rounds, const nlohmann::json& meta) {
  std::string out = meta.is_null() ? "" : meta_line(meta, rounds.size());
  out += header_line();
  for (const auto& r : rounds) append_row(out, r);
  return out;
}

namespace {
// Beside the trace (where a user can follow it); in the temporary folder for standard output, a
// FIFO or a device, whose folder may be /dev.
std::string rows_file(const std::string& path) {
  const std::string base = path == "-" || is_fifo_or_device(path)
                               ? (std::filesystem::temp_directory_path() / "plab-trace").string()
                               : path;
  return base + ".rows.tmp." + std::to_string(::getpid());
}
constexpr std::size_t kFlushRounds = 4096;
}  // namespace

TraceWriter::TraceWriter(const std::string& path)
    : path_(path), rows_path_(rows_file(path)), cleanup_(std::make_unique<RemovedOnSignal>(rows_path_)) {
  if (const auto parent = std::filesystem::path(rows_path_).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent);
  rows_.open(rows_path_, std::ios::binary | std::ios::trunc);
  if (!rows_) throw WriteError(rows_path_ + ": cannot open the trace's rows for writing");
  rows_ << header_line();
}

TraceWriter::~TraceWriter() {
  rows_.close();
  std::error_code ec;
  std::filesystem::remove(rows_path_, ec);
}

void TraceWriter::add(const RoundRecord& r) {
  line_.clear();
  append_row(line_, r);
  rows_ << line_;
  if (++count_ % kFlushRounds == 0) rows_.flush();
  if (!rows_) throw WriteError(rows_path_ + ": write failed (the trace's rows)");
}

void TraceWriter::finish(const nlohmann::json& meta) {
  rows_.close();
  if (!rows_) throw WriteError(rows_path_ + ": write failed (the trace's rows)");
  write_file_atomic(path_, meta_line(meta, count_), rows_path_);
}

void write_trace(const std::string& path, const std::vector<RoundRecord>& rounds,
                 const nlohmann::json& meta) {
  write_file_atomic(path, trace_csv(rounds, meta));
}

namespace {

// Columns a trace must have to be evaluated: those the bound families of the learner read
// (BoundFamilyInfo::columns, bounds/bound_ids.cpp). A missing column would silently read as its
// default (no `mistake`: 0 mistakes, every bound "holds"; no `kxx`: false violations).
struct FamilyColumns {
  std::vector<std::string> columns, on_mistake;
};
const std::vector<std::string> kCommonColumns = {"t", "y", "score", "mistake", "update", "support_size"};

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

// What the metadata says the rows must satisfy (docs/inputs.md#trace-invariants).
struct RowRules {
  bool multiclass = false;       // y is a class index, score = f_y - f_competitor
  bool binary_labels = true;     // y is -1 or +1 (not NORMA regression / novelty)
  unsigned mistake_kinds = 0, correct_kinds = 0;  // update kinds the learner makes there (0: any)
  bool counts_supports = false;  // support_size grows by one exactly on add/update rounds
  std::string algo;
  double g_norm = 0.0, kxx_max = kNone;
  // The learner's own rows (LearnerInfo::trace) and the metadata's values they are checked against.
  TraceRows own;
  bool fourier = false, rbf = false;
  double eta = kNone, lambda = 0.0, C = kNone, f_norm2_exact = kNone;
  int64_t budget = 0, features = 0;
};

RowRules row_rules(const LearnerInfo& info, const RunFacts& f) {
  RowRules r;
  r.multiclass = info.multiclass;
  // A learner's own task (NORMA's, docs/learners.md#norma): labels +-1 for classification; the
  // others classify.
  const nlohmann::json& own = f.options.own;
  const OptionDecl* task = info.own_row("task");
  r.binary_labels = !info.multiclass && (!task || own.value("task", task->default_value) == "classification");
  r.algo = info.name;
  // Every family's proof assumes its own update: a learner in two families makes what both allow.
  const auto meet = [](unsigned a, unsigned b) { return a == 0 ? b : b == 0 ? a : a & b; };
  for (BoundFamily b : info.bounds) {
    const BoundFamilyInfo& fam = bound_family(b);
    r.mistake_kinds = meet(r.mistake_kinds, fam.mistake_kinds);
    r.correct_kinds = meet(r.correct_kinds, fam.correct_kinds);
    r.counts_supports = r.counts_supports || fam.counts_supports;
  }
  r.mistake_kinds = meet(r.mistake_kinds, info.trace.mistake_kinds);  // the learner's own, within its families'
  r.correct_kinds = meet(r.correct_kinds, info.trace.correct_kinds);
  r.g_norm = f.g_norm;
  r.kxx_max = f.kxx_max;
  r.own = info.trace;
  r.fourier = info.fourier_features;
  // The online gradient learners' own eta, lambda and D (docs/learners.md#options); 0 where not
  // taken (NORMA's lambda is read too, but NORMA's rows do not shrink: TraceRows::shrinks).
  const auto own_real = [&](const char* name) {
    return info.own_row(name) && own.contains(name) ? own.at(name).get<double>() : 0.0;
  };
  r.eta = own_real("eta");
  r.lambda = own_real("lambda");
  r.C = own_value(info, f.options, "C", 1.0);  // PA-I's C: read on the rows of Step::pa, whose learners take it
  r.f_norm2_exact = f.f_norm2_exact;
  r.budget = static_cast<int64_t>(std::min<std::size_t>(own_value<std::size_t>(info, f.options, "budget", 0), INT64_MAX));
  r.features = info.own_row("features") && own.contains("features") ? static_cast<int64_t>(std::min<uint64_t>(own.at("features").get<uint64_t>(), INT64_MAX)) : 0;
  return r;
}

// The metadata's own numbers: norms are >= 0 (docs/inputs.md#trace-invariants).
std::string meta_contradiction(const RunFacts& f) {
  const auto neg = [](double v) { return v < 0.0; };
  if (neg(f.g_norm)) return "metadata \"comparator.norm\" = " + format_g(f.g_norm, 6) + ": a norm is >= 0";
  if (neg(f.kxx_max)) return "metadata \"r2\" = " + format_g(f.kxx_max, 6) + ": max k(x,x) is >= 0";
  if (neg(f.f_norm2_exact))
    return "metadata \"f_norm2_exact\" = " + format_g(f.f_norm2_exact, 6) + ": a squared norm is >= 0";
  return "";
}

// "add or update": the kinds of a mask, for messages.
std::string kinds_list(unsigned mask) {
  std::vector<std::string> names;
  for (int k = 0; k <= static_cast<int>(UpdateKind::update); ++k)
    if (mask & (1u << k)) names.emplace_back(to_string(static_cast<UpdateKind>(k)));
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

// The first invariant of one round that its own cells contradict, as "column 'c': what"
// ("" when none); non-finite values are left to the bounds, which give n/a
// (docs/inputs.md#trace-invariants).
std::string row_contradiction(const RoundRecord& r, const RowRules& k) {
  const auto g6 = [](double v) { return format_g(v, 17); };
  if (k.binary_labels && r.y != 1.0 && r.y != -1.0)
    return "column 'y': label " + g6(r.y) + " in a binary trace (labels are -1 or +1; a multiclass trace?)";
  if (k.multiclass && !(r.y >= 0.0 && r.y == std::floor(r.y)))
    return "column 'y': class " + g6(r.y) + " is not a class index 0, 1, 2, ...";
  if (r.kxx < 0.0) return "column 'kxx': k(x_t,x_t) = " + g6(r.kxx) + " < 0 (a kernel has k(x,x) >= 0)";
  const double ys = k.multiclass ? r.score : r.y * r.score;
  if ((k.binary_labels || k.multiclass) && std::isfinite(ys) && r.mistake != (ys <= 0.0))
    return std::string("column 'mistake': ") + (r.mistake ? "1" : "0") + " but " + (k.multiclass ? "score" : "y * score") +
           " = " + g6(ys) + (r.mistake ? " > 0" : " <= 0") + " (a mistake is y f(x_t) <= 0)";
  // Multiclass: a predicted class other than y (the first arg max of f) means f_y <= f_competitor.
  if (k.multiclass && r.pred >= 0 && std::isfinite(r.y) && static_cast<double>(r.pred) != r.y && !r.mistake)
    return "column 'pred': class " + std::to_string(r.pred) + " is not y = " + g6(r.y) +
           ", but 'mistake' is 0 (a wrong arg max is a mistake)";
  if (const unsigned allowed = r.mistake ? k.mistake_kinds : k.correct_kinds;
      allowed != 0 && (allowed & kinds_mask({r.update})) == 0)
    return "column 'update': " + std::string(to_string(r.update)) + " on a " + (r.mistake ? "mistake" : "correct") +
           " round, but " + k.algo + " makes " + kinds_list(allowed) + " there (rows of another algorithm?)";
  const double kxx = std::isnan(r.kxx) ? k.kxx_max : r.kxx;
  // Cauchy-Schwarz: |g(x)| <= ||g0|| sqrt(k(x,x)); multiclass margins: ||z_t|| = sqrt(2 k(x,x)).
  const double cs = k.g_norm * std::sqrt((k.multiclass ? 2.0 : 1.0) * kxx);
  if (std::isfinite(r.g) && std::isfinite(cs) && std::abs(r.g) > cs * (1.0 + 1e-6) + 1e-300)
    return "column 'g': |g(x_t)| = " + g6(std::abs(r.g)) + " exceeds ||g0|| sqrt(k(x_t,x_t)) = " + g6(cs) +
           " (metadata comparator norm " + g6(k.g_norm) + ")";
  return "";
}

// Relative agreement of a recomputed value with a written one (the writer's own arithmetic, read
// back from its shortest round-trip form: equal up to the order of a few roundings).
bool agrees(double written, double recomputed, double scale) {
  return std::abs(written - recomputed) <= 1e-9 * std::max(scale, std::abs(recomputed)) + 1e-300;
}

// What the declared learner's own rows must show beyond its bound families' rules
// (LearnerInfo::trace; docs/inputs.md#trace-invariants): kxx of the stated kernel, removal norms,
// steps, update kinds and support counts. `prev` is the round before (nullptr on round 1).
std::string learner_row_contradiction(const RoundRecord& r, const RoundRecord* prev, const RowRules& k) {
  const auto g = [](double v) { return format_g(v, 17); };
  const TraceRows& L = k.own;
  const std::string kind(to_string(r.update));
  if (k.fourier && r.kxx >= 0.0 && r.kxx != static_cast<double>(k.features))
    return "column 'kxx': " + g(r.kxx) + ", but " + k.algo + "'s k(x,x) is ||z(x)||^2 = D = options.features = " +
           std::to_string(k.features) + " on every round";
  if (!k.fourier && k.rbf && r.kxx >= 0.0 && r.kxx != 1.0)  // (a negative one: row_contradiction)
    return "column 'kxx': k(x_t,x_t) = " + g(r.kxx) + ", but the metadata's kernel is rbf, whose k(x,x) = 1";
  if (!std::isnan(r.delta_norm)) {
    if (r.delta_norm < 0.0) return "column 'delta_norm': " + g(r.delta_norm) + " < 0 (a norm is >= 0)";
    if ((L.delta_zero_kinds & (1u << static_cast<unsigned>(r.update))) && r.delta_norm != 0.0)
      return "column 'delta_norm': " + g(r.delta_norm) + " on a round with update " + kind + ", where " + k.algo +
             " removes nothing (0 by construction)";
  }
  if (!std::isnan(r.tau) && r.tau < 0.0) return "column 'tau': step " + g(r.tau) + " < 0";
  const double ys = r.y * r.score;
  if (L.step != TraceRows::Step::any) {
    if (std::isfinite(ys) && (ys < 1.0) == std::isnan(r.tau))
      return "column 'tau': " + (std::isnan(r.tau) ? "empty" : "step " + g(r.tau)) + " on a round with y f(x_t) = " +
             g(ys) + ", but " + k.algo + " steps exactly where y f(x_t) < 1 (the hinge loss is positive)";
    if (!std::isnan(r.tau) && r.update == UpdateKind::none)
      return "column 'update': none on a round with step tau = " + g(r.tau) + ", but a step changes f";
    if (!std::isnan(r.tau) && L.step == TraceRows::Step::eta && r.tau != k.eta)
      return "column 'tau': step " + g(r.tau) + ", but " + k.algo + " steps by options.eta = " + g(k.eta) +
             " (metadata) on every round it steps";
    if (!std::isnan(r.tau) && L.step == TraceRows::Step::pa) {
      if (!(r.tau > 0.0 && r.tau <= k.C))
        return "column 'tau': step " + g(r.tau) + " outside (0, C], C = options.C = " + g(k.C) + " (metadata)";
      const double want = r.kxx > 0.0 ? std::min(k.C, (1.0 - ys) / r.kxx) : k.C;
      if (std::isfinite(want) && !agrees(r.tau, want, 0.0))
        return "column 'tau': step " + g(r.tau) + ", but the PA-I step of this row is min(C, (1 - y f(x_t)) / k(x_t,x_t)) = " +
               g(want) + " (C = " + g(k.C) + ")";
    }
  }
  const int64_t before = prev ? prev->support_size : 0, after = r.support_size;
  if (L.no_supports && after != 0)
    return "column 'support_size': " + std::to_string(after) + ", but " + k.algo + " keeps no supports (its state is w)";
  if (L.budgeted) {
    const std::string rule = ", but " + k.algo + " adds one support on add below its budget " + std::to_string(k.budget) +
                             " (options.budget), evicts only at it and keeps the count otherwise (rows of another "
                             "algorithm?)";
    if (after > k.budget)
      return "column 'support_size': " + std::to_string(after) + " above the budget " + std::to_string(k.budget) +
             " (options.budget)";
    const bool at_budget = r.update == UpdateKind::evict || (L.update_at_budget && r.update == UpdateKind::update);
    const bool ok = r.update == UpdateKind::add ? before < k.budget && after == before + 1
                    : at_budget                 ? before == k.budget && after == before
                                                : after == before;
    if (!ok)
      return "column 'support_size': " + std::to_string(after) + " after " + std::to_string(before) +
             " on a round with update " + kind + rule;
  }
  if (L.shrinks && std::isfinite(ys)) {
    const double c = 1.0 - k.eta * k.lambda, f2 = prev ? prev->f_norm2 : 0.0;
    if (!(ys < 1.0)) {
      const bool shrink = before > 0 && c != 1.0;
      if ((r.update == UpdateKind::update) != shrink)
        return "column 'update': " + kind + " on a round with y f(x_t) = " + g(ys) + " >= 1 and " + std::to_string(before) +
               " supports, but " + k.algo + " with eta = " + g(k.eta) + ", lambda = " + g(k.lambda) +
               " (metadata) " + (shrink ? "shrinks f by 1 - eta lambda there (update)" : "leaves f unchanged there (none)");
      if (shrink && std::isfinite(f2) && std::isfinite(r.f_norm2) && !agrees(r.f_norm2, f2 * (c * c), 0.0))
        return "column 'f_norm2': " + g(r.f_norm2) + " after " + g(f2) + ", but a shrink by 1 - eta lambda = " + g(c) +
               " (metadata eta, lambda) gives " + g(f2 * (c * c));
    } else if (r.update == UpdateKind::add && std::isfinite(f2) && std::isfinite(r.f_norm2) && std::isfinite(r.kxx)) {
      const double a = k.eta * r.y, want = f2 * (c * c) + 2.0 * a * (r.score * c) + a * a * r.kxx;
      if (!agrees(r.f_norm2, want, std::abs(f2) + std::abs(2.0 * a * r.score) + a * a * r.kxx))
        return "column 'f_norm2': " + g(r.f_norm2) + " after " + g(f2) + ", but the step (1 - eta lambda) f + eta y k(x_t,.) " +
               "with eta = " + g(k.eta) + ", lambda = " + g(k.lambda) + " (metadata) gives " + g(want);
    }
  }
  return "";
}

}  // namespace

RunFacts trace_facts(const Trace& tr) {
  RunFacts f = facts_from_meta(tr.meta);
  f.bad_input = tr.non_finite;
  return f;
}

namespace {

// State of one read_trace: the metadata line fixes what the header and the rows must hold.
struct TraceReader {
  std::string path;
  std::size_t lineno = 0;
  Trace tr;
  std::vector<const Column*> order;
  std::vector<std::string> cells;
  std::map<std::string, std::size_t> position;  // column name -> index in the header
  FamilyColumns need;
  RowRules rules;
  int64_t declared_T = 0;
  TraceUse use = TraceUse::bounds;

  [[noreturn]] void fail(const std::string& what) const {
    throw DataError(path + ":" + std::to_string(lineno) + ": " + what);
  }
  const std::string& cell_of(const std::string& name) const { return cells[position.at(name)]; }
  const std::string& algo() const { return tr.meta["algo"].get_ref<const std::string&>(); }
  void metadata(const std::string& line);
  void header();
  void row();
  void support_growth(const RoundRecord& r) const;
};

// Line 1: the metadata says what the rows must be (docs/inputs.md#trace-checks).
void TraceReader::metadata(const std::string& line) {
  if (line.rfind("# ", 0) != 0)
    fail("no metadata line (expected '# {json}' as written by plab run --trace; without it the algorithm, "
         "comparator and round count are unknown)");
  try { tr.meta = parse_json(std::string_view(line).substr(2)); } catch (const JsonRefused& e) {
    fail(std::string("metadata: ") + e.what() + " (docs/inputs.md#json)");
  } catch (const std::exception& e) {
    fail("metadata is not valid JSON: " + json_error_text(e));
  }
  if (!tr.meta.is_object() || !tr.meta.contains("algo") || !tr.meta["algo"].is_string())
    fail("metadata has no \"algo\"");
  const bool no_norms = tr.meta.contains("norms_kept") && tr.meta["norms_kept"] == false;
  if (no_norms && use == TraceUse::bounds)
    fail("the run kept no f_norm2 or delta_norm (plab run --no-bounds skips what only the bounds read, "
         "docs/learners.md#bookkeeping): run it again with the bounds to evaluate them");
  const LearnerInfo* info = find_bounds_learner(algo());  // a registry name or "external"
  if (!info) fail("unknown algorithm " + detail::quote(algo()) + " in the metadata");
  if (!tr.meta.contains("rounds")) fail("metadata has no \"rounds\" (the declared number of rounds T)");
  const nlohmann::json& T = tr.meta["rounds"];
  if (!T.is_number_unsigned() || T.get<uint64_t>() == 0 || T.get<uint64_t>() > uint64_t{INT64_MAX})
    fail("metadata \"rounds\" (the declared number of rounds T) must be a whole number >= 1, got " + json_excerpt(T));
  declared_T = T.get<int64_t>();
  RunFacts facts;
  try { facts = facts_from_meta(tr.meta); } catch (const std::invalid_argument& e) { fail(e.what()); }
  if (const std::string bad = meta_contradiction(facts); !bad.empty()) fail(bad);
  rules = row_rules(*info, facts);
  if (tr.meta.contains("kernel")) {
    const nlohmann::json& kern = tr.meta["kernel"];
    if (!kern.is_object() || !kern.contains("type") || !kern["type"].is_string())
      fail("metadata \"kernel\" must be an object with a string \"type\", got " + json_excerpt(kern));
    try {  // by the kernel's own names, aliases included ("gaussian" is rbf)
      rules.rbf = Kernel::parse_type(kern["type"].get<std::string>()) == Kernel::Type::rbf;
    } catch (const std::invalid_argument&) {
      rules.rbf = false;  // a kernel not ours (an external learner's): k(x,x) is not known to be fixed
    }
  }
  need.columns = kCommonColumns;
  for (BoundFamily f : info->bounds) {
    const BoundFamilyInfo& fc = bound_family(f);
    need.columns.insert(need.columns.end(), fc.columns.begin(), fc.columns.end());
    need.on_mistake.insert(need.on_mistake.end(), fc.on_mistake.begin(), fc.on_mistake.end());
  }
  if (no_norms)  // TraceUse::curves: the cells only the bounds read are empty by design
    std::erase_if(need.on_mistake, [](const std::string& c) { return c == "f_norm2" || c == "delta_norm"; });
}

void TraceReader::header() {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Column* c = nullptr;
    for (const auto& col : columns()) if (col.name == cells[i]) c = &col;
    if (!c) fail("column " + std::to_string(i + 1) + ": unknown column " + detail::quote(cells[i]));
    if (!position.emplace(cells[i], i).second) fail("column " + std::to_string(i + 1) + ": duplicated column " + detail::quote(cells[i]));
    order.push_back(c);
  }
  if (cells[0] != "t") fail("column 1: header must start with column t");
  for (const auto& name : need.columns)
    if (!position.count(name)) fail("missing column '" + name + "' (the bounds of " + algo() + " read it)");
}

void TraceReader::row() {
  if (cells.size() != order.size())
    fail("expected " + std::to_string(order.size()) + " cells, got " + std::to_string(cells.size()));
  RoundRecord r;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    try { order[i]->set(r, cells[i]); } catch (const std::exception&) {
      fail("column '" + order[i]->name + "': bad value " + detail::quote(cells[i]));
    }
    // A written NaN or inf is a value, not an absent cell: the bounds give n/a naming it.
    if (order[i]->real && !cells[i].empty() && tr.non_finite.empty() && !std::isfinite(parse_real(cells[i])))
      tr.non_finite = path + ":" + std::to_string(lineno) + ": column '" + order[i]->name + "' = " + detail::quote(cells[i]);
  }
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
        fail("column '" + name + "': empty on a mistake round, but " + algo() +
             " records it on every mistake (rows of another algorithm?)");
  // The learner's own rules first: a kxx other than its kernel's would otherwise show as a
  // Cauchy-Schwarz fault of the comparator.
  // (Not once a cell holds a written nan or inf: every bound is then n/a naming it.)
  if (tr.non_finite.empty())
    if (const std::string bad = learner_row_contradiction(r, tr.rounds.empty() ? nullptr : &tr.rounds.back(), rules);
        !bad.empty())
      fail(bad);
  if (const std::string bad = row_contradiction(r, rules); !bad.empty()) fail(bad);
  if (rules.counts_supports) support_growth(r);
  tr.rounds.push_back(r);
}

// Perceptron and Projectron families: f_0 = 0 (a trace starts at round 1), a support joins on
// each add/update round and none ever leaves, so support_size steps by one exactly there.
void TraceReader::support_growth(const RoundRecord& r) const {
  const int64_t step = r.update == UpdateKind::add || r.update == UpdateKind::update ? 1 : 0;
  const int64_t before = tr.rounds.empty() ? 0 : tr.rounds.back().support_size;
  if (r.support_size != before + step)
    fail("column 'support_size': " + detail::quote(cell_of("support_size")) + " after " + std::to_string(before) +
         " on a round with update " + std::string(to_string(r.update)) + ", but " + rules.algo +
         " adds one support on each add/update round and removes none (rows of another algorithm?)");
}

// The next line of `in` without its newline, false at the end; `cut`: it ended the input without
// one. Read in pieces, so that a line of more than kMaxTraceLine bytes (a binary file, /dev/zero)
// is refused there rather than read into memory whole.
constexpr std::size_t kMaxTraceLine = std::size_t{64} << 20;
bool next_line(std::istream& in, std::string& line, bool& cut, const TraceReader& rd) {
  line.clear();
  char buf[1 << 14];
  for (;;) {
    in.getline(buf, sizeof buf);
    const bool full = in.fail() && !in.eof();  // the buffer filled before the newline
    const auto got = static_cast<std::size_t>(in.gcount());
    if (in.fail() && in.eof() && got == 0 && line.empty()) return false;
    line.append(buf, full || in.eof() ? got : got - 1);  // gcount counts the newline taken
    if (line.size() > kMaxTraceLine)
      throw DataError(rd.path + ":" + std::to_string(rd.lineno + 1) + ": the line is longer than " +
                      std::to_string(kMaxTraceLine >> 20) + " MiB (not a trace?)");
    if (!full) {
      cut = in.eof();
      return true;
    }
    in.clear();
  }
}

}  // namespace

Trace read_trace(const std::string& path, TraceUse use) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(path + ": cannot open trace for reading");
  TraceReader rd;
  rd.path = path;
  rd.use = use;
  std::string line;
  for (bool cut = false; next_line(in, line, cut, rd);) {
    ++rd.lineno;
    if (cut)  // plab run ends every line with one: a last line without it was cut short
      rd.fail("the last line has no newline (a file cut short?)");
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF
    if (rd.lineno == 1) {
      rd.metadata(line);
      continue;
    }
    if (line.empty()) rd.fail("empty line");
    split_cells(line, rd.cells);
    if (rd.order.empty()) rd.header();
    else rd.row();
  }
  if (rd.lineno == 0) throw DataError(path + ": empty trace");
  if (rd.order.empty()) rd.fail("no header line");
  if (static_cast<int64_t>(rd.tr.rounds.size()) != rd.declared_T)
    rd.fail("the trace ends after " + std::to_string(rd.tr.rounds.size()) + " rounds, but the metadata declares " +
            std::to_string(rd.declared_T) + " (truncated file?)");
  // The budget learners keep ||f||^2 as they go: the exact alpha^T K alpha of the metadata is the
  // last row's value up to the roundings of the run (docs/inputs.md#trace-invariants).
  const RowRules& k = rd.rules;
  if (k.own.step != TraceRows::Step::any && !rd.tr.rounds.empty() && rd.tr.non_finite.empty()) {
    const double last = rd.tr.rounds.back().f_norm2;
    if (std::isfinite(last) && std::isfinite(k.f_norm2_exact) &&
        std::abs(last - k.f_norm2_exact) > 1e-6 * std::max({1.0, std::abs(last), std::abs(k.f_norm2_exact)})) {
      rd.lineno = 1;
      rd.fail("metadata \"f_norm2_exact\" = " + format_g(k.f_norm2_exact, 17) + ", but the last round's f_norm2 is " +
              format_g(last, 17) + " (" + k.algo + " keeps ||f||^2 as it learns)");
    }
  }
  return std::move(rd.tr);
}

}  // namespace plab
