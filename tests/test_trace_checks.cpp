// `plab bounds --trace` believes no trace it cannot check (docs/inputs.md#trace-checks): each
// damaged copy of a real trace (written by plab run) is refused with file, line and column.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"
#include "experiments/trace.hpp"
#include "tests/test_util.hpp"

namespace fs = std::filesystem;
using plab::test_util::TempDir;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
std::string join(const std::vector<std::string>& ls, const std::string& eol = "\n") {
  std::string s;
  for (const auto& l : ls) s += l + eol;
  return s;
}
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> c;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t k = line.find(',', pos);
    c.push_back(line.substr(pos, k == std::string::npos ? std::string::npos : k - pos));
    if (k == std::string::npos) return c;
    pos = k + 1;
  }
}
// The trace without column `name` (header and every row).
std::vector<std::string> drop_column(std::vector<std::string> ls, const std::string& name) {
  const auto h = cells(ls[1]);
  const std::size_t at = static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
  for (std::size_t i = 1; i < ls.size(); ++i) {
    auto c = cells(ls[i]);
    c.erase(c.begin() + static_cast<long>(at));
    std::string s;
    for (std::size_t k = 0; k < c.size(); ++k) s += (k ? "," : "") + c[k];
    ls[i] = s;
  }
  return ls;
}

class TraceChecks : public ::testing::Test {
 protected:
  static inline TempDir* dir = nullptr;
  static inline std::vector<std::string> perceptron, projectron;  // lines of two real traces, T = 60
  static std::vector<std::string> make(const std::string& algo) {
    const std::string p = (dir->p / (algo + ".csv")).string();
    const auto r = plab::test_util::run_cli("run --algo " + algo +
                                            " --data synthetic:dekel:n=60,seed=2 --kernel rbf --gamma 1 --quiet --trace " + p);
    EXPECT_EQ(r.status, 0) << r.output;
    return lines_of(plab::test_util::read_text(p));
  }
  static void SetUpTestSuite() {
    dir = new TempDir("trace_checks");
    perceptron = make("kernel-perceptron");
    projectron = make("projectron");
  }
  static void TearDownTestSuite() { delete dir; }

  std::string write(const std::string& name, const std::string& text) {
    const auto p = (dir->p / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  // read_trace refuses the file with every piece in its message.
  void refused(const std::string& name, const std::string& text, std::vector<std::string> pieces) {
    const std::string p = write(name, text);
    try {
      plab::read_trace(p);
      ADD_FAILURE() << name << ": accepted";
    } catch (const plab::DataError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(p + ":", 0), 0u) << m;
      for (const auto& s : pieces) EXPECT_NE(m.find(s), std::string::npos) << "'" << s << "' not in: " << m;
    }
  }
};

}  // namespace

TEST_F(TraceChecks, GoodTracesAreReadWithTheirDeclaredRounds) {
  ASSERT_EQ(perceptron.size(), 62u);  // metadata, header, 60 rows
  const auto meta = nlohmann::json::parse(perceptron[0].substr(2));
  EXPECT_EQ(meta.at("rounds").get<int>(), 60);
  EXPECT_EQ(plab::read_trace(write("ok.csv", join(perceptron))).rounds.size(), 60u);
  EXPECT_EQ(plab::read_trace(write("okp.csv", join(projectron))).rounds.size(), 60u);
}

TEST_F(TraceChecks, CutAtARowBoundary) {
  const std::vector<std::string> cut(perceptron.begin(), perceptron.begin() + 22);
  refused("cut.csv", join(cut), {":22: ", "ends after 20 rounds", "declares 60"});
}

TEST_F(TraceChecks, MissingColumnsTheBoundsRead) {
  for (const std::string col : {"mistake", "y", "update", "score", "kxx"})
    refused("no_" + col + ".csv", join(drop_column(perceptron, col)), {":2: ", "missing column '" + col + "'"});
  refused("no_delta.csv", join(drop_column(projectron, "delta_norm")), {":2: ", "missing column 'delta_norm'", "projectron"});
}

TEST_F(TraceChecks, MetadataMissingOrUnknownAlgorithm) {
  refused("nometa.csv", join({perceptron.begin() + 1, perceptron.end()}), {":1: ", "no metadata line"});
  auto meta = nlohmann::json::parse(perceptron[0].substr(2));
  meta["algo"] = "nosuch";
  auto ls = perceptron;
  ls[0] = "# " + meta.dump();
  refused("unknown.csv", join(ls), {":1: ", "unknown algorithm 'nosuch'"});
  meta.erase("algo");
  ls[0] = "# " + meta.dump();
  refused("noalgo.csv", join(ls), {":1: ", "no \"algo\""});
  meta = nlohmann::json::parse(perceptron[0].substr(2));
  meta.erase("rounds");
  ls[0] = "# " + meta.dump();
  refused("norounds.csv", join(ls), {":1: ", "no \"rounds\""});
}

TEST_F(TraceChecks, DuplicatedReversedAndExtraRows) {
  auto dup = perceptron;
  dup.insert(dup.begin() + 12, dup[11]);  // round 10 twice: the copy is line 13
  refused("dup.csv", join(dup), {":13: ", "column 't'", "round 10 where round 11 was expected"});
  std::vector<std::string> rev(perceptron.begin(), perceptron.begin() + 2);
  rev.insert(rev.end(), perceptron.rbegin(), perceptron.rend() - 2);
  refused("rev.csv", join(rev), {":3: ", "round 60 where round 1 was expected"});
  auto extra = perceptron;
  auto last = cells(extra.back());
  last[0] = "61";
  std::string row;
  for (std::size_t k = 0; k < last.size(); ++k) row += (k ? "," : "") + last[k];
  extra.push_back(row);
  refused("extra.csv", join(extra), {":63: ", "round 61 beyond the 60 rounds"});
}

TEST_F(TraceChecks, PerceptronRowsUnderProjectronMetadata) {
  auto ls = perceptron;
  ls[0] = projectron[0];
  refused("mixed.csv", join(ls), {"column 'delta_norm': empty on a mistake round", "projectron"});
}

TEST_F(TraceChecks, BadCellsNameLineAndColumn) {
  auto ls = perceptron;
  auto c = cells(ls[5]);  // round 3
  c[3] = "2";             // mistake
  std::string row;
  for (std::size_t k = 0; k < c.size(); ++k) row += (k ? "," : "") + c[k];
  ls[5] = row;
  refused("flag.csv", join(ls), {":6: ", "column 'mistake': expected 0 or 1, got '2'"});
  ls = perceptron;
  c = cells(ls[4]);
  c[2] = std::string(500, 'z');  // score
  row.clear();
  for (std::size_t k = 0; k < c.size(); ++k) row += (k ? "," : "") + c[k];
  ls[4] = row;
  refused("score.csv", join(ls), {":5: ", "column 'score': bad value 'zzz", "(500 characters)"});
}

TEST_F(TraceChecks, CrlfTraceReadsAsLf) {
  const auto lf = plab::read_trace(write("lf.csv", join(projectron)));
  const auto crlf = plab::read_trace(write("crlf.csv", join(projectron, "\r\n")));
  ASSERT_EQ(crlf.rounds.size(), lf.rounds.size());
  for (std::size_t t = 0; t < lf.rounds.size(); ++t) {
    EXPECT_EQ(crlf.rounds[t].score, lf.rounds[t].score);
    EXPECT_EQ(crlf.rounds[t].mistake, lf.rounds[t].mistake);
    EXPECT_EQ(std::isnan(crlf.rounds[t].g), std::isnan(lf.rounds[t].g));
    if (!std::isnan(lf.rounds[t].g)) {
      EXPECT_EQ(crlf.rounds[t].g, lf.rounds[t].g);
    }
  }
  EXPECT_EQ(crlf.meta, lf.meta);
}

TEST_F(TraceChecks, CliExitsNonZeroNamingFileAndLine) {
  const std::vector<std::string> cut(perceptron.begin(), perceptron.begin() + 40);
  const std::string p = write("cli_cut.csv", join(cut));
  const auto r = plab::test_util::run_cli("bounds --trace " + p);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(p + ":40: the trace ends after 38 rounds"), std::string::npos) << r.output;
  const auto ok = plab::test_util::run_cli("bounds --trace " + write("cli_ok.csv", join(perceptron, "\r\n")));
  EXPECT_EQ(ok.status, 0) << ok.output;
}
