#include "algorithms/panel_dots.hpp"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "algorithms/simd.hpp"

namespace plab {
namespace {

constexpr std::size_t R = kGroupRounds, W = kPanelSupports;

// The features of x below `rows` (x's features are ascending).
std::size_t features_below(const Example& x, std::size_t rows) {
  return static_cast<std::size_t>(std::lower_bound(x.idx.begin(), x.idx.end(), rows) - x.idx.begin());
}

// Feature sets as bitsets, `words` 64-bit words a round (rows <= kGroupBitsetRows), else none.
std::vector<uint64_t> feature_bits(const Example* xs, std::size_t m, std::size_t rows, std::size_t words) {
  std::vector<uint64_t> bits(m * words);
  for (std::size_t l = 0; l < m && words; ++l)
    for (std::size_t q = 0, e = features_below(xs[l], rows); q < e; ++q)
      bits[l * words + xs[l].idx[q] / 64] |= uint64_t{1} << (xs[l].idx[q] % 64);
  return bits;
}

// The rounds in group order (lane[g R + r]), each group padded to R lanes with kNoRound.
std::vector<uint32_t> greedy_lanes(std::size_t m, const std::vector<uint64_t>& bits, std::size_t words) {
  std::vector<uint32_t> left(m), lanes;
  std::iota(left.begin(), left.end(), 0u);
  std::vector<uint64_t> u(words);
  while (!left.empty()) {
    std::size_t pick = 0;  // a group starts at the lowest round left
    for (std::size_t r = 0; r < R && !left.empty(); ++r) {
      if (r > 0 && words) {  // the round whose features widen the union least
        std::size_t least = std::numeric_limits<std::size_t>::max();
        for (std::size_t p = 0; p < left.size(); ++p) {
          std::size_t c = 0;
          for (std::size_t w = 0; w < words; ++w) c += static_cast<std::size_t>(std::popcount(u[w] | bits[left[p] * words + w]));
          if (c < least) { least = c; pick = p; }
        }
      }
      const uint32_t l = left[pick];
      for (std::size_t w = 0; w < words; ++w) u[w] = (r == 0 ? 0 : u[w]) | bits[l * words + w];
      lanes.push_back(l);
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(pick));
      pick = 0;
    }
    while (lanes.size() % R) lanes.push_back(RoundGroups::kNoRound);
  }
  return lanes;
}

// Group gi's union and values from the bitsets: the lanes' values scattered into dense[r rows + j]
// (zero again on return), the union's features by its bits in ascending order.
void union_by_bits(const Example* xs, std::size_t rows, std::size_t stride, const std::vector<uint64_t>& bits,
                   std::size_t words, std::size_t gi, std::vector<double>& dense, RoundGroups& g) {
  uint64_t u[kGroupBitsetRows / 64] = {};
  for (std::size_t r = 0; r < R; ++r) {
    const uint32_t l = g.lane[gi * R + r];
    if (l == RoundGroups::kNoRound) continue;
    for (std::size_t w = 0; w < words; ++w) u[w] |= bits[l * words + w];
    for (std::size_t q = 0, e = features_below(xs[l], rows); q < e; ++q) dense[r * rows + xs[l].idx[q]] = xs[l].val[q];
  }
  for (std::size_t w = 0; w < words; ++w)
    for (uint64_t b = u[w]; b; b &= b - 1) {
      const std::size_t j = w * 64 + static_cast<std::size_t>(std::countr_zero(b));
      g.offset.push_back(j * stride);
      for (std::size_t r = 0; r < R; ++r) {
        g.val.push_back(dense[r * rows + j]);
        dense[r * rows + j] = 0.0;
      }
    }
}

// The same by merging the lanes' sorted features (no bitsets: rows > kGroupBitsetRows).
void union_by_merge(const Example* xs, std::size_t rows, std::size_t stride, std::size_t gi, RoundGroups& g) {
  const uint32_t* at[R];  // each lane's next feature, [at, end) its features below rows
  const uint32_t* end[R];
  const double* v[R];
  for (std::size_t r = 0; r < R; ++r) {
    const uint32_t l = g.lane[gi * R + r];
    at[r] = end[r] = nullptr;
    v[r] = nullptr;
    if (l == RoundGroups::kNoRound) continue;
    at[r] = xs[l].idx.data();
    end[r] = at[r] + features_below(xs[l], rows);
    v[r] = xs[l].val.data();
  }
  for (;;) {  // the smallest next feature, each lane's value or 0
    uint32_t j = std::numeric_limits<uint32_t>::max();
    for (std::size_t r = 0; r < R; ++r)
      if (at[r] != end[r]) j = std::min(j, *at[r]);
    if (j == std::numeric_limits<uint32_t>::max()) break;
    g.offset.push_back(static_cast<std::size_t>(j) * stride);
    for (std::size_t r = 0; r < R; ++r) {
      const bool has = at[r] != end[r] && *at[r] == j;
      g.val.push_back(has ? *v[r] : 0.0);
      at[r] += has;
      v[r] += has;
    }
  }
}

// The lines of the next tile still to prefetch, one a step (spread over the tile's work: a burst
// would overflow the outstanding-miss queues).
struct Prefetch {
  const double* next;
  const std::size_t* line;
  std::size_t k, end;
  void step() {
    if (k < end) __builtin_prefetch(next + line[k++]);
  }
};

// One group against the tile: the R x W sums in registers (or arrays, scalar) across the union of
// the group's features, stored to o[r] (o[r] = scratch for an empty lane).
using GroupFn = void (*)(const double*, const RoundGroups&, std::size_t, double* const*, Prefetch&);

void group_scalar(const double* tile, const RoundGroups& g, std::size_t gi, double* const* o, Prefetch&) {
  double acc[R][W] = {};
  for (std::size_t u = g.begin[gi]; u < g.begin[gi + 1]; ++u) {
    const double *s = tile + g.offset[u], *x = &g.val[u * R];
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t i = 0; i < W; ++i) acc[r][i] = std::fma(x[r], s[i], acc[r][i]);
  }
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t i = 0; i < W; ++i) o[r][i] = acc[r][i] + 0.0;  // -0 reads +0 (panel_dots.hpp)
}

// The R x Z register sums of one group on Z vectors of columns [c, c + Z lanes) of the tile: per
// feature Z loads of support values and R broadcasts for R Z fma. (Arrays of vectors with constant
// bounds, fully unrolled: GCC keeps them in registers; measured as fast as named registers.)
#define PLAB_GROUP_KERNEL(V, LANES, ZERO, LOAD, SET1, FMA, STORE)                 \
  V acc[R][Z];                                                                   \
  _Pragma("GCC unroll 8") for (std::size_t r = 0; r < R; ++r)                    \
    _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) acc[r][z] = ZERO(); \
  for (std::size_t u = g.begin[gi]; u < g.begin[gi + 1]; ++u) {                 \
    const double *s = tile + g.offset[u] + c, *x = &g.val[u * R];                \
    if (c == 0) pf.step(); /* one line a step, not one a pass over the columns */ \
    V sv[Z];                                                                     \
    _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) sv[z] = LOAD(s + LANES * z); \
    _Pragma("GCC unroll 8") for (std::size_t r = 0; r < R; ++r) {                \
      const V xr = SET1(x[r]);                                                   \
      _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z) acc[r][z] = FMA(xr, sv[z], acc[r][z]); \
    }                                                                            \
  }                                                                              \
  _Pragma("GCC unroll 8") for (std::size_t r = 0; r < R; ++r)                    \
    _Pragma("GCC unroll 8") for (std::size_t z = 0; z < Z; ++z)                  \
      STORE(o[r] + c + LANES * z, FMA(ZERO(), ZERO(), acc[r][z])); /* -0 reads +0 */

// AVX2 (16 registers): the tile in 4 passes of 8 columns, 6 x 2 sums, 2 values and a broadcast.
__attribute__((target("avx2,fma"))) void group_avx2(const double* tile, const RoundGroups& g, std::size_t gi,
                                                    double* const* o, Prefetch& pf) {
  constexpr std::size_t Z = 2;
  for (std::size_t c = 0; c < W; c += 4 * Z) {
    PLAB_GROUP_KERNEL(__m256d, 4, _mm256_setzero_pd, _mm256_loadu_pd, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_storeu_pd)
  }
}

// AVX-512 (32 registers): 6 x 4 sums, 4 values and a broadcast; 24 fma chains cover the fma latency
// on both pipes, and the 4 lines of support values a feature are loaded once for 24 fma (with 4
// rounds a group, 16 fma, the loads from L2 held the kernel at ~73% of the fma peak; measured on
// MNIST, docs/learners.md#layout).
__attribute__((target("avx512f"))) void group_avx512(const double* tile, const RoundGroups& g, std::size_t gi,
                                                     double* const* o, Prefetch& pf) {
  constexpr std::size_t Z = W / 8, c = 0;
  PLAB_GROUP_KERNEL(__m512d, 8, _mm512_setzero_pd, _mm512_loadu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_storeu_pd)
}
#undef PLAB_GROUP_KERNEL

GroupFn fn(Simd isa) { return isa == Simd::avx512 ? group_avx512 : isa == Simd::avx2 ? group_avx2 : group_scalar; }

void run_groups(GroupFn run, const double* tile, const double* next, const RoundGroups& g, double* out,
                std::size_t ld) {
  double scratch[W];
  Prefetch pf{next, g.line.data(), 0, next ? g.line.size() : 0};
  for (std::size_t gi = 0; gi < g.groups(); ++gi) {
    double* o[R];
    for (std::size_t r = 0; r < R; ++r) {
      const uint32_t l = g.lane[gi * R + r];
      o[r] = l == RoundGroups::kNoRound ? scratch : out + l * ld;
    }
    run(tile, g, gi, o, pf);
  }
}

}  // namespace

RoundGroups group_rounds(const Example* xs, std::size_t m, std::size_t rows, std::size_t stride) {
  RoundGroups g;
  const std::size_t words = rows <= kGroupBitsetRows ? (rows + 63) / 64 : 0;
  const std::vector<uint64_t> bits = feature_bits(xs, m, rows, words);
  g.lane = greedy_lanes(m, bits, words);
  std::size_t nnz = 0;
  for (std::size_t l = 0; l < m; ++l) nnz += xs[l].idx.size();
  g.offset.reserve(nnz);
  g.val.reserve(nnz * R);
  std::vector<double> dense(words ? R * rows : 0, 0.0);
  for (std::size_t gi = 0; gi * R < g.lane.size(); ++gi) {
    if (words) union_by_bits(xs, rows, stride, bits, words, gi, dense, g);
    else union_by_merge(xs, rows, stride, gi, g);
    g.begin.push_back(g.offset.size());
  }
  std::vector<uint8_t> used(rows, 0);  // the dense layout holds rows x stride values: this is small beside it
  for (const std::size_t o : g.offset) used[o / stride] = 1;
  for (std::size_t j = 0; j < rows; ++j)
    for (std::size_t i = 0; i < W && used[j]; i += 64 / sizeof(double)) {
      g.line.push_back(j * stride + i);
      if (i + 64 / sizeof(double) >= W && stride % (64 / sizeof(double))) g.line.push_back(j * stride + W - 1);  // a 5th line
    }
  return g;
}

void panel_dots(const double* tile, const double* next, const RoundGroups& g, double* out, std::size_t ld) {
  static const GroupFn run = fn(simd_path());
  run_groups(run, tile, next, g, out, ld);
}

void panel_dots_on(const std::string& isa, const double* tile, const double* next, const RoundGroups& g, double* out,
                   std::size_t ld) {
  const Simd s = simd_parse(isa);
  if (s > simd_best()) throw std::invalid_argument("this CPU has no " + isa + " path");
  run_groups(fn(s), tile, next, g, out, ld);
}

}  // namespace plab
