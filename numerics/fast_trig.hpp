// cos and sin of an array with the same bits on every vector path (scalar, AVX2, AVX-512), for the
// random Fourier map of FOGD (numerics/fourier_features.hpp). Method in fast_trig.cpp: Cody-Waite
// reduction by pi/2, exact for 0 < |x| <= kTrigReducedMax, and Taylor polynomials on [-pi/4, pi/4].
// Measured error against long double: <= 0.67 ulp, held to 0.7 ulp by tests/test_fast_trig.cpp
// (libm's, which FOGD used before, is about 0.56 ulp: a change of FOGD's bits, docs/learners.md#fogd).
// Other inputs (0, |x| > kTrigReducedMax, Inf, NaN) take std::cos and std::sin, the same call on
// every path: Inf and NaN give NaN, +-0 gives (1, +-0).
#pragma once
#include <cstddef>
#include <string>

#include "numerics/trig_range.hpp"

namespace plab {

// c[i] = cos(x[i]), s[i] = sin(x[i]) for i < n, on simd_path(). c and s must not overlap x or each
// other.
void sincos_array(const double* x, std::size_t n, double* c, double* s);
// cos and sin of one x, scalar (the same bits as sincos_array).
void sincos_fixed(double x, double& c, double& s);
// sincos_array on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument
// when the CPU lacks it.
void sincos_array_on(const std::string& isa, const double* x, std::size_t n, double* c, double* s);

}  // namespace plab
