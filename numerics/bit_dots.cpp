#include "numerics/bit_dots.hpp"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the _mm512_undefined_*
// placeholders of the unmasked gather and conversion; GCC bug 105593), so it is off for this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "numerics/fast_exp.hpp"
#include "numerics/poly_pow.hpp"
#include "numerics/simd.hpp"

namespace plab {

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

// The same on AVX2 by Mula's nibble lookup: per byte, the popcounts of its two 4-bit halves from a
// 16-entry table by two VPSHUFB, added; per 64-bit lane, its 8 byte counts summed by VPSADBW
// against zero. T tiles of 4 supports from support i, x's words k0 .. k1 (at most 31: a byte's
// count is at most 8 a word, so the byte sums, <= 248, fit a byte) added to acc.
template <std::size_t T>
__attribute__((target("avx2"), always_inline)) inline void counts_avx2(const uint64_t* words, std::size_t ld,
                                                                       const WordsOf& x, std::size_t k0,
                                                                       std::size_t k1, std::size_t i, __m256i* acc) {
  const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,  //
                                       0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i low = _mm256_set1_epi8(0x0F);
  __m256i bytes[T];
  for (std::size_t t = 0; t < T; ++t) bytes[t] = _mm256_setzero_si256();
  for (std::size_t k = k0; k < k1; ++k) {
    const uint64_t* w = words + x.at[k] * ld + i;
    const __m256i xb = _mm256_set1_epi64x(static_cast<long long>(x.bits[k]));
    for (std::size_t t = 0; t < T; ++t) {
      const __m256i v = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 4 * t)), xb);
      const __m256i lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(v, low));
      const __m256i hi = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
      bytes[t] = _mm256_add_epi8(bytes[t], _mm256_add_epi8(lo, hi));
    }
  }
  for (std::size_t t = 0; t < T; ++t) acc[t] = _mm256_add_epi64(acc[t], _mm256_sad_epu8(bytes[t], _mm256_setzero_si256()));
}

// The whole-number sums (below 2^52) as doubles, exactly: bits(2^52) | c read as a double is
// 2^52 + c, minus 2^52 is c (+0 for 0, as the scalar path's conversion).
__attribute__((target("avx2"), always_inline)) inline __m256d counts_as_doubles(__m256i c) {
  const __m256i magic = _mm256_set1_epi64x(0x4330000000000000);  // the bits of 2^52
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(c, magic)), _mm256_set1_pd(0x1p52));
}
__attribute__((target("avx2"), always_inline)) inline void store_counts_avx2(double* o, __m256i c) {
  _mm256_storeu_pd(o, counts_as_doubles(c));
}

// T tiles of 4 supports from support i: x's words in groups of 31.
template <std::size_t T>
__attribute__((target("avx2"), always_inline)) inline void tiles_avx2(const uint64_t* words, std::size_t ld,
                                                                      const WordsOf& x, std::size_t i, double* o) {
  __m256i acc[T];
  for (std::size_t t = 0; t < T; ++t) acc[t] = _mm256_setzero_si256();
  for (std::size_t k0 = 0; k0 < x.at.size(); k0 += 31) counts_avx2<T>(words, ld, x, k0, std::min(x.at.size(), k0 + 31), i, acc);
  for (std::size_t t = 0; t < T; ++t) store_counts_avx2(o + 4 * t, acc[t]);
}

__attribute__((target("avx2"))) void dots_avx2(const uint64_t* words, std::size_t ld, const WordsOf& x,
                                               std::size_t b, std::size_t e, double* out) {
  std::size_t i = b;
  if (x.at.size() <= 31) {  // one group (a9a: 2 words): 6 tiles of byte sums in registers, no loop over groups
    for (; i + 24 <= e; i += 24) {
      __m256i acc[6];
      for (std::size_t t = 0; t < 6; ++t) acc[t] = _mm256_setzero_si256();
      counts_avx2<6>(words, ld, x, 0, x.at.size(), i, acc);
      for (std::size_t t = 0; t < 6; ++t) store_counts_avx2(out + (i - b) + 4 * t, acc[t]);
    }
  }
  for (; i + 16 <= e; i += 16) tiles_avx2<4>(words, ld, x, i, out + (i - b));
  for (; i + 4 <= e; i += 4) tiles_avx2<1>(words, ld, x, i, out + (i - b));
  dots_scalar(words, ld, x, i, e, out + (i - b));
}

bool has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
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

// The same on 16 32-bit indices h, from tables of 16 Q <= 64 32-bit entries in Q registers (each
// index's bits above the table's are ignored).
template <std::size_t Q>
__attribute__((target("avx512f"))) inline __m512i pick32(const __m512i* t, __m512i h) {
  if constexpr (Q == 1) {
    return _mm512_permutexvar_epi32(h, t[0]);
  } else if constexpr (Q == 2) {
    return _mm512_permutex2var_epi32(t[0], h, t[1]);
  } else {
    return _mm512_mask_blend_epi32(_mm512_test_epi32_mask(h, _mm512_set1_epi32(32)), pick32<2>(t, h), pick32<2>(t + 2, h));
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

// The same on AVX2, h as the scalar path computes it, 8 values at a time. Tables of 8 R <= 32
// entries are held as their entries' low and high 32-bit halves, R registers of 8 each: VPERMPS
// picks a half by h mod 8 and a blend tree on h's bits 3 and 4 the register, then the halves are
// interleaved back into doubles (14 permutes and blends for 8 values of a 32-entry table, where
// registers of 4 doubles took 2 x 15). Larger tables by a gather (slow on Zen 4: about as fast as
// the scalar loop).
template <std::size_t R>
__attribute__((target("avx2"))) inline __m256 pick_avx2(const __m256* t, __m256i idx) {
  if constexpr (R == 1) {
    return _mm256_permutevar8x32_ps(t[0], idx);
  } else {
    constexpr int bit = std::countr_zero(4 * R);  // the bit of h that picks the upper half
    const __m256 lo = pick_avx2<R / 2>(t, idx), hi = pick_avx2<R / 2>(t + R / 2, idx);
    return _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(idx, 31 - bit)));
  }
}

// Table entries 8 R .. as their low and high 32-bit halves, R registers of 8 each.
template <std::size_t R>
__attribute__((target("avx2"))) inline void table_halves(const double* table, __m256* lo, __m256* hi) {
  for (std::size_t r = 0; r < R; ++r) {
    alignas(32) uint32_t l[8], h[8];
    for (std::size_t j = 0; j < 8; ++j) {
      const auto b = std::bit_cast<uint64_t>(table[8 * r + j]);
      l[j] = static_cast<uint32_t>(b);
      h[j] = static_cast<uint32_t>(b >> 32);
    }
    lo[r] = _mm256_castsi256_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(l)));
    hi[r] = _mm256_castsi256_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(h)));
  }
}

// The entries of 8 whole numbers, given as h + 2^52 (h in the low 32 bits) in a and b (4 each):
// per 128-bit lane the 8 indices are (a0 a1 b0 b1 | a2 a3 b2 b3), and the picked halves are
// interleaved back into the entries of a and of b.
template <std::size_t R>
__attribute__((target("avx2"))) inline void pick8_avx2(const __m256* lo, const __m256* hi, __m256d a, __m256d b,
                                                       __m256d& ka, __m256d& kb) {
  const __m256i idx = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castpd_ps(a), _mm256_castpd_ps(b), 0x88));
  const __m256i l = _mm256_castps_si256(pick_avx2<R>(lo, idx)), h = _mm256_castps_si256(pick_avx2<R>(hi, idx));
  ka = _mm256_castsi256_pd(_mm256_unpacklo_epi32(l, h));  // a0 a1 | a2 a3
  kb = _mm256_castsi256_pd(_mm256_unpackhi_epi32(l, h));  // b0 b1 | b2 b3
}

// table[i0], .., table[i3] by scalar loads, two to a 128-bit half: byte_scores' way to the table
// on AVX2 on AMD cores, faster there than the register halves above and than VPGATHERDPD; kernel
// rows keep the halves (docs/learners.md#binary).
__attribute__((target("avx2"), always_inline)) inline __m256d load4(const double* table, unsigned i0, unsigned i1,
                                                                    unsigned i2, unsigned i3) {
  const __m128d a = _mm_loadh_pd(_mm_load_sd(table + i0), table + i1);
  const __m128d b = _mm_loadh_pd(_mm_load_sd(table + i2), table + i3);
  return _mm256_insertf128_pd(_mm256_castpd128_pd256(a), b, 1);
}

// Counts the rebuilds of this thread's table of kernel values by count (counts_table): a table's
// entries change only there (padding appends zeros), so a table known by its address and this
// count is known whole.
thread_local uint64_t counts_rebuilds = 0;

// A table of at most 16 T <= 64 entries (T = 1, 2, 4) as byte planes: part[q][b] holds byte b of
// entries 16 q .. 16 q + 15, the same 16 bytes in both 128-bit lanes, so that VPSHUFB looks up
// byte b of 32 entries at once. Kept per thread for the table (counts_table's) it was made from,
// known by its address and counts_rebuilds (the comparison of its 16 T entries at every score took
// 2% of the samples of an AVX2 Stoptron pass over a9a).
template <int T>
struct BytePlanes {
  __m256i part[T][8];
};
template <int T>
__attribute__((target("avx2"))) const BytePlanes<T>& byte_planes(const double* table) {
  struct Cache {
    const double* from = nullptr;
    uint64_t rebuilds = 0;
    alignas(32) uint8_t part[T][8][32];
  };
  thread_local Cache c;
  thread_local BytePlanes<T> planes;
  if (c.from != table || c.rebuilds != counts_rebuilds) {
    c.from = table;
    c.rebuilds = counts_rebuilds;
    for (int e = 0; e < 16 * T; ++e) {
      const auto bits = std::bit_cast<uint64_t>(table[e]);
      for (int b = 0; b < 8; ++b) c.part[e / 16][b][e % 16] = c.part[e / 16][b][e % 16 + 16] = static_cast<uint8_t>(bits >> (8 * b));
    }
    for (int q = 0; q < T; ++q)
      for (int b = 0; b < 8; ++b) planes.part[q][b] = _mm256_load_si256(reinterpret_cast<const __m256i*>(c.part[q][b]));
  }
  return planes;
}

// The entries of the 32 table indices h (a byte each, < 16 T), as 8 registers of 4 doubles:
// r[g] holds the entries of indices 4 g .. 4 g + 3. Each byte plane by VPSHUFB, one a part of 16
// entries, blended on h's bits 4 and 5; then a byte transpose by three levels of unpacks. As the
// unpacks work within 128-bit lanes, the indices are first ordered so that the transpose ends in
// index order (the low lane holds h's even 16-bit words, the high lane its odd ones).
template <int T>
__attribute__((target("avx2"), always_inline)) inline void planes_lookup32(const BytePlanes<T>& t, __m256i h,
                                                                           __m256d* r) {
  const __m256i words = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,  //
                                         0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
  h = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(h, words), 0xD8);
  // bit 4 (5) of each byte moved to its bit 7, which BLENDV reads (the bits shifted in from the
  // byte below land in bits 0-2)
  const __m256i bit4 = _mm256_slli_epi16(h, 3), bit5 = _mm256_slli_epi16(h, 2);
  __m256i v[8];
  for (int b = 0; b < 8; ++b) {
    const auto look = [&](int q) __attribute__((target("avx2"), always_inline)) { return _mm256_shuffle_epi8(t.part[q][b], h); };
    if constexpr (T == 1) {
      v[b] = look(0);
    } else if constexpr (T == 2) {
      v[b] = _mm256_blendv_epi8(look(0), look(1), bit4);
    } else {
      v[b] = _mm256_blendv_epi8(_mm256_blendv_epi8(look(0), look(1), bit4), _mm256_blendv_epi8(look(2), look(3), bit4), bit5);
    }
  }
  // bytes 0-1, 2-3, 4-5, 6-7 of positions 0-7 (lo) and 8-15 (hi) of each lane
  const __m256i a0 = _mm256_unpacklo_epi8(v[0], v[1]), a1 = _mm256_unpackhi_epi8(v[0], v[1]);
  const __m256i b0 = _mm256_unpacklo_epi8(v[2], v[3]), b1 = _mm256_unpackhi_epi8(v[2], v[3]);
  const __m256i c0 = _mm256_unpacklo_epi8(v[4], v[5]), c1 = _mm256_unpackhi_epi8(v[4], v[5]);
  const __m256i d0 = _mm256_unpacklo_epi8(v[6], v[7]), d1 = _mm256_unpackhi_epi8(v[6], v[7]);
  // bytes 0-3 and 4-7 of positions 0-3, 4-7, 8-11, 12-15 of each lane
  const __m256i e[4] = {_mm256_unpacklo_epi16(a0, b0), _mm256_unpackhi_epi16(a0, b0), _mm256_unpacklo_epi16(a1, b1),
                        _mm256_unpackhi_epi16(a1, b1)};
  const __m256i f[4] = {_mm256_unpacklo_epi16(c0, d0), _mm256_unpackhi_epi16(c0, d0), _mm256_unpacklo_epi16(c1, d1),
                        _mm256_unpackhi_epi16(c1, d1)};
  // positions (k, k + 1) of both lanes: after the ordering above, indices 2k .. 2k + 3
  for (int q = 0; q < 4; ++q) {
    r[2 * q] = _mm256_castsi256_pd(_mm256_unpacklo_epi32(e[q], f[q]));
    r[2 * q + 1] = _mm256_castsi256_pd(_mm256_unpackhi_epi32(e[q], f[q]));
  }
}

template <std::size_t R>
__attribute__((target("avx2"))) void lookup_avx2(const double* table, bool rbf, double xs, const double* sq,
                                                 double* out, std::size_t n) {
  const __m256d x = _mm256_set1_pd(xs), two = _mm256_set1_pd(2.0), shift = _mm256_set1_pd(0x1p52);
  __m256 lo[R ? R : 1], hi[R ? R : 1];
  table_halves<R>(table, lo, hi);
  const auto arg = [&](std::size_t i) {
    const __m256d d = _mm256_loadu_pd(out + i);
    return rbf ? _mm256_sub_pd(_mm256_add_pd(_mm256_loadu_pd(sq + i), x), _mm256_mul_pd(two, d)) : d;
  };
  std::size_t i = 0;
  if constexpr (R == 0) {
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, _mm256_i32gather_pd(table, _mm256_cvttpd_epi32(arg(i)), 8));
  } else {
    for (; i + 8 <= n; i += 8) {
      __m256d ka, kb;
      pick8_avx2<R>(lo, hi, _mm256_add_pd(arg(i), shift), _mm256_add_pd(arg(i + 4), shift), ka, kb);
      _mm256_storeu_pd(out + i, ka);
      _mm256_storeu_pd(out + i + 4, kb);
    }
  }
  lookup_scalar(table, rbf, xs, sq + i, out + i, n - i);
}

// Pads the table with zeros to 16, 32 or 64 entries (AVX-512) or 16 or 32 (AVX2) and returns the
// lookup for its size.
using LookupFn = void (*)(const double*, bool, double, const double*, double*, std::size_t);
// Whether AVX2's gathers beat the table's halves in registers: on Intel cores (on a Xeon of
// family 6 model 207, `PLAB_SIMD=avx2 plab run --algo kernel-perceptron` on a9a by byte columns
// took 115-119 ms of CPU with gathers, 187 ms with the permutes); not on AMD's, whose gathers
// run about as fast as a scalar loop.
bool avx2_gathers() {
  static const bool intel = [] {
    __builtin_cpu_init();
    return __builtin_cpu_is("intel") != 0;
  }();
  return intel;
}
// The lookup of a path ("scalar"; AVX2's "permute" or "gather"; "avx512") for a table of `used`
// entries (table.size() >= used), the table padded to the variant's register size.
LookupFn lookup_for(const std::string& path, std::vector<double>& table, std::size_t used) {
  const auto pad = [&](std::size_t m) {
    if (table.size() < m) table.resize(m, 0.0);
  };
  if (path == "gather") return lookup_avx2<0>;
  if (path == "permute") {
    for (const std::size_t r : {2, 4})
      if (used <= 8 * r) {
        pad(8 * r);
        return r == 2 ? lookup_avx2<2> : lookup_avx2<4>;
      }
    return lookup_avx2<0>;
  }
  if (path != "avx512") return lookup_scalar;
  for (const std::size_t q : {1, 2, 4})
    if (used <= 16 * q) {
      pad(16 * q);
      return q == 1 ? lookup_avx512<1> : q == 2 ? lookup_avx512<2> : lookup_avx512<4>;
    }
  return lookup_avx512<0>;
}

}  // namespace

std::string bit_dots_isa() {
  static const std::string isa = simd_path() == Simd::avx512 && has_vpopcnt() ? "avx512"
                                 : simd_path() >= Simd::avx2 && has_avx2()   ? "avx2"
                                                                             : "scalar";
  return isa;
}

void bit_dots(const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b, std::size_t e, double* out) {
  static const DotsFn run = bit_dots_isa() == "avx512" ? dots_avx512 : bit_dots_isa() == "avx2" ? dots_avx2 : dots_scalar;
  run(words, ld, x, b, e, out);
}

void bit_dots_on(const std::string& isa, const uint64_t* words, std::size_t ld, const WordsOf& x, std::size_t b,
                 std::size_t e, double* out) {
  if (isa == "scalar") return dots_scalar(words, ld, x, b, e, out);
  if (isa == "avx2") {
    if (!has_avx2()) throw std::invalid_argument("this CPU has no AVX2");
    return dots_avx2(words, ld, x, b, e, out);
  }
  if (isa != "avx512") throw std::invalid_argument("bit_dots path must be scalar, avx2 or avx512, not '" + isa + "'");
  if (!has_vpopcnt()) throw std::invalid_argument("this CPU has no AVX-512 VPOPCNTQ");
  dots_avx512(words, ld, x, b, e, out);
}

namespace {
// The table of the kernel's values at h = 0 .. top (rbf: the Hamming distance; poly: the count),
// per thread (rows of one set may run on several), kept from round to round: entry h is the row
// function's value at h alone, so a longer table's first entries are the bits of a shorter one
// (building it every round was a tenth of an a9a RBP pass). At least top + 1 entries.
struct CountsCache {
  Kernel kernel;
  std::size_t valid = 0;  // entries computed
  std::vector<double> table;
  bool holds(const Kernel& k, std::size_t top) const {
    return valid >= top + 1 && kernel.type == k.type && kernel.gamma == k.gamma && kernel.coef0 == k.coef0 &&
           kernel.degree == k.degree;
  }
};
thread_local CountsCache counts_cache;
std::vector<double>& counts_table(const Kernel& k, std::size_t top) {
  CountsCache& c = counts_cache;
  if (!c.holds(k, top)) {
    ++counts_rebuilds;
    c.kernel = k;
    c.valid = top + 1;
    c.table.assign(top + 1, 0.0);
    if (k.type == Kernel::Type::rbf) {  // table[h] = the row function's value at (h + 0) - 2 * 0 = h
      std::vector<double> arg(top + 1);
      std::iota(arg.begin(), arg.end(), 0.0);
      rbf_from_dots(k.gamma, 0.0, arg.data(), c.table.data(), top + 1);
    } else {
      std::iota(c.table.begin(), c.table.end(), 0.0);
      poly_from_dots(k.gamma, k.coef0, k.degree, c.table.data(), top + 1);
    }
  }
  return c.table;
}

// The largest h of x (|x| = xs) against supports of at most max_count features.
std::size_t counts_top(const Kernel& k, double xs, std::size_t max_count) {
  const auto nx = static_cast<std::size_t>(xs);
  return k.type == Kernel::Type::rbf ? nx + max_count : std::min(nx, max_count);
}
}  // namespace

bool kernel_from_counts_on(const std::string& path, const Kernel& k, double xs, const double* sq,
                           std::size_t max_count, double* out, std::size_t n) {
  if (path != "scalar" && path != "permute" && path != "gather" && path != "avx512")
    throw std::invalid_argument("kernel_from_counts path must be scalar, permute, gather or avx512, not '" + path + "'");
  if ((path == "avx512" && !__builtin_cpu_supports("avx512f")) || ((path == "permute" || path == "gather") && !has_avx2()))
    throw std::invalid_argument("kernel_from_counts path '" + path + "' is not available here");
  if (k.type == Kernel::Type::linear) return false;
  const std::size_t top = counts_top(k, xs, max_count);
  if (2 * (top + 1) > n && !counts_cache.holds(k, top)) return false;  // a few values: the table once made
  std::vector<double>& table = counts_table(k, top);
  lookup_for(path, table, top + 1)(table.data(), k.type == Kernel::Type::rbf, xs, sq, out, n);
  return true;
}

bool kernel_from_counts(const Kernel& k, double xs, const double* sq, std::size_t max_count, double* out,
                        std::size_t n) {
  if (k.type == Kernel::Type::linear) return false;
  if (n < 8 && counts_cache.holds(k, counts_top(k, xs, max_count))) {  // a few values: no path to choose
    lookup_scalar(counts_cache.table.data(), k.type == Kernel::Type::rbf, xs, sq, out, n);
    return true;
  }
  static const std::string path = simd_path() == Simd::avx512 ? "avx512"
                                  : simd_path() == Simd::avx2 ? (avx2_gathers() ? "gather" : "permute")
                                                              : "scalar";
  return kernel_from_counts_on(path, k, xs, sq, max_count, out, n);
}

namespace {
// One support's term, as bit_dots, the lookup and LaneSum::add_term form it (and its kernel value
// into row[i] when row is given).
inline void score_scalar(const double* table, bool rbf, const uint64_t* words, std::size_t ld, const WordsOf& x,
                         double xs, const double* sq, const double* alpha, std::size_t i, LaneSum& s, double* row) {
  uint64_t c = 0;
  for (std::size_t k = 0; k < x.at.size(); ++k) c += static_cast<uint64_t>(std::popcount(words[x.at[k] * ld + i] & x.bits[k]));
  const auto d = static_cast<double>(c);
  const double kv = table[static_cast<std::size_t>(rbf ? (sq[i] + xs) - 2.0 * d : d)];
  if (row) row[i] = kv;
  s.add_term(i, alpha[i], kv);
}

// Supports i .. in blocks of 16 (i a multiple of 16): lanes 0-7 and 8-15 of s in two registers,
// each term the lookup's value times alpha, added (Row: the value stored to row[i] too); returns
// where it stopped.
template <std::size_t Q, bool Row>
__attribute__((target("avx512f,avx512dq,avx512vpopcntdq"))) std::size_t scores_avx512(
    const double* table, bool rbf, const uint64_t* words, std::size_t ld, const WordsOf& x, double xs,
    const double* sq, const double* alpha, std::size_t i, std::size_t e, LaneSum& s, double* row) {
  __m512d t[Q ? 2 * Q : 1];
  for (std::size_t q = 0; q < 2 * Q; ++q) t[q] = _mm512_loadu_pd(table + 8 * q);
  const __m512d xv = _mm512_set1_pd(xs), two = _mm512_set1_pd(2.0), shift = _mm512_set1_pd(0x1p52);
  __m512d acc0 = _mm512_loadu_pd(s.acc), acc1 = _mm512_loadu_pd(s.acc + 8);  // named: an array stayed in memory
  const std::size_t nk = x.at.size();
  const auto term = [&](__m512i c, std::size_t o) __attribute__((target("avx512f,avx512dq"))) {
    const __m512d d = _mm512_cvtepi64_pd(c);
    const __m512d h = rbf ? _mm512_sub_pd(_mm512_add_pd(_mm512_loadu_pd(sq + o), xv), _mm512_mul_pd(two, d)) : d;
    __m512d kv;
    if constexpr (Q == 0) kv = _mm512_i32gather_pd(_mm512_cvttpd_epi32(h), table, 8);
    else kv = pick<Q>(t, _mm512_castpd_si512(_mm512_add_pd(h, shift)));
    if constexpr (Row) _mm512_storeu_pd(row + o, kv);
    return _mm512_mul_pd(_mm512_loadu_pd(alpha + o), kv);
  };
  for (; i + 16 <= e; i += 16) {
    __m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512();
    for (std::size_t k = 0; k < nk; ++k) {
      const uint64_t* w = words + x.at[k] * ld + i;
      const __m512i xb = _mm512_set1_epi64(static_cast<long long>(x.bits[k]));
      c0 = _mm512_add_epi64(c0, _mm512_popcnt_epi64(_mm512_and_si512(_mm512_loadu_si512(w), xb)));
      c1 = _mm512_add_epi64(c1, _mm512_popcnt_epi64(_mm512_and_si512(_mm512_loadu_si512(w + 8), xb)));
    }
    acc0 = _mm512_add_pd(acc0, term(c0, i));
    acc1 = _mm512_add_pd(acc1, term(c1, i + 8));
  }
  _mm512_storeu_pd(s.acc, acc0);
  _mm512_storeu_pd(s.acc + 8, acc1);
  return i;
}

}  // namespace

bool bit_scores_on(const std::string& isa, const Kernel& k, const uint64_t* words, std::size_t ld, const WordsOf& x,
                   double xs, const double* sq, std::size_t max_count, const double* alpha, std::size_t b, std::size_t e,
                   LaneSum& s, double* row) {
  if (k.type == Kernel::Type::linear) return false;
  if ((isa == "avx512" && !has_vpopcnt()) || (isa != "avx512" && isa != "scalar"))
    throw std::invalid_argument("bit_scores path '" + isa + "' is not available here");
  const bool rbf = k.type == Kernel::Type::rbf;
  const std::size_t top = counts_top(k, xs, max_count);
  std::vector<double>& table = counts_table(k, top);
  std::size_t i = b;
  for (; i < e && i % kSumLanes != 0; ++i) score_scalar(table.data(), rbf, words, ld, x, xs, sq, alpha, i, s, row);
  if (isa == "avx512") {
    const auto pad = [&](std::size_t m) {
      if (table.size() < m) table.resize(m, 0.0);
    };
    const auto run = [&]<std::size_t Q>(std::integral_constant<std::size_t, Q>) {
      if (Q > 0) pad(16 * Q);
      return row ? scores_avx512<Q, true>(table.data(), rbf, words, ld, x, xs, sq, alpha, i, e, s, row)
                 : scores_avx512<Q, false>(table.data(), rbf, words, ld, x, xs, sq, alpha, i, e, s, row);
    };
    if (top + 1 <= 16) i = run(std::integral_constant<std::size_t, 1>{});
    else if (top + 1 <= 32) i = run(std::integral_constant<std::size_t, 2>{});
    else if (top + 1 <= 64) i = run(std::integral_constant<std::size_t, 4>{});
    else i = run(std::integral_constant<std::size_t, 0>{});
  }
  for (; i < e; ++i) score_scalar(table.data(), rbf, words, ld, x, xs, sq, alpha, i, s, row);
  return true;
}

bool bit_scores(const Kernel& k, const uint64_t* words, std::size_t ld, const WordsOf& x, double xs, const double* sq,
                std::size_t max_count, const double* alpha, std::size_t b, std::size_t e, LaneSum& s, double* row) {
  // AVX-512 only: fused on AVX2 (the nibble popcounts and the table's halves in 16 registers) an
  // a9a kernel Perceptron pass took 5-12% longer than the row, the lookup and the lane sums apart.
  return bit_scores_fused() && bit_scores_on("avx512", k, words, ld, x, xs, sq, max_count, alpha, b, e, s, row);
}

bool bit_scores_fused() {
  static const bool fused = bit_dots_isa() == "avx512";
  return fused;
}

namespace {
bool has_avx512bw() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
bool has_vbmi_gfni() {
  return has_avx512bw() && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("gfni");
}
}  // namespace

bool byte_columns_wanted() {
  static const bool wanted = bit_dots_isa() == "avx2" || (bit_dots_isa() == "avx512" && has_avx512bw());
  return wanted;
}

bool byte_rows_wanted() {
  static const bool wanted = bit_dots_isa() == "avx2";
  return wanted;
}

bool byte_sums_wanted() { return byte_rows_wanted(); }

bool byte_counts_fit(double xs, std::size_t max_count) { return xs + static_cast<double>(max_count) <= 255.0; }

namespace {

// x's features below `rows` (ascending, so a prefix of x.idx).
std::size_t byte_features(const Example& x, std::size_t rows) {
  return static_cast<std::size_t>(std::lower_bound(x.idx.begin(), x.idx.end(), rows) - x.idx.begin());
}

// out[k] = base + idx[k] * stride for k < n (restrict: the loop is vectorised).
template <class T>
void addresses(const T* base, std::size_t stride, const uint32_t* __restrict idx, std::size_t n, const T** __restrict out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = base + static_cast<std::size_t>(idx[k]) * stride;
}

// x's columns: the first word of each of its nk features' bit columns (nk <= |x| <= 255) and,
// where given and nk <= kByteSumFeatures, the first byte of each one's byte column (sum). The
// words (at) only where there are no sums or the caller asks for them (words_too: supports
// counted from their words' planes). Both as the columns were, one by one: a score over 100
// a9a-like supports took 1134 instructions, now 1056 (callgrind, `PLAB_SIMD=avx2 bench_scoring
// --benchmark_filter=BM_Score/1/100$`).
struct Columns {
  const uint64_t* at[256];
  const uint8_t* sum[kByteSumFeatures];
  std::size_t nk;
  bool sums;
  Columns(const uint64_t* cols, std::size_t cw, const Example& x, std::size_t rows, const uint8_t* bytes = nullptr,
          std::size_t sld = 0, bool words_too = true)
      : nk(byte_features(x, rows)), sums(bytes != nullptr && nk <= kByteSumFeatures) {
    if (!sums || words_too) addresses(cols, cw, x.idx.data(), nk, at);
    if (sums) addresses(bytes, sld, x.idx.data(), nk, sum);
  }
};

// The counts of common features of the 64 supports of word w as P = 8 bit planes (plane p: bit
// p of each count): x's columns added one bit at a time, the carry stopping at the planes the
// count so far can reach.
inline void word_planes(const Columns& x, std::size_t w, uint64_t* pl) {
  for (int p = 0; p < 8; ++p) pl[p] = 0;
  for (std::size_t k = 0; k < x.nk; ++k) {
    uint64_t carry = x.at[k][w];
    const int top = static_cast<int>(std::bit_width(k + 1));
    for (int p = 0; p < top && carry; ++p) {
      const uint64_t t = pl[p] & carry;
      pl[p] ^= carry;
      carry = t;
    }
  }
}
// Support i's count from its word's planes (i mod 64 its bit).
inline unsigned plane_count(const uint64_t* pl, std::size_t bit) {
  unsigned c = 0;
  for (int p = 0; p < 8; ++p) c |= static_cast<unsigned>((pl[p] >> bit) & 1u) << p;
  return c;
}

// The same for P planes of 256 bits (4 words from w; AVX2) or 512 (8 words; AVX-512) in vector
// registers: P = 4 serves nk <= 15 (no carry leaves plane 3), else 8. The columns are added two
// (AVX2) or three (AVX-512) at a time: their sum as bits of weight 1 and 2 first, then one carry
// chain through the planes (5 and 3 operations a column, where one at a time took 7).
template <int P>
__attribute__((target("avx2"), always_inline)) inline void planes256(const Columns& x, std::size_t w, __m256i* pl) {
  for (int p = 0; p < P; ++p) pl[p] = _mm256_setzero_si256();
  const auto col = [&](std::size_t k) __attribute__((target("avx2"))) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.at[k] + w));
  };
  const auto ripple = [&](int p, __m256i carry) __attribute__((target("avx2"))) {
    for (; p < P; ++p) {
      const __m256i t = _mm256_and_si256(pl[p], carry);
      pl[p] = _mm256_xor_si256(pl[p], carry);
      carry = t;
    }
  };
  std::size_t k = 0;
  for (; k + 2 <= x.nk; k += 2) {
    const __m256i a = col(k), b = col(k + 1);
    const __m256i s = _mm256_xor_si256(a, b), h = _mm256_and_si256(a, b);  // a + b = s + 2 h
    const __m256i c = _mm256_and_si256(pl[0], s);                           // plane 0 + s = plane 0' + 2 c
    pl[0] = _mm256_xor_si256(pl[0], s);
    ripple(1, _mm256_or_si256(h, c));  // h and c are never both set (h = 1: s = 0)
  }
  if (k < x.nk) ripple(0, col(k));
}
template <int P>
__attribute__((target("avx512f"), always_inline)) inline void planes512(const Columns& x, std::size_t w, __m512i* pl) {
  for (int p = 0; p < P; ++p) pl[p] = _mm512_setzero_si512();
  const auto col = [&](std::size_t k) __attribute__((target("avx512f"))) { return _mm512_loadu_si512(x.at[k] + w); };
  const auto ripple = [&](int p, __m512i carry) __attribute__((target("avx512f"))) {
    for (; p < P; ++p) {
      const __m512i t = _mm512_and_si512(pl[p], carry);
      pl[p] = _mm512_xor_si512(pl[p], carry);
      carry = t;
    }
  };
  std::size_t k = 0;
  for (; k + 3 <= x.nk; k += 3) {
    const __m512i a = col(k), b = col(k + 1), c = col(k + 2);
    // a + b + c = s + 2 m: parity and majority, a ternary-logic operation each
    const __m512i s = _mm512_ternarylogic_epi64(a, b, c, 0x96), m = _mm512_ternarylogic_epi64(a, b, c, 0xE8);
    const __m512i c0 = _mm512_and_si512(pl[0], s);  // plane 0 + s = plane 0' + 2 c0
    pl[0] = _mm512_xor_si512(pl[0], s);
    // plane 1 + m + c0 = plane 1' + 2 c1
    const __m512i c1 = _mm512_ternarylogic_epi64(pl[1], m, c0, 0xE8);
    pl[1] = _mm512_ternarylogic_epi64(pl[1], m, c0, 0x96);
    ripple(2, c1);
  }
  for (; k < x.nk; ++k) ripple(0, col(k));
}

// The 32 counts of supports 32 g .. 32 g + 31 of the planes' 256 bits, a byte each (AVX2: each
// plane's 32 bits spread to the bytes, tested, weighted 2^p and added).
template <int P>
__attribute__((target("avx2"), always_inline)) inline __m256i counts_of_planes32(const uint32_t (*pl)[8], std::size_t g) {
  const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,  //
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
  __m256i c = _mm256_setzero_si256();
  for (int p = 0; p < P; ++p) {
    const __m256i b = _mm256_and_si256(_mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(pl[p][g])), spread), bit);
    c = _mm256_add_epi8(c, _mm256_and_si256(_mm256_cmpeq_epi8(b, bit), _mm256_set1_epi8(static_cast<char>(1 << p))));
  }
  return c;
}

// AVX2 blocks of 32 supports from i (i % 64 == 0) to e: f(j, c, n) with c the counts of supports
// j .. j + 31, a byte each, of which the first n = min(32, e - j) are supports of the range.
template <int P, class F>
__attribute__((target("avx2"), always_inline)) inline void blocks_avx2(const Columns& x, std::size_t i, std::size_t e,
                                                                       F f) {
  while (i < e) {
    __m256i pl[P];
    planes256<P>(x, i / 64, pl);
    alignas(32) uint32_t w[P][8];
    for (int p = 0; p < P; ++p) _mm256_store_si256(reinterpret_cast<__m256i*>(w[p]), pl[p]);
    for (std::size_t g = 0; g < 8 && i < e; ++g, i += 32) f(i, counts_of_planes32<P>(w, g), std::min<std::size_t>(32, e - i));
  }
}
// The same from the byte columns: each block's counts are x's columns' bytes added (two
// accumulators: one waited on each add).
template <class F>
__attribute__((target("avx2"), always_inline)) inline void sum_blocks_avx2(const Columns& x, std::size_t i,
                                                                           std::size_t e, F f) {
  for (; i < e; i += 32) {
    const auto col = [&](std::size_t k) __attribute__((target("avx2"), always_inline)) {
      return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.sum[k] + i));
    };
    __m256i c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256();
    std::size_t k = 0;
    for (; k + 2 <= x.nk; k += 2) c0 = _mm256_add_epi8(c0, col(k)), c1 = _mm256_add_epi8(c1, col(k + 1));
    if (k < x.nk) c0 = _mm256_add_epi8(c0, col(k));
    f(i, _mm256_add_epi8(c0, c1), std::min<std::size_t>(32, e - i));
  }
}
// Inlined into its caller, so that the caller's sums stay in registers (out of line, the lambda
// reached them through memory at every add).
template <class F>
__attribute__((target("avx2"), always_inline)) inline void blocks_avx2_of(const Columns& x, std::size_t i,
                                                                          std::size_t e, F f) {
  if (x.sums) sum_blocks_avx2(x, i, e, f);
  else if (x.nk <= 15) blocks_avx2<4>(x, i, e, f);
  else blocks_avx2<8>(x, i, e, f);
}

// (|s_i| + |x|) - 2 c (rbf) or c, a byte each: in [0, 255] (c <= (|s_i| + |x|) / 2 <= 127).
__attribute__((target("avx2"), always_inline)) inline __m256i distances32(bool rbf, __m256i c, const uint8_t* counts,
                                                                          unsigned xs) {
  if (!rbf) return c;
  return _mm256_sub_epi8(_mm256_add_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(counts)),
                                         _mm256_set1_epi8(static_cast<char>(xs))),
                         _mm256_add_epi8(c, c));
}

// Supports i .. e - 1 in blocks of 32 (i a multiple of 64), their terms into the lane sums of s:
// the Hamming distance (rbf) or the count as a byte, the table's entry by a gather (R = 0) or by
// the halves of a table of 8 R <= 32 entries in registers (pick_avx2, as lookup_avx2), times
// alpha, added to lane i mod 16 (Row: the entry stored to row[i] too); a last block of fewer
// than 32 supports term by term.
template <std::size_t R, bool Loads, bool Row, int T = 0>
__attribute__((target("avx2"))) void byte_scores_avx2(const double* table, bool rbf, const Columns& x, unsigned xs,
                                                      const uint8_t* counts, const double* alpha, std::size_t i,
                                                      std::size_t e, LaneSum& s, double* row) {
  using V4 = double __attribute__((vector_size(32)));
  V4 v[4];
  std::memcpy(v, s.acc, sizeof v);
  __m256 lo[R ? R : 1], hi[R ? R : 1];
  if constexpr (R > 0) table_halves<R>(table, lo, hi);
  const BytePlanes<T ? T : 1>* planes = nullptr;
  if constexpr (T > 0) planes = &byte_planes<T>(table);
  const auto add = [&](std::size_t q, std::size_t at, __m256d k) __attribute__((target("avx2"))) {  // supports at..at+3
    V4 av;
    std::memcpy(&av, alpha + at, sizeof av);
    if constexpr (Row) _mm256_storeu_pd(row + at, k);
    v[q] += av * reinterpret_cast<const V4&>(k);  // a rounded product, then the lane's add
  };
  blocks_avx2_of(x, i, e, [&](std::size_t j, __m256i c, std::size_t n) __attribute__((target("avx2"))) {
    const __m256i h = distances32(rbf, c, counts + j, xs);
    alignas(32) uint8_t hb[32];
    if (n < 32) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(hb), h);
      std::memcpy(s.acc, v, sizeof v);
      for (std::size_t t = 0; t < n; ++t) {
        if constexpr (Row) row[j + t] = table[hb[t]];
        s.add_term(j + t, alpha[j + t], table[hb[t]]);
      }
      std::memcpy(v, s.acc, sizeof v);
      return;
    }
    if constexpr (T > 0) {
      __m256d k[8];
      planes_lookup32<T>(*planes, h, k);
      for (std::size_t g = 0; g < 8; ++g) add(g % 4, j + 4 * g, k[g]);
    } else if constexpr (R == 0 && Loads) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(hb), h);
      for (std::size_t g = 0; g < 8; ++g) {
        const uint8_t* q = hb + 4 * g;
        add(g % 4, j + 4 * g, load4(table, q[0], q[1], q[2], q[3]));
      }
    } else if constexpr (R == 0) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(hb), h);
      for (std::size_t g = 0; g < 8; ++g) {
        int four;
        std::memcpy(&four, hb + 4 * g, sizeof four);
        add(g % 4, j + 4 * g, _mm256_i32gather_pd(table, _mm_cvtepu8_epi32(_mm_cvtsi32_si128(four)), 8));
      }
    } else {
      // Within each 8, the order (0 1 4 5 2 3 6 7): pick's halves then interleave into supports 0-3, 4-7.
      const __m256i order = _mm256_setr_epi8(0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15,  //
                                             0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15);
      _mm256_store_si256(reinterpret_cast<__m256i*>(hb), _mm256_shuffle_epi8(h, order));
      for (std::size_t q = 0; q < 4; ++q) {
        const __m256i id = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(hb + 8 * q)));
        const __m256i l = _mm256_castps_si256(pick_avx2<R>(lo, id)), u = _mm256_castps_si256(pick_avx2<R>(hi, id));
        add((2 * q) % 4, j + 8 * q, _mm256_castsi256_pd(_mm256_unpacklo_epi32(l, u)));
        add((2 * q + 1) % 4, j + 8 * q + 4, _mm256_castsi256_pd(_mm256_unpackhi_epi32(l, u)));
      }
    }
  });
  std::memcpy(s.acc, v, sizeof v);
}

// The same on AVX-512 (BW: bytes 64 to a register): the planes of 512 supports at a time, each
// block of 64 supports' counts from them by masked byte adds, each 8 of them picked from a table of
// 16 Q <= 64 entries in registers (pick, as lookup_avx512), lanes 0-7 and 8-15 of s in two
// registers; the last block's supports past e are counted (the columns' slack) but masked out of
// the sums. Runs to e (i a multiple of 64). Each 8's indices are their 8 bytes broadcast from
// memory and shifted right by 8 l in lane l (pick reads the low bits only): on Intel's AVX-512
// cores the permutes issue on one port, and widening the bytes (vpmovzxbq, with the extracts the
// compiler made of the reloads) took that port too, a third of the pass's issue slots.
// Row: each value stored to row[i] too.
// Halves: each whole block's 16 supports at a time from the table's 32-bit halves (pick32): the
// 16 indices widened to 32 bits in an order that the low and high halves' interleave (two
// unpacks) turns into supports 0-7 and 8-15, so 2 permutes (4 for 64 entries, and a blend) where
// the doubles took 4 (8), 2 shifts, 2 tests and 2 blends. On an AMD EPYC Zen 5 a score over 10,000
// a9a-like supports took 15% less (1.51 -> 1.28 us, the same sums); on Intel's cores all of these
// issue on the one permute port, so the doubles stay there (byte_scores). The 16 indices are
// widened from the block's register by one zero-masking byte permute (AVX-512 VBMI's VPERMB, every
// fourth byte kept), not reloaded from memory, shuffled and widened: a score over 793 a9a-like
// supports 0.125 -> 0.106 ns a support, over 10,000 0.117 -> 0.110 (the same sums). With 4 planes
// (x of 15 features or fewer) two blocks' counts come from one bit-matrix transpose (GFNI's
// GF2P8AFFINEQB) of their planes' bytes, gathered by two VPERMT2B, where the masked adds took 8
// operations a block: over 10,000 supports 0.116 -> 0.101-0.107 ns a support, over 793 2-5% less.
// byte_scores_avx512's byte permutes (Halves), 4 of 64 bytes each, for the 16 supports h (of a
// block's 64) and the block pair h (of 8 blocks):
// - kHalvesWidened[h]: the 32-bit lanes 4 k, 4 k + 1 <- supports 16 h + 2 k, 16 h + 2 k + 1 and
//   lanes 4 k + 2, 4 k + 3 <- 16 h + 8 + 2 k, 16 h + 9 + 2 k (k < 4), into each lane's low byte;
// - kPlanesGather01[h]: byte j of blocks 2 h and 2 h + 1 of planes 0 (the first register) and 1
//   (the second) into bytes 7, 6 and 3, 2 of qword j; kPlanesGather23[h] planes 2 and 3 into
//   bytes 5, 4 and 1, 0 (the bytes between are masked out).
using Bytes64 = std::array<std::array<uint8_t, 64>, 4>;
constexpr Bytes64 halves_widened() {
  Bytes64 t{};
  for (int h = 0; h < 4; ++h)
    for (int k = 0; k < 4; ++k)
      for (int m = 0; m < 4; ++m) t[h][4 * (4 * k + m)] = static_cast<uint8_t>(16 * h + 2 * k + (m & 1) + (m & 2) * 4);
  return t;
}
constexpr Bytes64 planes_gather(int top) {  // top: the byte of qword j for the first plane of block 2 h
  Bytes64 t{};
  for (int h = 0; h < 4; ++h)
    for (int j = 0; j < 8; ++j)
      for (int blk = 0; blk < 2; ++blk)
        for (int second = 0; second < 2; ++second)
          t[h][8 * j + top - 4 * blk - second] = static_cast<uint8_t>(64 * second + 8 * (2 * h + blk) + j);
  return t;
}
alignas(64) constexpr Bytes64 kHalvesWidened = halves_widened(), kPlanesGather01 = planes_gather(7),
                              kPlanesGather23 = planes_gather(5);
// The byte masks of the halves' permutes: each 32-bit lane's low byte (kHalvesWidened), bytes 7, 6,
// 3, 2 of each qword (kPlanesGather01) and 5, 4, 1, 0 (kPlanesGather23).
constexpr __mmask64 kLowBytes = 0x1111111111111111ull;
constexpr __mmask64 kPlanes01 = 0xCCCCCCCCCCCCCCCCull, kPlanes23 = 0x3333333333333333ull;

#define PLAB_BYTE_SCORES_NAME byte_scores_avx512
#define PLAB_BYTE_SCORES_TARGET "avx512f,avx512bw"
#define PLAB_BYTE_SCORES_HALVES false
#include "numerics/byte_scores_avx512.inc"
#undef PLAB_BYTE_SCORES_NAME
#undef PLAB_BYTE_SCORES_TARGET
#undef PLAB_BYTE_SCORES_HALVES
#define PLAB_BYTE_SCORES_NAME byte_scores_avx512_halves
#define PLAB_BYTE_SCORES_TARGET "avx512f,avx512bw,avx512vbmi,gfni"
#define PLAB_BYTE_SCORES_HALVES true
#include "numerics/byte_scores_avx512.inc"
#undef PLAB_BYTE_SCORES_NAME
#undef PLAB_BYTE_SCORES_TARGET
#undef PLAB_BYTE_SCORES_HALVES

}  // namespace

void byte_dots(const uint64_t* cols, std::size_t cw, std::size_t rows, const Example& x, std::size_t b, std::size_t e,
               double* out, const uint8_t* sums, std::size_t sld) {
  const Columns c(cols, cw, x, rows, sums, sld, !has_avx2() || b % 64 != 0);
  std::size_t i = b;
  uint64_t pl[8];
  const auto part = [&](std::size_t to) {  // supports i .. to - 1 from their words' planes
    while (i < to) {
      word_planes(c, i / 64, pl);
      for (const std::size_t end = std::min(to, (i / 64 + 1) * 64); i < end; ++i)
        out[i - b] = static_cast<double>(plane_count(pl, i % 64));
    }
  };
  if (!has_avx2()) return part(e);
  part(std::min(e, (b + 63) / 64 * 64));
  blocks_avx2_of(c, i, e, [&](std::size_t j, __m256i counts, std::size_t n) __attribute__((target("avx2"))) {
    alignas(32) uint8_t h[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(h), counts);
    if (n < 32) {
      for (std::size_t t = 0; t < n; ++t) out[j - b + t] = static_cast<double>(h[t]);
      return;
    }
    for (std::size_t g = 0; g < 32; g += 4) {  // whole numbers below 256: exact in int32 and in double
      int four;
      std::memcpy(&four, h + g, sizeof four);
      _mm256_storeu_pd(out + (j - b) + g, _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(four))));
    }
  });
}

namespace {
enum class ByteLookup { scalar, permute, gather, loads, planes, avx512, avx512_halves };

// byte_scores on a lookup the CPU has (a round's entry: no names to compare).
bool byte_scores_by(ByteLookup lookup, const Kernel& k, const uint64_t* cols, std::size_t cw, std::size_t rows,
                    const Example& x, const uint8_t* counts, std::size_t max_count, const double* alpha, std::size_t b,
                    std::size_t e, LaneSum& s, double* row, const uint8_t* sums, std::size_t sld) {
  if (k.type == Kernel::Type::linear) return false;
  const bool rbf = k.type == Kernel::Type::rbf;
  const std::size_t top = counts_top(k, x.sqnorm, max_count);
  std::vector<double>& table = counts_table(k, top);
  const Columns c(cols, cw, x, rows, lookup == ByteLookup::avx512 || lookup == ByteLookup::avx512_halves ? nullptr : sums,
                  sld, lookup == ByteLookup::scalar || b % 64 != 0);
  const auto xs = static_cast<unsigned>(x.sqnorm);
  // Supports i .. to - 1 (before the blocks, or all on the scalar path) one by one, their counts
  // from their words' planes.
  std::size_t i = b;
  uint64_t pl[8];
  const auto part = [&](std::size_t to) {
    while (i < to) {
      word_planes(c, i / 64, pl);
      for (const std::size_t end = std::min(to, (i / 64 + 1) * 64); i < end; ++i) {
        const unsigned n = plane_count(pl, i % 64);
        const double kv = table[rbf ? counts[i] + xs - 2 * n : n];
        if (row) row[i] = kv;
        s.add_term(i, alpha[i], kv);
      }
    }
  };
  if (lookup == ByteLookup::scalar) {
    part(e);
    return true;
  }
  part(std::min(e, (b + 63) / 64 * 64));
  // Each kernel with Row and without (a row's stores cost nothing where none is asked).
  const auto with_row = [&](auto f) { return row ? f(std::true_type{}) : f(std::false_type{}); };
  if ((lookup == ByteLookup::avx512 || lookup == ByteLookup::avx512_halves) && top + 1 <= 64) {
    const std::size_t q = top + 1 <= 16 ? 1 : top + 1 <= 32 ? 2 : 4;
    if (table.size() < 16 * q) table.resize(16 * q, 0.0);
    const auto run = [&]<std::size_t Q, int P>(auto r) {
      return lookup == ByteLookup::avx512_halves
                 ? byte_scores_avx512_halves<Q, P, decltype(r)::value>(table.data(), rbf, c, xs, counts, alpha, i, e, s, row)
                 : byte_scores_avx512<Q, P, decltype(r)::value>(table.data(), rbf, c, xs, counts, alpha, i, e, s, row);
    };
    const bool p4 = c.nk <= 15;
    i = with_row([&](auto r) {
      if (q == 1) return p4 ? run.operator()<1, 4>(r) : run.operator()<1, 8>(r);
      if (q == 2) return p4 ? run.operator()<2, 4>(r) : run.operator()<2, 8>(r);
      return p4 ? run.operator()<4, 4>(r) : run.operator()<4, 8>(r);
    });
    return true;
  }
  const auto avx2 = [&]<std::size_t R, bool Loads>(auto r) {
    byte_scores_avx2<R, Loads, decltype(r)::value>(table.data(), rbf, c, xs, counts, alpha, i, e, s, row);
  };
  with_row([&](auto r) {
    if (lookup == ByteLookup::permute && top + 1 <= 16) {
      if (table.size() < 16) table.resize(16, 0.0);
      avx2.operator()<2, false>(r);
    } else if (lookup == ByteLookup::permute && top + 1 <= 32) {
      if (table.size() < 32) table.resize(32, 0.0);
      avx2.operator()<4, false>(r);
    } else if (lookup == ByteLookup::planes && top + 1 <= 64) {
      const std::size_t parts = top + 1 <= 16 ? 1 : top + 1 <= 32 ? 2 : 4;
      if (table.size() < 16 * parts) table.resize(16 * parts, 0.0);
      const auto run = [&]<int T>() { byte_scores_avx2<0, false, decltype(r)::value, T>(table.data(), rbf, c, xs, counts, alpha, i, e, s, row); };
      if (parts == 1) run.template operator()<1>();
      else if (parts == 2) run.template operator()<2>();
      else run.template operator()<4>();
    } else if (lookup == ByteLookup::loads || lookup == ByteLookup::planes) {
      avx2.operator()<0, true>(r);
    } else {
      avx2.operator()<0, false>(r);
    }
    return 0;
  });
  return true;
}

}  // namespace

bool byte_scores_on(const std::string& lookup, const Kernel& k, const uint64_t* cols, std::size_t cw, std::size_t rows,
                    const Example& x, const uint8_t* counts, std::size_t max_count, const double* alpha, std::size_t b,
                    std::size_t e, LaneSum& s, double* row, const uint8_t* sums, std::size_t sld) {
  const ByteLookup by = lookup == "scalar"    ? ByteLookup::scalar
                        : lookup == "permute" ? ByteLookup::permute
                        : lookup == "gather"  ? ByteLookup::gather
                        : lookup == "loads"   ? ByteLookup::loads
                        : lookup == "planes"  ? ByteLookup::planes
                        : lookup == "avx512"  ? ByteLookup::avx512
                        : lookup == "avx512-halves"
                            ? ByteLookup::avx512_halves
                            : throw std::invalid_argument("byte_scores lookup must be gather, loads, planes, permute, avx512, "
                                                          "avx512-halves or scalar, not '" + lookup + "'");
  if (by != ByteLookup::scalar && !has_avx2()) throw std::invalid_argument("this CPU has no AVX2");
  if ((by == ByteLookup::avx512 || by == ByteLookup::avx512_halves) && !has_avx512bw())
    throw std::invalid_argument("this CPU has no AVX-512 BW");
  if (by == ByteLookup::avx512_halves && !has_vbmi_gfni()) throw std::invalid_argument("this CPU has no AVX-512 VBMI or GFNI");
  if (k.type != Kernel::Type::linear && !byte_counts_fit(x.sqnorm, max_count))
    throw std::invalid_argument("byte_scores: the counts do not fit a byte");
  return byte_scores_by(by, k, cols, cw, rows, x, counts, max_count, alpha, b, e, s, row, sums, sld);
}

bool byte_scores(const Kernel& k, const uint64_t* cols, std::size_t cw, std::size_t rows, const Example& x,
                 const uint8_t* counts, std::size_t max_count, const double* alpha, std::size_t b, std::size_t e,
                 LaneSum& s, double* row, const uint8_t* sums, std::size_t sld) {
  static const ByteLookup lookup = bit_dots_isa() == "avx512"
                                       ? (avx2_gathers() || !has_vbmi_gfni() ? ByteLookup::avx512 : ByteLookup::avx512_halves)
                                   : avx2_gathers()           ? ByteLookup::gather
                                                              : ByteLookup::planes;
  return byte_scores_by(lookup, k, cols, cw, rows, x, counts, max_count, alpha, b, e, s, row, sums, sld);
}

}  // namespace plab
