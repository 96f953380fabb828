#include "models/model_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <climits>
#include <filesystem>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>

#include "algorithms/multiclass.hpp"
#include "algorithms/registry.hpp"
#include "core/file_io.hpp"
#include "core/json_text.hpp"
#include "core/option_decl.hpp"
#include "core/sha256.hpp"
#include "datasets/preprocess.hpp"
#include "datasets/registry.hpp"

namespace plab {
namespace {

constexpr const char* kMagic = "plab-model";
// Round counts also enter double arithmetic (averaged hypotheses): exact up to 2^53.
constexpr int64_t kMaxModelRounds = int64_t{1} << 53;
// The longest first line ("plab-model format 1 bytes N sha256 H" is under 120 characters).
constexpr std::size_t kMaxFirstLine = 200;


// The kernel's fields: an object with every declared field (numerics/kernel.cpp); their values are
// the configuration step's to check (model_kernel).
nlohmann::json kernel_fields(const nlohmann::json& j) {
  if (!j.is_object()) throw ModelError("header: kernel is not an object");
  for (const OptionDecl& d : kernel_options())
    if (!j.contains(d.name)) throw ModelError("header: kernel." + d.name + " is missing");
  return j;
}

nlohmann::json header_json(const ModelHeader& h, const std::vector<StateArray>& arrays) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& a : arrays) list.push_back({a.name, std::string(1, static_cast<char>(a.type)), a.count});
  return {{"learner", h.algo}, {"options", h.options}, {"kernel", h.kernel},
          {"labels", h.labels}, {"classes", h.classes}, {"preprocess", h.preprocess}, {"data", h.data}, {"rounds", h.rounds},
          {"dim", h.dim}, {"code", h.code}, {"arrays", list}};
}

// A whole number of the header: a JSON integer in [0, 2^63) (a real such as 3e116 is refused
// before any conversion: converting it would be undefined).
uint64_t count_of(const nlohmann::json& v, const std::string& what) {
  const bool whole = v.is_number_unsigned() ? v.get<uint64_t>() <= uint64_t(std::numeric_limits<int64_t>::max())
                                            : v.is_number_integer() && v.get<int64_t>() >= 0;
  if (!whole)
    throw ModelError("header: " + what + " is not a whole number >= 0, got " + json_excerpt(v));
  return v.get<uint64_t>();
}

// Header field `key` as T (`kind` in words): a missing field or one of another type is named.
template <class T>
T field(const nlohmann::json& j, const std::string& key, const char* kind) {
  if (!j.contains(key)) throw ModelError("header: " + key + " is missing");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw ModelError("header: " + key + " must be " + kind + ", got " + json_excerpt(j.at(key)));
  }
}

ModelHeader header_from_json(const nlohmann::json& j) {
  ModelHeader h;
  h.algo = field<std::string>(j, "learner", "a string");
  h.options = field<nlohmann::json>(j, "options", "an object");
  h.kernel = kernel_fields(field<nlohmann::json>(j, "kernel", "an object"));
  h.labels = field<std::string>(j, "labels", "a string");
  h.preprocess = field<std::string>(j, "preprocess", "a string");
  // The header's own spellings, checked here: a bad one is the file's fault, not a flag's.
  try {
    (void)LabelMap::parse(h.labels, "header: labels");
  } catch (const std::invalid_argument& e) {
    throw ModelError(e.what());
  }
  (void)Preprocess::parse(h.preprocess, "header: preprocess");
  h.classes = field<std::vector<double>>(j, "classes", "a list of numbers");
  for (std::size_t c = 0; c < h.classes.size(); ++c)
    if (!std::isfinite(h.classes[c]) || (c > 0 && !(h.classes[c - 1] < h.classes[c])))
      throw ModelError("header: classes are not finite and ascending");
  h.data = field<nlohmann::json>(j, "data", "a list");
  if (!h.data.is_array()) throw ModelError("header: data is not a list");
  h.rounds = static_cast<int64_t>(count_of(field<nlohmann::json>(j, "rounds", "a number"), "rounds"));
  if (h.rounds > kMaxModelRounds)  // a continued run counts on from here: t must not wrap
    throw ModelError("header: rounds " + std::to_string(h.rounds) + " is above 2^53 (docs/models.md#refused)");
  h.dim = count_of(field<nlohmann::json>(j, "dim", "a number"), "dim");
  h.code = field<std::string>(j, "code", "a string");
  return h;
}

std::size_t element_size(StateType t) { return t == StateType::u32 ? 4 : 8; }

// The arrays the header lists, cut from the payload (whose size must be exactly theirs).
std::vector<StateArray> arrays_from(const nlohmann::json& list, const std::string& payload) {
  if (!list.is_array()) throw ModelError("header: arrays is not a list");
  std::vector<StateArray> v;
  std::size_t off = 0;
  for (const auto& e : list) {
    if (!e.is_array() || e.size() != 3 || !e[0].is_string() || !e[1].is_string())
      throw ModelError("header: an arrays entry is not [name, type, count], got " + json_excerpt(e));
    StateArray a;
    a.name = e[0].get<std::string>();
    const std::string t = e[1].get<std::string>();
    if (t != "d" && t != "i" && t != "u" && t != "w") throw ModelError("header: array '" + a.name + "' has unknown type '" + t + "'");
    a.type = static_cast<StateType>(t[0]);
    a.count = count_of(e[2], "the count of array '" + a.name + "'");
    const std::size_t size = element_size(a.type);
    if (a.count > (payload.size() - off) / size)
      throw ModelError("array '" + a.name + "' (" + std::to_string(a.count) + " values) runs past the end of the data");
    a.bytes = payload.substr(off, a.count * size);
    off += a.bytes.size();
    v.push_back(std::move(a));
  }
  if (off != payload.size())
    throw ModelError(std::to_string(payload.size() - off) + " bytes after the last array");
  return v;
}

// "plab-model format F bytes N sha256 H": F must be kModelFormat, N and H must match the rest.
std::string checked_content(const std::string& bytes) {
  const std::size_t nl = bytes.find('\n');
  if (bytes.compare(0, std::string(kMagic).size(), kMagic) != 0 || nl == std::string::npos || nl > kMaxFirstLine)
    throw ModelError("not a perceptron-lab model file (the first line is not 'plab-model format ...')");
  std::istringstream line(bytes.substr(0, nl));
  std::string magic, kf, kb, ks, sha, extra;
  long long format = -1;
  unsigned long long n = 0;
  if (!(line >> magic >> kf >> format) || kf != "format") throw ModelError("the first line has no format number");
  if (format != kModelFormat)
    throw ModelError("model format " + std::to_string(format) + " is not supported (this plab reads format " +
                     std::to_string(kModelFormat) + "; docs/models.md#versions)");
  if (!(line >> kb >> n >> ks >> sha) || kb != "bytes" || ks != "sha256" || sha.size() != 64 || (line >> extra))
    throw ModelError("the first line is not 'plab-model format 1 bytes N sha256 H'");
  const std::string content = bytes.substr(nl + 1);
  if (content.size() < n)
    throw ModelError("truncated: " + std::to_string(n) + " bytes expected after the first line, " +
                     std::to_string(content.size()) + " found");
  if (content.size() > n)
    throw ModelError(std::to_string(content.size()) + " bytes after the first line, " + std::to_string(n) +
                     " expected (data appended?)");
  const std::string actual = sha256_hex(content);
  if (actual != sha) throw ModelError("corrupted: the content's SHA-256 is " + actual + ", the first line says " + sha);
  return content;
}

}  // namespace

void check_finite_state(const std::vector<StateArray>& arrays) {
  for (const auto& a : arrays) {
    if (a.type != StateType::f64) continue;
    for (std::size_t i = 0; i < a.count; ++i) {
      double v;
      std::memcpy(&v, a.bytes.data() + 8 * i, 8);
      if (!std::isfinite(v))
        throw ModelError("array '" + a.name + "' value " + std::to_string(i) + " is " + fmt::format("{}", v) +
                         " (the state must be finite)");
    }
  }
}

ModelHeader model_header(const std::string& algo, const LearnerOptions& o) {
  ModelHeader h;
  h.algo = algo;
  h.options = learner_info(algo).options_json(o);
  h.kernel = o.kernel.options_json();
  h.dim = o.dim;
  return h;
}

std::string model_bytes(const ModelHeader& h, const Learner& learner) {
  StateWriter w;
  learner.save_state(w);
  std::string content = header_json(h, w.arrays()).dump() + "\n";
  for (const auto& a : w.arrays()) content += a.bytes;
  return std::string(kMagic) + " format " + std::to_string(kModelFormat) + " bytes " + std::to_string(content.size()) +
         " sha256 " + sha256_hex(content) + "\n" + content;
}

void save_model(const std::string& path, const ModelHeader& h, const Learner& learner) {
  write_file_atomic(path, model_bytes(h, learner));
}

ModelFile parse_model(const std::string& bytes, const std::string& where) {
  try {
    const std::string content = checked_content(bytes);
    const std::size_t nl = content.find('\n');
    if (nl == std::string::npos) throw ModelError("no header line");
    nlohmann::json j;
    try {
      j = parse_json(std::string_view(content).substr(0, nl));
    } catch (const JsonRefused& e) {
      throw ModelError(std::string("header: ") + e.what() + " (docs/inputs.md#json)");
    }
    if (!j.is_object()) throw ModelError("header: not a JSON object");
    ModelFile m;
    m.path = where;
    m.header = header_from_json(j);
    m.arrays = arrays_from(field<nlohmann::json>(j, "arrays", "a list"), content.substr(nl + 1));
    return m;
  } catch (const std::invalid_argument& e) {  // ModelError, and a parser's (labels, preprocess)
    throw ModelError(where + ": " + e.what());
  } catch (const std::exception& e) {  // JSON syntax
    throw ModelError(where + ": header: " + json_error_text(e));
  }
}

// The first line alone, checked, before the rest: at most its byte count more is read (a device
// such as /dev/zero or a huge file of another kind costs kMaxFirstLine bytes, not its size).
ModelFile read_model(const std::string& path) {
  std::error_code ec;
  const bool folder = std::filesystem::is_directory(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (!in || folder) {  // the user's fault (exit 2), as a data file's
    const std::string why = path == "-" ? "a model is read from a file, not standard input"
                            : folder    ? "a directory"
                                        : std::strerror(errno);
    throw ModelError(path + ": cannot read the model file (" + why + ")");
  }
  std::string bytes;
  for (char c; bytes.size() <= kMaxFirstLine && in.get(c);) {
    bytes += c;
    if (c == '\n') break;
  }
  std::istringstream line(bytes);
  std::string magic, kf, kb;
  long long format = -1;
  unsigned long long n = 0;
  if (bytes.empty() || bytes.back() != '\n' || !(line >> magic >> kf >> format >> kb >> n) || magic != kMagic ||
      kb != "bytes")
    return parse_model(bytes, path);  // refused with the first line's fault
  std::string block(1 << 16, '\0');
  const std::size_t first = bytes.size();
  const unsigned long long cap = n == ULLONG_MAX ? n : n + 1;  // one byte more than announced shows data appended
  while (in && bytes.size() - first < cap) {
    const unsigned long long left = cap - (bytes.size() - first);
    in.read(block.data(), static_cast<std::streamsize>(std::min<unsigned long long>(block.size(), left)));
    bytes.append(block.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return parse_model(bytes, path);
}

void fit_labels(Dataset& d, const ModelFile& m) {
  const auto& classes = m.header.classes;
  if (classes.empty() != !d.multiclass())
    throw ModelError(d.name + ": the labels do not fit the model " + m.path + " (" +
                     (classes.empty() ? "it is binary and the data has class labels"
                                      : "it has classes and the data was read without --labels classes") + ")");
  if (classes.empty()) return;
  for (double& y : d.y) y = d.classes.at(static_cast<std::size_t>(y));
  try {
    index_classes(d, classes);
  } catch (const DataError& e) {
    throw ModelError(std::string(e.what()) + " of the model " + m.path);
  }
}

}  // namespace plab

namespace plab {

Prediction predict(const Learner& learner, const ModelHeader& h, const std::string& which, const Example& x) {
  if (const auto* mc = dynamic_cast<const MulticlassLearner*>(&learner)) {
    const std::vector<double> f = mc->scores_of(x);
    const std::size_t best = static_cast<std::size_t>(std::max_element(f.begin(), f.end()) - f.begin());
    double other = -std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < f.size(); ++c)
      if (c != best) other = std::max(other, f[c]);
    return {f[best] - other, h.classes.at(best)};
  }
  const double s = learner.score_as(which, x);
  if (h.labels == "regression") return {s, s};
  return {s, s > 0.0 ? 1.0 : -1.0};
}

}  // namespace plab
