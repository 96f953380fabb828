// Hostile inputs that their readers must refuse, naming file and field (docs/inputs.md): JSON nested
// past the depth limit in every reader, budget-learner traces that contradict their learner, model
// states their learner cannot have, counts out of range.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"
#include "core/state_archive.hpp"
#include "datasets/dataset.hpp"
#include "experiments/run/trace.hpp"
#include "experiments/spec/spec.hpp"
#include "config/recorded_options.hpp"
#include "models/model_file.hpp"
#include "tests/test_util.hpp"

namespace hostile_test {

using plab::test_util::run_cli;
using plab::test_util::TempDir;

std::string deep(std::size_t n) { return std::string(n, '[') + std::string(n, ']'); }

std::string write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// --- model files: the content after the first line, re-signed after an edit ---
struct Model {
  nlohmann::json header;
  std::vector<plab::StateArray> arrays;
};
Model read_model_parts(const std::string& bytes) {
  const std::string content = bytes.substr(bytes.find('\n') + 1);
  const std::size_t nl = content.find('\n');
  Model m;
  m.header = nlohmann::json::parse(content.substr(0, nl));
  std::size_t off = nl + 1;
  for (const auto& e : m.header["arrays"]) {
    plab::StateArray a;
    a.name = e[0].get<std::string>();
    a.type = static_cast<plab::StateType>(e[1].get<std::string>()[0]);
    a.count = e[2].get<std::size_t>();
    const std::size_t size = a.type == plab::StateType::u32 ? 4 : 8;
    a.bytes = content.substr(off, a.count * size);
    off += a.bytes.size();
    m.arrays.push_back(a);
  }
  return m;
}
std::string model_file(const Model& m, const std::string& header_text = "") {
  std::string content = (header_text.empty() ? m.header.dump() : header_text) + "\n";
  for (const auto& a : m.arrays) content += a.bytes;
  return "plab-model format 1 bytes " + std::to_string(content.size()) + " sha256 " + plab::sha256_hex(content) + "\n" +
         content;
}
plab::StateArray& array_of(Model& m, const std::string& name) {
  for (auto& a : m.arrays)
    if (a.name == name) return a;
  throw std::runtime_error("no array " + name);
}
template <class T>
void set_value(Model& m, const std::string& name, std::size_t i, T v) {
  std::memcpy(array_of(m, name).bytes.data() + sizeof(T) * i, &v, sizeof(T));
}
template <class T>
T value_of(Model& m, const std::string& name, std::size_t i) {
  T v;
  std::memcpy(&v, array_of(m, name).bytes.data() + sizeof(T) * i, sizeof(T));
  return v;
}
// parse_model + restore_learner refuse the bytes with every piece in the message.
void model_refused(const std::string& bytes, const std::vector<std::string>& pieces) {
  try {
    (void)plab::restore_learner(plab::parse_model(bytes, "m.plab"), 0);
    ADD_FAILURE() << "accepted; expected '" << pieces.front() << "'";
  } catch (const plab::ModelError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("m.plab: ", 0), 0u) << msg;
    for (const auto& p : pieces) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    EXPECT_LT(msg.size(), 600u) << msg.substr(0, 600);
  }
}

class Hostile : public ::testing::Test {
 protected:
  static inline TempDir* dir = nullptr;
  static void SetUpTestSuite() { dir = new TempDir("hostile_inputs"); }
  static void TearDownTestSuite() { delete dir; }
  static std::string path(const std::string& name) { return (dir->p / name).string(); }
  // The bytes of a model plab run saves.
  static std::string saved(const std::string& name, const std::string& args) {
    const std::string p = path(name);
    const auto r = run_cli("run " + args + " --data synthetic:dekel:n=300,seed=2 --quiet --no-bounds --save-model " + p);
    EXPECT_EQ(r.status, 0) << r.output;
    return plab::test_util::read_text(p);
  }
  // The lines of a trace plab run writes.
  static std::vector<std::string> trace(const std::string& name, const std::string& args) {
    const std::string p = path(name);
    const auto r = run_cli("run " + args + " --data synthetic:dekel:n=300,seed=2 --quiet --trace " + p);
    EXPECT_EQ(r.status, 0) << r.output;
    std::vector<std::string> out;
    std::istringstream in(plab::test_util::read_text(p));
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
};

// --- 1. JSON nested past the depth limit -------------------------------------------------------

TEST(JsonDepth, TheScannerNamesTheFieldAndSkipsStrings) {
  EXPECT_EQ(plab::json_depth_fault(R"({"a": [[1, 2], {"b": "[[[[[[["}]})", 3), "");
  const std::string f = plab::json_depth_fault(R"({"x": 1, "options": {"deep": [0, [[[[1]]]]]}})", 4);
  EXPECT_NE(f.find("field 'options.deep'"), std::string::npos) << f;
  const std::string g = plab::json_depth_fault(R"({"a": [{"b": [[[[1]]]]}]})", 4);
  EXPECT_NE(g.find("field 'a[0].b'"), std::string::npos) << g;
  EXPECT_NE(f.find("deeper than 4 levels"), std::string::npos) << f;
  EXPECT_EQ(plab::json_depth_fault(deep(plab::kMaxJsonDepth)), "");
  EXPECT_NE(plab::json_depth_fault(deep(plab::kMaxJsonDepth + 1)), "");
  EXPECT_THROW(plab::parse_json(deep(100000)), plab::JsonTooDeep);
  const std::string huge = plab::json_excerpt(nlohmann::json(std::string(100000, 'x')));
  EXPECT_LT(huge.size(), 140u);
  EXPECT_NE(huge.find("(100002 characters)"), std::string::npos) << huge;
}

TEST_F(Hostile, DeepJsonInAModelHeaderIsRefusedNamingFileAndField) {
  Model m = read_model_parts(saved("deep.plab", "--algo rbp --kernel rbf --gamma 1 --budget 10"));
  std::string text = m.header.dump();
  const std::string key = "\"labels\":\"\"";
  ASSERT_NE(text.find(key), std::string::npos) << text;
  text.replace(text.find(key), key.size(), "\"labels\":" + deep(100000));
  const std::string bytes = model_file(m, text);
  model_refused(bytes, {"header: field 'labels", "deeper than 64 levels"});
  const std::string p = write_file(dir->p / "deep_labels.plab", bytes);
  for (const std::string& cmd : {"model show " + p, "predict --model " + p + " --data synthetic:dekel:n=5",
                                "run --init-model " + p + " --data synthetic:dekel:n=5 --quiet"}) {
    const auto r = run_cli(cmd);
    EXPECT_EQ(r.status, 2) << cmd << "\n" << r.output.substr(0, 400);
    EXPECT_NE(r.output.find(p + ": header: field 'labels"), std::string::npos) << r.output.substr(0, 400);
    EXPECT_LT(r.output.size(), 2000u);
  }
  // A wide value (not deep) in a wrong-typed field is echoed cut short.
  std::string wide = m.header.dump();
  wide.replace(wide.find(key), key.size(), "\"labels\":[" + std::string(50000, '1') + "]");
  try {
    (void)plab::parse_model(model_file(m, wide), "m.plab");
    ADD_FAILURE() << "accepted";
  } catch (const plab::ModelError& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u) << std::string(e.what()).substr(0, 300);
    EXPECT_NE(std::string(e.what()).find("characters)"), std::string::npos) << e.what();
  }
}

TEST_F(Hostile, DeepJsonInTraceMetadataAndSpecsIsRefused) {
  auto ls = trace("deep.csv", "--algo kernel-perceptron --kernel rbf --gamma 1");
  ASSERT_GT(ls.size(), 2u);
  ls[0] = "# {\"algo\": \"kernel-perceptron\", \"notes\": " + deep(100000) + ", " + ls[0].substr(3);
  std::string text;
  for (const auto& l : ls) text += l + "\n";
  const std::string p = write_file(dir->p / "deep_meta.csv", text);
  try {
    (void)plab::read_trace(p);
    ADD_FAILURE() << "accepted";
  } catch (const plab::DataError& e) {
    EXPECT_NE(std::string(e.what()).find(p + ":1: metadata: field 'notes"), std::string::npos) << e.what();
  }
  const auto r = run_cli("bounds --trace " + p);
  EXPECT_EQ(r.status, 2) << r.output.substr(0, 400);
  EXPECT_NE(r.output.find("field 'notes"), std::string::npos) << r.output.substr(0, 400);

  const std::string spec = write_file(dir->p / "deep_spec.json", "{\"name\": " + deep(100000) + "}");
  try {
    (void)plab::load_spec(spec, false);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(spec + ": field 'name"), std::string::npos) << e.what();
  }
}

// --- 3. Budget-learner traces that contradict their learner ------------------------------------

using plab::test_util::trace_cells;
std::size_t column(const std::vector<std::string>& ls, const std::string& name) {
  const auto h = trace_cells(ls[1]);
  return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
}
using plab::test_util::with_cell;
using plab::test_util::with_meta;
// The first row (index into the lines) whose cell `col` is non-empty and, when `kind` is given,
// whose update is `kind`.
std::size_t row_with(const std::vector<std::string>& ls, const std::string& col, const std::string& kind = "") {
  const std::size_t k = column(ls, col), u = column(ls, "update");
  for (std::size_t i = 2; i < ls.size(); ++i) {
    const auto c = trace_cells(ls[i]);
    if (!c[k].empty() && (kind.empty() || c[u] == kind)) return i;
  }
  throw std::runtime_error("no row with " + col + " " + kind);
}
std::string cell(const std::vector<std::string>& ls, std::size_t at, const std::string& col) {
  return trace_cells(ls[at]).at(column(ls, col));
}

class BudgetTraces : public Hostile {
 protected:
  static inline std::vector<std::string> bogd, bogd0, fogd, bpa, nogd;
  static void SetUpTestSuite() {
    Hostile::SetUpTestSuite();
    bogd = trace("bogd.csv", "--algo bogd --kernel rbf --gamma 1 --budget 30");
    bogd0 = trace("bogd0.csv", "--algo bogd --kernel rbf --gamma 1 --budget 30 --ogd-lambda 0");
    fogd = trace("fogd.csv", "--algo fogd --kernel rbf --gamma 1");
    bpa = trace("bpa.csv", "--algo bpa-s --kernel rbf --gamma 1 --budget 30");
    nogd = trace("nogd.csv", "--algo nogd --kernel rbf --gamma 1 --budget 30 --rank 10");
  }
  // plab bounds --trace refuses the lines: exit 2, the file and line in the message (with every piece).
  void refused(const std::string& name, const std::vector<std::string>& ls, std::vector<std::string> pieces) {
    std::string text;
    for (const auto& l : ls) text += l + "\n";
    const std::string p = write_file(dir->p / name, text);
    try {
      (void)plab::read_trace(p);
      ADD_FAILURE() << name << ": accepted";
    } catch (const plab::DataError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(p + ":", 0), 0u) << m;
      for (const auto& s : pieces) EXPECT_NE(m.find(s), std::string::npos) << name << ": '" << s << "' not in: " << m;
    }
    const auto r = run_cli("bounds --trace " + p);
    EXPECT_EQ(r.status, 2) << name << "\n" << r.output.substr(0, 600);
  }
};

TEST_F(BudgetTraces, EveryBudgetLearnerReadsBackItsOwnTrace) {
  for (const std::string args : {"--algo bogd++ --budget 30", "--algo bpa-nn --budget 30", "--algo nogd --budget 5 --rank 3",
                                  "--algo bogd --budget 1", "--algo fogd --features 7"}) {
    const std::string p = path("own.csv");
    const auto a = run_cli("run " + args + " --kernel rbf --gamma 1 --data synthetic:dekel:n=300,seed=4 --quiet --trace " + p);
    ASSERT_EQ(a.status, 0) << args << a.output;
    const auto b = run_cli("bounds --trace " + p);
    EXPECT_EQ(b.status, 0) << args << "\n" << b.output.substr(0, 600);
  }
  for (const auto* ls : {&bogd, &bogd0, &fogd, &bpa, &nogd}) {
    std::string text;
    for (const auto& l : *ls) text += l + "\n";
    EXPECT_NO_THROW((void)plab::read_trace(write_file(dir->p / "again.csv", text)));
  }
}

TEST_F(BudgetTraces, AnotherLearnersRowsAreRefused) {
  // Relabelled with options the new learner takes: the metadata's owners are checked first.
  refused("fogd_as_bogd.csv", with_meta(with_meta(fogd, "/algo", "bogd"), "/options", {{"budget", 30}}), {"column "});
  refused("bogd_as_fogd.csv", with_meta(with_meta(bogd, "/algo", "fogd"), "/options", nlohmann::json::object()), {});
  refused("bpa_as_bogd.csv", with_meta(with_meta(bpa, "/algo", "bogd"), "/options", {{"budget", 30}}), {"column 'tau'"});
  refused("bpa_as_bogd_opts.csv", with_meta(bpa, "/algo", "bogd"), {"trace metadata: options: C is not an option of bogd"});
  refused("bogd_as_bpa.csv", with_meta(with_meta(bogd, "/algo", "bpa-s"), "/options", {{"budget", 30}, {"C", 1.0}}),
          {"column 'tau'", "PA-I step"});
  const std::size_t s = row_with(bogd, "tau", "add");
  refused("project.csv", with_cell(bogd, s, "update", "project"), {"rows of another algorithm?"});
}

TEST_F(BudgetTraces, StepsAgainstTheMetadataAreRefused) {
  const std::size_t s = row_with(bogd, "tau");
  const double eta = std::stod(cell(bogd, s, "tau"));
  for (const double f : {10.0, 0.1, -1.0})
    refused("tau.csv", with_cell(bogd, s, "tau", plab::format_g(eta * f, 17)),
            {":" + std::to_string(s + 1) + ": ", "column 'tau'"});
  refused("eta.csv", with_meta(bogd, "/options/eta", 0.25), {"column 'tau'", "eta = 0.25"});
  const std::size_t b = row_with(bpa, "tau");
  refused("bpa_tau.csv", with_cell(bpa, b, "tau", "7"), {"column 'tau'", "outside (0, C]"});
  refused("bpa_tau_neg.csv", with_cell(bpa, b, "tau", "-0.5"), {"column 'tau'"});
}

// A trace written before the online gradient learners' options were renamed (ogd_eta, ogd_lambda,
// ogd_cap, docs/learners.md#options) reads as before; an old and a new name of one option together
// contradict each other.
TEST_F(BudgetTraces, EarlierOptionNamesAreRead) {
  nlohmann::json opts = nlohmann::json::parse(bogd[0].substr(2))["options"];
  for (const char* name : {"eta", "lambda", "cap"}) {
    opts["ogd_" + std::string(name)] = opts.at(name);
    opts.erase(name);
  }
  std::string text;
  for (const auto& l : with_meta(bogd, "/options", opts)) text += l + "\n";
  EXPECT_NO_THROW((void)plab::read_trace(write_file(dir->p / "old_names.csv", text)));
  refused("old_and_new.csv", with_meta(bogd, "/options/ogd_eta", 0.5), {"ogd_eta and eta name the same option"});
  refused("old_wrong.csv", with_meta(with_meta(bogd, "/options", opts), "/options/ogd_eta", 0.25), {"column 'tau'"});
}

TEST_F(BudgetTraces, RemovalNormsKernelDiagonalAndSupportCounts) {
  refused("fogd_delta.csv", with_cell(fogd, row_with(fogd, "delta_norm"), "delta_norm", "5"),
          {"column 'delta_norm'", "removes nothing"});
  refused("bogd_delta_add.csv", with_cell(bogd, row_with(bogd, "delta_norm", "add"), "delta_norm", "5"),
          {"column 'delta_norm'"});
  refused("bogd_delta_neg.csv", with_cell(bogd, row_with(bogd, "delta_norm", "evict"), "delta_norm", "-3"),
          {"column 'delta_norm'", "< 0"});
  refused("kxx.csv", with_cell(bogd, 5, "kxx", "100"), {":6: ", "column 'kxx'", "rbf"});
  // the kernel written by its alias is the same kernel
  refused("kxx_alias.csv", with_meta(with_cell(bogd, 5, "kxx", "100"), "/kernel/type", "gaussian"), {":6: ", "column 'kxx'"});
  refused("fogd_kxx.csv", with_cell(fogd, 5, "kxx", "1"), {":6: ", "column 'kxx'", "features"});
  refused("support.csv", with_cell(bogd, 40, "support_size", "999"), {":41: ", "column 'support_size'"});
  refused("nogd_support.csv", with_cell(nogd, 40, "support_size", "999"), {":41: ", "column 'support_size'"});
  refused("fogd_support.csv", with_cell(fogd, 7, "support_size", "1"), {"column 'support_size'"});
}

TEST_F(BudgetTraces, EditedLambdaAndExactNormAreRefused) {
  refused("lambda.csv", with_meta(bogd, "/options/lambda", 0.01), {});
  refused("lambda0.csv", with_meta(bogd0, "/options/lambda", 0.001), {});
  refused("lambda_to0.csv", with_meta(bogd, "/options/lambda", 0.0), {});
  const double exact = nlohmann::json::parse(bogd[0].substr(2))["f_norm2_exact"].get<double>();
  refused("exact.csv", with_meta(bogd, "/f_norm2_exact", exact * 2 + 1), {":1: ", "f_norm2_exact"});
  const double fexact = nlohmann::json::parse(fogd[0].substr(2))["f_norm2_exact"].get<double>();
  refused("fexact.csv", with_meta(fogd, "/f_norm2_exact", fexact * 2 + 1), {":1: ", "f_norm2_exact"});
}

// --- 4. Model states their learner cannot have -------------------------------------------------

TEST_F(Hostile, BogdGramAndNormsAreChecked) {
  const std::string bytes = saved("bogd.plab", "--algo bogd --kernel rbf --gamma 1 --budget 10");
  ASSERT_NO_THROW((void)plab::restore_learner(plab::parse_model(bytes, "m.plab"), 0));
  const Model m0 = read_model_parts(bytes);
  Model probe = m0;
  const std::size_t B = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(array_of(probe, "gram").count))));
  ASSERT_EQ(B, 10u);
  {
    Model m = m0;
    set_value(m, "gram", 0, 1e6);
    model_refused(model_file(m), {"gram"});
  }
  {
    Model m = m0;
    set_value(m, "gram", 3 * B + 3, -1.0);
    model_refused(model_file(m), {"gram"});
  }
  {
    Model m = m0;
    set_value(m, "gram", 1, value_of<double>(m, "gram", 1) + 0.25);
    model_refused(model_file(m), {"gram", "symmetric"});
  }
  {
    Model m = m0;
    for (std::size_t i = 0; i < B * B; ++i) set_value(m, "gram", i, 0.0);
    model_refused(model_file(m), {"gram"});
  }
  {
    Model m = m0;
    set_value(m, "norm2", 0, -1.0);
    model_refused(model_file(m), {"norm2", "< 0"});
  }
  {
    Model m = m0;
    for (std::size_t i = 0; i < array_of(m, "rng").count; ++i) set_value<uint64_t>(m, "rng", i, 0);
    model_refused(model_file(m), {"rng", "all zero"});
  }
  for (const std::string other : {"bpa-s", "rbp"}) {
    Model m = m0;
    m.header["learner"] = other;
    m.header["options"] = {{"budget", 10}};
    model_refused(model_file(m), {"is not part of " + other + "'s state"});
  }
}

TEST_F(Hostile, FogdNormAndNogdRankAreChecked) {
  {
    Model m = read_model_parts(saved("fogd.plab", "--algo fogd --kernel rbf --gamma 1 --features 20"));
    set_value(m, "norm2", 0, -1.0);
    model_refused(model_file(m), {"norm2"});
  }
  {
    Model m = read_model_parts(saved("nogd.plab", "--algo nogd --kernel rbf --gamma 1 --budget 30 --rank 20"));
    ASSERT_EQ(value_of<uint64_t>(m, "nystrom_k", 0), 20u);
    m.header["options"]["rank"] = 1;
    model_refused(model_file(m), {"nystrom_k", "rank"});
  }
}

// --- 6. Counts out of range ---------------------------------------------------------------------

TEST_F(Hostile, CountsAboveTheirRangeAreRefusedNamingTheOption) {
  const auto a = run_cli("run --algo rbp --kernel rbf --budget 18446744073709551616 --data synthetic:dekel:n=20 --quiet");
  EXPECT_EQ(a.status, 2) << a.output;
  EXPECT_NE(a.output.find("--budget"), std::string::npos) << a.output;
  const auto b = run_cli("run --algo fogd --kernel rbf --features 9223372036854775858 --data synthetic:dekel:n=20 --quiet");
  EXPECT_EQ(b.status, 2) << b.output;
  EXPECT_NE(b.output.find("--features"), std::string::npos) << b.output;
  const auto c = run_cli("run --algo fogd --kernel rbf --features 1000000000 --data synthetic:dekel:n=20 --quiet");
  EXPECT_EQ(c.status, 2) << c.output;
  EXPECT_NE(c.output.find("features"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("bytes"), std::string::npos) << c.output;
  Model m = read_model_parts(saved("fogd_count.plab", "--algo fogd --kernel rbf --gamma 1 --features 20"));
  const std::string text = m.header.dump();
  std::string edited = text;
  edited.replace(edited.find("\"features\":20"), 13, "\"features\":9223372036854775858");
  model_refused(model_file(m, edited), {"features"});
}


// --- Input that contradicts itself ---------------------------------------------------------------

// A key given twice would leave its meaning to the parser (nlohmann keeps the last): every reader
// refuses it, naming the object.
TEST(JsonKeys, AKeyGivenTwiceIsRefusedNamingItsObject) {
  EXPECT_NO_THROW(plab::parse_json(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})"));
  try {
    (void)plab::parse_json(R"({"algorithms": {"p": {"algo": "kernel-perceptron", "algo": "rbp"}}})");
    ADD_FAILURE() << "accepted";
  } catch (const plab::JsonRefused& e) {
    EXPECT_NE(std::string(e.what()).find("field 'algorithms.p' gives the key 'algo' twice"), std::string::npos) << e.what();
  }
  EXPECT_THROW(plab::parse_json(R"({"x": 1, "x": 1})"), plab::JsonRefused);
  EXPECT_THROW(plab::parse_json(R"({"x": 1, "\u0078": 2})"), plab::JsonRefused);  // the same key, escaped
}

TEST_F(Hostile, ASpecGivingAKeyTwiceIsRefused) {
  const std::string specs = (dir->p / "dupspec").string();
  std::filesystem::create_directories(specs);
  write_file(std::filesystem::path(specs) / "D1.json",
             R"({"figure": "D1", "title": "t", "description": "d", "permutations": 1, "permutations": 3, "limit": 20,
                 "datasets": [{"id": "s", "data": "synthetic:xor", "kernel": {"type": "rbf", "gamma": 1}}],
                 "algorithms": [{"id": "p", "algo": "kernel-perceptron", "params": {}}]})");
  const auto r = run_cli("reproduce --specs " + specs + " --results " + path("dupres") + " D1 --no-plots");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("gives the key 'permutations' twice"), std::string::npos) << r.output;
}

TEST_F(Hostile, ALabelMappedTwiceIsRefused) {
  const std::string data = write_file(dir->p / "lab12.svm", "1 1:1\n2 1:-1\n1 2:1\n2 2:-1\n");
  for (const std::string labels : {"1:+1,1:-1,*:-1", "1:+1,*:-1,*:+1"}) {
    const auto r = run_cli("run --algo perceptron --data " + data + " --labels '" + labels + "' --quiet");
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("is mapped twice"), std::string::npos) << r.output;
  }
  EXPECT_EQ(run_cli("run --algo perceptron --data " + data + " --labels '1:+1,*:-1' --quiet").status, 0);
}

// Numeric labels reach only the learners that read numbers (multiclass, NORMA's regression and
// novelty tasks): a binary learner would take y = 2 as a label and its bounds as holding.
TEST_F(Hostile, NumericLabelsNeedALearnerThatReadsThem) {
  const std::string data = write_file(dir->p / "reg.svm", "1 1:1\n2 1:-1\n0.5 2:1\n");
  for (const std::string algo : {"perceptron", "kernel-perceptron", "norma"}) {
    const auto r = run_cli("run --algo " + algo + " --data " + data + " --labels regression --quiet");
    EXPECT_EQ(r.status, 2) << algo << ": " << r.output;
    EXPECT_NE(r.output.find("--labels regression: " + algo + " learns binary labels"), std::string::npos) << r.output;
  }
  EXPECT_EQ(run_cli("run --algo norma --task regression --loss squared --data " + data +
                    " --labels regression --quiet --no-bounds").status, 0);
}

TEST_F(Hostile, AnOutputThatIsAnInputOrAnotherOutputIsRefused) {
  const std::string data = write_file(dir->p / "alias.svm", "+1 1:1\n-1 1:-1\n+1 2:1\n");
  const std::string bytes = plab::test_util::read_text(data);
  const std::string out = path("alias_out.json");
  for (const std::string& args : {"--trace " + data, "--save-model " + data, "--summary " + data,
                                 "--trace " + out + " --summary " + path(".") + "/alias_out.json", std::string("--trace - --summary -")}) {
    const auto r = run_cli("run --algo perceptron --data " + data + " --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("the same file as"), std::string::npos) << r.output;
  }
  EXPECT_EQ(plab::test_util::read_text(data), bytes);  // the data is as it was
  EXPECT_FALSE(std::filesystem::exists(out));
  const std::string trace = path("alias_trace.csv");
  ASSERT_EQ(run_cli("run --algo perceptron --data " + data + " --quiet --trace " + trace).status, 0);
  const auto b = run_cli("bounds --trace " + trace + " --json " + trace);
  EXPECT_EQ(b.status, 2) << b.output;
  EXPECT_EQ(run_cli("run --algo perceptron --data " + data + " --quiet --trace /dev/null --summary /dev/null").status, 0);
  // Standard input and output are the files behind them: `--data - < data` and `--trace data`,
  // `--trace /dev/stdout --summary - > file`.
  const auto in = plab::test_util::run_shell(plab::test_util::plab_bin() + " run --algo perceptron --data - --quiet --trace " +
                                             data + " < " + data + " 2>&1");
  EXPECT_EQ(in.status, 2) << in.output;
  EXPECT_NE(in.output.find("--trace " + data + ": the same file as --data -"), std::string::npos) << in.output;
  EXPECT_EQ(plab::test_util::read_text(data), bytes);
  const std::string both = path("both_out.txt");
  const auto to_stdout = plab::test_util::run_shell(plab::test_util::plab_bin() + " run --algo perceptron --data " + data +
                                              " --quiet --trace /dev/stdout --summary - > " + both + " 2>&1");
  EXPECT_EQ(to_stdout.status, 2) << plab::test_util::read_text(both);
}

TEST_F(Hostile, APolynomialDegreeBeyondItsCostIsRefused) {
  const auto r = run_cli("run --algo kernel-perceptron --kernel poly --degree 2147483647 --data synthetic:dekel:n=5 --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--degree must be >= 1, <= 1000"), std::string::npos) << r.output;
  const std::string small = write_file(dir->p / "small.svm", "+1 1:0.5\n-1 1:-0.5\n+1 2:0.5\n");
  EXPECT_EQ(run_cli("run --algo kernel-perceptron --kernel poly --gamma 1 --coef0 0.5 --degree 1000 --data " + small + " --quiet").status, 0);
}

TEST_F(Hostile, ACsvHeaderNamingTheLabelColumnTwiceIsRefused) {
  const std::string data = write_file(dir->p / "dup.csv", "a,a,label\n1,2,1\n3,4,-1\n");
  const auto r = run_cli("run --algo perceptron --data " + data + " --format csv --label-column a --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("the header names columns 1 and 2 'a'"), std::string::npos) << r.output;
}

TEST_F(Hostile, PrefixIsAWholeNumberAsWritten) {
  const std::string trace = path("prefix.csv");
  ASSERT_EQ(run_cli("run --algo kernel-perceptron --kernel rbf --data synthetic:dekel:n=20 --quiet --trace " + trace).status, 0);
  const auto z = run_cli("bounds --trace " + trace + " --prefix 0");
  EXPECT_NE(z.status, 0);
  EXPECT_NE(z.output.find("expected a whole number >= 1, got 0"), std::string::npos) << z.output;
  const auto big = run_cli("bounds --trace " + trace + " --prefix 18446744073709551616");
  EXPECT_NE(big.status, 0);
  EXPECT_NE(big.output.find("18446744073709551616 is out of range"), std::string::npos) << big.output;
  EXPECT_EQ(run_cli("bounds --trace " + trace + " --prefix 5").status, 0);
}

// --- Inputs without an end, and ids that would leave the results folder ---------------------------

TEST_F(Hostile, ATraceWithoutLinesIsRefusedAtItsLineLimit) {
  try {
    (void)plab::read_trace("/dev/zero");
    ADD_FAILURE() << "accepted";
  } catch (const plab::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/zero:1: the line is longer than 64 MiB"), std::string::npos) << e.what();
  }
}

TEST_F(Hostile, ASpecThatIsNoRegularFileIsRefusedBeforeItIsOpened) {
  const auto specs = dir->p / "devspecs";
  std::filesystem::create_directories(specs);
  std::filesystem::create_symlink("/dev/zero", specs / "Q.json");
  const auto z = run_cli("reproduce --specs " + specs.string() + " --results " + path("devres") + " --no-plots");
  EXPECT_EQ(z.status, 2) << z.output;
  EXPECT_NE(z.output.find("Q.json: not a regular file"), std::string::npos) << z.output;
  std::filesystem::remove(specs / "Q.json");
  ASSERT_EQ(::mkfifo((specs / "Q.json").c_str(), 0600), 0);  // would block the open
  const auto f = run_cli("reproduce --specs " + specs.string() + " --results " + path("devres") + " --no-plots");
  EXPECT_EQ(f.status, 2) << f.output;
  EXPECT_NE(f.output.find("Q.json: not a regular file"), std::string::npos) << f.output;
}

// The figure, data set, algorithm and plot ids name files under --results: never a path.
TEST_F(Hostile, SpecIdsThatAreNotFileNamesAreRefused) {
  const auto specs = dir->p / "idspecs";
  std::filesystem::create_directories(specs);
  const std::string tmpl = R"({"figure": "FIG", "permutations": 1, "limit": 10,
      "datasets": [{"id": "DS", "data": "synthetic:dekel:n=30", "kernel": {"type": "rbf", "gamma": 1}}],
      "algorithms": [{"id": "AL", "algo": "kernel-perceptron"}], "plots": [{"id": "PL", "metric": "online_error"}]})";
  const auto with = [&](const std::string& key, const std::string& value) {
    std::string t = tmpl;
    t.replace(t.find(key), key.size(), value);
    for (const char* k : {"FIG", "DS", "AL", "PL"})
      if (t.find(k) != std::string::npos) t.replace(t.find(k), std::string(k).size(), std::string("ok") + k);
    return t;
  };
  for (const auto& [key, bad] : std::vector<std::pair<std::string, std::string>>{
           {"FIG", "../../x"}, {"DS", "../../../dsx"}, {"AL", "a/b"}, {"PL", "../../pl"}, {"FIG", ".hidden"},
           {"AL", "a\\u0000b"}}) {
    for (const auto& e : std::filesystem::directory_iterator(specs)) std::filesystem::remove(e.path());
    write_file(specs / "S.json", with(key, bad));
    const auto r = run_cli("reproduce --specs " + specs.string() + " --results " + path("idres") + " --no-plots");
    EXPECT_EQ(r.status, 2) << bad << ": " << r.output;
    const std::string echoed = bad == "a\\u0000b" ? "a\\x00b" : bad;  // a control byte is echoed as \xNN
    EXPECT_NE(r.output.find("it names result files), got '" + echoed + "'"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir->p / "x"));
  for (const auto& e : std::filesystem::directory_iterator(specs)) std::filesystem::remove(e.path());
  write_file(specs / "S.json", with("\"algorithms\": [{\"id\": \"AL\", \"algo\": \"kernel-perceptron\"}]", "\"algorithms\": []"));
  const auto empty = run_cli("reproduce --specs " + specs.string() + " --results " + path("idres") + " --no-plots");
  EXPECT_EQ(empty.status, 2) << empty.output;
  EXPECT_NE(empty.output.find("/algorithms: must be a non-empty array"), std::string::npos) << empty.output;
}

// A flag that would do nothing in this run is refused, as its siblings are.
TEST_F(Hostile, StrictAndTheComparatorNeedBounds) {
  const std::string data = write_file(dir->p / "strict.svm", "+1 1:1\n-1 1:-1\n+1 2:1\n");
  const std::string model = path("strict.plab");
  ASSERT_EQ(run_cli("run --algo rbp --kernel rbf --budget 2 --data " + data + " --quiet --no-bounds --save-model " + model).status, 0);
  for (const std::string& args :
       {std::string("--algo perceptron --no-bounds --strict"), std::string("--algo perceptron --no-bounds --comparator zero"),
        "--init-model " + model + " --strict", "--init-model " + model + " --comparator svm"}) {
    const auto r = run_cli("run " + args + " --data " + data + " --quiet");
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
  }
  const auto s = plab::test_util::run_shell(plab::test_util::plab_bin() + " run --algo kernel-perceptron --kernel rbf --data - --strict < " +
                                            data + " 2>&1");
  EXPECT_EQ(s.status, 2) << s.output;
  EXPECT_NE(s.output.find("--strict exits with code 3"), std::string::npos) << s.output;
  EXPECT_EQ(run_cli("run --algo perceptron --strict --data " + data + " --quiet").status, 0);
}

// `bad` (plab's arguments) exits 2 with `message` in its output; `good`, the same with the fault
// mended, exits 0.
static void refused_then_taken(const std::string& bad, const std::string& message, const std::string& good) {
  const auto r = run_cli(bad);
  EXPECT_EQ(r.status, 2) << bad << ": " << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  const auto g = run_cli(good);
  EXPECT_EQ(g.status, 0) << good << ": " << g.output;
}

TEST_F(Hostile, NormaRefusesADecayFactorOfZeroOrBelow) {
  refused_then_taken("run --algo norma --inclusive-ties --kernel rbf --lambda 3 --data synthetic:dekel:n=60 --quiet",
                     "--learning-rate * --lambda must be < 1",
                     "run --algo norma --inclusive-ties --kernel rbf --lambda 0.9 --data synthetic:dekel:n=60 --quiet");
}

// --- Numbers that would be silently wrong --------------------------------------------------------

// A generator's rows are refused with their cost before any is drawn (was: memory growing without
// end, or a raw std::bad_alloc / "cannot create std::vector larger than max_size()").
TEST_F(Hostile, GeneratorsTooLargeForMemoryAreRefusedWithTheirCost) {
  for (const std::string spec : {"xor:n=18446744073709551615", "dekel:n=100000000000", "separable:d=4294967297",
                                 "sparse:n=10,d=4294967296"}) {
    const auto r = run_cli("run --algo perceptron --no-bounds --quiet --data synthetic:" + spec);
    EXPECT_EQ(r.status, 2) << spec << ": " << r.output;
    EXPECT_NE(r.output.find("GiB (12 bytes a value, 24 a row, 8 a dimension), more than this machine's"),
              std::string::npos) << r.output;
  }
}

// '*' taking every row because the map's other tokens are spelt otherwise in the file (1 vs 1.0):
// a one-class run without a word.
TEST_F(Hostile, ALabelMapThatMatchesNoRowOfAClassIsRefused) {
  const std::string data = write_file(dir->p / "spelt.svm", "1.0 1:1\n-1.0 1:-1\n1.0 2:1\n");
  refused_then_taken("run --algo perceptron --data " + data + " --labels '1:+1,*:-1' --quiet",
                     "no row's label is '1' (mapped to +1), so '*' took every row",
                     "run --algo perceptron --data " + data + " --labels '1.0:+1,*:-1' --quiet");
  const auto stream = plab::test_util::run_shell(plab::test_util::plab_bin() + " run --algo perceptron --no-bounds --data - "
                                                 "--labels '1:+1,*:-1' --quiet < " + data + " 2>&1");
  EXPECT_EQ(stream.status, 2) << stream.output;
  EXPECT_NE(stream.output.find("<stdin>: no row's label is '1'"), std::string::npos) << stream.output;
}

// coef0 < 0 makes the polynomial kernel indefinite: k(x,x) < 0, ||f||^2 < 0, no bound applies.
TEST_F(Hostile, ANegativeCoef0IsRefused) {
  refused_then_taken("run --algo kernel-perceptron --kernel poly --degree 1 --coef0 -20 --data synthetic:dekel:n=20 --quiet",
                     "--coef0 must be >= 0",
                     "run --algo kernel-perceptron --kernel poly --degree 2 --coef0 0 --data synthetic:dekel:n=20 --quiet");
}

// --test rows under pm1-to-01 live in the training data's feature space: the score of a test row
// does not depend on which other rows share its file (it did: the widest row set the dimension).
TEST_F(Hostile, TestRowsArePreprocessedInTheTrainingSpace) {
  const std::string train = write_file(dir->p / "p_tr.svm", "+1 1:1 3:-1\n-1 1:-1 3:1\n");
  const std::string one = write_file(dir->p / "p_te.svm", "+1 1:-1\n");
  const std::string two = write_file(dir->p / "p_te2.svm", "+1 1:-1\n-1 3:1\n");
  const std::string model = path("p.plab");
  ASSERT_EQ(run_cli("run --algo kernel-perceptron --kernel rbf --data " + train + " --preprocess pm1-to-01 --no-bounds "
                    "--quiet --save-model " + model).status, 0);
  const auto a = run_cli("predict --model " + model + " --data " + one);
  const auto b = run_cli("predict --model " + model + " --data " + two);
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  const auto first_row = [](const std::string& csv) {
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);  // header
    std::getline(in, line);
    return line;
  };
  EXPECT_EQ(first_row(a.output), first_row(b.output)) << a.output << "\n" << b.output;
}

TEST_F(Hostile, ABadSimdPathNamesItsVariable) {
  const auto r = plab::test_util::run_shell("PLAB_SIMD=AVX2 " + plab::test_util::plab_bin() +
                                            " run --algo kernel-perceptron --kernel rbf --data synthetic:dekel:n=20 --quiet 2>&1");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("PLAB_SIMD: SIMD path must be scalar, avx2 or avx512, not 'AVX2'"), std::string::npos) << r.output;
}

}  // namespace hostile_test
