// Deterministic synthetic generators (docs/conventions.md#synthetic): identical on every platform
// for a given seed (plab::Rng only, no std distributions).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab {

// (a) Dekel et al. / JMLR Sec. 7: n points, half +1 ~ N((1,1), diag(0.2,2)), half -1 ~
//     N((-1,-1), diag(0.2,2)), each label flipped with probability `flip`; order interleaved
//     by a seeded shuffle.
Dataset make_dekel(std::size_t n, double flip, uint64_t seed);
// (b) DOGMA demo: x ~ N(0, I_2), w ~ N(0, I_2), y = sign(w.x), exactly n/10 labels flipped
//     (the first n/10 of a random permutation). Train = first half, test = second half.
Dataset make_dogma_demo(std::size_t n, uint64_t seed, std::vector<double>* w_out = nullptr);
// (c) Linearly separable with exact margin rho and radius r in dimension d: a unit u is drawn,
//     every point has ||x|| <= r and y <u,x> >= rho, with equality attained on at least one point.
Dataset make_separable(std::size_t n, std::size_t d, double rho, double r, uint64_t seed,
                       std::vector<double>* u_out = nullptr);
// (d) XOR (cells = 2) / checkerboard (cells > 2) on [0,1]^2.
Dataset make_checkerboard(std::size_t n, int cells, double flip, uint64_t seed);
// (e) Drift: a linear target in dimension d whose unit normal is redrawn every K rounds.
Dataset make_drift(std::size_t n, std::size_t d, std::size_t K, double flip, uint64_t seed);

// (f) Prescribed margin structure for T3 (datasets/synthetic_margins.cpp): "synthetic:margins:...".
Dataset make_margins(std::size_t n, std::size_t d, double rho, double r, std::size_t small, double eps,
                     std::size_t wrong, double depth, uint64_t seed);

// (g) High-dimensional sparse rows (datasets/synthetic_sparse.cpp): "synthetic:sparse:d=,nnz=,n=...":
//     nnz distinct features of d per row, unit norm, labels from a dense unit normal u.
Dataset make_sparse(std::size_t n, std::size_t d, std::size_t nnz, double flip, uint64_t seed);
// make_sparse's parameter checks alone (std::invalid_argument naming the key): its limits of the
// index type come before the memory they would take.
void check_sparse(std::size_t n, std::size_t d, std::size_t nnz, double flip);

// "NAME[:key=value,...]" -> data set; NAME in dekel, dogma, separable, xor, checkerboard, drift, margins,
// sparse.
Dataset make_synthetic(const std::string& spec);

}  // namespace plab
