#include "numerics/panel_dots.hpp"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "numerics/simd.hpp"

namespace plab {
namespace {

constexpr std::size_t W = kPanelSupports, F = kPanelRows;

// The features of x below `rows` (x's features are ascending).
std::size_t features_below(const Example& x, std::size_t rows) {
  return static_cast<std::size_t>(std::lower_bound(x.idx.begin(), x.idx.end(), rows) - x.idx.begin());
}

// Feature sets as bitsets, `words` 64-bit words a round (rows <= kPairBitsetRows), else none. A
// word is gathered in a register (x's features are ascending) and stored once: or-ing each feature
// into memory chains every store to the next load of the same word.
std::vector<uint64_t> feature_bits(const Example* xs, std::size_t m, std::size_t rows, std::size_t words) {
  std::vector<uint64_t> bits(m * words);
  for (std::size_t l = 0; l < m && words; ++l) {
    uint64_t* out = &bits[l * words];
    std::size_t w = 0;
    uint64_t acc = 0;
    for (std::size_t q = 0, e = features_below(xs[l], rows); q < e; ++q) {
      const uint32_t j = xs[l].idx[q];
      if (j / 64 != w) {
        out[w] = acc;
        w = j / 64;
        acc = 0;
      }
      acc |= uint64_t{1} << (j % 64);
    }
    out[w] |= acc;
  }
  return bits;
}

// The rounds in pair order (lane[2 q + r]), an odd m's last pair padded with kNoRound: each round
// left, lowest first, with the one left whose feature set differs least (|A xor B|: the zeros the
// pair's union adds). POPCNT is the popcnt instruction when the CPU has it (the portable build's
// std::popcount is a dozen instructions: 3x slower pairing on MNIST); inlined into the search, as
// a call per candidate cost as much as the popcounts.
template <bool POPCNT>
[[gnu::always_inline]] inline std::size_t differ(const uint64_t* a, const uint64_t* b, std::size_t words) {
  std::size_t d = 0;
  for (std::size_t w = 0; w < words; ++w)
    d += static_cast<std::size_t>(POPCNT ? __builtin_popcountll(a[w] ^ b[w]) : std::popcount(a[w] ^ b[w]));
  return d;
}
template <bool POPCNT>
[[gnu::always_inline]] inline std::vector<uint32_t> pair_lanes_with(std::size_t m, const std::vector<uint64_t>& bits, std::size_t words) {
  std::vector<uint32_t> left(m), lanes;
  std::iota(left.begin(), left.end(), 0u);
  for (std::size_t f = 0; f < left.size(); f += 2) {  // left[0..f) are paired, left[f] is the lowest left
    lanes.push_back(left[f]);
    if (f + 1 == left.size()) break;
    std::size_t pick = f + 1, least = std::numeric_limits<std::size_t>::max();
    const uint64_t* a = bits.data() + left[f] * words;  // bits is empty when words = 0
    for (std::size_t p = f + 1; p < left.size() && words; ++p) {
      const std::size_t d = differ<POPCNT>(a, bits.data() + left[p] * words, words);
      if (d < least) { least = d; pick = p; }
    }
    lanes.push_back(left[pick]);
    std::rotate(left.begin() + static_cast<std::ptrdiff_t>(f) + 1, left.begin() + static_cast<std::ptrdiff_t>(pick),
                left.begin() + static_cast<std::ptrdiff_t>(pick) + 1);  // the rest stays ascending
  }
  if (lanes.size() % 2) lanes.push_back(RoundPairs::kNoRound);
  return lanes;
}
__attribute__((target("popcnt"))) std::vector<uint32_t> pair_lanes_popcnt(std::size_t m, const std::vector<uint64_t>& bits,
                                                                          std::size_t words) {
  return pair_lanes_with<true>(m, bits, words);
}
std::vector<uint32_t> pair_lanes(std::size_t m, const std::vector<uint64_t>& bits, std::size_t words) {
  static const bool popcnt = __builtin_cpu_supports("popcnt");
  return popcnt ? pair_lanes_popcnt(m, bits, words) : pair_lanes_with<false>(m, bits, words);
}

// One round's values, read without a branch: value(j) is x_j for the features j of the round taken
// in ascending order (a cursor that moves on a match), 0 for the others.
struct Cursor {
  const uint32_t* idx = nullptr;
  const double* val = nullptr;
  std::size_t k = 0, n = 0;
  Cursor(const Example* x, std::size_t rows) {
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr double kZero = 0.0;
    n = x ? features_below(*x, rows) : 0;
    idx = n ? x->idx.data() : &kNone;
    val = n ? x->val.data() : &kZero;
  }
  double value(uint32_t j) {
    const std::size_t at = std::min(k, n ? n - 1 : 0);  // past the end: the last, never a match
    const bool has = k < n && idx[at] == j;
    k += has;
    return has ? val[at] : 0.0;
  }
};

// The tile through every pair, chunk by chunk (panel_dots.hpp); sums in g.sums(), then copied to
// out with + 0.0 (-0 reads +0), by streaming stores when streams(g, out, ld). Z vectors of LANES
// columns a round, the tile in W / (LANES Z) passes over each chunk (one for AVX-512; AVX2's 16
// registers hold 2 x 4 sums).
#define PLAB_PAIR_KERNEL(V, LANES, ZERO, LOAD, SET1, FMA, STORE, STREAM)                                          \
  const std::size_t P = g.pairs();                                                                               \
  double* sum = g.sums();                                                                                        \
  for (std::size_t k = 0; k < 2 * P * W; k += LANES) STORE(sum + k, ZERO());                                     \
  for (std::size_t c = 0; c < g.chunks; ++c) {                                                                   \
    const std::size_t* b = &g.at[c * P];                                                                         \
    const double* pre = c + 1 < g.chunks ? tile : next; /* the next chunk's rows, or the next tile's first */    \
    const std::size_t pc = c + 1 < g.chunks ? c + 1 : 0, step = g.pf_step[pc];                                   \
    std::size_t pk = g.line_at[pc];                                                                              \
    const std::size_t pend = pre ? g.line_at[pc + 1] : pk;                                                       \
    for (std::size_t h = 0; h < W; h += LANES * Z)                                                               \
      for (std::size_t q = 0; q < P; ++q) {                                                                      \
        for (std::size_t k = 0; h == 0 && k < step && pk < pend; ++k) __builtin_prefetch(pre + g.line[pk++]);   \
        if (b[q] == b[q + 1]) continue;                                                                          \
        double* o = sum + 2 * q * W + h;                                                                         \
        V acc[2][Z];                                                                                             \
        _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) {                                            \
          acc[0][z] = LOAD(o + LANES * z);                                                                       \
          acc[1][z] = LOAD(o + W + LANES * z);                                                                   \
        }                                                                                                        \
        for (std::size_t u = b[q]; u < b[q + 1]; ++u) {                                                          \
          const double* s = tile + g.offset[u] + h;                                                              \
          const V x0 = SET1(g.val[2 * u]), x1 = SET1(g.val[2 * u + 1]);                                          \
          V sv[Z]; /* loaded first: loads folded into both fmas would be issued twice */                          \
          _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) sv[z] = LOAD(s + LANES * z);               \
          _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) acc[0][z] = FMA(x0, sv[z], acc[0][z]);     \
          _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) acc[1][z] = FMA(x1, sv[z], acc[1][z]);     \
        }                                                                                                        \
        _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) {                                            \
          STORE(o + LANES * z, acc[0][z]);                                                                       \
          STORE(o + W + LANES * z, acc[1][z]);                                                                   \
        }                                                                                                        \
      }                                                                                                          \
  }                                                                                                              \
  const bool stream = streams(g, out, ld);                                                                       \
  for (std::size_t k = 0; k < 2 * P; ++k)                                                                        \
    if (const uint32_t l = g.lane[k]; l == RoundPairs::kNoRound) continue;                                       \
    else if (stream) for (std::size_t i = 0; i < W; i += LANES) STREAM(out + l * ld + i, FMA(ZERO(), ZERO(), LOAD(sum + k * W + i))); \
    else for (std::size_t i = 0; i < W; i += LANES) STORE(out + l * ld + i, FMA(ZERO(), ZERO(), LOAD(sum + k * W + i))); \
  if (stream) _mm_sfence(); /* streaming stores are weakly ordered: visible before we return */

}  // namespace

bool streams(const RoundPairs& g, const double* out, std::size_t ld) {
  return reinterpret_cast<std::uintptr_t>(out) % 64 == 0 && ld % 8 == 0 &&
         g.lane.size() * ld * sizeof(double) >= kStreamBytes;
}

namespace {

using PairFn = void (*)(const double*, const double*, const RoundPairs&, double*, std::size_t);

void pairs_scalar(const double* tile, const double*, const RoundPairs& g, double* out, std::size_t ld) {
  const std::size_t P = g.pairs();
  double* sum = g.sums();
  std::fill_n(sum, 2 * P * W, 0.0);
  for (std::size_t c = 0; c < g.chunks; ++c)
    for (std::size_t q = 0; q < P; ++q)
      for (std::size_t u = g.at[c * P + q]; u < g.at[c * P + q + 1]; ++u)
        for (std::size_t r = 0; r < 2; ++r)
          for (std::size_t i = 0; i < W; ++i)
            sum[(2 * q + r) * W + i] = std::fma(g.val[2 * u + r], tile[g.offset[u] + i], sum[(2 * q + r) * W + i]);
  for (std::size_t k = 0; k < 2 * P; ++k)
    if (const uint32_t l = g.lane[k]; l != RoundPairs::kNoRound)
      for (std::size_t i = 0; i < W; ++i) out[l * ld + i] = sum[k * W + i] + 0.0;  // -0 reads +0
}

__attribute__((target("avx2,fma"))) void pairs_avx2(const double* tile, const double* next, const RoundPairs& g,
                                                    double* out, std::size_t ld) {
  constexpr std::size_t Z = 4;
  PLAB_PAIR_KERNEL(__m256d, 4, _mm256_setzero_pd, _mm256_loadu_pd, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_storeu_pd, _mm256_stream_pd)
}

__attribute__((target("avx512f"))) void pairs_avx512(const double* tile, const double* next, const RoundPairs& g,
                                                     double* out, std::size_t ld) {
  constexpr std::size_t Z = 8;
  PLAB_PAIR_KERNEL(__m512d, 8, _mm512_setzero_pd, _mm512_loadu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_storeu_pd, _mm512_stream_pd)
}
#undef PLAB_PAIR_KERNEL

PairFn fn(Simd isa) { return isa == Simd::avx512 ? pairs_avx512 : isa == Simd::avx2 ? pairs_avx2 : pairs_scalar; }

}  // namespace

double* RoundPairs::sums() const {
  const std::size_t need = 2 * pairs() * W + 8;
  if (acc.size() < need) acc.assign(need, 0.0);
  const auto a = reinterpret_cast<std::uintptr_t>(acc.data());
  return acc.data() + (64 - a % 64) % 64 / sizeof(double);
}

RoundPairs pair_rounds(const Example* xs, std::size_t m, std::size_t rows, std::size_t stride) {
  static_assert(F == 64, "a chunk's rows are one 64-bit word of a feature bitset");
  RoundPairs g;
  const std::size_t words = (rows + 63) / 64, pair_words = rows <= kPairBitsetRows ? words : 0;
  const std::vector<uint64_t> bits = feature_bits(xs, m, rows, pair_words);
  g.lane = pair_lanes(m, bits, pair_words);
  const std::size_t P = g.pairs();
  g.chunks = words;
  // Each pair's union as a bitset (its word c = its features in chunk c), then its entries placed
  // chunk-major (a chunk's pass reads them in order).
  std::vector<uint64_t> u(P * words, 0), used(words, 0);
  for (std::size_t k = 0; k < 2 * P; ++k)
    if (const uint32_t l = g.lane[k]; l != RoundPairs::kNoRound) {
      uint64_t* uq = &u[k / 2 * words];
      if (pair_words) for (std::size_t w = 0; w < words; ++w) uq[w] |= bits[l * words + w];
      else for (std::size_t q = 0, e = features_below(xs[l], rows); q < e; ++q) uq[xs[l].idx[q] / 64] |= uint64_t{1} << (xs[l].idx[q] % 64);
    }
  g.at.assign(g.chunks * P + 1, 0);
  for (std::size_t c = 0, k = 0; c < g.chunks; ++c)
    for (std::size_t q = 0; q < P; ++q, ++k) g.at[k + 1] = g.at[k] + static_cast<std::size_t>(std::popcount(u[q * words + c]));
  g.offset.resize(g.at.back());
  g.val.resize(2 * g.at.back());
  for (std::size_t q = 0; q < P; ++q) {
    Cursor a(g.lane[2 * q] == RoundPairs::kNoRound ? nullptr : &xs[g.lane[2 * q]], rows);
    Cursor b(g.lane[2 * q + 1] == RoundPairs::kNoRound ? nullptr : &xs[g.lane[2 * q + 1]], rows);
    for (std::size_t c = 0; c < words; ++c) {
      used[c] |= u[q * words + c];
      std::size_t pos = g.at[c * P + q];
      for (uint64_t f = u[q * words + c]; f; f &= f - 1, ++pos) {
        const uint32_t j = static_cast<uint32_t>(c * 64 + static_cast<std::size_t>(std::countr_zero(f)));
        g.offset[pos] = j * stride;
        g.val[2 * pos] = a.value(j);
        g.val[2 * pos + 1] = b.value(j);
      }
    }
  }
  for (std::size_t c = 0; c < g.chunks; ++c) {
    g.line_at.push_back(g.line.size());
    for (uint64_t f = used[c]; f; f &= f - 1) {
      const std::size_t j = c * 64 + static_cast<std::size_t>(std::countr_zero(f));
      for (std::size_t i = 0; i < W; i += 8) g.line.push_back(j * stride + i);
      if ((j * stride) % 8) g.line.push_back(j * stride + W - 1);  // a row that starts mid-line spans 9 lines
    }
    g.pf_step.push_back(P ? (g.line.size() - g.line_at.back() + P - 1) / P : 0);
  }
  g.line_at.push_back(g.line.size());
  g.pf_step.push_back(0);
  return g;
}

void panel_dots(const double* tile, const double* next, const RoundPairs& g, double* out, std::size_t ld) {
  static const PairFn run = fn(simd_path());
  run(tile, next, g, out, ld);
}

void panel_dots_on(const std::string& isa, const double* tile, const double* next, const RoundPairs& g, double* out,
                   std::size_t ld) {
  const Simd s = simd_parse(isa);
  if (s > simd_best()) throw std::invalid_argument("this CPU has no " + isa + " path");
  fn(s)(tile, next, g, out, ld);
}

}  // namespace plab
