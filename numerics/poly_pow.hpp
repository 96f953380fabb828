// The polynomial kernel's power b^p (b = gamma <x,x'> + coef0, p = the degree), correctly rounded:
// the double nearest to the exact power (ties to even), so its value is defined by the mathematics,
// not by a libm, and every path (scalar, AVX2, AVX-512, one value or a row) gives the same bits.
// Method (docs/learners.md#poly-power): p - 1 double-double multiplications by |b| give b^p with a
// relative error below p 2^-104; when that leaves no doubt about the rounding (always, except
// within p 2^-103 relative of a rounding boundary, or outside [2^-900, 2^1000]) the high part is the
// answer, otherwise an exact big-integer power is rounded (pow_int_exact). On a row (p = 7) it
// takes 0.7 ns a value on AVX-512 and 2 ns on AVX2 (Zen 5; 2.3 ns on a Zen 3) against 16-22 ns for
// glibc's pow (Zen 3), which may also be 0.52 ulp off where this is never more than the correctly
// rounded 0.5.
#pragma once
#include <cstddef>
#include <string>

namespace plab {

// b^p correctly rounded to nearest (ties to even), p >= 0; b^0 = 1, (+-inf, NaN as std::pow).
double pow_int(double b, int p);
// The same by exact integer arithmetic alone (the fallback; tests compare both paths).
double pow_int_exact(double b, int p);
// out[i] = pow_int(gamma * out[i] + coef0, p) (gamma * d rounded, then + coef0 rounded, as
// Kernel::from_dot writes it).
void poly_from_dots(double gamma, double coef0, int p, double* out, std::size_t n);
// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void poly_from_dots_on(const std::string& isa, double gamma, double coef0, int p, double* out, std::size_t n);

}  // namespace plab
