// The Gaussian kernel row from dot products: out[i] = exp(-gamma * max(0, (sq[i] + xs) - 2 out[i])),
// four at a time through glibc's vector exp (libmvec). Every element, the tail included, takes the
// same path, so k(x, s) is bit-identical wherever s sits in a row (the Projectron's block solve
// relies on it).
#pragma once
#include <cstddef>

namespace plab {
void rbf_from_dots(double gamma, double xs, const double* sq, double* out, std::size_t n);
}
