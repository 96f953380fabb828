// SupportGram: the Gram matrix K_ij = k(x_i, x_j) of a learner's supports in slot order, kept
// beside its KernelExpansion (BOGD, BPA-NN). A change costs O(B): an added support's row and
// column are its scoring row, and a removal moves the last slot into the removed one as
// KernelExpansion::remove does. Memory: B^2 doubles (5 MB at B = 793).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "core/state_archive.hpp"

namespace plab {

class SupportGram {
 public:
  std::size_t size() const { return n_; }
  double operator()(std::size_t i, std::size_t j) const { return g_[i * ld_ + j]; }
  // Row i: K_ij for j < size(), contiguous.
  const double* row(std::size_t i) const { return &g_[i * ld_]; }

  // sum_i a_i K_ji over the slots (row j: contiguous), in four interleaved partial sums (a fixed
  // order: the same bits everywhere; four chains keep an O(B^2) quadratic form off the add latency).
  double dot(std::size_t j, const double* a) const {
    const double* k = row(j);
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    std::size_t i = 0;
    for (; i + 4 <= n_; i += 4)
      for (std::size_t l = 0; l < 4; ++l) v[l] += a[i + l] * k[i + l];
    for (; i < n_; ++i) v[0] += a[i] * k[i];
    return (v[0] + v[1]) + (v[2] + v[3]);
  }

  // Appends a slot: row[i] = k(x_i, x) for the size() slots before it, kxx = k(x, x).
  void append(const double* row, double kxx) {
    const std::size_t n = n_;
    if (n == ld_) {  // the leading dimension doubles
      const std::size_t ld = std::max<std::size_t>(16, 2 * ld_);
      std::vector<double> g(ld * ld);
      for (std::size_t i = 0; i < n; ++i) std::copy_n(&g_[i * ld_], n, &g[i * ld]);
      g_.swap(g);
      ld_ = ld;
    }
    for (std::size_t i = 0; i < n; ++i) at(i, n) = at(n, i) = row[i];
    at(n, n) = kxx;
    ++n_;
  }
  // Removes slot j; the last slot moves into j.
  void remove(std::size_t j) {
    const std::size_t last = n_ - 1;
    for (std::size_t i = 0; i < last; ++i) at(j, i) = at(i, j) = at(last, i == j ? last : i);
    at(j, j) = at(last, last);
    --n_;
  }

  // Model files: the n x n matrix, row by row, under `name`.
  void save(StateWriter& w, const std::string& name) const {
    std::vector<double> g;
    for (std::size_t i = 0; i < n_; ++i) g.insert(g.end(), row(i), row(i) + n_);
    w.put(name, g);
  }
  void load(const StateReader& r, const std::string& name, std::size_t n) {
    g_ = r.get<double>(name, n * n);
    n_ = ld_ = n;
  }

 private:
  double& at(std::size_t i, std::size_t j) { return g_[i * ld_ + j]; }
  std::vector<double> g_;
  std::size_t n_ = 0, ld_ = 0;
};

}  // namespace plab
