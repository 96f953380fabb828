// The budget learners' arithmetic over every slot at the path's width: BOGD++'s removal
// probabilities and BPA-NN's removal costs (below), and scaling every coefficient of an expansion
// (KernelExpansion::scale and scale_each,
// numerics/support_set.hpp): a_i += c1 a_i, or a_i += (g_i - 1) a_i. Each element is one
// multiply, then one add, so every path gives the scalar's bits; the AVX-512 path takes 8 lanes
// a step where the generic loop (built for AVX2) takes 4 (the per-round shrink of BOGD, NORMA and
// the Forgetron: a sixth of an a9a BOGD pass).
#pragma once
#include <cstddef>
#include <cstdint>
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
// BPA-NN's removal costs (algorithms/bpa.hpp, docs/learners.md#bpa-nn) at k_tt > 0: for every
// candidate r < n, with j = jj[r] its neighbour's slot (-1: none), k_tj = krt[j] (0 without one),
// det = ktt kjj - k_tj^2 and pair = (j >= 0 and det > singular ktt kjj),
//   q_r = a^2 (krr - (kjj krt^2 - 2 k_tj krt krj + ktt krj^2) / det)   where pair,
//   q_r = a^2 (krr - krt^2 / ktt) (krt^2 where ktt == 1)               elsewhere,
// each product and sum rounded in that order (bpa.hpp's expression, the same bits on every path);
// returns the least q_r that is not NaN (+inf when none), as least_value (numerics/lane_min.hpp).
double pair_removal_costs(const double* a, const double* krr, const double* krt, const double* krj, const double* kjj,
                          const int64_t* jj, std::size_t n, double ktt, double singular, double* q);
double pair_removal_costs_on(const std::string& isa, const double* a, const double* krr, const double* krt,
                             const double* krj, const double* kjj, const int64_t* jj, std::size_t n, double ktt,
                             double singular, double* q);
// Either on a named path ("scalar", "avx2", "avx512"; tests), g null for the common c1. Throws
// std::invalid_argument when the CPU lacks it.
void scale_coefficients_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1);
double scaled_max_abs_on(const std::string& isa, double* a, const double* g, std::size_t n, double c1, double m,
                         bool store);

}  // namespace plab
