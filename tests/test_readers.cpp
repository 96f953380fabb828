// Strict readers: every LIBSVM error names file:line:col; label spellings and maps; transparent
// .gz/.bz2/.xz; CSV/TSV, IDX and USPS formats. Fixtures are written by the tests themselves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>

#include "datasets/readers.hpp"

namespace fs = std::filesystem;
using namespace plab;

namespace {

class Readers : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("plab_test_readers_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    const auto p = (dir / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

// Runs f, expects a DataError whose message contains every piece.
template <class F>
void expect_error(F&& f, std::initializer_list<std::string> pieces) {
  try {
    f();
    ADD_FAILURE() << "no DataError thrown";
  } catch (const DataError& e) {
    const std::string m = e.what();
    for (const auto& p : pieces) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
  }
}

std::vector<double> dense(const Example& e, std::size_t d) {
  std::vector<double> x(d, 0.0);
  for (std::size_t k = 0; k < e.idx.size(); ++k) x[e.idx[k]] = e.val[k];
  return x;
}

}  // namespace

// ---- LIBSVM errors: one test each, message = "path:line:col: what" ----

TEST_F(Readers, LibsvmNonNumericValue) {
  const auto p = write("bad.svm", "+1 1:0.5\n+1 1:abc\n");
  expect_error([&] { load_libsvm(p); }, {p + ":2:6:", "non-numeric value 'abc'"});
}

TEST_F(Readers, LibsvmNonNumericIndex) {
  const auto p = write("bad.svm", "-1 x:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":1:4:", "non-numeric index 'x'"});
}

TEST_F(Readers, LibsvmIndexNotPositive) {
  const auto p = write("bad.svm", "+1 2:1\n-1 0:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":2:4:", "index 0 must be >= 1"});
}

TEST_F(Readers, LibsvmIndicesNotAscending) {
  const auto p = write("bad.svm", "+1 3:1 2:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":1:8:", "not strictly ascending"});
}

TEST_F(Readers, LibsvmDuplicatedIndex) {
  const auto p = write("bad.svm", "+1 2:1 2:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":1:8:", "index 2 duplicated"});
}

TEST_F(Readers, LibsvmNaNValue) {
  const auto p = write("bad.svm", "+1 1:1 4:nan\n");
  expect_error([&] { load_libsvm(p); }, {p + ":1:10:", "NaN or infinite"});
}

TEST_F(Readers, LibsvmInfValue) {
  const auto p = write("bad.svm", "\n\n-1 1:-inf\n");
  expect_error([&] { load_libsvm(p); }, {p + ":3:6:", "NaN or infinite"});
}

TEST_F(Readers, LibsvmMissingLabel) {
  const auto p = write("bad.svm", "+1 1:1\n1:0.5 2:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":2:1:", "missing label"});
}

TEST_F(Readers, LibsvmUnknownLabel) {
  const auto p = write("bad.svm", "+1 1:1\n  2 1:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":2:3:", "unknown label '2'", "--labels"});
}

TEST_F(Readers, LibsvmEmptyFile) {
  const auto p = write("empty.svm", "");
  expect_error([&] { load_libsvm(p); }, {p, "empty file"});
  const auto q = write("comments.svm", "# only a comment\n\n");
  expect_error([&] { load_libsvm(q); }, {q, "empty file"});
}

TEST_F(Readers, LibsvmMissingFile) {
  const auto p = (dir / "does_not_exist.svm").string();
  expect_error([&] { load_libsvm(p); }, {p, "cannot open"});
}

TEST_F(Readers, LibsvmUnreadableFile) {
  // Tests may run as root, where chmod 000 does not stop reads; a directory is unreadable as data.
  const auto p = (dir / "a_directory").string();
  fs::create_directories(p);
  expect_error([&] { load_libsvm(p); }, {p, "is a directory"});
  if (geteuid() != 0) {
    const auto q = write("noperm.svm", "+1 1:1\n");
    fs::permissions(q, fs::perms::none);
    expect_error([&] { load_libsvm(q); }, {q, "cannot open"});
  }
}

TEST_F(Readers, LibsvmCorruptCompressedFile) {
  const auto p = write("corrupt.gz", "this is not gzip data at all\n");
  expect_error([&] { load_libsvm(p); }, {p, "read error"});
}

// ---- labels ----

TEST_F(Readers, AcceptedLabelSpellings) {
  const auto p = write("ok.svm", "+1 1:1\n1 1:1 \n1.0 1:1\n-1 1:1\n-1.0 1:1\n0 1:1\n");
  const Dataset d = load_libsvm(p);
  EXPECT_EQ(d.y, (std::vector<double>{1, 1, 1, -1, -1, -1}));
}

TEST_F(Readers, ExplicitZerosAndTrailingSpaceAndComments) {
  const auto p = write("ok.svm", "# header comment\n+1 1:0.0 3:2.5 \n-1  2:-1 # trailing comment\n");
  const Dataset d = load_libsvm(p);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.dim, 3u);
  EXPECT_EQ(d[0].idx.size(), 1u);  // the explicit 0.0 is dropped
  EXPECT_EQ(d[0].idx[0], 2u);
  EXPECT_DOUBLE_EQ(d[0].val[0], 2.5);
  EXPECT_DOUBLE_EQ(d[0].sqnorm, 6.25);
  EXPECT_EQ(d[1].idx[0], 1u);
  EXPECT_DOUBLE_EQ(d[1].val[0], -1.0);
}

TEST_F(Readers, LabelMapOneAgainstRest) {
  const auto p = write("multi.svm", "3 1:1\n5 1:1\n3 2:1\n0 1:1\n");
  EXPECT_EQ(load_libsvm(p, LabelMap::parse("3:+1,*:-1")).y, (std::vector<double>{1, -1, 1, -1}));
  EXPECT_EQ(load_libsvm(p, LabelMap::one_vs_rest("5")).y, (std::vector<double>{-1, 1, -1, -1}));
  expect_error([&] { load_libsvm(p, LabelMap::parse("3:+1,5:-1")); },
               {p + ":4:1:", "label '0' is not in the label map"});
  const Dataset r = load_libsvm(p, LabelMap::parse("regression"));
  EXPECT_EQ(r.y, (std::vector<double>{3, 5, 3, 0}));
  EXPECT_THROW(LabelMap::parse("3:+2"), std::invalid_argument);
  EXPECT_THROW(LabelMap::parse("3"), std::invalid_argument);
}

// ---- transparent decompression ----

TEST_F(Readers, CompressedFilesReadTransparently) {
  const std::string text = "+1 1:0.5 3:-2\n-1 2:1.25\n0 1:1 2:2 3:3\n";
  const auto plain = write("data.svm", text);
  const Dataset ref = load_libsvm(plain);
  ASSERT_EQ(ref.size(), 3u);
  for (const std::string tool : {"gzip", "bzip2", "xz"}) {
    const std::string cmd = tool + " -k -f '" + plain + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const std::string ext = tool == "gzip" ? ".gz" : tool == "bzip2" ? ".bz2" : ".xz";
    const Dataset d = load_libsvm(plain + ext);
    EXPECT_EQ(d.y, ref.y) << ext;
    EXPECT_EQ(d.idx, ref.idx) << ext;
    EXPECT_EQ(d.val, ref.val) << ext;
    EXPECT_EQ(d.rowptr, ref.rowptr) << ext;
  }
}

// ---- CSV / TSV ----

TEST_F(Readers, CsvLastColumnLabel) {
  const auto p = write("d.csv", "1.5,0,2,1\n0,3,0,0\r\n0,0,0,1\n");
  const Dataset d = load_delimited(p, ',', -1, false);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d.dim, 3u);  // all three feature columns count, even if trailing ones are zero
  EXPECT_EQ(d.y, (std::vector<double>{1, -1, 1}));
  EXPECT_EQ(dense(d[0], 3), (std::vector<double>{1.5, 0, 2}));
  EXPECT_EQ(dense(d[1], 3), (std::vector<double>{0, 3, 0}));
  EXPECT_EQ(d[2].idx.size(), 0u);
}

TEST_F(Readers, TsvHeaderAndFirstColumnLabel) {
  const auto p = write("d.tsv", "class\ta\tb\n-1.0\t0.25\t-4\n1.0\t1\t0\n");
  const Dataset d = load_delimited(p, '\t', 0, true);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.y, (std::vector<double>{-1, 1}));
  EXPECT_EQ(dense(d[0], 2), (std::vector<double>{0.25, -4}));
  // Without the header flag the header is data: its first feature field is reported.
  expect_error([&] { load_delimited(p, '\t', 0, false); }, {p + ":1:7:", "non-numeric value 'a'", "column 2"});
}

TEST_F(Readers, CsvNonNumeric) {
  const auto p = write("d.csv", "1,2,1\n1,abc,1\n");
  expect_error([&] { load_delimited(p, ',', -1, false); }, {p + ":2:3:", "non-numeric value 'abc'", "column 2"});
}

TEST_F(Readers, CsvNaNAndInf) {
  const auto p = write("d.csv", "nan,2,1\n");
  expect_error([&] { load_delimited(p, ',', -1, false); }, {p + ":1:1:", "NaN or infinite"});
  const auto q = write("e.csv", "1,2,1\n1,-inf,0\n");
  expect_error([&] { load_delimited(q, ',', -1, false); }, {q + ":2:3:", "NaN or infinite"});
}

TEST_F(Readers, CsvWrongColumnCount) {
  const auto p = write("d.csv", "1,2,1\n1,0\n");
  expect_error([&] { load_delimited(p, ',', -1, false); }, {p + ":2:1:", "expected 3 columns, got 2"});
}

TEST_F(Readers, CsvUnknownLabelAndEmpty) {
  const auto p = write("d.csv", "1,2,1\n1,0,7\n");
  expect_error([&] { load_delimited(p, ',', -1, false); }, {p + ":2:5:", "unknown label '7'"});
  const auto q = write("h.csv", "a,b,label\n");
  expect_error([&] { load_delimited(q, ',', -1, true); }, {q, "empty file"});
}

// ---- IDX ----

namespace {
std::string be32(uint32_t v) {
  return {char(v >> 24), char((v >> 16) & 255), char((v >> 8) & 255), char(v & 255)};
}
std::string idx_images(uint32_t magic, uint32_t n, const std::string& pixels) {
  return be32(magic) + be32(n) + be32(2) + be32(2) + pixels;
}
std::string idx_labels(uint32_t magic, uint32_t n, const std::string& labels) {
  return be32(magic) + be32(n) + labels;
}
}  // namespace

TEST_F(Readers, IdxImagesAndLabels) {
  const std::string px = {char(0), char(255), char(51), char(0), char(0), char(0), char(0), char(102)};
  const auto img = write("img.idx3", idx_images(0x803, 2, px));
  const auto lab = write("lab.idx1", idx_labels(0x801, 2, std::string{char(7), char(3)}));
  const Dataset d = load_idx(img, lab, LabelMap::one_vs_rest("3"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.dim, 4u);
  EXPECT_EQ(d.y, (std::vector<double>{-1, 1}));
  EXPECT_EQ(dense(d[0], 4), (std::vector<double>{0, 1.0, 51 / 255.0, 0}));
  EXPECT_EQ(dense(d[1], 4), (std::vector<double>{0, 0, 0, 102 / 255.0}));
  // The same through gzip.
  ASSERT_EQ(std::system(("gzip -k -f '" + img + "' '" + lab + "'").c_str()), 0);
  EXPECT_EQ(load_idx(img + ".gz", lab + ".gz", LabelMap::one_vs_rest("3")).val, d.val);
}

TEST_F(Readers, IdxErrors) {
  const std::string px(8, char(1));
  const auto img = write("img.idx3", idx_images(0x803, 2, px));
  const auto lab = write("lab.idx1", idx_labels(0x801, 2, std::string(2, char(1))));
  const auto swapped = write("swapped.idx3", idx_images(0x801, 2, px));
  expect_error([&] { load_idx(swapped, lab, LabelMap::one_vs_rest("1")); }, {swapped, "bad IDX magic 0x00000801"});
  expect_error([&] { load_idx(img, img, LabelMap::one_vs_rest("1")); }, {img, "bad IDX magic 0x00000803"});
  const auto shortimg = write("short.idx3", idx_images(0x803, 2, px.substr(1)));
  expect_error([&] { load_idx(shortimg, lab, LabelMap::one_vs_rest("1")); }, {shortimg, "size mismatch"});
  const auto lab3 = write("lab3.idx1", idx_labels(0x801, 3, std::string(3, char(1))));
  expect_error([&] { load_idx(img, lab3, LabelMap::one_vs_rest("1")); }, {"size mismatch", "2 images", "3 labels"});
  const auto lab5 = write("lab5.idx1", idx_labels(0x801, 2, std::string(2, char(5))));
  expect_error([&] { load_idx(img, lab5, LabelMap{}); }, {lab5, "unknown label '5'"});
}

// ---- USPS ----

namespace {
std::string usps_line(const std::string& label, int nvalues) {
  std::string s = label;
  for (int k = 0; k < nvalues; ++k) s += k % 3 == 0 ? " -1.0000" : k % 3 == 1 ? " 0.0000" : " 0.5000";
  return s + " \n";
}
}  // namespace

TEST_F(Readers, UspsFormat) {
  const auto p = write("zip.train", usps_line("6.0000", 256) + usps_line("3.0000", 256));
  const Dataset d = load_usps(p, LabelMap::parse("6:+1,*:-1"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.dim, 256u);
  EXPECT_EQ(d.y, (std::vector<double>{1, -1}));
  // 256 values, k % 3 == 1 are zero: 85 zeros, 171 non-zeros (86 of -1, 85 of 0.5).
  EXPECT_EQ(d[0].idx.size(), 171u);
  EXPECT_DOUBLE_EQ(d[0].sqnorm, 86 * 1.0 + 85 * 0.25);
  EXPECT_EQ(load_usps(p, LabelMap::parse("regression")).y, (std::vector<double>{6, 3}));
}

TEST_F(Readers, UspsErrors) {
  const auto p = write("short", usps_line("1.0000", 256) + usps_line("2.0000", 255));
  expect_error([&] { load_usps(p, LabelMap::one_vs_rest("1")); }, {p + ":2:1:", "expected 257 values", "got 256"});
  const auto q = write("badlabel", usps_line("6.5000", 256));
  expect_error([&] { load_usps(q, LabelMap::one_vs_rest("1")); }, {q + ":1:1:", "label '6.5000' is not a digit"});
  const auto r = write("badvalue", "1.0000 x" + usps_line("", 255));
  expect_error([&] { load_usps(r, LabelMap::one_vs_rest("1")); }, {r + ":1:8:", "non-numeric value 'x'"});
}

// ---- Squared norms must be finite (docs/bounds.md#non-finite) ----

TEST_F(Readers, LibsvmOverflowingSquaredNorm) {
  const auto p = write("big.svm", "+1 1:0.5\n-1 1:1e160 2:1\n");
  expect_error([&] { load_libsvm(p); }, {p + ":2", "squared norm", "not finite"});
}

TEST_F(Readers, DelimitedOverflowingSquaredNorm) {
  const auto p = write("big.csv", "1,2,+1\n1e200,1e200,-1\n");
  expect_error([&] { load_delimited(p, ',', -1, false); }, {p + ":2", "squared norm"});
}

TEST_F(Readers, UspsOverflowingSquaredNorm) {
  std::string line = "3";
  for (int k = 0; k < 256; ++k) line += k == 7 ? " 1e155" : " 0.5";
  const auto p = write("big.usps", line + "\n");
  expect_error([&] { load_usps(p, LabelMap::one_vs_rest("3")); }, {p + ":1", "squared norm"});
}

TEST(DatasetPush, SquaredNormAboveQuarterMaxRejected) {
  Dataset d;
  const std::vector<double> ok{1e150, 1e150}, big{1e154, 1e154};
  d.push_dense(ok, 1.0);
  expect_error([&] { d.push_dense(big, 1.0); }, {"row 2", "squared norm"});
  EXPECT_EQ(d.size(), 1u);
}
