// Model files (docs/models.md): split runs equal one run for every registered learner (records bit
// for bit, the same final model bytes), bad files are refused with a message naming the file and
// the fault, and the plab commands save, continue, predict and show.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/format.hpp"
#include "core/random.hpp"
#include "core/sha256.hpp"
#include "experiments/run/run.hpp"
#include "config/recorded_options.hpp"
#include "models/model_file.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

using test_util::same_bits;

// Noisy sparse rows in 12 dimensions: binary labels by a hyperplane, or one of 4 classes by the
// arg max of 4 hyperplanes; 10% of the labels flipped so that every learner keeps updating.
Dataset noisy_data(bool multiclass, std::size_t n = 170) {
  Rng rng(2028);
  Dataset d;
  d.name = "noisy";
  const std::size_t dim = 12, m = multiclass ? 4 : 1;
  std::vector<double> w(dim * m);
  for (double& v : w) v = rng.normal();
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> x(dim, 0.0);
    for (double& v : x)
      if (rng.uniform() < 0.6) v = std::round(rng.normal() * 8.0) / 8.0;
    std::size_t best = 0;
    std::vector<double> s(m, 0.0);
    for (std::size_t c = 0; c < m; ++c) {
      for (std::size_t j = 0; j < dim; ++j) s[c] += w[c * dim + j] * x[j];
      if (s[c] > s[best]) best = c;
    }
    double y = multiclass ? static_cast<double>(best) : (s[0] > 0.0 ? 1.0 : -1.0);
    if (rng.uniform() < 0.1) y = multiclass ? static_cast<double>(rng.below(m)) : -y;
    d.push_dense(x, y);
  }
  if (multiclass) d.classes = {0, 1, 2, 3};
  return d;
}

// Options under which each learner's state is exercised: a small budget (evictions, Forgetron's
// shrinking, the Stoptron frozen), Projectron projections, NORMA's decay, nu, bias and truncation.
LearnerOptions options_for(const LearnerInfo& info, const Dataset& d) {
  LearnerOptions o;
  o.kernel = info.name == "perceptron" ? Kernel::linear() : Kernel::rbf(0.3);
  o.dim = d.dim;
  o.classes = d.classes.size();
  o.own["budget"] = 9;
  o.own["seed"] = 77;
  o.own["eta"] = 0.6;
  if (info.name == "cks") o.own["beta"] = 0.5;  // CKS's own option
  o.own["C"] = 0.7;
  if (info.name == "norma")  // NORMA's own options
    o.own = {{"lambda", 0.05}, {"learning_rate", 0.5}, {"decay_rate", true}, {"nu", 0.3}, {"bias", true}, {"truncate", 25}};
  return o;
}

void expect_same_records(const std::vector<RoundRecord>& a, const std::vector<RoundRecord>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const RoundRecord &p = a[i], &q = b[i];
    const double pr[] = {p.y, p.score, p.kxx, p.f_norm2, p.delta_norm, p.pk2, p.tau, p.eta_t, p.phi, p.psi, p.Q,
                         p.sigma_r, p.f_r, p.rho, p.coef, p.trunc_norm, p.trunc_bound};
    const double qr[] = {q.y, q.score, q.kxx, q.f_norm2, q.delta_norm, q.pk2, q.tau, q.eta_t, q.phi, q.psi, q.Q,
                         q.sigma_r, q.f_r, q.rho, q.coef, q.trunc_norm, q.trunc_bound};
    for (std::size_t k = 0; k < std::size(pr); ++k)
      ASSERT_TRUE(same_bits(pr[k], qr[k]) || (std::isnan(pr[k]) && std::isnan(qr[k])))
          << what << ": round " << p.t << " field " << k << ": " << pr[k] << " vs " << qr[k];
    ASSERT_EQ(std::tie(p.t, p.index, p.mistake, p.margin_error, p.update, p.support_size, p.removed, p.pred, p.competitor),
              std::tie(q.t, q.index, q.mistake, q.margin_error, q.update, q.support_size, q.removed, q.pred, q.competitor))
        << what << ": round " << p.t;
  }
}

std::vector<std::size_t> rows(std::size_t b, std::size_t e) {
  std::vector<std::size_t> v;
  for (std::size_t i = b; i < e; ++i) v.push_back(i);
  return v;
}

// Training on rows [0, k), saving, reading the bytes back into a new learner and continuing on
// [k, n) gives the one run's records and its final model bytes.
TEST(Models, SplitRunsEqualOneRunForEveryRegisteredLearner) {
  const auto all = learners();
  ASSERT_GE(all.size(), 17u);
  for (const LearnerInfo& info : all) {
    const Dataset d = noisy_data(info.multiclass);
    const std::size_t n = d.size();
    const LearnerOptions o = options_for(info, d);
    ModelHeader h = model_header(info.name, o);
    h.classes = d.classes;
    const auto one = test_util::configured_learner(info.name, o);
    const RunResult full = run_online(*one, d, rows(0, n));
    ASSERT_GE(full.updates, 9u) << info.name;  // the state is not trivially the initial one
    h.rounds = static_cast<int64_t>(n);
    const std::string one_bytes = model_bytes(h, *one);
    for (std::size_t k : {std::size_t{1}, std::size_t{37}, std::size_t{96}, n / 2 + 3, n - 1}) {
      const std::string what = info.name + " split at " + std::to_string(k);
      const auto first = test_util::configured_learner(info.name, o);
      RunResult a = run_online(*first, d, rows(0, k));
      h.rounds = static_cast<int64_t>(k);
      const ModelFile m = parse_model(model_bytes(h, *first), what);
      EXPECT_EQ(m.header.rounds, static_cast<int64_t>(k));
      const auto second = restore_learner(m, d.dim);
      const RunResult b = run_online(*second, d, rows(k, n), {}, m.header.rounds + 1);
      a.rounds.insert(a.rounds.end(), b.rounds.begin(), b.rounds.end());
      expect_same_records(full.rounds, a.rounds, what);
      h.rounds = static_cast<int64_t>(n);
      EXPECT_TRUE(model_bytes(h, *second) == one_bytes) << what << ": the final model bytes differ";
    }
  }
}

// Every hypothesis of a restored learner scores as the original, bit for bit.
TEST(Models, RestoredLearnersPredictAsTheOriginal) {
  for (const LearnerInfo& info : learners()) {
    const Dataset d = noisy_data(info.multiclass, 120);
    const LearnerOptions o = options_for(info, d);
    const auto l = test_util::configured_learner(info.name, o);
    run_online(*l, d, rows(0, 80));
    ModelHeader h = model_header(info.name, o);
    h.classes = d.classes;
    const auto r = restore_learner(parse_model(model_bytes(h, *l), info.name), 0);
    for (const auto& which : l->hypotheses())
      for (std::size_t i = 80; i < d.size(); ++i)
        ASSERT_TRUE(same_bits(l->score_as(which, d[i]), r->score_as(which, d[i]))) << info.name << " " << which;
  }
}

std::string saved_model(const std::string& algo = "rbp") {
  const LearnerInfo& info = learner_info(algo);
  const Dataset d = noisy_data(info.multiclass, 60);
  const LearnerOptions o = options_for(info, d);
  const auto l = test_util::configured_learner(algo, o);
  run_online(*l, d, rows(0, d.size()));
  ModelHeader h = model_header(algo, o);
  h.classes = d.classes;
  return model_bytes(h, *l);
}

// The content after the first line, and a file of it with a correct first line.
std::string content_of(const std::string& bytes) { return bytes.substr(bytes.find('\n') + 1); }
std::string signed_file(const std::string& content) {
  return "plab-model format 1 bytes " + std::to_string(content.size()) + " sha256 " + sha256_hex(content) + "\n" + content;
}

void expect_refused(const std::string& bytes, const std::string& needle) {
  try {
    const ModelFile m = parse_model(bytes, "m.plab");
    (void)restore_learner(m, 0);
    ADD_FAILURE() << "accepted; expected '" << needle << "'";
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("m.plab: ", 0), 0u) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << "expected '" << needle << "' in: " << msg;
  }
}

TEST(Models, WrongVersionTruncatedAndCorruptedFilesAreRefused) {
  const std::string good = saved_model();
  std::string v2 = good;
  v2.replace(v2.find("format 1"), 8, "format 2");
  expect_refused(v2, "model format 2 is not supported");
  expect_refused("hello\n", "not a perceptron-lab model file");
  expect_refused(good.substr(0, good.size() - 1), "truncated: ");
  expect_refused(good.substr(0, good.find('\n') + 40), "truncated: ");
  expect_refused(good + "x", "expected (data appended?)");
  for (std::size_t at : {good.find('\n') + 5, good.size() - 3}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    expect_refused(bad, "corrupted: the content's SHA-256 is");
  }
}

// Files whose checksum is right but whose header or arrays do not fit their learner.
TEST(Models, InconsistentHeadersAndStatesAreRefusedNamingTheFault) {
  const std::string c = content_of(saved_model());
  const std::string header = c.substr(0, c.find('\n')), payload = c.substr(c.find('\n') + 1);
  const auto with_header = [&](nlohmann::json j) { return signed_file(j.dump() + "\n" + payload); };
  const nlohmann::json j = nlohmann::json::parse(header);
  nlohmann::json k = j;
  k["learner"] = "no-such-learner";
  expect_refused(with_header(k), "learner 'no-such-learner' is not registered");
  k = j;
  k["options"]["budget"] = 0;
  expect_refused(with_header(k), "budget");
  k = j;
  k["options"]["eta"] = 0.5;
  expect_refused(with_header(k), "option 'eta' is not an option of rbp");
  k = j;
  k["kernel"]["gamma"] = -1;
  expect_refused(with_header(k), "kernel.gamma");
  k = j;
  k["arrays"].erase(k["arrays"].size() - 1);
  expect_refused(with_header(k), "bytes after the last array");
  k = j;
  k["arrays"][0][2] = 1000000;
  expect_refused(with_header(k), "runs past the end of the data");
  k = j;
  k["arrays"][0][1] = "d";
  expect_refused(with_header(k), "has element type 'd', expected 'u'");
  k = j;
  k["arrays"][0][0] = "renamed";
  expect_refused(with_header(k), "array 'f.sv.len' is missing");
  k = j;
  k.erase("rounds");
  expect_refused(with_header(k), "header: ");
  // Reals where whole numbers belong (the fuzzer's 3.3e116: converting it would be undefined).
  for (const char* key : {"rounds", "dim"}) {
    k = j;
    k[key] = 3.33333e116;
    expect_refused(with_header(k), std::string("header: ") + key + " is not a whole number >= 0");
  }
  k = j;
  k["rounds"] = -4;
  expect_refused(with_header(k), "header: rounds is not a whole number >= 0, got -4");
  k = j;
  k["arrays"][0][2] = 2.5;
  expect_refused(with_header(k), "is not a whole number >= 0, got 2.5");
  expect_refused(signed_file("{\"learner\": 1}\n"), "header: ");
  // A multiclass model's basis pointing past its supports.
  const std::string mc = content_of(saved_model("multiclass-projectron++"));
  nlohmann::json mj = nlohmann::json::parse(mc.substr(0, mc.find('\n')));
  mj["classes"] = {0, 1, 2};
  expect_refused(signed_file(mj.dump() + "\n" + mc.substr(mc.find('\n') + 1)), "array 'coef' holds 164 values, expected 123");
}

// The content with value `i` of array `name` (element type T) replaced: the header's array list gives
// the payload offsets (each array after the ones before it, in the listed order).
template <class T>
std::string with_state_value(const std::string& content, const std::string& name, std::size_t i, T v) {
  const std::size_t nl = content.find('\n');
  const nlohmann::json list = nlohmann::json::parse(content.substr(0, nl)).at("arrays");
  std::size_t off = nl + 1;
  for (const auto& e : list) {
    const std::size_t size = e[1] == "w" ? 4 : 8, count = e[2].get<std::size_t>();
    if (e[0] == name) {
      EXPECT_LT(i, count) << name;
      std::string c = content;
      std::memcpy(c.data() + off + i * size, &v, sizeof v);
      return c;
    }
    off += size * count;
  }
  ADD_FAILURE() << "no array " << name;
  return content;
}

// Files whose checksum is right, whose arrays fit their declared sizes, but whose values break the
// learner's invariants: each would load as another learner (or predict NaN) if accepted.
TEST(Models, EditedStatesThatBreakTheLearnersInvariantsAreRefused) {
  const std::string c = content_of(saved_model());  // rbp, budget 9, 60 rows: 9 supports
  const nlohmann::json j = nlohmann::json::parse(c.substr(0, c.find('\n')));
  const std::string payload = c.substr(c.find('\n') + 1);
  const auto with_header = [&](nlohmann::json h) { return signed_file(h.dump() + "\n" + payload); };
  // A degree beyond int would be truncated (2^40 -> 0, 2^31 -> -2^31).
  for (const uint64_t degree : {uint64_t{1} << 40, uint64_t{1} << 31}) {
    nlohmann::json k = j;
    k["kernel"]["degree"] = degree;
    expect_refused(with_header(k), "header: kernel.degree must be >= 1, <= 1000, got " + std::to_string(degree) +
                                       " (Polynomial degree)");
  }
  nlohmann::json k = j;
  k["options"]["budget"] = 1;
  expect_refused(with_header(k), "9 supports exceed the budget 1");
  k = j;
  k["rounds"] = (int64_t{1} << 62);
  expect_refused(with_header(k), "header: rounds 4611686018427387904 is above 2^53");
  // f.sv.sq: support 0's ||s||^2 doubled (its kernel values, hence predictions, would change).
  const std::string sq = with_state_value(c, "f.sv.sq", 0, 1e6);
  expect_refused(signed_file(sq), "f.sv.sq: support 0 has ||s||^2 1000000.0");
  expect_refused(signed_file(with_state_value<int64_t>(c, "f.sv.id", 2, -5)), "f.sv.id: support 2 has round id -5 (< 1)");
  // Two supports of one round: support 3 given support 4's id.
  const auto state = parse_model(saved_model(), "m").arrays;
  int64_t id4 = 0;
  for (const auto& a : state)
    if (a.name == "f.sv.id") std::memcpy(&id4, a.bytes.data() + 8 * 4, 8);
  expect_refused(signed_file(with_state_value<int64_t>(c, "f.sv.id", 3, id4)),
                 "f.sv.id: round id " + std::to_string(id4) + " is held by two supports");
  // The state's round count below the supports' last round (the averaged hypothesis divides by it).
  expect_refused(signed_file(with_state_value<int64_t>(c, "rounds", 0, 3)), "rounds: 3 rounds cannot have added 9 supports");
  // The averaged Perceptron with T = 0 (every averaged score 0: 100% error): T is the sum of the c_j.
  const std::string avg = content_of(saved_model("averaged-perceptron"));
  expect_refused(signed_file(with_state_value<int64_t>(avg, "T", 0, 0)), "T: 0 is not the sum of the survival counts, 60");
  expect_refused(signed_file(with_state_value<int64_t>(avg, "survival", 0, -1)), "survival: a count is negative");
}

// A NaN or infinity in any real of any learner's state (coefficients, norms, w, L, beta, Q, bias,
// support values and scores) is refused naming the array.
TEST(Models, NonFiniteStateValuesAreRefusedForEveryLearner) {
  std::size_t checked = 0;
  for (const LearnerInfo& info : learners()) {
    const std::string c = content_of(saved_model(info.name));
    const nlohmann::json list = nlohmann::json::parse(c.substr(0, c.find('\n'))).at("arrays");
    for (const auto& e : list) {
      if (e[1] != "d" || e[2].get<std::size_t>() == 0) continue;
      const std::string name = e[0].get<std::string>();
      for (const double v : {std::nan(""), -std::numeric_limits<double>::infinity()}) {
        SCOPED_TRACE(info.name + " " + name);
        expect_refused(signed_file(with_state_value(c, name, 0, v)), "array '" + name + "' value 0 is " + (std::isnan(v) ? "nan" : "-inf"));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40u);
}

// A header field of the wrong type or spelling is named once, with the file (never a library's bare
// "type must be string" nor "header: header:"); a file that cannot be read is the user's fault
// (exit 2); model show writes a header's control bytes as \xNN.
TEST(Models, HeaderFaultsNameTheFieldOnceAndShowEscapesControlBytes) {
  const std::string c = content_of(saved_model());
  const nlohmann::json j = nlohmann::json::parse(c.substr(0, c.find('\n')));
  const std::string payload = c.substr(c.find('\n') + 1);
  const auto with_header = [&](nlohmann::json h) { return signed_file(h.dump() + "\n" + payload); };
  const auto refused_once = [&](const nlohmann::json& h, const std::string& needle) {
    expect_refused(with_header(h), needle);
    try {
      (void)restore_learner(parse_model(with_header(h), "m.plab"), 0);
    } catch (const ModelError& e) {
      EXPECT_EQ(std::string(e.what()).find("header: header:"), std::string::npos) << e.what();
    }
  };
  nlohmann::json k = j;
  k["labels"] = 5;
  refused_once(k, "m.plab: header: labels must be a string, got 5");
  k = j;
  k["kernel"]["gamma"] = -1;
  refused_once(k, "m.plab: header: kernel.gamma must be");
  k = j;
  k["kernel"]["type"] = 3;
  refused_once(k, "m.plab: header: kernel.type must be a string, got 3");
  k = j;
  k["preprocess"] = "bogus";
  refused_once(k, "m.plab: header: preprocess");
  k = j;
  k["labels"] = "1:x";
  refused_once(k, "m.plab: header: labels: bad item '1:x'");
  k = j;
  k["arrays"][0][0] = 7;
  refused_once(k, "m.plab: header: an arrays entry is not [name, type, count], got [7,");

  test_util::TempDir dir("models_messages");
  const auto missing = test_util::run_cli("predict --model " + (dir.p / "none.plab").string() + " --data x");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("none.plab: cannot read the model file (No such file or directory)"), std::string::npos)
      << missing.output;
  const auto stdin_model = test_util::run_cli("run --algo rbp --budget 3 --data x --init-model - --quiet");
  EXPECT_EQ(stdin_model.status, 2) << stdin_model.output;
  EXPECT_NE(stdin_model.output.find("-: cannot read the model file (a model is read from a file, not standard input)"),
            std::string::npos) << stdin_model.output;
  k = j;
  k["code"] = "abc\x1b[2J\x07\rdef";
  const std::string path = (dir.p / "esc.plab").string();
  std::ofstream(path, std::ios::binary) << with_header(k);
  const auto show = test_util::run_cli("model show " + path);
  ASSERT_EQ(show.status, 0) << show.output;
  EXPECT_NE(show.output.find("code        abc\\x1b[2J\\x07\\x0ddef\n"), std::string::npos) << show.output;
  EXPECT_EQ(show.output.find('\x1b'), std::string::npos);
}

// A kernel field outside its declaration (numerics/kernel.cpp) is refused before any of the file is
// used, `plab model show` included, naming the file and the field.
TEST(Models, BadKernelHeadersAreRefusedByModelShowNamingFileAndField) {
  const std::string c = content_of(saved_model());
  const nlohmann::json j = nlohmann::json::parse(c.substr(0, c.find('\n')));
  const std::string payload = c.substr(c.find('\n') + 1);
  test_util::TempDir dir("models_kernel");
  const std::string path = (dir.p / "k.plab").string();
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"gamma", -1}}, "header: kernel.gamma must be > 0 (and finite), got -1"},
      {{{"type", "poly"}, {"degree", 3000000000u}},
       "header: kernel.degree must be >= 1, <= 1000, got 3000000000 (Polynomial degree)"},
      {{{"degree", 0}}, "header: kernel.degree must be >= 1, <= 1000, got 0"},
      {{{"type", "sigmoid"}},
       "header: kernel.type: unknown value 'sigmoid' (allowed: linear, poly, rbf, polynomial, gaussian)"}};
  for (const auto& [fields, message] : cases) {
    nlohmann::json h = j;
    h["kernel"].update(fields);
    std::ofstream(path, std::ios::binary) << signed_file(h.dump() + "\n" + payload);
    const auto show = test_util::run_cli("model show " + path);
    EXPECT_EQ(show.status, 2) << show.output;
    EXPECT_NE(show.output.find(path + ": " + message + "\n"), std::string::npos) << "expected '" << message << "' in:\n"
                                                                                  << show.output;
  }
}

TEST(Models, WrittenAtomicallyAndReadBack) {
  test_util::TempDir dir("models");
  const std::string path = (dir.p / "sub" / "m.plab").string();
  const auto l = test_util::configured_learner("kernel-perceptron", options_for(learner_info("kernel-perceptron"), noisy_data(false)));
  run_online(*l, noisy_data(false), rows(0, 50));
  save_model(path, model_header("kernel-perceptron", {}), *l);
  const auto r = load_model(path);
  EXPECT_EQ(r->support_size(), l->support_size());
  try {
    (void)read_model((dir.p / "missing.plab").string());
    ADD_FAILURE();
  } catch (const ModelError& e) {  // the user's fault (exit 2), as a missing data file
    EXPECT_NE(std::string(e.what()).find("missing.plab"), std::string::npos);
  }
}

// Writes rows [b, e) of d (binary labels) to `path` in LIBSVM format, values with 17 digits.
std::string write_libsvm_rows(const std::filesystem::path& path, const Dataset& d, std::size_t b, std::size_t e) {
  std::ofstream f(path);
  for (std::size_t i = b; i < e; ++i) {
    const Example x = d[i];
    f << (x.y > 0 ? "+1" : "-1");
    for (std::size_t q = 0; q < x.idx.size(); ++q) f << " " << x.idx[q] + 1 << ":" << format_g(x.val[q], 17);
    f << "\n";
  }
  return path.string();
}

// A trace's rows from round 65 on without their data-row column (the 7th), which differs between
// a run over all rows and one continued on the rows from 65.
std::string rows_from_65_without_data_row(const std::string& t) {
  std::string out, line;
  std::istringstream in(t.substr(t.find("\n65,") + 1));
  while (std::getline(in, line)) {
    std::size_t c = 0;
    for (int k = 0; k < 6; ++k) c = line.find(',', c) + 1;
    out += line.substr(0, c) + line.substr(line.find(',', c)) + "\n";
  }
  return out;
}

// The commands: save, continue, predict, show; a model of another learner, a label set that does
// not fit, a bad file: exit 2 naming the file.
TEST(Models, CommandsSaveContinuePredictShow) {
  test_util::TempDir dir("models_cli");
  const Dataset d = noisy_data(false, 150);
  const auto write = [&](const std::string& name, std::size_t b, std::size_t e) {
    return write_libsvm_rows(dir.p / name, d, b, e);
  };
  const std::string all = write("all.svm", 0, 150), a = write("a.svm", 0, 64), b = write("b.svm", 64, 150);
  const std::string m1 = (dir.p / "one.plab").string(), ma = (dir.p / "a.plab").string(), mb = (dir.p / "b.plab").string();
  const std::string base = " --algo rbp --budget 9 --seed 5 --kernel rbf --gamma 0.3 --quiet --no-bounds";
  ASSERT_EQ(test_util::run_cli("run --data " + all + base + " --save-model " + m1 + " --trace " + (dir.p / "one.csv").string()).status, 0);
  ASSERT_EQ(test_util::run_cli("run --data " + a + base + " --save-model " + ma).status, 0);
  const auto cont = test_util::run_cli("run --data " + b + " --init-model " + ma + " --quiet --save-model " + mb +
                                       " --trace " + (dir.p / "b.csv").string());
  ASSERT_EQ(cont.status, 0) << cont.output;
  const ModelFile one = read_model(m1), two = read_model(mb);
  EXPECT_EQ(two.header.rounds, 150);
  ASSERT_EQ(two.header.data.size(), 2u);
  ASSERT_EQ(one.arrays.size(), two.arrays.size());
  for (std::size_t i = 0; i < one.arrays.size(); ++i) EXPECT_EQ(one.arrays[i].bytes, two.arrays[i].bytes) << one.arrays[i].name;
  // The continued trace's rounds are 65..150, with the one run's scores there.
  const std::string tb = test_util::read_text(dir.p / "b.csv"), t1 = test_util::read_text(dir.p / "one.csv");
  EXPECT_EQ(rows_from_65_without_data_row(t1), rows_from_65_without_data_row(tb));
  const auto p = test_util::run_cli("predict --model " + mb + " --data " + all + " --output " + (dir.p / "p.csv").string());
  ASSERT_EQ(p.status, 0) << p.output;
  EXPECT_NE(p.output.find("150 rows"), std::string::npos) << p.output;
  const std::string csv = test_util::read_text(dir.p / "p.csv");
  EXPECT_EQ(csv.rfind("row,label,score,predicted\n", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 151);
  const auto show = test_util::run_cli("model show " + mb);
  ASSERT_EQ(show.status, 0);
  EXPECT_NE(show.output.find("learner     rbp"), std::string::npos) << show.output;
  const auto other = test_util::run_cli("run --algo stoptron --budget 9 --data " + b + " --init-model " + ma + " --quiet");
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.output.find(ma + ": a model of rbp, not of --algo stoptron"), std::string::npos) << other.output;
  const auto opt = test_util::run_cli("run --data " + b + " --init-model " + ma + " --budget 3 --quiet");
  EXPECT_EQ(opt.status, 2);
  EXPECT_NE(opt.output.find("--budget 3 differs from the model's budget 9 (" + ma + ")"), std::string::npos) << opt.output;
  // The model's options are configured once, before any data is read: a conflict is found without the data.
  const auto no_data = test_util::run_cli("run --data " + (dir.p / "absent.svm").string() + " --init-model " + ma +
                                          " --budget 3 --quiet");
  EXPECT_EQ(no_data.status, 2);
  EXPECT_NE(no_data.output.find("--budget 3 differs from the model's budget 9"), std::string::npos) << no_data.output;
  // The model's own options, repeated as the first run gave them, continue it as without them.
  const std::string again = (dir.p / "again.plab").string();
  const auto same = test_util::run_cli("run --data " + b + base + " --init-model " + ma + " --save-model " + again);
  ASSERT_EQ(same.status, 0) << same.output;
  EXPECT_EQ(test_util::read_text(again).substr(test_util::read_text(again).find('\n')),
            test_util::read_text(mb).substr(test_util::read_text(mb).find('\n')));
  const auto kernel = test_util::run_cli("run --data " + b + " --init-model " + ma + " --kernel rbf --gamma 0.4 --quiet");
  EXPECT_EQ(kernel.status, 2);
  EXPECT_NE(kernel.output.find("--gamma 0.4 differs from the model's gamma 0.3"), std::string::npos) << kernel.output;
  std::ofstream(dir.p / "c.svm") << "3 1:1\n0 2:1\n";
  const auto labels = test_util::run_cli("predict --model " + mb + " --data " + (dir.p / "c.svm").string());
  EXPECT_EQ(labels.status, 2) << labels.output;
  EXPECT_NE(labels.output.find("c.svm"), std::string::npos) << labels.output;
  // predict reads its data through the configuration step: --format is a file reader's option, and
  // the model is checked before the data (an absent file is not reached).
  const auto generator = test_util::run_cli("predict --model " + mb + " --data synthetic:dekel:n=20 --format csv");
  EXPECT_EQ(generator.status, 2) << generator.output;
  EXPECT_NE(generator.output.find("--format is an option of the csv, libsvm, tsv and usps readers, not of --data "
                                  "synthetic:dekel:n=20 (a generator: reader options apply to files)"),
            std::string::npos) << generator.output;
  std::ofstream(dir.p / "bad.plab") << "plab-model format 7 bytes 1 sha256 x\nx";
  const auto bad = test_util::run_cli("predict --model " + (dir.p / "bad.plab").string() + " --data " + all);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("bad.plab: model format 7 is not supported"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace plab
