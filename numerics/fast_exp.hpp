// exp with the same bits on every vector path, and the Gaussian kernel row built on it
// (fast_exp.cpp states the method and its accuracy). Every element of a row, the tail included,
// gets the same sequence of operations, so k(x, s) is bit-identical wherever s sits in a row and
// whatever the CPU (the Projectron's block solve and the regression reference rely on it).
#pragma once
#include <cstddef>
#include <string>

namespace plab {
// out[i] = exp(-gamma * max(0, (sq[i] + xs) - 2 out[i])): the Gaussian kernel from dot products.
void rbf_from_dots(double gamma, double xs, const double* sq, double* out, std::size_t n);
// The same from dots[i] in place of out[i] (the same bits; dots may be out).
void rbf_from_dots(double gamma, double xs, const double* sq, const double* dots, double* out, std::size_t n);
// rbf_from_dots on a named path ("scalar", "avx2", "avx512"; tests). Throws
// std::invalid_argument when the CPU lacks it.
void rbf_from_dots_on(const std::string& isa, double gamma, double xs, const double* sq, double* out, std::size_t n);
// exp(x), scalar.
double exp_fixed(double x);
// out[i] = exp(x[i]) on a named path ("scalar", "avx2", "avx512"; tests). Throws
// std::invalid_argument when the CPU lacks it.
void exp_fixed_on(const std::string& isa, const double* x, double* out, std::size_t n);
}  // namespace plab
