// Random Fourier features of the Gaussian kernel k(x,x') = exp(-gamma ||x - x'||^2)
// = E_u[cos(u.(x - x'))], u ~ N(0, 2 gamma I) (Rahimi, Recht, NIPS 2007): D frequencies
// u_1..u_D and the unnormalised map of FOGD (Lu et al., JMLR 2016, Algorithm 1)
//   z(x) = (cos(u_1.x), ..., cos(u_D.x), sin(u_1.x), ..., sin(u_D.x)),   z(x).z(x') = sum_i cos(u_i.(x - x'))
// so z(x).z(x')/D estimates k(x,x'). The frequencies are drawn from the seed feature by feature:
// column j of U (u_1[j] .. u_D[j]) is D normals of Rng(derive_seed(seed, j)), drawn the first time
// an input has feature j, so U is the same for any input dimension and order. One map is the
// learner's (algorithms/fogd.hpp) and, built from the same (gamma, D, seed), the comparator's
// (bounds/comparator.hpp, make_feature_comparator): the same z bit for bit. cos and sin are our
// own (numerics/fast_trig.hpp, within 0.7 ulp), not libm's (docs/learners.md#fogd).
// Not thread-safe (the columns are drawn lazily, the chains kept in a scratch): each user owns its map.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/huge_pages.hpp"
#include "core/random.hpp"
#include "datasets/dataset.hpp"
#include "numerics/fast_trig.hpp"
#include "numerics/trig_range.hpp"
#include "numerics/simd.hpp"

namespace plab {

namespace detail {
// map_rows' chains with their cos and sin on the AVX-512 and AVX2 paths (numerics/fourier_chains.cpp),
// from i = 0 in vectors of 8 or 4 chains: Z[2 D r + i] = cos(u_i.x_r), Z[2 D r + D + i] = sin(u_i.x_r)
// for every row r; returns where it stopped (the last D mod 8 or D mod 4 chains are map_rows').
// flags[r] holds kRowOnes when every value of row r is 1, kRowInRange when no chain of row r can
// leave |u.x| <= kTrigReducedMax (then the cos and sin skip that test).
enum : unsigned char { kRowOnes = 1, kRowInRange = 2 };
std::size_t fourier_chains_avx512(const double* const* cols, const std::size_t* starts, const unsigned char* flags,
                                  const Example* xs, std::size_t n, std::size_t D, double* Z);
std::size_t fourier_chains_avx2(const double* const* cols, const std::size_t* starts, const unsigned char* flags,
                                const Example* xs, std::size_t n, std::size_t D, double* Z);
}  // namespace detail

class FourierFeatures {
 public:
  FourierFeatures(double gamma, std::size_t D, uint64_t seed) : gamma_(gamma), D_(D), seed_(seed) {}

  std::size_t frequencies() const { return D_; }
  // Another program's frequencies (the authors' code as an oracle, tests/test_okl_oracle.cpp):
  // columns[j] holds feature j's D values (u_1[j] .. u_D[j]) in place of the seed's draws.
  void set_frequencies(const std::vector<std::vector<double>>& columns) {
    U_.clear();
    umax_.clear();
    for (const auto& c : columns) {
      if (c.size() != D_) throw std::invalid_argument("set_frequencies: a column without D values");
      U_.push_back(std::make_unique<Column>(c.begin(), c.end()));
      umax_.push_back(largest_magnitude(*U_.back()));
    }
  }
  // z = z(x), 2D values; u.x is the chain over x's features in order, cos and sin are
  // numerics/fast_trig.hpp's (the same bits on every vector path). No allocation once z and the
  // scratch have their size.
  void map(const Example& x, std::vector<double>& z) const {
    z.resize(2 * D_);
    map_rows(&x, 1, z.data());
  }
  // The maps of xs[0..n): row r of Z (2D values at Z + 2 D r) is z(xs[r]), the same bits as map()
  // (each chain is the same sum in the same order). Rows share the frequencies they read: a block
  // of chains is summed for every row before the next block, so the columns' block stays in L1
  // (row by row, an a9a round read its 14 columns' 45 KB from L2: half of a FOGD pass at D = 400).
  void map_rows(const Example* xs, std::size_t n, double* Z) const {
    cols_.clear();
    starts_.assign(1, 0);
    flags_.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      // bound >= sum_k |x_k| max_i |u_i[j_k]| >= |u_i.x| for every i, as computed to within a relative
      // 2^-52 nk: half the reduced range leaves room for every rounding (NaN fails the test).
      double bound = 0.0;
      for (std::size_t k = 0; k < xs[r].idx.size(); ++k) {
        cols_.push_back(column(xs[r].idx[k]));
        bound += std::fabs(xs[r].val[k]) * umax_[xs[r].idx[k]];
      }
      starts_.push_back(cols_.size());
      const bool ones = std::all_of(xs[r].val.begin(), xs[r].val.end(), [](double v) { return v == 1.0; });
      flags_[r] = static_cast<unsigned char>((ones ? detail::kRowOnes : 0) |
                                             (bound <= 0.5 * kTrigReducedMax ? detail::kRowInRange : 0));
    }
    const Simd path = simd_path();
    std::size_t i0 =
        path == Simd::avx512   ? detail::fourier_chains_avx512(cols_.data(), starts_.data(), flags_.data(), xs, n, D_, Z)
        : path == Simd::avx2 ? detail::fourier_chains_avx2(cols_.data(), starts_.data(), flags_.data(), xs, n, D_, Z)
                             : 0;
    // The chains left (all of them on the scalar path) through d_, then their cos and sin.
    const std::size_t i_vec = i0;
    d_.resize(n * D_);
    constexpr std::size_t kBlock = 32;
    for (; i0 + kBlock <= D_; i0 += kBlock)
      for (std::size_t r = 0; r < n; ++r) chains<kBlock / 4>(i0, r, xs[r].val.data());
    for (; i0 + 4 <= D_; i0 += 4)
      for (std::size_t r = 0; r < n; ++r) chains<1>(i0, r, xs[r].val.data());
    for (; i0 < D_; ++i0)
      for (std::size_t r = 0; r < n; ++r) {
        double acc = 0.0;
        for (std::size_t k = starts_[r]; k < starts_[r + 1]; ++k) acc += xs[r].val[k - starts_[r]] * cols_[k][i0];
        d_[r * D_ + i0] = acc;
      }
    if (i_vec < D_)
      for (std::size_t r = 0; r < n; ++r) {
        double* z = Z + 2 * D_ * r;
        sincos_array(d_.data() + r * D_ + i_vec, D_ - i_vec, z + i_vec, z + D_ + i_vec);
      }
  }

 private:
  // d_ of row r at [i0, i0 + 4 W): u_i.x, the chain over x's features in order, in W vectors of 4
  // lanes that stay in registers (written as vectors: left to itself the compiler vectorised across
  // the features and kept the sums in memory). Each lane is a multiply, then an add: the same bits
  // as one chain at a time.
  template <std::size_t W>
  void chains(std::size_t i0, std::size_t r, const double* val) const {
    using V4 = double __attribute__((vector_size(32)));
    V4 acc[W];
    for (std::size_t w = 0; w < W; ++w) acc[w] = V4{0.0, 0.0, 0.0, 0.0};
    const double* const* cols = cols_.data() + starts_[r];
    const std::size_t nk = starts_[r + 1] - starts_[r];
    for (std::size_t k = 0; k < nk; ++k) {
      const double v = val[k];
      const V4 vv = {v, v, v, v};
      const double* u = cols[k] + i0;
      for (std::size_t w = 0; w < W; ++w) {
        V4 uw;
        std::memcpy(&uw, u + 4 * w, sizeof uw);
        acc[w] += vv * uw;
      }
    }
    double* out = d_.data() + r * D_ + i0;
    for (std::size_t w = 0; w < W; ++w) std::memcpy(out + 4 * w, &acc[w], sizeof acc[w]);
  }
  const double* column(uint32_t j) const {
    return j < U_.size() && U_[j] ? U_[j]->data() : draw_column(j);
  }
  // Feature j's column, drawn the first time it is asked for (out of line: a term asks for its
  // column and the draw is rare).
  __attribute__((noinline)) const double* draw_column(uint32_t j) const {
    if (j >= U_.size()) U_.resize(static_cast<std::size_t>(j) + 1), umax_.resize(U_.size(), 0.0);
    if (!U_[j]) {
      Rng rng(derive_seed(seed_, j));
      const double sd = std::sqrt(2.0 * gamma_);
      U_[j] = std::make_unique<Column>(D_);
      for (double& v : *U_[j]) v = sd * rng.normal();
      umax_[j] = largest_magnitude(*U_[j]);
    }
    return U_[j]->data();
  }
  // max_i |c_i|; NaN where c holds one (then no row with the feature is in range).
  template <class C>
  static double largest_magnitude(const C& c) {
    double m = 0.0;
    for (double v : c) m = std::isnan(v) || std::fabs(v) > m ? std::fabs(v) : m;
    return m;
  }

  double gamma_;
  std::size_t D_;
  uint64_t seed_;
  // A column 64-byte aligned, so that no vector load of the chains splits a cache line (malloc's
  // 16-byte alignment split every AVX-512 load: the chains took 1.5x as long).
  using Column = AlignedVector<double>;
  mutable std::vector<std::unique_ptr<Column>> U_;  // U_[j]: feature j's frequencies
  mutable std::vector<double> d_;  // scratch: the chains u_i.x of each row that the vector paths leave
  mutable std::vector<const double*> cols_;  // scratch: the columns of the rows' features, row after row
  mutable std::vector<std::size_t> starts_;  // scratch: row r's columns are cols_[starts_[r] .. starts_[r + 1])
  mutable std::vector<double> umax_;  // umax_[j]: max_i |u_i[j]| (0 until column j is drawn)
  mutable std::vector<unsigned char> flags_;  // scratch: row r's detail::kRowOnes and kRowInRange
};

}  // namespace plab
