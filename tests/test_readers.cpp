// Strict readers: every LIBSVM error names file:line:col; label spellings and maps; transparent
// .gz/.bz2/.xz; CSV/TSV, IDX and USPS formats. Fixtures are written by the tests themselves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>

#include "core/sha256.hpp"
#include "datasets/readers.hpp"
#include "datasets/text_parse.hpp"
#include "tests/test_util.hpp"

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
  expect_error([&] { load_libsvm(p); }, {p + ":1: gzip stream is corrupt (not gzip data: bad header)"});
  // Damaged bytes inside a good stream: corrupt, not truncated.
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "+1 1:" + std::to_string(i) + "\n";
  const auto plain = write("mid.svm", text);
  for (const std::string tool : {"gzip", "bzip2", "xz"}) {
    ASSERT_EQ(std::system((tool + " -k -f '" + plain + "'").c_str()), 0);
    const std::string ext = tool == "gzip" ? ".gz" : tool == "bzip2" ? ".bz2" : ".xz";
    const auto damaged = (dir / ("damaged.svm" + ext)).string();
    fs::copy_file(plain + ext, damaged, fs::copy_options::overwrite_existing);
    std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
    // bzip2 and xz check every block before output; deflate checks only its CRC-32 trailer.
    const auto size = static_cast<std::streamoff>(fs::file_size(damaged));
    f.seekp(tool == "gzip" ? size - 8 : size / 2);
    f.write("XXXXXXXX", 8);
    f.close();
    expect_error([&] { load_libsvm(damaged); }, {tool + " stream is corrupt"});
  }
}

// A compressed file cut in the middle: the message names the compression, says truncated and
// gives the line being read, for each of the three decoders.
TEST_F(Readers, TruncatedCompressedFilesNameCompressionAndLine) {
  std::string text;
  for (int i = 0; i < 120000; ++i) text += (i % 2 ? "+1" : "-1") + std::string(" 1:") + std::to_string(i) + " 7:0.25\n";
  const auto plain = write("big.svm", text);
  for (const std::string tool : {"gzip", "bzip2", "xz"}) {
    ASSERT_EQ(std::system((tool + " -k -f '" + plain + "'").c_str()), 0);
    const std::string ext = tool == "gzip" ? ".gz" : tool == "bzip2" ? ".bz2" : ".xz";
    const auto full = plain + ext;
    const auto cut = (dir / ("cut.svm" + ext)).string();
    fs::copy_file(full, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, fs::file_size(full) / 2);
    try {
      load_libsvm(cut);
      ADD_FAILURE() << ext << ": no error";
    } catch (const DataError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(tool + " stream is truncated"), std::string::npos) << m;
      // Half of the compressed bytes decode to a good part of the 120000 lines (bzip2 works in
      // 900 kB blocks, 2.2 MB here): the line being read is named.
      const std::size_t colon = m.find(':', cut.size() + 1);
      const long line = std::stol(m.substr(cut.size() + 1, colon - cut.size() - 1));
      EXPECT_GT(line, 1000) << m;
      EXPECT_LT(line, 120000) << m;
    }
  }
}

// The checksum is of the bytes as stored, computed while reading (one pass, FIFOs work).
TEST_F(Readers, ChecksumComputedWhileReading) {
  const auto p = write("c.svm", "+1 1:1\n-1 2:1\n");
  EXPECT_EQ(load_libsvm(p).sha256, sha256_file(p));
  ASSERT_EQ(std::system(("xz -k -f '" + p + "'").c_str()), 0);
  EXPECT_EQ(load_libsvm(p + ".xz").sha256, sha256_file(p + ".xz"));
  const auto q = write("c.csv", "a,b,y\n1,2,1\n");
  EXPECT_EQ(load_delimited(q, ',', DelimitedLayout{}).sha256, sha256_file(q));
}

// ---- labels ----

TEST_F(Readers, AcceptedLabelSpellings) {
  const auto p = write("ok.svm", "+1 1:1\n1 1:1 \n1.0 1:1\n-1 1:1\n-1.0 1:1\n");
  EXPECT_EQ(load_libsvm(p).y, (std::vector<double>{1, 1, 1, -1, -1}));
  // 0 for the negative class, in a file of its own (a file with -1 and 0 has three label values).
  const auto q = write("ok01.svm", "+1 1:1\n0 1:1\n0.0 1:1\n");
  EXPECT_EQ(load_libsvm(q).y, (std::vector<double>{1, -1, -1}));
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
  const std::string text = "+1 1:0.5 3:-2\n-1 2:1.25\n-1 1:1 2:2 3:3\n";
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

// A plain file is read from its mapping, each row stored in place when it has the common shape
// (a label seen before, then INDEX:VALUE tokens fast_decimal takes); a compressed file is read
// line by line the strict way only. On random files mixing such rows with every other shape
// (comments, blank lines, CRLF, a BOM, values only from_chars takes, explicit zeros, new label
// spellings), both give the same arrays bit for bit, and on a file with one bad line the same
// message.
TEST_F(Readers, InPlaceRowsEqualStrictReading) {
  const uint64_t seed = test_util::test_seed(20261129);
  std::mt19937_64 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const auto same_bits = [](const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::bit_cast<uint64_t>(a[i]) != std::bit_cast<uint64_t>(b[i])) return false;
    return true;
  };
  const std::vector<std::string> pos{"+1", "1", "1.0", "+1.0"}, neg{"-1", "-1.0"};
  const std::vector<std::string> values{"0.5", "-0.731854", "1", "0", "0.0", "1e30", ".5", "5.", "-2.5E-3",
                                        "123456789012345678901", "3.25e+2", "7"};
  for (int file = 0; file < 40; ++file) {
    std::string text = pick(0, 4) == 0 ? "\xEF\xBB\xBF" : "";
    const int rows = pick(1, 300);
    for (int r = 0; r < rows; ++r) {
      switch (r + 1 < rows ? pick(0, 19) : 2) {  // the last row an example: a file has one
        case 0: text += "# a comment\n"; continue;
        case 1: text += pick(0, 1) ? "\n" : "  \t\n"; continue;
        default: break;
      }
      std::string line = pick(0, 1) ? pos[static_cast<std::size_t>(pick(0, 3))] : neg[static_cast<std::size_t>(pick(0, 1))];
      uint32_t j = 0;
      for (int k = pick(0, 8); k > 0; --k) {
        j += static_cast<uint32_t>(pick(1, 5));
        const std::string v = pick(0, 3) == 0 ? values[static_cast<std::size_t>(pick(0, 11))] : std::to_string(pick(-999, 999)) + "." + std::to_string(pick(0, 99));
        line += (pick(0, 8) == 0 ? "\t" : " ") + std::to_string(j) + ":" + v;
      }
      if (pick(0, 15) == 0) line += " # trailing";
      if (pick(0, 10) == 0) line += "\r";
      text += line + "\n";
    }
    const std::string name = "f" + std::to_string(file) + ".svm";
    const auto plain = write(name, text);
    ASSERT_EQ(std::system(("gzip -k -f '" + plain + "'").c_str()), 0);
    const Dataset a = load_libsvm(plain), b = load_libsvm(plain + ".gz");
    ASSERT_EQ(a.y, b.y) << "file " << file << " (seed " << seed << ")";
    ASSERT_EQ(a.idx, b.idx) << "file " << file << " (seed " << seed << ")";
    ASSERT_TRUE(same_bits(std::vector<double>(a.val.begin(), a.val.end()), std::vector<double>(b.val.begin(), b.val.end())))
        << "file " << file << " (seed " << seed << ")";
    ASSERT_TRUE(same_bits(a.sqnorm, b.sqnorm)) << "file " << file << " (seed " << seed << ")";
    ASSERT_EQ(a.rowptr, b.rowptr) << "file " << file << " (seed " << seed << ")";
    ASSERT_EQ(a.dim, b.dim) << "file " << file << " (seed " << seed << ")";
    ASSERT_EQ(a.sha256, sha256_file(plain));
    // One bad line at a random place after rows of the common shape: the same message.
    std::string bad = text;
    // "0" is a third label only beside a -1 (alone with +1 it is the negative class): a -1 row first.
    const std::vector<std::string> faults{"+1 3:1 2:1", "-1 1:nan", "+1 1:1e999", "-1 1:1\n0 1:1", "+1 x:1", "-1 1:1 1:2",
                                          "2 1:1"};
    bad += faults[static_cast<std::size_t>(pick(0, 6))] + "\n+1 1:1\n";
    const auto bad_plain = write("bad" + name, bad);
    ASSERT_EQ(std::system(("gzip -k -f '" + bad_plain + "'").c_str()), 0);
    std::string ma, mb;
    try { load_libsvm(bad_plain); } catch (const DataError& e) { ma = e.what(); }
    try { load_libsvm(bad_plain + ".gz"); } catch (const DataError& e) { mb = e.what(); }
    ASSERT_FALSE(ma.empty()) << bad.substr(bad.size() > 30 ? bad.size() - 30 : 0);
    ASSERT_NE(mb.find(".gz"), std::string::npos) << mb;
    for (std::size_t at; (at = mb.find(".svm.gz")) != std::string::npos;) mb.erase(at + 4, 3);  // the path as the plain file's
    EXPECT_EQ(ma, mb) << "(seed " << seed << ")";
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
  // Images are read as they are parsed: a gzip file cut in the middle is refused, naming it, and
  // a longer file than its header says is counted to its end.
  const uint32_t n = 1 << 20;
  std::string many(std::size_t{4} * n, '\0');
  Rng rng(test_util::test_seed(5));
  for (char& c : many) c = static_cast<char>(rng.below(256));  // incompressible: the .gz stays large
  const auto whole = write("many.idx3", idx_images(0x803, n, many));
  const auto labn = write("labn.idx1", idx_labels(0x801, n, std::string(n, char(1))));
  ASSERT_EQ(std::system(("gzip -k -f '" + whole + "'").c_str()), 0);
  const auto cut = write("cut.idx3.gz", test_util::read_text(whole + ".gz").substr(0, 2 * 1024 * 1024));
  expect_error([&] { load_idx(cut, labn, LabelMap::one_vs_rest("1")); }, {cut, "read error (corrupt or truncated file?)"});
  const auto longer = write("long.idx3", idx_images(0x803, 2, px + "abc"));
  expect_error([&] { load_idx(longer, lab, LabelMap::one_vs_rest("1")); },
               {longer, "size mismatch: header promises 24 bytes, file has 27"});
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

// ---- inputs a lenient reader would silently misread ----

TEST_F(Readers, LibsvmThirdLabelValueIsAnError) {
  const auto p = write("three.svm", "+1 1:1\n-1 1:2\n0 1:3\n");
  expect_error([&] { load_libsvm(p); }, {p + ":3:1:", "label '0' after label '-1' at " + p + ":2:1",
                                         "third label value"});
  const auto q = write("three2.svm", "0 1:1\n1 1:2\n-1.0 1:3\n");
  expect_error([&] { load_libsvm(q); }, {q + ":3:1:", "third label value"});
  // Two values are fine either way (svmguide1 and mushrooms use 1/0).
  EXPECT_EQ(load_libsvm(write("ok01.svm", "1 1:1\n0 1:1\n0.0 1:1\n")).y, (std::vector<double>{1, -1, -1}));
  // An explicit map decides for itself.
  EXPECT_EQ(load_libsvm(p, LabelMap::parse("1:+1,*:-1")).y, (std::vector<double>{-1, -1, -1}));
}

TEST_F(Readers, Utf8ByteOrderMarkIsSkipped) {
  const Dataset d = load_libsvm(write("bom.svm", "\xEF\xBB\xBF+1 1:1\n-1 2:1\n"));
  EXPECT_EQ(d.y, (std::vector<double>{1, -1}));
  // CSV: the BOM neither makes the first row a header nor sticks to the first header name.
  const Dataset c = load_delimited(write("bom.csv", "\xEF\xBB\xBF" "1,2,1\n3,4,-1\n5,6,1\n"), ',', DelimitedLayout{});
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.header, "");
  DelimitedLayout byname;
  byname.label_column = "cls";
  const Dataset n = load_delimited(write("bomh.csv", "\xEF\xBB\xBF" "cls,x1\n1,0.5\n-1,2\n"), ',', byname);
  EXPECT_EQ(n.y, (std::vector<double>{1, -1}));
}

TEST_F(Readers, OutOfRangeNumbersSaySo) {
  const auto p = write("big.svm", "+1 1:1e999\n");
  expect_error([&] { load_libsvm(p); }, {p + ":1:6:", "value '1e999' is out of range"});
  const auto q = write("tiny.svm", "+1 1:-1e-999\n");
  expect_error([&] { load_libsvm(q); }, {q + ":1:6:", "out of range"});
  const auto c = write("big.csv", "1,2,1\n1e999,2,1\n");
  expect_error([&] { load_delimited(c, ',', -1, false); }, {c + ":2:1:", "out of range", "column 1"});
  const auto u = write("big.usps", "3 1e400\n");
  expect_error([&] { load_usps(u, LabelMap::one_vs_rest("3")); }, {u + ":1:3:", "out of range"});
  expect_error([&] { load_libsvm(write("ix.svm", "+1 99999999999999999999:1\n")); }, {"too large"});
}

TEST_F(Readers, EchoedTokensAreCapped) {
  const std::string huge(100000, 'x');
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"v.svm", "+1 1:" + huge + "\n"}, {"l.svm", huge + " 1:1\n"}, {"i.svm", "+1 " + huge + ":1\n"},
           {"c.csv", "1," + huge + ",1\n"}}) {
    const auto p = write(name, text);
    try {
      if (name.ends_with(".svm")) load_libsvm(p); else load_delimited(p, ',', -1, false);
      ADD_FAILURE() << name;
    } catch (const DataError& e) {
      const std::string m = e.what();
      EXPECT_LT(m.size(), p.size() + 300) << name;
      EXPECT_NE(m.find("'" + std::string(detail::kEchoMax, 'x') + "...' (100000 characters)"), std::string::npos) << m;
    }
  }
}

// auto: a header only when every cell of the first line is non-numeric text; the dropped line
// is recorded (Dataset::header) so the CLI can report it.
TEST_F(Readers, CsvHeaderAutoOnlyForAllTextFirstLine) {
  const Dataset h = load_delimited(write("h.csv", "a,b,label\n1,2,1\n3,4,-1\n"), ',', DelimitedLayout{});
  EXPECT_EQ(h.size(), 2u);
  EXPECT_NE(h.header.find("'a,b,label'"), std::string::npos) << h.header;
  EXPECT_NE(h.header.find("h.csv:1"), std::string::npos) << h.header;
  // NA, an empty cell or a number in the first line: it is data, and its defect is reported.
  const auto na = write("na.csv", "NA,b,1\n1,2,1\n3,4,-1\n");
  expect_error([&] { load_delimited(na, ',', DelimitedLayout{}); }, {na + ":1:1:", "non-numeric value 'NA'"});
  const auto empty = write("empty.csv", ",2,1\n1,2,1\n3,4,-1\n");
  expect_error([&] { load_delimited(empty, ',', DelimitedLayout{}); }, {empty + ":1:1:", "non-numeric value ''"});
  // The same defect on a later line is the same error.
  const auto later = write("later.csv", "1,2,1\nNA,2,1\n");
  expect_error([&] { load_delimited(later, ',', DelimitedLayout{}); }, {later + ":2:1:", "non-numeric value 'NA'"});
}

TEST_F(Readers, CsvHeaderYesAndNoAreObeyed) {
  const auto p = write("p.csv", "a,b,c\n1,2,1\n");
  DelimitedLayout no;
  no.header = DelimitedLayout::Header::no;
  expect_error([&] { load_delimited(p, ',', no); }, {p + ":1:1:", "non-numeric value 'a'"});
  DelimitedLayout yes;
  yes.header = DelimitedLayout::Header::yes;
  const auto q = write("q.csv", "1,2,1\n3,4,-1\n");
  const Dataset d = load_delimited(q, ',', yes);
  EXPECT_EQ(d.y, (std::vector<double>{-1}));
  EXPECT_NE(d.header.find("'1,2,1'"), std::string::npos);
  // The header only names: wdbc's is "569,30,malignant,benign" over rows of 31 cells.
  const Dataset w = load_delimited(write("w.csv", "569,30,malignant,benign\n1,2,3,1\n4,5,6,0\n"), ',', yes);
  EXPECT_EQ(w.size(), 2u);
  EXPECT_EQ(w.dim, 3u);
  EXPECT_THROW(DelimitedLayout::parse_header("maybe"), std::invalid_argument);
}

// UCI style (label first: wine.data has the class 1-3 in column 1) and the covtype CSV (54
// features, class last, 0-based 0-6 in some copies): both load with --label-column and --labels.
TEST_F(Readers, CsvLabelColumnFirstLastNumberAndName) {
  const auto uci = write("wine.data.csv", "1,14.23,1.71\n2,13.2,1.78\n3,13.16,2.36\n1,14.37,1.95\n");
  DelimitedLayout first;
  first.label_column = "first";
  const Dataset w = load_delimited(uci, ',', first, LabelMap::parse("1:+1,*:-1"));
  EXPECT_EQ(w.y, (std::vector<double>{1, -1, -1, 1}));
  EXPECT_EQ(w.dim, 2u);
  EXPECT_EQ(dense(w[0], 2), (std::vector<double>{14.23, 1.71}));
  // The default (last) reads the same file with the class as a feature: 1.71 is no label.
  expect_error([&] { load_delimited(uci, ',', DelimitedLayout{}, LabelMap::parse("1:+1,2:-1")); },
               {uci + ":1:", "label '1.71' is not in the label map"});
  std::string cov;
  for (int r = 0; r < 7; ++r) {
    for (int j = 0; j < 54; ++j) cov += std::to_string((r * 31 + j * 7) % 11) + ",";
    cov += std::to_string(r) + "\n";
  }
  const Dataset c = load_delimited(write("covtype.csv", cov), ',', DelimitedLayout{}, LabelMap::parse("1:+1,*:-1"));
  EXPECT_EQ(c.y, (std::vector<double>{-1, 1, -1, -1, -1, -1, -1}));
  EXPECT_EQ(c.dim, 54u);
  DelimitedLayout num;
  num.label_column = "2";  // 1-based
  const Dataset m = load_delimited(write("mid.csv", "0.5,1,3\n0.25,-1,4\n"), ',', num);
  EXPECT_EQ(m.y, (std::vector<double>{1, -1}));
  EXPECT_EQ(dense(m[1], 2), (std::vector<double>{0.25, 4}));
  DelimitedLayout name;
  name.label_column = "y";
  const Dataset n = load_delimited(write("named.tsv", "x1\ty\tx2\n0.5\t1\t3\n0.25\t-1\t4\n"), '\t', name);
  EXPECT_EQ(n.y, (std::vector<double>{1, -1}));
}

TEST_F(Readers, CsvLabelColumnErrors) {
  const auto p = write("p.csv", "1,2,1\n");
  DelimitedLayout five;
  five.label_column = "5";
  expect_error([&] { load_delimited(p, ',', five); }, {p + ":1:1:", "label column 5 out of range for 3 columns"});
  DelimitedLayout zero;
  zero.label_column = "0";
  expect_error([&] { load_delimited(p, ',', zero); }, {"counts from 1"});
  DelimitedLayout name;
  name.label_column = "label";
  expect_error([&] { load_delimited(p, ',', name); }, {p + ":1:1:", "no header line"});
  const auto h = write("h.csv", "a,b,c\n1,2,1\n");
  expect_error([&] { load_delimited(h, ',', name); }, {h + ":1:1:", "no column named 'label'", "a, b, c"});
}

// The message for std::bad_alloc names the dimension and the memory the data and a dense
// support take: 3 non-zeros x 12 bytes + 2 rows x 24 bytes; 10^7 x 8 bytes = 76.3 MiB.
TEST(DatasetMemory, OutOfMemoryMessageNamesDimensionAndEstimate) {
  Dataset d;
  const std::vector<uint32_t> i1{0, 9999999}, i2{5};
  const std::vector<double> v1{1.0, 2.0}, v2{3.0};
  d.push_back(i1, v1, 1.0);
  d.push_back(i2, v2, -1.0);
  const std::string m = out_of_memory(d, "f.svm").what();
  for (const std::string piece : {"f.svm: out of memory while reading row 3", "dimension 10000000", "2 rows",
                                  "3 non-zeros", "the data take 0.0 MiB", "= 76.3 MiB"})
    EXPECT_NE(m.find(piece), std::string::npos) << piece << " not in: " << m;
}

// The fast decimal path returns exactly std::strtod's value (correctly rounded) whenever it takes
// a token, on random tokens of the shapes data files use and beyond its limits; the reference is
// strtod, not the code under test.
// A LIBSVM row's values, read by the reader (its one-pass fast path where a row allows it, the
// strict parser otherwise), against strtod of each token: the same doubles, bit for bit, explicit
// zeros dropped. Rows mix short and long digit runs, signs, exponents, tabs and leading zeros.
TEST(FastDecimal, LibsvmRowsAgreeWithStrtodTokenByToken) {
  const uint64_t seed = test_util::test_seed(20261130);
  std::mt19937_64 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const plab::LabelMap binary;  // the default binary spellings (the reader keeps a reference to it)
  plab::LabelReader labels(binary);
  std::vector<uint32_t> idx;
  std::vector<double> val;
  for (int n = 0; n < 20000; ++n) {
    std::string line = pick(0, 1) ? "+1" : "-1";
    std::vector<uint32_t> want_idx;
    std::vector<double> want_val;
    uint32_t j = 0;
    for (int k = pick(0, 14); k > 0; --k) {
      j += static_cast<uint32_t>(pick(1, pick(0, 3) == 0 ? 200000000 : 30));
      std::string t;
      if (pick(0, 2) == 0) t += '-';
      const int whole = pick(1, pick(0, 5) == 0 ? 12 : 3), frac = pick(0, 2) == 0 ? 0 : pick(1, pick(0, 5) == 0 ? 12 : 7);
      for (int i = 0; i < whole; ++i) t += static_cast<char>('0' + (pick(0, 3) == 0 ? 0 : pick(0, 9)));
      if (frac > 0) t += '.';
      for (int i = 0; i < frac; ++i) t += static_cast<char>('0' + pick(0, 9));
      if (pick(0, 15) == 0) t += "e" + std::to_string(pick(-5, 5));
      std::string ix = std::to_string(j);
      if (pick(0, 20) == 0) ix = "0" + ix;
      line += (pick(0, 10) == 0 ? "\t" : " ") + ix + ":" + t;
      const double v = std::strtod(t.c_str(), nullptr);
      if (v == 0.0) continue;
      want_idx.push_back(j - 1);
      want_val.push_back(v);
    }
    if (pick(0, 5) == 0) line += ' ';
    double y = 0.0;
    ASSERT_TRUE(plab::parse_libsvm_line(line, "rows", 1, labels, idx, val, y)) << line << " (seed " << seed << ")";
    ASSERT_EQ(idx, want_idx) << line << " (seed " << seed << ")";
    ASSERT_EQ(val.size(), want_val.size()) << line;
    for (std::size_t i = 0; i < val.size(); ++i)
      ASSERT_EQ(std::bit_cast<uint64_t>(val[i]), std::bit_cast<uint64_t>(want_val[i])) << line << " value " << i << " (seed " << seed << ")";
  }
}

TEST(FastDecimal, AgreesWithStrtodBitForBit) {
  std::mt19937_64 rng(test_util::test_seed(20261129));
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int taken = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string t;
    if (pick(0, 3) == 0) t += '-';
    const int whole = pick(0, 12), frac = pick(0, 3) == 0 ? 0 : pick(1, 16);
    for (int i = 0; i < whole; ++i) t += static_cast<char>('0' + pick(0, 9));
    if (frac > 0 || pick(0, 20) == 0) t += '.';
    for (int i = 0; i < frac; ++i) t += static_cast<char>('0' + pick(0, 9));
    if (pick(0, 4) == 0) {
      t += pick(0, 1) ? 'e' : 'E';
      if (pick(0, 2) == 0) t += pick(0, 1) ? '-' : '+';
      t += std::to_string(pick(0, 30));
    }
    double fast = 0.0;
    if (!plab::detail::fast_decimal(t, fast)) continue;
    ++taken;
    char* end = nullptr;
    const double ref = std::strtod(t.c_str(), &end);
    ASSERT_EQ(end, t.c_str() + t.size()) << t;
    ASSERT_EQ(std::bit_cast<uint64_t>(fast), std::bit_cast<uint64_t>(ref)) << t;
    double via = 0.0;  // and the reader's parse gives the same
    ASSERT_EQ(plab::detail::parse_number(t, via), plab::detail::Number::ok) << t;
    ASSERT_EQ(std::bit_cast<uint64_t>(via), std::bit_cast<uint64_t>(ref)) << t;
  }
  EXPECT_GT(taken, 50000);  // the path is exercised, not skipped
  for (const char* t : {"", "-", ".5", "1.", "1e", "1e+", "inf", "nan", "0x1p3", "1e23", "12345678901234567890",
                        "9007199254740993", "1.0.0", "1e5x", "--1"}) {
    double v = 0.0;
    EXPECT_FALSE(plab::detail::fast_decimal(t, v)) << t;
  }
}
