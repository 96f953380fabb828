#include "numerics/simd.hpp"

#include <cstdlib>
#include <stdexcept>

namespace plab {

Simd simd_best() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return Simd::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Simd::avx2;
  return Simd::scalar;
}

Simd simd_parse(const std::string& s) {
  if (s == "scalar") return Simd::scalar;
  if (s == "avx2") return Simd::avx2;
  if (s == "avx512") return Simd::avx512;
  throw std::invalid_argument("SIMD path must be scalar, avx2 or avx512, not '" + s + "'");
}

std::string simd_name(Simd s) {
  return s == Simd::avx512 ? "avx512" : s == Simd::avx2 ? "avx2" : "scalar";
}

Simd simd_path() {
  static const Simd path = [] {
    Simd s = simd_best();
    if (const char* env = std::getenv("PLAB_SIMD"); env && *env) {  // set but empty: as unset
      Simd want;
      try {
        want = simd_parse(env);
      } catch (const std::invalid_argument& e) {  // name the variable: no flag was given
        throw std::invalid_argument(std::string("PLAB_SIMD: ") + e.what());
      }
      if (want < s) s = want;  // only ever a lower path than the CPU has
    }
    return s;
  }();
  return path;
}

}  // namespace plab
