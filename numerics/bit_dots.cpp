#include "numerics/bit_dots.hpp"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the _mm512_undefined_*
// placeholders of the unmasked gather and conversion; GCC bug 105593), so it is off for this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <bit>
#include <numeric>
#include <stdexcept>

#include "numerics/fast_exp.hpp"
#include "numerics/poly_pow.hpp"
#include "numerics/simd.hpp"

namespace plab {

bool binary_example(const Example& x) {
  for (const double v : x.val)
    if (v != 1.0) return false;
  return x.sqnorm == static_cast<double>(x.val.size());
}

void WordsOf::set(const Example& x, std::size_t words) {
  at.clear();
  bits.clear();
  for (const uint32_t j : x.idx) {  // ascending, so a word's features are adjacent
    const uint32_t w = j / 64;
    if (w >= words) break;
    if (at.empty() || at.back() != w) {
      at.push_back(w);
      bits.push_back(0);
    }
    bits.back() |= uint64_t{1} << (j % 64);
  }
}

namespace {

using DotsFn = void (*)(const uint64_t*, std::size_t, const WordsOf&, std::size_t, std::size_t, double*);

void dots_scalar(const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b, std::size_t e,
                 double* out) {
  for (std::size_t i = b; i < e; ++i) {
    uint64_t c = 0;
    for (std::size_t k = 0; k < x.at.size(); ++k) c += static_cast<uint64_t>(std::popcount(words[x.at[k] * ld + i] & x.bits[k]));
    out[i - b] = static_cast<double>(c);
  }
}

// T tiles of 8 supports from support i: one VPOPCNTQ per tile and word of x, the counts converted
// to doubles (exact: below 2^53) and stored. `mask` limits a last partial tile (T = 1).
template <std::size_t T>
__attribute__((target("avx512f,avx512dq,avx512vpopcntdq"))) inline void tiles_avx512(
    const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t i, double* o, __mmask8 mask) {
  __m512i acc[T];
  for (std::size_t t = 0; t < T; ++t) acc[t] = _mm512_setzero_si512();
  for (std::size_t k = 0; k < x.at.size(); ++k) {
    const uint64_t* w = words + x.at[k] * ld + i;
    const __m512i xb = _mm512_set1_epi64(static_cast<long long>(x.bits[k]));
    for (std::size_t t = 0; t < T; ++t)
      acc[t] = _mm512_add_epi64(acc[t], _mm512_popcnt_epi64(_mm512_and_si512(_mm512_maskz_loadu_epi64(mask, w + 8 * t), xb)));
  }
  for (std::size_t t = 0; t < T; ++t) _mm512_mask_storeu_pd(o + 8 * t, mask, _mm512_cvtepi64_pd(acc[t]));
}

__attribute__((target("avx512f,avx512dq,avx512vpopcntdq"))) void dots_avx512(
    const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b, std::size_t e, double* out) {
  std::size_t i = b;
  for (; i + 32 <= e; i += 32) tiles_avx512<4>(words, ld, x, i, out + (i - b), 0xFF);
  for (; i + 8 <= e; i += 8) tiles_avx512<1>(words, ld, x, i, out + (i - b), 0xFF);
  if (i < e) tiles_avx512<1>(words, ld, x, i, out + (i - b), static_cast<__mmask8>((1u << (e - i)) - 1));
}

bool has_vpopcnt() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vpopcntdq");
}

// out[i] = table[h_i], h_i = (sq[i] + xs) - 2 out[i] (rbf: the Hamming distance) or out[i] (poly).
void lookup_scalar(const double* table, bool rbf, double xs, const double* sq, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    out[i] = table[static_cast<std::size_t>(rbf ? (sq[i] + xs) - 2.0 * out[i] : out[i])];
}

// The table entry of 8 whole numbers h (as doubles): a gather, or for tables of 16 Q <= 64 entries
// held in 2 Q registers, Q permutes of two registers each and a blend tree on the index's bits.
template <std::size_t Q>
__attribute__((target("avx512f"))) inline __m512d pick(const __m512d* t, __m512i h) {
  if constexpr (Q == 1) {
    return _mm512_permutex2var_pd(t[0], h, t[1]);
  } else {
    const __m512d lo = pick<Q / 2>(t, h), hi = pick<Q / 2>(t + Q, h);
    return _mm512_mask_blend_pd(_mm512_test_epi64_mask(h, _mm512_set1_epi64(8 * Q)), lo, hi);
  }
}

template <std::size_t Q>
__attribute__((target("avx512f"))) void lookup_avx512(const double* table, bool rbf, double xs, const double* sq,
                                                      double* out, std::size_t n) {
  const __m512d x = _mm512_set1_pd(xs), two = _mm512_set1_pd(2.0), shift = _mm512_set1_pd(0x1p52);
  (void)shift;
  __m512d t[Q ? 2 * Q : 1];
  for (std::size_t q = 0; q < 2 * Q; ++q) t[q] = _mm512_loadu_pd(table + 8 * q);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512d d = _mm512_loadu_pd(out + i);
    const __m512d h = rbf ? _mm512_sub_pd(_mm512_add_pd(_mm512_loadu_pd(sq + i), x), _mm512_mul_pd(two, d)) : d;
    if constexpr (Q == 0) _mm512_storeu_pd(out + i, _mm512_i32gather_pd(_mm512_cvttpd_epi32(h), table, 8));
    else _mm512_storeu_pd(out + i, pick<Q>(t, _mm512_castpd_si512(_mm512_add_pd(h, shift))));  // h + 2^52: h in the low bits
  }
  lookup_scalar(table, rbf, xs, sq + i, out + i, n - i);
}

// Pads the table with zeros to 16, 32 or 64 entries and returns the lookup for its size.
using LookupFn = void (*)(const double*, bool, double, const double*, double*, std::size_t);
LookupFn lookup_for(std::vector<double>& table) {
  if (simd_path() != Simd::avx512) return lookup_scalar;
  for (const std::size_t q : {1, 2, 4})
    if (table.size() <= 16 * q) {
      table.resize(16 * q, 0.0);
      return q == 1 ? lookup_avx512<1> : q == 2 ? lookup_avx512<2> : lookup_avx512<4>;
    }
  return lookup_avx512<0>;
}

}  // namespace

bool bit_dots_vector() {
  static const bool v = simd_path() == Simd::avx512 && has_vpopcnt();
  return v;
}

void bit_dots(const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b, std::size_t e, double* out) {
  static const DotsFn run = bit_dots_vector() ? dots_avx512 : dots_scalar;
  run(words, ld, x, b, e, out);
}

void bit_dots_on(const std::string& isa, const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b,
                 std::size_t e, double* out) {
  if (isa == "scalar") return dots_scalar(words, ld, x, b, e, out);
  if (isa != "avx512") throw std::invalid_argument("bit_dots path must be scalar or avx512, not '" + isa + "'");
  if (!has_vpopcnt()) throw std::invalid_argument("this CPU has no AVX-512 VPOPCNTQ");
  dots_avx512(words, ld, x, b, e, out);
}

bool kernel_from_counts(const Kernel& k, double xs, const double* sq, std::size_t max_count, double* out,
                        std::size_t n) {
  if (k.type == Kernel::Type::linear) return false;
  const bool rbf = k.type == Kernel::Type::rbf;
  const auto nx = static_cast<std::size_t>(xs);
  const std::size_t top = rbf ? nx + max_count : std::min(nx, max_count);  // the largest h or count
  if (2 * (top + 1) > n) return false;
  thread_local std::vector<double> table, arg;  // per thread: rows of one set may run on several
  table.resize(top + 1);
  if (rbf) {  // table[h] = the row function's value at (h + 0) - 2 * 0 = h
    arg.resize(top + 1);
    std::iota(arg.begin(), arg.end(), 0.0);
    std::fill(table.begin(), table.end(), 0.0);
    rbf_from_dots(k.gamma, 0.0, arg.data(), table.data(), top + 1);
  } else {
    std::iota(table.begin(), table.end(), 0.0);
    poly_from_dots(k.gamma, k.coef0, k.degree, table.data(), top + 1);
  }
  lookup_for(table)(table.data(), rbf, xs, sq, out, n);
  return true;
}

}  // namespace plab
