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

#include "algorithms/registry.hpp"
#include "bounds/bounds.hpp"
#include "datasets/dataset.hpp"
#include "experiments/run/trace.hpp"
#include "tests/test_util.hpp"

namespace fs = std::filesystem;
using plab::test_util::TempDir;

namespace {

using plab::test_util::join;
using plab::test_util::lines_of;
std::vector<std::string> cells(const std::string& line) { return plab::test_util::trace_cells(line); }
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

// --- Traces that contradict themselves, non-finite cells, metadata types
// (docs/inputs.md#trace-invariants): each damaged copy is refused, never accepted with exit 0.
namespace {

using plab::test_util::with_cell;
using plab::test_util::with_meta;
// The first trace line (index into the lines, >= 2) whose round has mistake == m.
std::size_t line_with_mistake(const std::vector<std::string>& ls, bool m) {
  const auto h = cells(ls[1]);
  const auto k = static_cast<std::size_t>(std::find(h.begin(), h.end(), "mistake") - h.begin());
  for (std::size_t i = 2; i < ls.size(); ++i)
    if (cells(ls[i])[k] == (m ? "1" : "0")) return i;
  throw std::runtime_error("no such round");
}
std::string at_line(std::size_t i) { return ":" + std::to_string(i + 1) + ": "; }

}  // namespace

TEST_F(TraceChecks, LabelsOfABinaryTraceAreMinusOneOrOne) {
  for (const std::string y : {"0.5", "2", "0"})
    refused("y" + y + ".csv", join(with_cell(perceptron, 7, "y", y)),
            {":8: ", "column 'y': label " + y + " in a binary trace"});
}

TEST_F(TraceChecks, MistakeFlagMustAgreeWithTheRowsOwnScore) {
  const std::size_t m = line_with_mistake(perceptron, true), ok = line_with_mistake(perceptron, false);
  refused("flip1.csv", join(with_cell(perceptron, m, "mistake", "0")), {at_line(m), "column 'mistake': 0 but y * score"});
  refused("flip0.csv", join(with_cell(perceptron, ok, "mistake", "1")), {at_line(ok), "column 'mistake': 1 but y * score"});
}

TEST_F(TraceChecks, NegativeKernelDiagonalAndNorms) {
  refused("kxx.csv", join(with_cell(perceptron, 9, "kxx", "-1")), {":10: ", "column 'kxx'", "< 0"});
  refused("gnorm.csv", join(with_meta(perceptron, "/comparator/norm", -1.0)), {":1: ", "comparator.norm", ">= 0"});
  refused("fexact.csv", join(with_meta(perceptron, "/f_norm2_exact", -2.0)), {":1: ", "f_norm2_exact", ">= 0"});
}

// |g(x_t)| <= ||g0|| sqrt(k(x_t,x_t)): a norm of 0 (or far too small) next to non-zero scores.
TEST_F(TraceChecks, ComparatorNormInconsistentWithTheGColumn) {
  refused("g0.csv", join(with_meta(perceptron, "/comparator/norm", 0.0)), {":3: ", "column 'g'", "exceeds ||g0||"});
  refused("gbig.csv", join(with_cell(perceptron, 4, "g", "-1e308")), {":5: ", "column 'g'"});
}

TEST_F(TraceChecks, ProjectronPlusPlusMistakeWithoutUpdate) {
  const std::string p = (dir->p / "pp.csv").string();
  const auto r = plab::test_util::run_cli("run --algo projectron++ --data synthetic:dekel:n=60,seed=2 --kernel rbf "
                                          "--gamma 1 --eta 0.3 --quiet --trace " + p);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto pp = lines_of(plab::test_util::read_text(p));
  const std::size_t m = line_with_mistake(pp, true);
  refused("ppnone.csv", join(with_cell(pp, m, "update", "none")), {at_line(m), "column 'update': none on a mistake"});
}

TEST_F(TraceChecks, MulticlassTraceRelabelledAsBinary) {
  const std::string data = (dir->p / "three.svm").string(), p = (dir->p / "mc.csv").string();
  std::ofstream(data) << "1 1:1 2:0.1\n2 1:-1 2:0.2\n3 2:1\n1 1:0.9\n2 1:-0.8 2:0.1\n3 1:0 2:1.2\n";
  std::ofstream(data, std::ios::app) << "1 1:1.1\n2 1:-1.2\n3 2:0.9\n";
  const auto r = plab::test_util::run_cli("run --algo multiclass-perceptron --data " + data + " --quiet --trace " + p);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto mc = lines_of(plab::test_util::read_text(p));
  EXPECT_EQ(plab::read_trace(write("mc_ok.csv", join(mc))).rounds.size(), 9u);
  // Relabelled with the options the Perceptron takes (none): its metadata's owners are checked first.
  refused("mc_as_binary.csv", join(with_meta(with_meta(mc, "/algo", "perceptron"), "/options", nlohmann::json::object())),
          {"column 'y'", "in a binary trace"});
  refused("mc_as_binary_opts.csv", join(with_meta(mc, "/algo", "perceptron")),
          {":1: ", "trace metadata: options: update_rule is not an option of perceptron"});
  // A correct row whose predicted class is made another than y: a wrong arg max is a mistake.
  const std::size_t ok = line_with_mistake(mc, false);
  const std::string y = cells(mc[ok])[1], other = y == "0" ? "1" : "0";
  refused("mc_pred.csv", join(with_cell(mc, ok, "pred", other)), {at_line(ok), "column 'pred': class " + other});
}

// Item 4: a written nan is a value, not an absent cell: every row n/a naming line and column.
TEST_F(TraceChecks, NonFiniteCellGivesNotApplicableNamingTheLine) {
  for (const std::string col : {"kxx", "g", "score"}) {
    const std::string p = write("nan_" + col + ".csv", join(with_cell(perceptron, 11, col, "nan")));
    const auto tr = plab::read_trace(p);
    const auto rs = plab::evaluate_bounds(tr.rounds, plab::trace_facts(tr));
    EXPECT_FALSE(plab::any_hard_violation(rs));
    for (const auto& b : rs) {
      EXPECT_FALSE(b.applicable) << col << " " << b.id;
      EXPECT_NE(b.why_not.find(p + ":12: column '" + col + "' = 'nan'"), std::string::npos) << b.why_not;
    }
    const auto cli = plab::test_util::run_cli("bounds --trace " + p + " --strict");
    EXPECT_EQ(cli.status, 0) << cli.output;
    EXPECT_EQ(cli.output.find("VIOLATED"), std::string::npos) << cli.output;
  }
}

// Item 6: metadata of the wrong type escaped as nlohmann::json::type_error, exit 1.
TEST_F(TraceChecks, MetadataOfTheWrongTypeIsTypedAndLocated) {
  refused("cname.csv", join(with_meta(perceptron, "/comparator/name", 1.0)), {":1: ", "\"comparator.name\" must be a string, got 1.0"});
  refused("cnorm.csv", join(with_meta(perceptron, "/comparator/norm", "big")), {":1: ", "\"comparator.norm\" must be a number"});
  refused("cobj.csv", join(with_meta(perceptron, "/comparator", 3)), {":1: ", "\"comparator\" must be an object"});
  refused("r2.csv", join(with_meta(perceptron, "/r2", nlohmann::json::array())), {":1: ", "\"r2\" must be a number"});
  refused("opts.csv", join(with_meta(perceptron, "/options", "x")), {":1: ", "\"options\" must be an object"});
  const auto cli = plab::test_util::run_cli("bounds --trace " + write("cli_cname.csv", join(with_meta(perceptron, "/comparator/name", 1.0))));
  EXPECT_EQ(cli.status, 2) << cli.output;
}

// A run that did not recompute ||f_T||^2 (a learner without bounds, a run without them) writes
// "f_norm2_exact": null; its trace is read (was: refused, "must be a number, got null").
TEST_F(TraceChecks, NullExactNormMeansNotRecomputed) {
  for (const std::string run : {"--algo pa1", "--algo kernel-perceptron --no-bounds"}) {
    const std::string p = (dir->p / "null_exact.csv").string();
    const auto r = plab::test_util::run_cli("run " + run + " --data synthetic:dekel:n=60,seed=2 --kernel rbf --quiet --trace " + p);
    ASSERT_EQ(r.status, 0) << r.output;
    ASSERT_TRUE(nlohmann::json::parse(lines_of(plab::test_util::read_text(p))[0].substr(2)).at("f_norm2_exact").is_null());
    EXPECT_EQ(plab::read_trace(p).rounds.size(), 60u) << run;
    const auto b = plab::test_util::run_cli("bounds --trace " + p);
    EXPECT_EQ(b.status, 0) << run << b.output;
  }
  refused("exact_str.csv", join(with_meta(perceptron, "/f_norm2_exact", "x")), {":1: ", "\"f_norm2_exact\" must be a number"});
}

// A Projectron++ trace relabelled `algo: perceptron`: its project / margin_project rows are updates
// the Perceptron never makes, so the Perceptron's bounds are not evaluated on it (was: accepted, 12
// rows "hold").
TEST_F(TraceChecks, ProjectronPlusPlusRelabelledAsPerceptron) {
  const std::string p = (dir->p / "pp_as_p.csv").string();
  const auto r = plab::test_util::run_cli("run --algo projectron++ --data synthetic:dekel:n=200,seed=2 --kernel rbf "
                                          "--gamma 1 --eta 0.3 --quiet --trace " + p);
  ASSERT_EQ(r.status, 0) << r.output;
  auto pp = lines_of(plab::test_util::read_text(p));
  // The first row the Perceptron could not have written: one whose update is not add or none.
  const auto h = cells(pp[1]);
  const auto k = static_cast<std::size_t>(std::find(h.begin(), h.end(), "update") - h.begin());
  std::size_t first = 0;
  for (std::size_t i = 2; i < pp.size() && !first; ++i)
    if (cells(pp[i])[k] != "add" && cells(pp[i])[k] != "none") first = i;
  ASSERT_NE(first, 0u) << "the run made no projection: pick another eta";
  const std::string kind = cells(pp[first])[k];
  // The primal Perceptron's own kernel, so that its rows are what is refused (its kernel: KernelOfARegisteredLearnerIsChecked).
  const auto as_p = with_meta(with_meta(with_meta(pp, "/algo", "perceptron"), "/options", nlohmann::json::object()),
                              "/kernel/type", "linear");
  refused("pp_as_p.csv", join(as_p), {at_line(first), "column 'update': " + kind, "but perceptron makes"});
  const std::string q = write("pp_as_p_cli.csv", join(as_p));
  const auto cli = plab::test_util::run_cli("bounds --trace " + q);
  EXPECT_EQ(cli.status, 2) << cli.output;
  EXPECT_NE(cli.output.find(q + at_line(first) + "column 'update'"), std::string::npos) << cli.output;
  EXPECT_EQ(cli.output.find("holds"), std::string::npos) << cli.output;
}

// The Perceptron adds one support on each mistake and none otherwise: a support count that does not
// step so is another learner's (a budget learner's evictions, a Projectron's projections).
TEST_F(TraceChecks, PerceptronSupportsGrowByOnePerMistake) {
  const std::size_t m = line_with_mistake(perceptron, true), ok = line_with_mistake(perceptron, false);
  const auto size_at = [&](std::size_t i) {
    const auto h = cells(perceptron[1]);
    return std::stoll(cells(perceptron[i])[static_cast<std::size_t>(std::find(h.begin(), h.end(), "support_size") - h.begin())]);
  };
  refused("sv_stays.csv", join(with_cell(perceptron, m, "support_size", std::to_string(size_at(m) - 1))),
          {at_line(m), "column 'support_size'", "adds one support on each add/update round"});
  refused("sv_grows.csv", join(with_cell(perceptron, ok, "support_size", std::to_string(size_at(ok) + 1))),
          {at_line(ok), "column 'support_size'"});
  refused("sv_neg.csv", join(with_cell(perceptron, 2, "support_size", "-1")), {":3: ", "column 'support_size'"});
  refused("sv_first.csv", join(with_cell(perceptron, 2, "support_size", "5")), {":3: ", "column 'support_size': '5' after 0"});
  refused("p_add_ok.csv", join(with_cell(perceptron, ok, "update", "add")), {at_line(ok), "column 'update': add on a correct round"});
}

// Every learner whose family fixes its update kinds writes traces that satisfy them.
TEST_F(TraceChecks, LearnersWithFixedUpdateKindsReadBackTheirOwnTraces) {
  for (const std::string algo : {"perceptron", "kernel-perceptron", "averaged-perceptron", "voted-perceptron",
                                  "projectron", "projectron++"}) {
    const std::string t = (dir->p / (algo + "_own.csv")).string();
    const std::string kern = algo == "perceptron" ? "" : " --kernel rbf --gamma 1";
    const auto a = plab::test_util::run_cli("run --algo " + algo + " --data synthetic:dekel:n=80,seed=3" + kern +
                                            " --quiet --trace " + t);
    ASSERT_EQ(a.status, 0) << algo << a.output;
    EXPECT_EQ(plab::read_trace(t).rounds.size(), 80u) << algo;
  }
}

// Every binary learner with bounds: the trace `plab run` writes passes every check of `plab bounds
// --trace` (Cauchy-Schwarz on g included: FOGD's kxx is its feature space's ||z||^2).
TEST_F(TraceChecks, EveryLearnerWithBoundsReadsBackItsOwnTrace) {
  for (const plab::LearnerInfo& L : plab::learners()) {
    if (L.multiclass || L.bounds.empty()) continue;
    const std::string t = (dir->p / (L.name + "_bounds.csv")).string();
    std::string kern = L.name == "perceptron" ? "" : " --kernel rbf --gamma 1";  // the primal one: linear
    if (L.uses("budget")) kern += " --budget 20";
    const auto a = plab::test_util::run_cli("run --algo " + L.name + " --data synthetic:dekel:n=80,seed=3" + kern +
                                            " --quiet --trace " + t);
    ASSERT_EQ(a.status, 0) << L.name << a.output;
    const auto b = plab::test_util::run_cli("bounds --trace " + t);
    EXPECT_EQ(b.status, 0) << L.name << b.output;
  }
}


// A trace cut inside its last row still parses as a row (the cell "-0.5" cut to "-0"): plab run
// ends every line with a newline, so a last line without one is refused, wherever the cut falls.
TEST_F(TraceChecks, LastLineWithoutItsNewlineIsACutFile) {
  const std::string whole = join(perceptron);
  for (const std::size_t cut : {1, 2, 5, 8, 18})
    refused("cut" + std::to_string(cut) + ".csv", whole.substr(0, whole.size() - cut), {":62: ", "no newline"});
  EXPECT_EQ(plab::read_trace(write("whole.csv", whole)).rounds.size(), 60u);
}

TEST_F(TraceChecks, RoundsMustBeAWholeNumberOfOneOrMore) {
  for (const nlohmann::json& bad : {nlohmann::json(60.0), nlohmann::json(60.5), nlohmann::json("60"), nlohmann::json(-60),
                                    nlohmann::json(0)})
    refused("rounds.csv", join(with_meta(perceptron, "/rounds", bad)),
            {":1: ", "\"rounds\" (the declared number of rounds T) must be a whole number >= 1, got " + bad.dump()});
}

// The kernel of a learner of ours is checked as plab run checks it; an external learner's is not.
TEST_F(TraceChecks, KernelOfARegisteredLearnerIsChecked) {
  refused("ktype.csv", join(with_meta(perceptron, "/kernel/type", "foo")), {":1: ", "kernel.type", "'foo'"});
  refused("kgamma.csv", join(with_meta(perceptron, "/kernel/gamma", -5.0)), {":1: ", "kernel.gamma must be > 0"});
  refused("kextra.csv", join(with_meta(perceptron, "/kernel/sigma", 1.0)), {":1: ", "kernel.sigma: not a kernel option"});
  const std::string p = (dir->p / "primal.csv").string();
  const auto r = plab::test_util::run_cli("run --algo perceptron --data synthetic:dekel:n=20,seed=2 --quiet --trace " + p);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto primal = lines_of(plab::test_util::read_text(p));
  EXPECT_EQ(plab::read_trace(p).rounds.size(), 20u);
  refused("krbf.csv", join(with_meta(primal, "/kernel/type", "rbf")), {":1: ", "rbf is not a kernel of perceptron (it takes linear)"});
  EXPECT_EQ(plab::read_trace(write("kpoly.csv", join(with_meta(perceptron, "/kernel/type", "poly")))).rounds.size(), 60u);
}

TEST_F(TraceChecks, NegativeIntegerCellsAreRefused) {
  const auto h = cells(perceptron[1]);
  for (const std::string col : {"index", "support_size"}) {
    const auto k = static_cast<std::size_t>(std::find(h.begin(), h.end(), col) - h.begin());
    auto ls = perceptron;
    auto c = cells(ls[4]);
    c[k] = "-5";
    std::string row;
    for (std::size_t i = 0; i < c.size(); ++i) row += (i ? "," : "") + c[i];
    ls[4] = row;
    refused("neg_" + col + ".csv", join(ls), {":5: ", "column '" + col + "': bad value '-5'"});
  }
}

TEST_F(TraceChecks, MetadataGivingAKeyTwiceIsRefused) {
  auto ls = perceptron;
  ls[0] = "# {\"rounds\":99," + ls[0].substr(3);
  refused("dupkey.csv", join(ls), {":1: ", "gives the key 'rounds' twice"});
}
