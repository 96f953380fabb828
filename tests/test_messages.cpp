// Messages: bytes echoed in messages are escaped; a gzip file cut inside
// its trailer is called truncated; rows that do not apply carry no value (docs/inputs.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "bounds/bounds.hpp"
#include "datasets/text_parse.hpp"
#include "tests/test_util.hpp"

using plab::test_util::TempDir;

TEST(Messages, ControlBytesAreEscapedNotEchoed) {
  EXPECT_EQ(plab::detail::quote(std::string("a\rb\x01", 4) + std::string(1, '\0')), "'a\\x0db\\x01\\x00'");
  EXPECT_EQ(plab::detail::quote("\x1b[31mred"), "'\\x1b[31mred'");
  EXPECT_EQ(plab::detail::quote("plain-1.5e3"), "'plain-1.5e3'");
}

TEST(Messages, GzipCutInsideItsTrailerIsTruncated) {
  TempDir dir("gz_trailer");
  const std::string plain = (dir.p / "d.svm").string(), gz = plain + ".gz";
  {
    std::ofstream f(plain);
    for (int i = 0; i < 50; ++i) f << (i % 2 ? "+1" : "-1") << " 1:" << i % 7 << " 2:1\n";
  }
  // A gzip member ends with 8 trailer bytes (CRC-32, length); cutting 3 leaves the data whole.
  ASSERT_EQ(std::system(("gzip -n -k " + plain + " && truncate -s -3 " + gz).c_str()), 0);
  const auto r = plab::test_util::run_cli("run --algo perceptron --data " + gz + " --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("gzip stream is truncated"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("zlib error 0"), std::string::npos) << r.output;
}

// A multiclass run with the uniform update: the Kesler rows do not apply, and carried their
// value and "vacuous": true.
TEST(Messages, RowsThatDoNotApplyCarryNoValue) {
  std::vector<plab::RoundRecord> R(20);
  for (std::size_t t = 0; t < R.size(); ++t) {
    R[t].t = static_cast<int64_t>(t + 1);
    R[t].y = static_cast<double>(t % 3);
    R[t].score = t < 8 ? -0.5 : 0.5;
    R[t].mistake = t < 8;
    R[t].update = t < 8 ? plab::UpdateKind::add : plab::UpdateKind::none;
    R[t].kxx = 1.0;
    R[t].f_norm2 = 1.0;
    R[t].g = 0.1;
  }
  plab::RunFacts f;
  f.algo = "multiclass-perceptron";
  f.options.own["update_rule"] = "uniform";
  f.comparator = "svm";
  f.g_norm = 1.0;
  const auto rs = plab::evaluate_bounds(R, f);
  ASSERT_FALSE(rs.empty());
  for (const auto& b : rs) {
    EXPECT_FALSE(b.applicable) << b.id;
    EXPECT_FALSE(b.vacuous) << b.id;
    EXPECT_TRUE(std::isnan(b.value)) << b.id;
    EXPECT_TRUE(plab::to_json(b)["value"].is_null()) << b.id;
  }
}

// A header naming its first column `label` was read with the last column as the label, silently.
TEST(Messages, CsvHeaderNamingAnotherLabelColumnIsRefused) {
  TempDir dir("csv_label");
  const std::string p = (dir.p / "h.csv").string();
  std::ofstream(p) << "label,f1,f2\n1,0.5,2\n-1,0.25,3\n1,0.75,4\n";
  const auto r = plab::test_util::run_cli("run --algo perceptron --data " + p + " --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(p + ":1:1: the header names column 1 'label', but --label-column last reads column 3"),
            std::string::npos) << r.output;
  const auto ok = plab::test_util::run_cli("run --algo perceptron --data " + p + " --label-column label --quiet");
  EXPECT_EQ(ok.status, 0) << ok.output;
}
