// Vectorised out[i] = exp(-gamma * max(0, sq[i] + xs - 2 out[i])), the Gaussian kernel row.
// Lives in its own translation unit (fast_exp.cpp) compiled with -ffast-math so that GCC calls
// glibc's SIMD exp (libmvec, documented error <= 4 ulp); nothing else is built that way.
#pragma once
#include <cstddef>

namespace plab {
void rbf_from_dots(double gamma, double xs, const double* sq, double* out, std::size_t n);
}
