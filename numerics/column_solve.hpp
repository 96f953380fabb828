// Forward substitution for ONE right-hand side, vectorised across rows: the multiclass
// Projectron++'s z_c = L_c^{-1} k_c, one solve at a time (algorithms/multiclass_projectron.hpp).
//
// Represents: a lower-triangular factor L kept by columns in blocks of kBlockRows rows (block b:
// rows b R .. b R + R - 1; column j of the block is R consecutive doubles, j < (b + 1) R, 0 above
// the diagonal and past the last row), a copy of a row-packed factor grown by appending rows.
// forward_columns(z) is forward_panel(packed, 0, n, z, 1) bit for bit (the chunked recurrence of
// panel_solve.hpp): lane m of block b runs row b R + m's chain over j < b R in j order, streaming
// the block's columns; the diagonal block then runs in j order, row b R + c finished before column
// b R + c enters the rows below it. A single right-hand side forward_panel can only run as a few
// scalar chains; here a block's 32 chains advance side by side. What stays serial is the
// recurrence itself: row i waits on row i - 1 (an fma, two adds and a division a row).
// Memory: R^2 b (b + 1) / 2 doubles for b blocks (about the packed triangle's n^2 / 2).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/huge_pages.hpp"

namespace plab {

class FactorColumns {
 public:
  static constexpr std::size_t kBlockRows = 32;
  std::size_t size() const { return n_; }
  // Appends row n = size() of L: L(n, 0..n) (n + 1 values).
  void append(const double* row);
  // Replaces the copy with the n rows of a row-packed factor (row i at offset i (i + 1) / 2).
  void assign(const double* packed, std::size_t n);
  // L(i, j), j <= i < size().
  double operator()(std::size_t i, std::size_t j) const { return block(i / kBlockRows)[j * kBlockRows + i % kBlockRows]; }
  // Block b: (b + 1) R columns of R rows each.
  const double* block(std::size_t b) const { return c_.data() + offset(b); }

 private:
  static std::size_t offset(std::size_t b) { return kBlockRows * kBlockRows * b * (b + 1) / 2; }
  AlignedVector<double> c_;  // 64-byte aligned: a block's columns are whole cache lines
  std::size_t n_ = 0;
};

// z <- L^{-1} z over the n = L.size() rows, the bits of forward_panel(packed, 0, n, z, 1).
void forward_columns(const FactorColumns& L, double* z);
// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void forward_columns_on(const std::string& isa, const FactorColumns& L, double* z);

}  // namespace plab
