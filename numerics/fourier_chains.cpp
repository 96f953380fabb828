// The vector part of FourierFeatures::map_rows (numerics/fourier_features.hpp): the chains u_i.x,
// W vectors of LANES chains in registers at a time, and their cos and sin taken in those registers
// (numerics/sincos_simd.hpp) and stored into the rows of Z, so no chain is stored and read again
// (2-5% of a FOGD pass; on the AVX2 path rows of 1s only, see below). The chains are summed every row of the block before the next block of
// chains (the columns' block stays in L1): blocks of 32 chains, 4 AVX-512 or 8 AVX2 vectors (64
// chains a block cost AVX-512 10% more on a9a: 123 columns' 512-byte blocks overflow L1). Each
// lane is a multiply, then an add, in x's feature order: the same bits as one chain at a time, on
// every path. A row whose values are all 1 (map_rows tells, once a row) skips the multiplies (1 u = u
// exactly): binary data sets, such as a9a, then pay an add a frequency and feature. Its loop holds the
// adds alone: with a branch by feature GCC loaded the block's vectors above the branch, the eight
// accumulators and eight loads took all sixteen AVX2 registers, and one accumulator went through the
// stack at every feature (a store-to-load wait: the chains took 2.5x as long on an AMD EPYC Zen 3;
// testing the values at every block was another fifth of them).
// The cos and sin are bound by the fma pipes and the adds of the sums run on others, so a short
// row's chains are summed a pair of vectors at a time between the previous row's pairs of cos and
// sin, where the core issues both at once (on the AVX2 path only for rows of 1s: other rows'
// products take the fma pipes too). One pass over a9a, `bench_learners` on an AMD EPYC Zen 5: AVX2
// 36.2 -> 34.1 ms, AVX-512 23.8 -> 21.4 ms; FOGD's learning in `plab run` on ijcnn1 (13 features,
// not 1s) AVX-512 35.2 -> 31.7 ms. A long row's pairs would wait on the add latency at every feature
// (100 features a row: AVX2 19% slower), so its chains are summed all at once.
// On an AMD EPYC Zen 4 the two do not overlap either way: map_rows over a9a on AVX2 took 35 cycles
// per 4 chains interleaved or not, the sums alone (cos and sin replaced by stores) 14.5 and the
// cos and sin alone 21-22; the sums' 14 adds there run at one a cycle, not the add pipes' two, bound
// by their loads (the same loop with one broadcast a feature in place of its 8 loads ran 2.4 adds a
// cycle; columns in L1 or not, 0.8-1.05 cycles an add).
// On AVX-512 each vector's cos and sin is taken on its own (one after the other, not two interleaved
// step by step): two at once keep ten vectors live through the polynomials, which GCC spilled to the
// stack; a FOGD pass over a9a, `bench_learners` on an AMD EPYC Zen 5, 17.8 -> 17.0 ms. On AVX2 the
// pair stays: one at a time there was slower (a9a 26.5 -> 28.8 ms, `plab run` on ijcnn1 +5%).
// On the AVX2 path a block of rows that holds one not of 1s, or one of more than 32 features, is
// summed first, all its rows into a scratch, and its cos and sin then taken four vectors at a time
// from there (chains4_apart): map_rows over 16-row blocks of ijcnn1-like rows (13 features, not
// 1s, D = 400) on an AMD EPYC Zen 4, 26.8 -> 23.3 TSC ticks per 4 chains (min of 5 alternated
// runs; rows of 1s 25.9 either way, AVX-512 21.7 either way); `plab run` FOGD on ijcnn1, whole
// process, 65.0 -> 58.8 ms (min of 40). Taken from registers between the sums, a pair at a time,
// their cos and sin had run 20.4 ticks per 4 chains against 15.3 in a loop of their own.
// The last chains (D mod 32) take as many vectors as are left: one vector alone
// waited on the add latency at every feature. Written with intrinsics and inlined: the generic
// four-lane chains (a call a row and block, zeroed and copied through the stack) took a quarter of
// an AVX2 FOGD pass on ijcnn1.
#include "numerics/sincos_simd.hpp"
#include "numerics/fourier_features.hpp"

namespace plab::detail {
namespace {

// Row r's chains of vectors from `at` into acc[0 .. V), V accumulators in registers: a product,
// then a sum per feature (adds alone for a row of 1s).
#define PLAB_SUMS(NAME, TARGET, VEC, LANES, ZERO, SET1, LOADU, ADD, MUL)                                     \
  template <std::size_t V>                                                                                  \
  __attribute__((target(TARGET), always_inline)) inline void NAME(                                          \
      const double* const* cols, const std::size_t* starts, const unsigned char* flags, const Example* xs,   \
      std::size_t r, std::size_t at, VEC* acc) {                                                            \
    for (std::size_t v = 0; v < V; ++v) acc[v] = ZERO();                                                    \
    const std::size_t nk = starts[r + 1] - starts[r];                                                       \
    const double* const* rc = cols + starts[r];                                                             \
    if (flags[r] & kRowOnes) {                                                                              \
      for (std::size_t k = 0; k < nk; ++k)                                                                  \
        for (std::size_t v = 0; v < V; ++v) acc[v] = ADD(acc[v], LOADU(rc[k] + at + LANES * v));            \
    } else {                                                                                                \
      const double* val = xs[r].val.data();                                                                 \
      for (std::size_t k = 0; k < nk; ++k) {                                                                \
        const VEC x = SET1(val[k]);                                                                         \
        for (std::size_t v = 0; v < V; ++v) acc[v] = ADD(acc[v], MUL(x, LOADU(rc[k] + at + LANES * v)));    \
      }                                                                                                     \
    }                                                                                                       \
  }
PLAB_SUMS(sums4, "avx2,fma", __m256d, 4, _mm256_setzero_pd, _mm256_set1_pd, _mm256_loadu_pd, _mm256_add_pd,
          _mm256_mul_pd)
PLAB_SUMS(sums8, "avx512f", __m512d, 8, _mm512_setzero_pd, _mm512_set1_pd, _mm512_loadu_pd, _mm512_add_pd,
          _mm512_mul_pd)
#undef PLAB_SUMS

// INTERLEAVE(r): whether row r's chains are summed a pair of vectors at a time between the previous
// row's cos and sin of each pair of vectors (see the header); PAIR: whether the pair's cos and sin
// are taken interleaved (SINCOS<2>) or one vector after the other (SINCOS<1>).
#define PLAB_CHAINS(NAME, TARGET, VEC, LANES, SUMS, SINCOS, PAIR, INTERLEAVE)                                 \
  template <std::size_t W>                                                                                  \
  __attribute__((target(TARGET), always_inline)) inline void NAME(const double* const* cols,               \
                                                                  const std::size_t* starts,               \
                                                                  const unsigned char* flags,              \
                                                                  const Example* xs, std::size_t n,        \
                                                                  std::size_t D, std::size_t i0, double* Z) { \
    /* row r's chains of vectors w .. w + V - 1 into acc[0 .. V) */                                         \
    const auto sums = [&]<std::size_t V>(std::size_t r, std::size_t w, VEC* acc)                           \
                          __attribute__((target(TARGET), always_inline)) {                                  \
      SUMS<V>(cols, starts, flags, xs, r, i0 + LANES * w, acc);                                             \
    };                                                                                                      \
    if (n == 0) return;                                                                                     \
    VEC next[W];                                                                                            \
    sums.template operator()<W>(0, 0, next);                                                                \
    for (std::size_t r = 0; r < n; ++r) {                                                                   \
      VEC cur[W];                                                                                           \
      for (std::size_t w = 0; w < W; ++w) cur[w] = next[w];                                                 \
      double* c = Z + 2 * D * r + i0;                                                                       \
      const bool more = r + 1 < n, mixed = more && (INTERLEAVE(r + 1));                                     \
      /* Checked: whether a chain of the row may lie outside the range the reduction serves */            \
      const auto row = [&]<bool Checked>() __attribute__((target(TARGET), always_inline)) {                 \
        for (std::size_t w = 0; w + 2 <= W; w += 2) {                                                       \
          if (PAIR) {                                                                                       \
            SINCOS<2, Checked>(cur + w, c + LANES * w, c + D + LANES * w);                                  \
          } else {                                                                                          \
            SINCOS<1, Checked>(cur + w, c + LANES * w, c + D + LANES * w);                                  \
            SINCOS<1, Checked>(cur + w + 1, c + LANES * (w + 1), c + D + LANES * (w + 1));                  \
          }                                                                                                 \
          if (mixed) sums.template operator()<2>(r + 1, w, next + w);                                       \
        }                                                                                                   \
        if (W % 2) {                                                                                        \
          SINCOS<1, Checked>(cur + W - 1, c + LANES * (W - 1), c + D + LANES * (W - 1));                    \
          if (mixed) sums.template operator()<1>(r + 1, W - 1, next + W - 1);                               \
        }                                                                                                   \
      };                                                                                                    \
      if (flags[r] & kRowInRange) row.template operator()<false>();                                         \
      else row.template operator()<true>();                                                                 \
      if (more && !mixed) sums.template operator()<W>(r + 1, 0, next);                                      \
    }                                                                                                       \
  }

// A pair's two chains wait on the add latency at every feature, hidden under the pair of cos and
// sin only for short rows: 32 features or fewer. On AVX2 only rows of 1s, whose sums are adds
// alone: the products of other rows take the fma pipes that the cos and sin fill already.
constexpr std::size_t kInterleaveFeatures = 32;
#define PLAB_SHORT(r) (starts[(r) + 1] - starts[r] <= kInterleaveFeatures)
#define PLAB_SHORT_ONES(r) ((flags[r] & kRowOnes) && PLAB_SHORT(r))
PLAB_CHAINS(chains4, "avx2,fma", __m256d, 4, sums4, trig::sincos_avx2, true, PLAB_SHORT_ONES)
PLAB_CHAINS(chains8, "avx512f", __m512d, 8, sums8, trig::sincos_avx512, false, PLAB_SHORT)
#undef PLAB_CHAINS

// The AVX2 path's blocks that hold a row not of 1s, or a long one: the chains of up to 16 rows
// summed into a scratch, then their cos and sin four vectors at a time. Interleaved with the cos and
// sin, such rows' products had waited on the fma pipes; taken one pair after the other from
// registers, the cos and sin had run a third slower than from memory in a loop of their own.
template <std::size_t W>
__attribute__((target("avx2,fma"), always_inline)) inline void chains4_apart(const double* const* cols,
                                                                            const std::size_t* starts,
                                                                            const unsigned char* flags,
                                                                            const Example* xs, std::size_t n,
                                                                            std::size_t D, std::size_t i0, double* Z) {
  constexpr std::size_t kRows = 16;
  alignas(32) double d[kRows * W * 4];
  for (std::size_t rb = 0; rb < n; rb += kRows) {
    const std::size_t m = std::min(kRows, n - rb);
    for (std::size_t r = 0; r < m; ++r) {
      __m256d acc[W];
      sums4<W>(cols, starts, flags, xs, rb + r, i0, acc);
      for (std::size_t v = 0; v < W; ++v) _mm256_store_pd(d + 4 * (W * r + v), acc[v]);
    }
    for (std::size_t r = 0; r < m; ++r) {
      const double* a = d + 4 * W * r;
      double* c = Z + 2 * D * (rb + r) + i0;
      const auto row = [&]<bool Checked>() __attribute__((target("avx2,fma"), always_inline)) {
        const auto take = [&]<int U>(std::size_t w) __attribute__((target("avx2,fma"), always_inline)) {
          __m256d v[U];
          for (int j = 0; j < U; ++j) v[j] = _mm256_load_pd(a + 4 * (w + j));
          trig::sincos_avx2<U, Checked>(v, c + 4 * w, c + D + 4 * w);
        };
        std::size_t w = 0;
        for (; w + 4 <= W; w += 4) take.template operator()<4>(w);
        if (w + 2 <= W) take.template operator()<2>(w), w += 2;
        if (w < W) take.template operator()<1>(w);
      };
      if (flags[rb + r] & kRowInRange) row.template operator()<false>();
      else row.template operator()<true>();
    }
  }
}

// Blocks of BW vectors, then one block of the vectors left (fewer than BW); returns where it stopped.
#define PLAB_CHAINS_ALL(FN, LANES, BW)                                                             \
  std::size_t i0 = 0;                                                                            \
  for (; i0 + BW * LANES <= D; i0 += BW * LANES) FN<BW>(cols, starts, flags, xs, n, D, i0, Z);             \
  switch ((D - i0) / LANES) {                                                                    \
    case 7: FN<7>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    case 6: FN<6>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    case 5: FN<5>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    case 4: FN<4>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    case 3: FN<3>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    case 2: FN<2>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    case 1: FN<1>(cols, starts, flags, xs, n, D, i0, Z); break;                                         \
    default: break;                                                                              \
  }                                                                                              \
  return i0 + (D - i0) / LANES * LANES;

}  // namespace

__attribute__((target("avx2,fma"))) std::size_t fourier_chains_avx2(const double* const* cols,
                                                                     const std::size_t* starts,
                                                                     const unsigned char* flags, const Example* xs,
                                                                     std::size_t n, std::size_t D, double* Z) {
  bool ones = true;
  for (std::size_t r = 0; r < n; ++r) ones = ones && PLAB_SHORT_ONES(r);
  if (!ones) {
    PLAB_CHAINS_ALL(chains4_apart, 4, 8)
  }
  PLAB_CHAINS_ALL(chains4, 4, 8)
}

__attribute__((target("avx512f"))) std::size_t fourier_chains_avx512(const double* const* cols,
                                                                     const std::size_t* starts,
                                                                     const unsigned char* flags, const Example* xs,
                                                                     std::size_t n, std::size_t D, double* Z) {
  PLAB_CHAINS_ALL(chains8, 8, 4)
}
#undef PLAB_CHAINS_ALL
#undef PLAB_SHORT_ONES
#undef PLAB_SHORT

}  // namespace plab::detail
