// Registry: real data sets load with the counts listed in docs/conventions.md#dataset-counts,
// checksums are enforced, missing sets list every path tried. Skips when the data is absent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "datasets/registry.hpp"

namespace fs = std::filesystem;
using namespace plab;

namespace {

bool available(const std::string& name) {
  const DatasetInfo* info = find_dataset_info(name);
  return info && !dataset_status(*info, false).root.empty();
}

#define REQUIRE_DATA(name) \
  if (!available(name)) GTEST_SKIP() << name << " not found on the data search path"

std::size_t positives(const Dataset& d) { return static_cast<std::size_t>(std::count(d.y.begin(), d.y.end(), 1.0)); }

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no DataError thrown";
  return "";
}

// Sets PLAB_DATA for one scope.
struct ScopedDataPath {
  explicit ScopedDataPath(const std::string& v) { setenv("PLAB_DATA", v.c_str(), 1); }
  ~ScopedDataPath() { unsetenv("PLAB_DATA"); }
};

fs::path temp_dir(const std::string& tag) {
  auto d = fs::temp_directory_path() / ("plab_test_registry_" + std::to_string(getpid()) + "_" + tag);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(Registry, A9aMatchesPublishedCounts) {
  REQUIRE_DATA("a9a");
  const Dataset d = load_dataset("a9a");
  EXPECT_EQ(d.name, "a9a");
  EXPECT_EQ(d.sha256, "c7a2952bcd0877f2c8a6c44b52b1e8086ffff5c4cb1ff9e4d700c97313f2d6a4");
  EXPECT_NE(d.path.find("a9a/a9a.xz"), std::string::npos);
  EXPECT_EQ(d.size(), 32561u);
  EXPECT_EQ(d.dim, 123u);
  EXPECT_EQ(positives(d), 7841u);
  EXPECT_EQ(d.idx.size(), 451592u);
}

TEST(Registry, OtherSetsMatchPublishedCounts) {
  // README counts: rows and positives after the default label mapping.
  struct Want { const char* name; std::size_t rows, pos, dim; };
  for (const Want w : {Want{"a9a.t", 16281, 3846, 122}, Want{"a1a", 1605, 395, 119},
                       Want{"ijcnn1", 49990, 4853, 22}, Want{"ijcnn1.t", 91701, 8712, 22},
                       Want{"svmguide1", 3089, 2000, 4}, Want{"mushrooms", 8124, 3916, 112},
                       Want{"agaricus", 6513, 3140, 126}, Want{"agaricus.t", 1611, 776, 126},
                       Want{"sonar", 208, 97, 60}, Want{"ionosphere", 351, 225, 34},
                       Want{"breast-cancer", 683, 444, 10}, Want{"australian", 690, 307, 14},
                       Want{"heart_scale", 270, 120, 13}, Want{"diabetes", 768, 268, 8},
                       Want{"banana", 5300, 2376, 2}, Want{"phoneme_elena", 5404, 1586, 5},
                       Want{"wdbc", 569, 357, 30}}) {
    if (!available(w.name)) continue;
    const Dataset d = load_dataset(w.name);
    EXPECT_EQ(d.size(), w.rows) << w.name;
    EXPECT_EQ(positives(d), w.pos) << w.name;
    EXPECT_EQ(d.dim, w.dim) << w.name;
  }
}

TEST(Registry, MulticlassNeedsLabelMap) {
  REQUIRE_DATA("usps");
  const std::string m = error_of([] { load_dataset("usps"); });
  EXPECT_NE(m.find("multiclass"), std::string::npos) << m;
  EXPECT_NE(m.find("--labels 3:+1,*:-1"), std::string::npos) << m;
  // zip.info.txt: 658 threes among 7291 training digits; 166 among 2007 test digits.
  const Dataset d = load_dataset("usps", LabelMap::parse("3:+1,*:-1"));
  EXPECT_EQ(d.size(), 7291u);
  EXPECT_EQ(d.dim, 256u);
  EXPECT_EQ(positives(d), 658u);
  if (available("usps.t")) {
    EXPECT_EQ(positives(load_dataset("usps.t", LabelMap::one_vs_rest("3"))), 166u);
  }
}

TEST(Registry, MnistTestAndDigits) {
  REQUIRE_DATA("mnist-test");
  const Dataset d = load_dataset("mnist-test", LabelMap::one_vs_rest("0"));
  EXPECT_EQ(d.size(), 10000u);
  EXPECT_EQ(d.dim, 784u);
  EXPECT_EQ(positives(d), 980u);  // README: 980 zeros
  const Dataset r = load_dataset("mnist-test", LabelMap::parse("regression"));
  EXPECT_EQ(std::count(r.y.begin(), r.y.end(), 1.0), 1135);
  for (double v : d.val) ASSERT_TRUE(v > 0.0 && v <= 1.0);
  if (available("digits")) {
    const Dataset g = load_dataset("digits", LabelMap::parse("regression"));
    EXPECT_EQ(g.size(), 1797u);
    EXPECT_EQ(g.dim, 64u);
  }
}

TEST(Registry, EveryAvailableEntryPassesItsChecksum) {
  std::size_t found = 0;
  for (const auto& info : dataset_registry()) {
    const DatasetStatus st = dataset_status(info, true);
    if (st.root.empty()) continue;
    ++found;
    EXPECT_TRUE(st.bad_files.empty()) << info.name << ": " << (st.bad_files.empty() ? "" : st.bad_files[0]);
  }
  if (found == 0) GTEST_SKIP() << "no registry data found";
}

TEST(Registry, ChecksumMismatchIsAnError) {
  REQUIRE_DATA("a1a");
  const DatasetInfo* info = find_dataset_info("a1a");
  const fs::path root = temp_dir("mismatch");
  const fs::path src = fs::path(dataset_status(*info, false).root) / "a1a/a1a";
  fs::create_directories(root / "a1a");
  fs::copy_file(src, root / "a1a/a1a", fs::copy_options::overwrite_existing);
  fs::permissions(root / "a1a/a1a", fs::perms::owner_read | fs::perms::owner_write);
  {
    std::fstream f(root / "a1a/a1a", std::ios::in | std::ios::out | std::ios::binary);
    const char c = static_cast<char>(f.get());
    ASSERT_TRUE(c == '-' || c == '+') << "unexpected first byte of a1a";
    f.seekp(0);
    f.put(c == '-' ? '+' : '-');  // "-1 ..." <-> "+1 ...": still valid LIBSVM, different bytes
  }
  ScopedDataPath env(root.string());
  const std::string m = error_of([] { load_dataset("a1a"); });
  EXPECT_NE(m.find((root / "a1a/a1a").string()), std::string::npos) << m;
  EXPECT_NE(m.find("SHA-256 mismatch"), std::string::npos) << m;
  EXPECT_NE(m.find("expected " + info->files[0].sha256), std::string::npos) << m;
  EXPECT_NE(m.find("got "), std::string::npos) << m;
  EXPECT_FALSE(dataset_status(*info, true).bad_files.empty());
  fs::remove_all(root);
}

TEST(Registry, MissingDataSetListsEveryPathAndTheUrl) {
  DatasetInfo fake;
  fake.name = "nowhere";
  fake.files = {{"nowhere/nowhere.xz", "00"}};
  fake.url = "https://example.org/nowhere";
  const std::vector<std::string> path = {"/nonexistent/one", "/nonexistent/two", "relative/three"};
  const std::string m = error_of([&] { locate_dataset(fake, path); });
  for (const auto& p : path) EXPECT_NE(m.find(p), std::string::npos) << m;
  EXPECT_NE(m.find("nowhere/nowhere.xz"), std::string::npos) << m;
  EXPECT_NE(m.find("https://example.org/nowhere"), std::string::npos) << m;
  EXPECT_NE(m.find("PLAB_DATA"), std::string::npos) << m;

  const std::string u = error_of([] { load_dataset("no-such-data-set"); });
  EXPECT_NE(u.find("no-such-data-set: no such file"), std::string::npos) << u;
  EXPECT_NE(u.find("a9a"), std::string::npos) << u;  // lists the registered names
}

TEST(Registry, SearchPathOrder) {
  ScopedDataPath env("/first/dir:/second/dir");
  const auto p = data_search_path();
  ASSERT_GE(p.size(), 4u);
  EXPECT_EQ(p[0], "/first/dir");
  EXPECT_EQ(p[1], "/second/dir");
  EXPECT_EQ(p[2], (fs::path(PLAB_SOURCE_DIR) / "../shared/datasets").lexically_normal().string());
  EXPECT_EQ(p[3], "../shared/datasets");
}

TEST(Registry, PlainFilesAndGenerators) {
  const fs::path root = temp_dir("files");
  const auto csv = (root / "x.csv").string();
  std::ofstream(csv) << "f1,f2,label\n1,2,1\n3,0,0\n";
  const Dataset c = load_dataset(csv);  // header detected (non-numeric first line)
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c.name, "x.csv");
  EXPECT_EQ(c.sha256.size(), 64u);
  const auto svm = (root / "y.txt").string();
  std::ofstream(svm) << "+1 2:1\n";
  EXPECT_EQ(load_dataset(svm).dim, 2u);
  const Dataset s = load_dataset("synthetic:xor:n=10,seed=3");
  EXPECT_EQ(s.size(), 10u);
  EXPECT_EQ(s.name, "synthetic:xor:n=10,seed=3");
  EXPECT_TRUE(s.path.empty());
  fs::remove_all(root);
}
