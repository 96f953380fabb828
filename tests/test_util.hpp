// Small helpers shared by the tests (not a test file itself: no test_ prefix match on .cpp).
#pragma once
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/learner.hpp"
#include "algorithms/registry.hpp"
#include "config/given_options.hpp"
#include "core/random.hpp"
#include "datasets/dataset.hpp"

namespace plab::test_util {

// The seed of a randomized test: PLAB_TEST_SEED when set, else `fallback`; printed, so that a failing
// run can be replayed.
inline uint64_t test_seed(uint64_t fallback) {
  const char* s = std::getenv("PLAB_TEST_SEED");
  const uint64_t seed = s ? std::strtoull(s, nullptr, 10) : fallback;
  std::printf("seed %llu (PLAB_TEST_SEED to replay)\n", static_cast<unsigned long long>(seed));
  return seed;
}

// a and b are the same double bit for bit (the sign of zero included).
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The 1-d sequences of docs/bounds.md#fixtures: (x, y) pairs.
inline Dataset seq1d(const std::vector<std::pair<double, double>>& s) {
  Dataset d;
  for (const auto& [x, y] : s) d.push_dense(std::vector<double>{x}, y);
  d.dim = 1;
  return d;
}

// T random points in [-1,1]^d labelled by a random hyperplane (normals of rng), a fraction `noise`
// of the labels flipped.
inline Dataset noisy_sequence(Rng& rng, int T, int d, double noise) {
  Dataset data;
  std::vector<double> u(static_cast<std::size_t>(d));
  for (double& v : u) v = rng.normal();
  for (int t = 0; t < T; ++t) {
    std::vector<double> x(static_cast<std::size_t>(d));
    for (double& v : x) v = 2 * rng.uniform() - 1;
    double m = 0.0;
    for (std::size_t j = 0; j < x.size(); ++j) m += x[j] * u[j];
    data.push_dense(x, (m > 0) == (rng.uniform() >= noise) ? 1.0 : -1.0);
  }
  data.dim = static_cast<std::size_t>(d);
  return data;
}

// The configuration step on options a test builds by hand (and expects refused, where it does):
// the own options of `o` the learner takes, the names in `given` (another learner's too) and the
// kernel go through configure_learner as plab run's flags would give them; dim, classes and
// record_norms are kept.
inline LearnerConfig configured(const std::string& algo, const LearnerOptions& o,
                                const std::vector<std::string>& given = {}) {
  const LearnerInfo& info = learner_info(algo);
  const auto named = [&](const std::string& k) { return std::find(given.begin(), given.end(), k) != given.end(); };
  GivenOptions g;
  g.spell = [](const std::string& k, const std::string& v) { return flag_spelling(k) + (v.empty() ? "" : " " + v); };
  for (const auto& [k, v] : o.own.items())
    if (info.uses(k) || named(k)) g.add(k, v, "", flag_spelling(k));
  for (const auto& k : given)
    if (!g.has(k) && !info.uses(k)) g.add(k, nullptr, "", flag_spelling(k));
  const nlohmann::json kernel = kernel_json_given(o.kernel);
  for (const auto& [k, v] : kernel.items()) g.add(k, v, "", flag_spelling(k));
  LearnerConfig c = configure_learner(algo, g);
  c.with_data(o.dim, o.classes).with_record_norms(o.record_norms);
  return c;
}

// make_learner after the configuration step (configured).
inline std::unique_ptr<Learner> configured_learner(const std::string& algo, const LearnerOptions& o,
                                                   const std::vector<std::string>& given = {}) {
  return make_learner(configured(algo, o, given));
}

// Feeds every example in order (t = 1..T) and returns the round records.
inline std::vector<RoundRecord> records(Learner& l, const Dataset& d) {
  std::vector<RoundRecord> out;
  out.reserve(d.size());
  for (std::size_t t = 0; t < d.size(); ++t) out.push_back(l.learn(d[t], static_cast<int64_t>(t + 1)));
  return out;
}

// A fresh directory under the system temporary directory, removed with the object.
struct TempDir {
  std::filesystem::path p;
  explicit TempDir(const std::string& tag) {
    p = std::filesystem::temp_directory_path() / ("plab_test_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
  }
  ~TempDir() { std::filesystem::remove_all(p); }
};

// A whole file as a string ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct CliResult {
  int status;
  std::string output;  // stdout + stderr
};

// The plab binary under test: PLAB_BIN_PATH from CMake, or $PLAB_BIN (another build).
inline std::string plab_bin() {
  const char* bin = std::getenv("PLAB_BIN");
  return bin ? bin : PLAB_BIN_PATH;
}

// Runs a shell command; its exit status and its stdout (add 2>&1 for stderr).
inline CliResult run_shell(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

// Runs the plab binary with `args` (stdout and stderr).
inline CliResult run_cli(const std::string& args) { return run_shell(plab_bin() + " " + args + " 2>&1"); }

// Editing a trace as its lines (metadata, header, rows), for the tests that damage one.
// A text's lines, without their ends.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
// The lines, each followed by `eol`.
inline std::string join(const std::vector<std::string>& ls, const std::string& eol = "\n") {
  std::string s;
  for (const auto& l : ls) s += l + eol;
  return s;
}
// The comma-separated cells of a trace line.
inline std::vector<std::string> trace_cells(const std::string& line) {
  std::vector<std::string> c;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t k = line.find(',', pos);
    c.push_back(line.substr(pos, k == std::string::npos ? std::string::npos : k - pos));
    if (k == std::string::npos) return c;
    pos = k + 1;
  }
}
// The lines with line `at`'s cell in column `col` (named by the header, line 1) set to `value`.
inline std::vector<std::string> with_cell(std::vector<std::string> ls, std::size_t at, const std::string& col,
                                          const std::string& value) {
  const auto h = trace_cells(ls[1]);
  auto c = trace_cells(ls[at]);
  c.at(static_cast<std::size_t>(std::find(h.begin(), h.end(), col) - h.begin())) = value;
  std::string row;
  for (std::size_t i = 0; i < c.size(); ++i) row += (i ? "," : "") + c[i];
  ls[at] = row;
  return ls;
}
// The lines with the metadata's value at JSON pointer `pointer` set to v.
inline std::vector<std::string> with_meta(std::vector<std::string> ls, const std::string& pointer, const nlohmann::json& v) {
  auto meta = nlohmann::json::parse(ls[0].substr(2));
  meta[nlohmann::json::json_pointer(pointer)] = v;
  ls[0] = "# " + meta.dump();
  return ls;
}

// The trace cut after round t, as if the run had stopped there: metadata "rounds" = t and no
// "f_norm2_exact" (the final hypothesis's norm; a cut run's is its last row's f_norm2).
inline std::vector<std::string> trace_prefix(const std::vector<std::string>& ls, std::size_t t) {
  std::vector<std::string> out(ls.begin(), ls.begin() + static_cast<std::ptrdiff_t>(2 + t));
  auto meta = nlohmann::json::parse(out[0].substr(2));
  meta["rounds"] = t;
  meta.erase("f_norm2_exact");
  out[0] = "# " + meta.dump();
  return out;
}

}  // namespace plab::test_util
