// Scaling every coefficient of an expansion (KernelExpansion::scale and scale_each,
// numerics/support_set.hpp): a_i += c1 a_i, or a_i += (g_i - 1) a_i. Each element is one
// multiply, then one add, so every path gives the scalar's bits; the AVX-512 path takes 8 lanes
// a step where the generic loop (built for AVX2) takes 4 (the per-round shrink of BOGD, NORMA and
// the Forgetron: a sixth of an a9a BOGD pass).
#pragma once
#include <cstddef>
#include <string>

namespace plab {

void scale_coefficients(double* a, std::size_t n, double c1);             // a_i += c1 a_i
void scale_coefficients_each(double* a, const double* g, std::size_t n);  // a_i += (g_i - 1) a_i
// max(m, max_i |y_i|) of the values the scaling stores, y_i = a_i + c1 a_i (g null) or
// a_i + (g_i - 1) a_i; with store, a_i = y_i too (BOGD's cap reads the maximum of the coefficients it
// rescales: one pass over them). Finite a (a NaN may be lost from the maximum).
double scaled_max_abs(double* a, const double* g, std::size_t n, double c1, double m, bool store);
// BOGD++'s removal probabilities and factors (algorithms/bogd.hpp, docs/learners.md#bogd-draw): over
// the weights w_i (in place) p_i = (1 - w_i / sum) / (n - 1), and g_i = c / (1 - p_i), each quotient
// the IEEE division's bits on every path: by a product and two fmas (Markstein's theorem,
// numerics/common_divisor.hpp) where the caller has checked that CommonDivisor(sum) and
// CommonDivisor(n - 1) cover the numerators (markstein), else by the division; n >= 2, sum > 0.
void removal_probabilities(double* w, double* g, std::size_t n, double sum, double c, bool markstein);
void removal_probabilities_on(const std::string& isa, double* w, double* g, std::size_t n, double sum, double c,
                              bool markstein);
// Either on a named path ("scalar", "avx2", "avx512"; tests), g null for the common c1. Throws
// std::invalid_argument when the CPU lacks it.
void scale_coefficients_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1);
double scaled_max_abs_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1, double m,
                         bool store);

}  // namespace plab
