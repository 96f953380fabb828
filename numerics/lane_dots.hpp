// Lane sums of two rows against two rows (numerics/lane_sum.hpp, docs/learners.md#lane-sums).
#pragma once
#include <cstddef>
#include <string>

namespace plab {

// d = {a0.b0, a0.b1, a1.b0, a1.b1}, each the bits of lane_dot(a, b, n); on the AVX-512 path in one
// pass (NOGD's block maps: two rows of M against two rounds' kernel rows), on AVX2 in two passes
// of 8 lanes, elsewhere as two lane_dot2 calls.
void lane_dot2x2(const double* a0, const double* a1, const double* b0, const double* b1, std::size_t n, double* d);
// The same on a named path ("scalar", "avx2", "avx512"; tests). Throws std::invalid_argument when
// the CPU lacks it.
void lane_dot2x2_on(const std::string& isa, const double* a0, const double* a1, const double* b0, const double* b1,
                    std::size_t n, double* d);

}  // namespace plab
