// The arguments numerics/fast_trig.cpp reduces with its own Cody-Waite steps, and what the others
// take: the scalar and the vector paths (numerics/sincos_simd.hpp) share both.
#pragma once
#include <cmath>

namespace plab {

// The largest |x| reduced by fast_trig.cpp's own Cody-Waite steps.
constexpr double kTrigReducedMax = 0x1p20;

// True where x takes the fallback: not 0 < |x| <= kTrigReducedMax (NaN included).
inline bool trig_fallback(double x) { return !(std::fabs(x) <= kTrigReducedMax) || x == 0.0; }
// The fallback's cos and sin: libm's, the same call on every path (NaN for Inf and NaN, (1, +-0) at +-0).
inline void trig_fallback_sincos(double x, double& c, double& s) {
  c = std::cos(x);
  s = std::sin(x);
}

}  // namespace plab
