// A labelled data set held in compressed sparse rows, the one in-memory layout of the suite.
// Represents: T examples x_t (sparse, 1-based feature indices stored 0-based) with real labels
// (±1 for classification, any value for regression, class indices 0..m-1 for multiclass sets,
// whose original label values are in `classes`). Ensures: indices strictly ascending per row,
// values finite, sqnorm[t] = ||x_t||^2 finite and at most kMaxSqnorm. rowptr, idx and val are
// owned, or borrowed from memory that `owner` keeps alive (data_array.hpp); y and sqnorm are owned.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "datasets/data_array.hpp"

namespace plab {

// Errors in data files; the message names the file and line ("path:line[:col]: what").
struct DataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Largest squared norm a row may have: with ||a||^2, ||b||^2 <= max/4 the Gaussian kernel's
// ||a||^2 + ||b||^2 - 2<a,b> cannot overflow, and every bound reads finite norms
// (docs/bounds.md#non-finite).
inline constexpr double kMaxSqnorm = std::numeric_limits<double>::max() / 4.0;

// Smallest squared norm a row with a non-zero feature may have: from 2^-969 = 2^-1022 * 2^53 up,
// every product that can move ||x||^2 (or a kernel value or score of that scale) by one rounding
// step is a normal number, so no digit is lost to underflow; below it ||x||^2 and the scores
// flush towards 0 and a Perceptron errs on every round (docs/bounds.md#underflow).
inline constexpr double kMinSqnorm = 0x1p-969;

// `nonzero`: the row has a non-zero feature (an all-zero row has ||x||^2 = 0 exactly).
inline bool row_sqnorm_ok(double sqnorm, bool nonzero = false) {
  return std::isfinite(sqnorm) && sqnorm <= kMaxSqnorm && !(nonzero && sqnorm < kMinSqnorm);
}
// Throws DataError naming `where` when a row's squared norm is not finite, too large, or
// underflows (docs/bounds.md#non-finite, docs/bounds.md#underflow).
inline void check_row_sqnorm(double sqnorm, const std::string& where, bool nonzero = false) {
  if (row_sqnorm_ok(sqnorm, nonzero)) return;
  if (std::isfinite(sqnorm) && sqnorm < kMinSqnorm)
    throw DataError(where + ": squared norm ||x||^2 underflows (a non-zero row needs ||x||^2 >= 2^-969 ~ 2e-292); feature values this "
                    "small lose their digits, rescale the data (the bounds do not depend on the scale)");
  throw DataError(where + ": squared norm ||x||^2 " +
                  (std::isfinite(sqnorm) ? "exceeds max double / 4" : "is not finite (overflows to inf)") +
                  "; feature values this large cannot be used, rescale the data");
}

// A view of one example; valid as long as the Dataset (or the owner of the arrays) lives.
struct Example {
  std::span<const uint32_t> idx;  // 0-based feature indices, strictly ascending
  std::span<const double> val;    // values, same length as idx
  double sqnorm = 0.0;            // ||x||^2
  double y = 0.0;                 // label (±1), regression target or class index 0..m-1
};

struct Dataset {
  std::string name;    // registry name or file name
  std::string path;    // file the data came from ("" for generated data)
  std::string sha256;  // checksum of the file as stored ("" for generated data)
  std::string header;  // CSV/TSV first line dropped as a header ("" when none)
  std::size_t dim = 0; // 1 + highest feature index seen
  DataArray<std::size_t> rowptr{0};
  DataArray<uint32_t> idx;
  DataArray<double> val;
  std::vector<double> y;
  std::vector<double> sqnorm;
  // Generating hyperplane of a synthetic set (unit normal, dense), empty when unknown.
  std::vector<double> truth;
  // Multiclass sets: the original label of class c is classes[c] (ascending); empty otherwise.
  std::vector<double> classes;
  // Keeps the memory of borrowed rowptr/idx/val alive (null when all three are owned); copies of
  // the Dataset share it.
  std::shared_ptr<const void> owner;

  std::size_t size() const { return y.size(); }
  bool multiclass() const { return !classes.empty(); }
  Example operator[](std::size_t t) const {
    const std::size_t b = rowptr[t], e = rowptr[t + 1];
    return {{idx.data() + b, e - b}, {val.data() + b, e - b}, sqnorm[t], y[t]};
  }
  // Room for `rows` rows with `nnz` non-zeros in all (owned arrays; a reader's estimate).
  void reserve(std::size_t rows, std::size_t nnz) {
    idx.reserve(nnz);
    val.reserve(nnz);
    rowptr.reserve(rows + 1);
    y.reserve(rows);
    sqnorm.reserve(rows);
  }
  // Appends one example (owned arrays only: std::logic_error when borrowed); indices must be
  // ascending (readers check before calling). `where` ("path:line") names the row in the error
  // for a non-finite squared norm ("row N" when empty).
  void push_back(std::span<const uint32_t> ix, std::span<const double> vx, double label,
                 const std::string& where = "") {
    // The arrays grow by one copy of the row; the norm is summed in index order without
    // contraction (-ffp-contract=off), the sum every reader and the reference results use.
    auto& own_idx = idx.owned();
    auto& own_val = val.owned();
    const std::size_t nnz = own_idx.size(), old_dim = dim;
    own_idx.insert(own_idx.end(), ix.begin(), ix.end());
    own_val.insert(own_val.end(), vx.begin(), vx.end());
    double s = 0.0;
    bool nonzero = false;
    uint32_t top = 0;
    for (std::size_t k = 0; k < ix.size(); ++k) {
      s += vx[k] * vx[k];
      nonzero = nonzero || vx[k] != 0.0;
      top = std::max(top, ix[k]);
    }
    if (!ix.empty() && top + std::size_t{1} > dim) dim = top + std::size_t{1};
    if (!row_sqnorm_ok(s, nonzero)) {
      own_idx.resize(nnz);
      own_val.resize(nnz);
      dim = old_dim;
      check_row_sqnorm(s, where.empty() ? "row " + std::to_string(size() + 1) : where, nonzero);
    }
    rowptr.push_back(own_idx.size());
    y.push_back(label);
    sqnorm.push_back(s);
  }
  // Dense convenience for generators and tests.
  void push_dense(std::span<const double> x, double label) {
    std::vector<uint32_t> ix;
    std::vector<double> vx;
    for (std::size_t j = 0; j < x.size(); ++j)
      if (x[j] != 0.0) { ix.push_back(static_cast<uint32_t>(j)); vx.push_back(x[j]); }
    push_back(ix, vx, label);
    if (x.size() > dim) dim = x.size();
  }
};

// Sparse dot product of two examples (merge of sorted index lists).
inline double dot(const Example& a, const Example& b) {
  double s = 0.0;
  std::size_t i = 0, j = 0;
  while (i < a.idx.size() && j < b.idx.size()) {
    if (a.idx[i] == b.idx[j]) s += a.val[i++] * b.val[j++];
    else if (a.idx[i] < b.idx[j]) ++i;
    else ++j;
  }
  return s;
}

}  // namespace plab
