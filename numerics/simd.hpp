// Which vector instruction set the hot kernels use (panel_solve.cpp, fast_exp.cpp). Every path
// computes the same bits (each kernel fixes its order of operations), so the choice changes speed
// only; tests run every available path against the scalar one.
#pragma once
#include <string>

namespace plab {

enum class Simd { scalar = 0, avx2 = 1, avx512 = 2 };

// The best path the CPU supports, unless the environment variable PLAB_SIMD names a lower one
// ("scalar", "avx2", "avx512"; empty is as unset; an unknown name throws std::invalid_argument).
// Decided once.
Simd simd_path();
// The best path the CPU supports.
Simd simd_best();
// "scalar" / "avx2" / "avx512", and back (parse throws std::invalid_argument on other names).
std::string simd_name(Simd s);
Simd simd_parse(const std::string& name);

}  // namespace plab
