// LIBSVM export (docs/models.md#libsvm), checked by LIBSVM itself: svm-predict (Debian libsvm-tools)
// on `plab model export --libsvm` predicts the labels `plab predict` predicts, on a9a (rbf) and on
// a polynomial-kernel and a linear-kernel set, except rows whose plab score is exactly 0 (LIBSVM
// sums in another order, so its decision value there may be +-1e-17: docs/models.md#ties).
// Skipped, saying so, where svm-predict is not installed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/format.hpp"
#include "core/random.hpp"
#include "datasets/registry.hpp"
#include "tests/test_util.hpp"

namespace plab {
namespace {

void write_libsvm(const Dataset& d, std::size_t n, const std::string& path) {
  std::ofstream f(path);
  for (std::size_t i = 0; i < std::min(n, d.size()); ++i) {
    const Example x = d[i];
    f << (x.y > 0 ? "+1" : "-1");
    for (std::size_t q = 0; q < x.idx.size(); ++q) f << " " << x.idx[q] + 1 << ":" << format_g(x.val[q], 17);
    f << "\n";
  }
}

// Trains with `run_flags` on `data`, exports, and compares svm-predict's labels with plab predict's
// on every row of `data` whose score is not exactly 0; returns the number of rows compared.
std::size_t agreement(const test_util::TempDir& dir, const std::string& data, const std::string& run_flags) {
  const std::string m = (dir.p / "m.plab").string(), lm = (dir.p / "m.libsvm").string();
  const std::string pred = (dir.p / "p.csv").string(), out = (dir.p / "svm.txt").string();
  const auto run = test_util::run_cli("run --data " + data + " " + run_flags + " --quiet --no-bounds --save-model " + m);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(test_util::run_cli("model export --libsvm " + m + " " + lm).status, 0);
  EXPECT_EQ(test_util::run_cli("predict --model " + m + " --data " + data + " --output " + pred).status, 0);
  const auto svm = test_util::run_shell("svm-predict '" + data + "' '" + lm + "' '" + out + "' 2>&1");
  EXPECT_EQ(svm.status, 0) << svm.output;
  std::istringstream ours(test_util::read_text(pred)), theirs(test_util::read_text(out));
  std::string line, label;
  std::getline(ours, line);  // header
  std::size_t compared = 0, ties = 0, row = 0;
  while (std::getline(ours, line) && std::getline(theirs, label)) {
    ++row;
    std::istringstream cells(line);
    std::string r, y, score, predicted;
    std::getline(cells, r, ','); std::getline(cells, y, ','); std::getline(cells, score, ','); std::getline(cells, predicted);
    if (std::stod(score) == 0.0) { ++ties; continue; }
    ++compared;
    EXPECT_EQ(std::stod(predicted), std::stod(label)) << "row " << row << " score " << score;
  }
  EXPECT_EQ(compared + ties, row);
  EXPECT_GT(row, 0u);
  return compared;
}

class LibsvmExport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test_util::run_shell("command -v svm-predict >/dev/null 2>&1").status != 0)
      GTEST_SKIP() << "svm-predict not found (Debian package libsvm-tools, scripts/setup.sh installs it)";
  }
};

TEST_F(LibsvmExport, SvmPredictAgreesOnA9aRbf) {
  Dataset a9a;
  try {
    a9a = load_dataset("a9a");
  } catch (const DataError& e) {
    GTEST_SKIP() << "a9a not on the data search path: " << e.what();
  }
  test_util::TempDir dir("libsvm_a9a");
  const std::string data = (dir.p / "a9a.svm").string();
  write_libsvm(a9a, 6000, data);
  EXPECT_GT(agreement(dir, data, "--algo projectron++ --eta 0.1 --kernel rbf --gamma 0.1 --limit 3000"), 5000u);
}

// Noisy rows in 10 dimensions with a cubic boundary, labels +-1.
std::string poly_set(const test_util::TempDir& dir) {
  Rng rng(28);
  Dataset d;
  for (int i = 0; i < 800; ++i) {
    std::vector<double> x(10);
    for (double& v : x) v = std::round(rng.normal() * 16.0) / 16.0;
    const double s = x[0] * x[1] * x[2] + x[3] - 0.5 * x[4] * x[4] + 0.3;
    d.push_dense(x, (s > 0.0) != (rng.uniform() < 0.05) ? 1.0 : -1.0);
  }
  const std::string path = (dir.p / "poly.svm").string();
  write_libsvm(d, d.size(), path);
  return path;
}

TEST_F(LibsvmExport, SvmPredictAgreesOnAPolyKernelSet) {
  test_util::TempDir dir("libsvm_poly");
  const std::string data = poly_set(dir);
  EXPECT_GT(agreement(dir, data, "--algo pa1 --C 0.5 --kernel poly --gamma 0.5 --coef0 1 --degree 3"), 700u);
  EXPECT_GT(agreement(dir, data, "--algo norma --kernel poly --gamma 0.25 --coef0 2 --degree 2 --lambda 0.01 "
                                 "--learning-rate 0.2 --rho 1 --bias"), 700u);
}

TEST_F(LibsvmExport, SvmPredictAgreesOnALinearKernel) {
  test_util::TempDir dir("libsvm_linear");
  EXPECT_GT(agreement(dir, poly_set(dir), "--algo kernel-perceptron --kernel linear"), 700u);
}

}  // namespace
}  // namespace plab
