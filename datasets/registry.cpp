// The named data sets (files, checksums, download addresses and label conventions as listed in
// docs/conventions.md#checksums), the search path and load_dataset().
#include "datasets/registry.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "core/format.hpp"
#include "core/sha256.hpp"
#include "datasets/synthetic.hpp"

namespace plab {
namespace fs = std::filesystem;

namespace {
const char* kLibsvm = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/";

DatasetInfo entry(std::string name, std::string format, std::vector<DatasetFile> files, std::string labels,
                  std::string url, std::string description) {
  DatasetInfo d;
  d.name = std::move(name);
  d.format = std::move(format);
  d.files = std::move(files);
  d.labels = std::move(labels);
  d.url = std::move(url);
  d.description = std::move(description);
  return d;
}

DatasetInfo delimited(DatasetInfo d, bool header) {
  d.header = header;
  d.label_column = -1;
  return d;
}

DatasetInfo multiclass(DatasetInfo d) {
  d.multiclass = true;
  return d;
}

bool default_labels(const LabelMap& m) { return m.map.empty() && !m.others && !m.regression; }

bool strip_suffix(std::string& s, const std::string& suf) {
  if (s.size() < suf.size() || s.compare(s.size() - suf.size(), suf.size(), suf) != 0) return false;
  s.resize(s.size() - suf.size());
  return true;
}
}  // namespace

const std::vector<DatasetInfo>& dataset_registry() {
  const std::string L = kLibsvm;
  static const std::vector<DatasetInfo> reg = {
      entry("a9a", "libsvm", {{"a9a/a9a.xz", "c7a2952bcd0877f2c8a6c44b52b1e8086ffff5c4cb1ff9e4d700c97313f2d6a4"}}, "",
            L + "a9a", "Adult (UCI), Platt's 123 binary features; +1 = income >50K"),
      entry("a9a.t", "libsvm", {{"a9a/a9a.t.xz", "062c4d552cafaf641effeb9742e80775d9c5593245da70817ed5c22f3dd9e0bc"}},
            "", L + "a9a.t", "Adult test split"),
      entry("a1a", "libsvm", {{"a1a/a1a", "25117c3e7614e158bb7f883b47b1facb46c28948fdfc9eae4f804ac2c00e0392"}}, "",
            L + "a1a", "Adult, small training split"),
      entry("a1a.t", "libsvm", {{"a1a/a1a.t.xz", "55ce84b257bda80f4e1989b0f272d6eff92b22a6e8dc4440bdb01a1545bc2755"}},
            "", L + "a1a.t", "Adult, test split of a1a"),
      entry("ijcnn1", "libsvm",
            {{"ijcnn1/ijcnn1.trn.bz2", "b38a4198ce142d43e96fb86d17b87211feec1f909ac344fa057455c69de29de3"}}, "",
            L + "ijcnn1.bz2", "IJCNN 2001 challenge, train + validation (labels 1.0/-1.0)"),
      entry("ijcnn1.t", "libsvm",
            {{"ijcnn1/ijcnn1.tst.bz2", "acd1db430684fdd3f0c768ecc49aa8e749d0004fc117611220c2aa576a7b6a24"}}, "",
            L + "ijcnn1.t.bz2", "IJCNN 2001 challenge, test"),
      entry("svmguide1", "libsvm",
            {{"svmguide1/svmguide1", "2b9ab55b6236f62cee6b7739b52f9e7cb033771f39b9c22c1f1790d80ef14d7f"}}, "",
            L + "svmguide1", "astroparticle (LIBSVM guide); labels 1 -> +1, 0 -> -1"),
      entry("svmguide1.t", "libsvm",
            {{"svmguide1/svmguide1.t", "f9c2fd4c725172aeb4476fc1e2327d537f7fbc2f53f49dfd073f80efbe1ba8f7"}}, "",
            L + "svmguide1.t", "astroparticle test split"),
      entry("mushrooms", "libsvm",
            {{"mushrooms/mushrooms", "b0d855abdc099142ea4fadb3b8c6cea523ce290e12591be1704e5c85d8a4160a"}}, "",
            L + "mushrooms", "UCI Mushroom one-hot; +1 = poisonous (stored 1), -1 = edible (stored 0)"),
      entry("agaricus", "libsvm",
            {{"agaricus/agaricus.txt.train", "915c2def06e9b44a306ad097fe8b6652c7c477d9c1e605bd2130ad20a70a8ad6"}}, "",
            "https://github.com/dmlc/xgboost/tree/master/demo/data",
            "UCI Mushroom, xgboost demo split; +1 = poisonous"),
      entry("agaricus.t", "libsvm",
            {{"agaricus/agaricus.txt.test", "765db79391141953d890ce197fe828a621d6487fbba4de5e4d2217bd140371c0"}}, "",
            "https://github.com/dmlc/xgboost/tree/master/demo/data", "xgboost demo test split"),
      entry("sonar", "libsvm",
            {{"sonar/sonar_scale", "5d820b62d9873f13b283738971b02aef67900fcd98b310c8e77eca3d0dc53daa"}}, "",
            L + "sonar_scale", "UCI Sonar, scaled to [-1,1]; +1 = rock, -1 = mine"),
      entry("ionosphere", "libsvm",
            {{"ionosphere/ionosphere_scale", "c4f7fb384c95f758fbc92e06652b952cdf906e28707a5f24ab5b1d691d9296e3"}}, "",
            L + "ionosphere_scale", "UCI Ionosphere, scaled; +1 = good, -1 = bad"),
      entry("breast-cancer", "libsvm",
            {{"breast-cancer/breast-cancer_scale_pm1",
              "e3acc31396f1ea8c8f83c35e439787e154cd6c2a41341dbed6db433d8b229941"}},
            "", L + "breast-cancer_scale",
            "Wisconsin (original), scaled; +1 = benign, -1 = malignant; feature 1 is the scaled sample ID"),
      entry("australian", "libsvm",
            {{"australian/australian", "25a5d45d53b5db7c402f1bf58aea5ed5f0387ad525ec7f0131585f1f63033b38"}}, "",
            L + "australian", "Statlog Australian credit, unscaled"),
      entry("heart_scale", "libsvm",
            {{"heart_scale/heart_scale", "5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9"}}, "",
            L + "heart", "Statlog heart, scaled (LIBSVM example file)"),
      entry("diabetes", "libsvm",
            {{"diabetes/diabetes_01", "e0d0ec1906364f97793e343464f048b250a575818423743b55b7587c5f6491fb"}},
            "0:+1,1:-1", L + "diabetes",
            "Pima Indians diabetes, unscaled; stored 0 = tested positive -> +1, 1 = tested negative -> -1"),
      delimited(entry("banana", "tsv",
                      {{"banana/banana.tsv.gz", "f3ade821f9a0caebdd8b244319e66932c4b453ade027f42f86ed8ea1a50251ba"}},
                      "", "https://sci2s.ugr.es/keel/dataset.php?cod=182",
                      "KEEL / Raetsch banana, 5300 points in 2-D (PMLB copy)"),
                true),
      delimited(entry("phoneme_elena", "tsv",
                      {{"phoneme_elena/phoneme.tsv.gz",
                        "2e1c31a2c560f3539be5bda1084939765c80ddd814bd6919fd8a3465f9b8aee6"}},
                      "", "https://github.com/EpistasisLab/pmlb/tree/master/datasets/phoneme",
                      "ELENA phoneme (NOT the TIMIT task of the Projectron paper); stored 1 -> +1, 0 -> -1"),
                true),
      delimited(entry("wdbc", "csv",
                      {{"wdbc/breast_cancer.csv", "fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed"}},
                      "", "https://archive.ics.uci.edu/dataset/17/breast+cancer+wisconsin+diagnostic",
                      "Wisconsin diagnostic (scikit-learn copy); +1 = benign (stored 1), -1 = malignant (0)"),
                true),
      multiclass(delimited(
          entry("digits", "csv",
                {{"digits/digits.csv.gz", "46abec6b12486ad9e51943373abcf22bbea1b5a51a1619b361570d8893f1464a"}}, "",
                "https://archive.ics.uci.edu/dataset/80/optical+recognition+of+handwritten+digits",
                "optdigits 8x8 (scikit-learn copy), digits 0-9 in the last column"),
          false)),
      multiclass(entry("mnist", "idx",
                       {{"mnist/train-images-idx3-ubyte.gz",
                         "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"},
                        {"mnist/train-labels-idx1-ubyte.gz",
                         "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c"}},
                       "", "http://yann.lecun.com/exdb/mnist/",
                       "MNIST training set (60000 images, 28x28, pixels/255), digits 0-9")),
      multiclass(entry("mnist-test", "idx",
                       {{"mnist/t10k-images-idx3-ubyte.gz",
                         "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6"},
                        {"mnist/t10k-labels-idx1-ubyte.gz",
                         "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6"}},
                       "", "http://yann.lecun.com/exdb/mnist/",
                       "MNIST test set only (10000 images, 28x28, pixels/255), digits 0-9")),
      multiclass(entry("usps", "usps",
                       {{"usps/zip.train.gz", "66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16"}}, "",
                       "https://hastie.su.domains/ElemStatLearn/datasets/zip.train.gz",
                       "USPS digits, ESL version (16x16, values in [-1,1]), digits 0-9")),
      multiclass(entry("usps.t", "usps",
                       {{"usps/zip.test.gz", "8dacc3c6e136af6c3488de9e5113a7daf140c8c2f1f0b61c54ee02f03f1a962f"}}, "",
                       "https://hastie.su.domains/ElemStatLearn/datasets/zip.test.gz", "USPS digits, test split")),
      // The paper's other data sets (JMLR Figures 8c, 8d, 10; figures R7, R8). We never had a copy:
      // their checksums are not pinned (docs/conventions.md#checksums).
      entry("news20.binary", "libsvm", {{"news20.binary/news20.binary.bz2", ""}}, "", L + "news20.binary.bz2",
            "news20.binary (Keerthi, DeCoste 2005): 19996 texts, 1355191 features, tf-idf, unit norm"),
      multiclass(entry("vehicle-combined", "libsvm", {{"vehicle-combined/combined.bz2", ""}}, "",
                       "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/combined.bz2",
                       "SensIT vehicle (combined), Duarte and Hu 2004: 78823 rows, 100 features, classes 1-3 "
                       "(the paper's binary task is not stated: R7 takes class 3 against the rest)")),
      multiclass(entry("timit-phoneme", "libsvm", {{"timit-phoneme/timit_train.libsvm", ""}}, "",
                       "https://catalog.ldc.upenn.edu/LDC93S1",
                       "TIMIT (LDC licence) phoneme frames, 9 adjacent MFCC vectors with first and second "
                       "derivatives (351 features), 39 classes: the paper's features and its 500-utterance "
                       "subset are not published; prepare them from the LDC corpus")),
      multiclass(entry("timit-phoneme.t", "libsvm", {{"timit-phoneme/timit_core_test.libsvm", ""}}, "",
                       "https://catalog.ldc.upenn.edu/LDC93S1",
                       "TIMIT core test set (192 utterances), the same features")),
  };
  return reg;
}

const DatasetInfo* find_dataset_info(const std::string& name) {
  for (const auto& d : dataset_registry())
    if (d.name == name) return &d;
  return nullptr;
}

namespace {
std::string& build_data_dir() {
  static std::string dir;  // function-local: set from other objects' static initialisers
  return dir;
}
}  // namespace

void set_build_data_dir(std::string dir) { build_data_dir() = std::move(dir); }

std::vector<std::string> data_search_path() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("PLAB_DATA")) {
    const std::string s = env;
    std::size_t pos = 0;
    while (pos <= s.size()) {
      const std::size_t c = std::min(s.find(':', pos), s.size());
      if (c > pos) out.push_back(s.substr(pos, c - pos));
      pos = c + 1;
    }
  }
  if (!build_data_dir().empty()) out.push_back(build_data_dir());
  out.push_back("../shared/datasets");
  return out;
}

std::string locate_dataset(const DatasetInfo& info, const std::vector<std::string>& search_path) {
  for (const auto& root : search_path) {
    bool all = true;
    for (const auto& f : info.files) all = all && fs::is_regular_file(fs::path(root) / f.path);
    if (all) return root;
  }
  std::string msg = "data set '" + info.name + "' not found; looked for";
  for (const auto& f : info.files) msg += " " + f.path;
  msg += " under:";
  for (const auto& root : search_path) msg += "\n  " + root;
  msg += "\nDownload it from " + info.url +
         " into one of these directories (or add a directory to PLAB_DATA, colon-separated); "
         "docs/conventions.md#checksums says where to download each file and how it was prepared.";
  throw DataError(msg);
}

std::string cached_sha256(const std::string& path) {
  static std::mutex mu;
  static std::map<std::tuple<std::string, uintmax_t, int64_t>, std::string> cache;
  std::error_code ec;
  const auto canon = fs::weakly_canonical(path, ec).string();
  const auto size = fs::file_size(path, ec);
  const auto mtime = static_cast<int64_t>(fs::last_write_time(path, ec).time_since_epoch().count());
  const auto key = std::make_tuple(ec ? path : canon, ec ? uintmax_t{0} : size, mtime);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!ec)
      if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  std::string h;
  try { h = sha256_file(path); } catch (const std::runtime_error& e) { throw DataError(e.what()); }
  std::lock_guard<std::mutex> lock(mu);
  if (!ec) cache[key] = h;
  return h;
}

namespace {
std::string sha256_mismatch(const std::string& path, const std::string& expected, const std::string& got) {
  return path + ": SHA-256 mismatch: expected " + expected + ", got " + got +
         " (file changed or corrupt; re-fetch it, see docs/conventions.md#checksums)";
}
}  // namespace

void verify_sha256(const std::string& path, const std::string& expected) {
  if (expected.empty()) return;  // not pinned: read as found (docs/conventions.md#checksums)
  const std::string got = cached_sha256(path);
  if (got != expected) throw DataError(sha256_mismatch(path, expected, got));
}

DatasetStatus dataset_status(const DatasetInfo& info, bool verify) {
  DatasetStatus st;
  st.tried = data_search_path();
  try {
    st.root = locate_dataset(info, st.tried);
  } catch (const DataError&) {
    return st;
  }
  if (verify)
    for (const auto& f : info.files) {
      const std::string p = (fs::path(st.root) / f.path).string();
      if (!f.sha256.empty() && cached_sha256(p) != f.sha256) st.bad_files.push_back(p);
    }
  return st;
}

namespace {
Dataset load_registered(const DatasetInfo& info, const LabelMap& user_labels) {
  const std::string root = locate_dataset(info, data_search_path());
  std::vector<std::string> paths;
  // The text readers hash the file as they read it: one file of theirs is checked after the read
  // (one pass over the bytes), the others before.
  const bool hashed_by_reader = info.files.size() == 1 && (info.format == "libsvm" || info.format == "csv" ||
                                                           info.format == "tsv");
  for (const auto& f : info.files) {
    paths.push_back((fs::path(root) / f.path).string());
    if (!hashed_by_reader) verify_sha256(paths.back(), f.sha256);
  }
  LabelMap labels = user_labels;
  if (default_labels(labels)) {
    if (info.multiclass)
      throw DataError("data set '" + info.name +
                      "' is multiclass (digits 0-9) and has no default binary labels: pass a label map, "
                      "e.g. --labels 3:+1,*:-1 (digit 3 against the rest), --labels classes for the "
                      "multiclass learners, or --labels regression to keep the digit as the label");
    labels = LabelMap::parse(info.labels);
  }
  Dataset d;
  try {
    if (info.format == "libsvm") d = load_libsvm(paths[0], labels);
    else if (info.format == "csv") d = load_delimited(paths[0], ',', info.label_column, info.header, labels);
    else if (info.format == "tsv") d = load_delimited(paths[0], '\t', info.label_column, info.header, labels);
    else if (info.format == "idx") d = load_idx(paths[0], paths[1], labels);
    else if (info.format == "usps") d = load_usps(paths[0], labels);
    else throw DataError("data set '" + info.name + "': unknown format '" + info.format + "'");
  } catch (const DataError&) {
    if (hashed_by_reader) verify_sha256(paths[0], info.files[0].sha256);  // a changed file says so first
    throw;
  }
  if (hashed_by_reader && !info.files[0].sha256.empty() && d.sha256 != info.files[0].sha256)
    throw DataError(sha256_mismatch(paths[0], info.files[0].sha256, d.sha256));
  d.name = info.name;
  d.path = paths[0];
  d.sha256 = info.files[0].sha256.empty() ? cached_sha256(paths[0]) : info.files[0].sha256;
  return d;
}

bool is_data_path(const std::string& spec) {
  std::error_code ec;
  return fs::exists(spec, ec) && !fs::is_directory(spec, ec);
}

std::string registry_names() {
  std::string names;
  for (const auto& d : dataset_registry()) names += (names.empty() ? "" : ", ") + d.name;
  return names;
}

// A registry name that is also a file here is refused: silently picking either is a wrong number.
const DatasetInfo* registry_entry(const std::string& spec) {
  if (spec.rfind(kRegistryPrefix, 0) == 0) {
    const std::string name = spec.substr(std::string(kRegistryPrefix).size());
    if (const DatasetInfo* info = find_dataset_info(name)) return info;
    throw DataError(spec + ": not a registered data set (" + registry_names() + ")");
  }
  const DatasetInfo* info = find_dataset_info(spec);
  if (info && is_data_path(spec))
    throw DataError("'" + spec + "' is both a registered data set and a file in the working directory; write ./" +
                    spec + " to read the file, or " + kRegistryPrefix + spec + " for the registered data set");
  return info;
}

// The reader of a file: `format`, or by the name's extension when it is "auto".
std::string file_format(const std::string& spec, const std::string& format) {
  if (format != "auto") return format;
  std::string base = fs::path(spec).filename().string();
  strip_suffix(base, ".gz") || strip_suffix(base, ".bz2") || strip_suffix(base, ".xz");
  return strip_suffix(base, ".csv") ? "csv" : strip_suffix(base, ".tsv") ? "tsv"
         : (base == "zip.train" || base == "zip.test") ? "usps" : "libsvm";
}

Dataset load_file(const std::string& spec, const LoadOptions& opt) {
  if (!is_data_path(spec))
    throw DataError(spec + (fs::is_directory(spec) ? ": is a directory" : ": no such file") +
                    ", and not a registered data set (" + registry_names() +
                    ") or a generator spec synthetic:NAME[:key=value,...]");
  const std::string format = file_format(spec, opt.format);
  const bool delimited = format == "csv" || format == "tsv";
  if (opt.layout && !delimited)
    throw DataError(spec + ": --header and --label-column apply to CSV/TSV files, and this file is read as " + format +
                    " (pass --format csv or --format tsv)");
  Dataset d;
  if (delimited) d = load_delimited(spec, format == "csv" ? ',' : '\t', opt.layout.value_or(DelimitedLayout{}), opt.labels);
  else if (format == "usps") d = load_usps(spec, opt.labels);
  else if (format == "libsvm") d = load_libsvm(spec, opt.labels, opt.arrivals);
  else throw DataError(spec + ": unknown --format '" + format + "' (auto, libsvm, csv, tsv)");
  d.name = fs::path(spec).filename().string();
  d.path = spec;  // d.sha256 was computed while reading (a FIFO is read once)
  return d;
}
}  // namespace

std::string dataset_source(const std::string& spec) {
  if (spec.rfind("synthetic:", 0) == 0) return "generator";
  return registry_entry(spec) ? "registry" : "file";
}

std::string data_reader(const std::string& spec, const std::string& format) {
  const std::string source = dataset_source(spec);
  return source == "file" ? file_format(spec, format) : source;
}

namespace {
Dataset load_unindexed(const std::string& spec, const LoadOptions& opt) {
  if (spec.rfind("synthetic:", 0) == 0) return make_synthetic(spec.substr(10));
  if (const DatasetInfo* info = registry_entry(spec)) {
    if (opt.layout || opt.format != "auto")
      throw DataError(spec + ": --format, --header and --label-column apply to files, not to the registered data set '" +
                      info->name + "' (its layout is fixed in the registry)");
    return load_registered(*info, opt.labels);  // checked after the read: handed over whole
  }
  return load_file(spec, opt);
}
}  // namespace

void index_classes(Dataset& d, std::vector<double> classes) {
  if (classes.empty()) {
    classes = d.y;
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  }
  for (std::size_t i = 0; i < d.y.size(); ++i) {
    const auto it = std::lower_bound(classes.begin(), classes.end(), d.y[i]);
    if (it == classes.end() || *it != d.y[i])
      throw DataError(d.name + ": row " + std::to_string(i + 1) + ": label " + format_g(d.y[i], 17) +
                      " is not a class of the training data");
    d.y[i] = static_cast<double>(it - classes.begin());
  }
  d.classes = std::move(classes);
}

void check_label_map_matched(const std::string& name, const LabelMap& m, bool any_positive, bool any_negative) {
  if (m.map.empty() || !m.others || m.regression) return;
  for (const double v : {1.0, -1.0}) {
    if (*m.others == v || (v > 0 ? any_positive : any_negative)) continue;
    std::string keys;
    for (const auto& [tok, to] : m.map)
      if (to == v) keys += (keys.empty() ? "'" : ", '") + tok + "'";
    if (keys.empty()) continue;
    throw DataError(name + ": no row's label is " + keys + " (mapped to " + (v > 0 ? "+1" : "-1") +
                    "), so '*' took every row: the label map matches tokens exactly as the file writes them "
                    "(1 is not 1.0)");
  }
}

Dataset load_dataset(const std::string& spec, const LoadOptions& opt) {
  Dataset d = load_unindexed(spec, opt);
  if (opt.labels.classes) index_classes(d);
  if (d.size() > 0)
    check_label_map_matched(d.name, opt.labels, std::find(d.y.begin(), d.y.end(), 1.0) != d.y.end(),
                            std::find(d.y.begin(), d.y.end(), -1.0) != d.y.end());
  return d;
}

Dataset load_dataset(const std::string& spec, const LabelMap& labels) {
  LoadOptions opt;
  opt.labels = labels;
  return load_dataset(spec, opt);
}

}  // namespace plab
