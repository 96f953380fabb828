// SupportSet: the stored instances of a kernel expansion, laid out for the hot loop.
// Represents: n instances of dimension dim. Each slot keeps a sparse copy of its instance (for
// support-vs-support kernels) and an id (the round that inserted it). For the dot products of an
// x with every support the values are also held in one of two layouts (docs/learners.md#layout):
//  - dense, feature-major: column j of all supports is contiguous, so the dot products of a sparse
//    x with every support are nnz(x) contiguous axpy passes (one cache-friendly sweep per feature:
//    the hardware prefetcher follows them). A block of rounds goes through 64 supports at a time
//    in pairs of rounds that share each load of a support value (panel_dots). Memory
//    dim x capacity: it pays on low, dense dimensions (a9a, MNIST).
//  - sparse, an inverted index: feature j -> the (slot, value) pairs of the supports that have j,
//    so a pass touches only the non-zeros that meet x. Memory O(nnz of the supports).
// The layout follows the measured density nnz / (n dim) of the supports (kDenseDensity below);
// PLAB_LAYOUT=dense|sparse forces one (tests compare them). While every support is binary (all
// values 1.0) a bitset index is kept beside it (kBitsDensity below; docs/learners.md#binary): the
// rows of a binary x are popcounts there (numerics/bit_dots.hpp), the same bits as the fma chains,
// and the dense layout then holds no columns (cols_held_).
// PLAB_LAYOUT=bits keeps it whatever the density. All give the same bits: <s_i, x> is
// the chain fma(x_j, s_ij, .) from +0 over x's features in order, then + 0.0; the sparse layout
// skips the terms with s_ij = 0 and the grouped dense kernel adds terms with x_j = 0, which leave
// a sum as it is (a + (+-0) = a for a != 0) except for the sign of a zero: a chain that underflows
// to -0 turns +0 at such a term, and the final + 0.0 makes every zero +0 on every path.
// Requires: finite values in every support and x (the loaders refuse others; 0 * inf is NaN).
//
// KernelExpansion: f = sum_i alpha_i k(s_i, .) over a SupportSet; every kernel learner owns one.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/huge_pages.hpp"
#include "core/state_archive.hpp"
#include "core/thread_pool.hpp"
#include "numerics/bit_dots.hpp"
#include "numerics/coef_scale.hpp"
#include "numerics/fast_exp.hpp"
#include "numerics/kernel.hpp"
#include "numerics/lane_sum.hpp"
#include "numerics/panel_dots.hpp"
#include "numerics/panel_solve.hpp"

namespace plab {

// dense and sparse force that layout and no bitset index; bits forces the bitset index while every
// support is binary, over the automatic dense/sparse choice.
enum class SupportLayout { automatic, dense, sparse, bits };
// The layout SupportSet uses when asked for `automatic`: automatic, unless the environment
// variable PLAB_LAYOUT names "dense", "sparse" or "bits" (read once; another value throws
// std::invalid_argument) or set_support_layout_default() set one (tests, benchmarks).
SupportLayout support_layout_default();
void set_support_layout_default(SupportLayout layout);

class SupportSet {
 public:
  explicit SupportSet(std::size_t dim = 0, SupportLayout want = SupportLayout::automatic)
      : dim_(dim),
        want_(want == SupportLayout::automatic ? support_layout_default() : want),
        dense_(want_ == SupportLayout::dense) {}

  std::size_t size() const { return n_; }
  std::size_t dim() const { return dim_; }
  int64_t id(std::size_t i) const { return ids_[i]; }
  const int64_t* ids() const { return ids_.data(); }  // id(i) of every slot
  double sqnorm(std::size_t i) const { return sq_[i]; }
  Example row(std::size_t i) const {
    return {rows_idx_[i], rows_val_[i], sq_[i], 0.0};
  }
  // The layout in use (dense or sparse) and the non-zeros stored.
  SupportLayout layout() const { return dense_ ? SupportLayout::dense : SupportLayout::sparse; }
  // Whether the bitset index of binary supports is kept (the rows of binary x use it).
  bool bitset() const { return bits_on_; }
  // Whether the dense layout's columns are held: dense, and the bitset index not kept (cols_held_).
  bool columns() const { return dense_ && cols_held_; }
  std::size_t nnz() const { return nnz_; }

  // Appends x and returns its slot.
  std::size_t add(const Example& x, int64_t id) {
    const std::size_t i = n_;
    rows_idx_.emplace_back(x.idx.begin(), x.idx.end());
    rows_val_.emplace_back(x.val.begin(), x.val.end());
    sq_.push_back(x.sqnorm);
    ids_.push_back(id);
    nnz_ += x.idx.size();
    if (x.idx.size() && x.idx.back() + 1 > dim_) dim_ = x.idx.back() + 1;
    bits_add(i);
    if (want_dense(i + 1) != dense_) {
      n_ = i + 1;
      relayout(!dense_);  // places every slot, i included
      return i;
    }
    if (dense_ && bits_on_) {  // the columns are not kept while the bitsets answer (cols_held_)
      cols_ = {};
      cols_held_ = false;
    } else if (dense_ && !cols_held_) {  // the bitsets were dropped: the columns from the rows
      n_ = i + 1;
      relayout(true);
      return i;
    } else if (dense_) {
      if (dim_ * ld_ > cols_.size()) cols_.resize(dim_ * ld_, 0.0);  // new features: appended columns
      if (i == cap_) reserve(std::max<std::size_t>(16, 2 * cap_));
      for (std::size_t k = 0; k < x.idx.size(); ++k) cols_[x.idx[k] * ld_ + i] = x.val[k];
    } else {
      index_row(i);
    }
    n_ = i + 1;
    return i;
  }

  // Removes slot i; the last slot moves into i. Returns the old index of the moved slot (== i
  // when i was last), so owners can move their per-slot data the same way.
  std::size_t remove(std::size_t i) {
    const std::size_t last = n_ - 1;
    bits_remove(i, last);
    if (dense_ && cols_held_ && cap_ > 0) {
      // A column holds a slot's value at the slot's own features and +0 elsewhere (add writes only
      // those), so only the features of i and of last change: i's cleared, then last's moved into i
      // and cleared. The same columns as a pass over every feature, in nnz(i) + nnz(last) stores of
      // one cache line each, where dim were (a9a: 28 of 123).
      for (uint32_t j : rows_idx_[i]) cols_[j * ld_ + i] = 0.0;
      for (uint32_t j : rows_idx_[last]) {
        double* c = &cols_[j * ld_];
        c[i] = c[last];
        c[last] = 0.0;
      }
    } else if (!dense_) {
      for (uint32_t j : rows_idx_[i]) {  // drop i's entries (order within a list is free)
        auto& p = index_.find(j)->second;
        auto e = std::find_if(p.begin(), p.end(), [&](const Entry& q) { return q.slot == i; });
        *e = p.back();
        p.pop_back();
        if (p.empty()) index_.erase(j);  // memory follows the supports' features, not all seen
      }
      if (last != i)
        for (uint32_t j : rows_idx_[last]) {  // rename last -> i
          auto& p = index_.find(j)->second;
          std::find_if(p.begin(), p.end(), [&](const Entry& q) { return q.slot == last; })->slot =
              static_cast<uint32_t>(i);
        }
    }
    nnz_ -= rows_idx_[i].size();
    rows_idx_[i] = std::move(rows_idx_[last]);
    rows_val_[i] = std::move(rows_val_[last]);
    sq_[i] = sq_[last];
    ids_[i] = ids_[last];
    rows_idx_.pop_back(); rows_val_.pop_back(); sq_.pop_back(); ids_.pop_back();
    --n_;
    return last;
  }

  // out[i] = k(s_i, x) for every support (out must hold size() values).
  void kernel_row(const Kernel& k, const Example& x, double* out) const { kernel_rows(k, &x, 1, out, 0); }
  // k(s_i, x) alone, bit-identical to kernel_row(k, x)[i].
  double kernel_one(const Kernel& k, const Example& x, std::size_t i) const {
    double v = dot_one(x, i);
    from_dots(k, x, i, i + 1, &v);
    return v;
  }
  // <s_i, x> alone, bit-identical to the dot products kernel_row maps (the chain of dots_tile).
  double dot_one(const Example& x, std::size_t i) const {
    double v;
    if (dense_ && cols_held_) dots_tile<1>(x, i, &v);
    else if (bits_on_ && binary_example(x)) v = bit_dot(x, i);
    else v = merge_dot(x, i);
    return v;
  }
  // out[k] = dot_one(x, slots[k]) for k < m, the same bits: in the dense layout eight slots' chains
  // advance together (one chain at a time waited on each fma: the slots a budget learner replaced
  // within a block of rounds were a tenth of a BOGD pass).
  void dots_of(const Example& x, const uint32_t* slots, std::size_t m, double* out) const {
    std::size_t k = 0;
    if (dense_ && cols_held_)
      for (; k + 8 <= m; k += 8) slot_chains<8>(x, slots + k, out + k);
    for (; k < m; ++k) out[k] = dot_one(x, slots[k]);
  }
  // Whether the dot products of xs[0..m) with the supports cost less together than one row at a
  // time: the dense layout's panels load each support value once for a pair of rounds (the
  // binary rounds' popcounts and the sparse layout's lists do not share).
  bool shares_dots(const Example* xs, std::size_t m) const {
    return dense_ && cols_held_ && m >= 2 && !binary_rounds(xs, m);
  }
  // out[l * ld + i] = <s_i, xs[l]> for every support: the dot products kernel_rows maps (the
  // same bits).
  void dots(const Example* xs, std::size_t m, double* out, std::size_t ld) const {
    parallel_for(0, n_, kPanelSupports, rows_work(xs, m, n_),
                 [&](std::size_t cb, std::size_t ce) { dots_rows(xs, m, cb, ce, out + cb, ld); });
  }
  // out[i] = k(s_i, x) from out[i] = <s_i, x>, for every support (kernel_row's map).
  void map_dots(const Kernel& k, const Example& x, double* out) const { from_dots(k, x, 0, n_, out); }
  // out[i - b] = k(s_i, x) from dots[i - b] = <s_i, x> for b <= i < e (dots may be out).
  void map_dots(const Kernel& k, const Example& x, std::size_t b, std::size_t e, const double* dots, double* out) const {
    from_dots(k, x, b, e, dots, out);
  }
  // s[l].add_term(i, alpha[i], k(s_i, xs[l])) for every support and l < m, fused where the rows are
  // popcounts (bit_scores: the same bits as kernel_rows and then LaneSum::add, without the rows in
  // memory), the rounds split between the pool's threads. False, doing nothing, where they are not
  // (or the kernel is linear). With row (m = 1): row[i] = k(s_i, xs[0]) too, kernel_row's bits;
  // false where kernel_row would split the supports between threads (a pool wide enough for the work).
  bool binary_scores(const Kernel& k, const Example* xs, std::size_t m, const double* alpha, LaneSum* s,
                     double* row = nullptr) const {
    if (k.type == Kernel::Type::linear || n_ == 0 || !binary_rounds(xs, m)) return false;
    const bool bytes = bytes_rounds(xs, m);
    if (!bytes && !bit_scores_fused()) return false;
    if (row && (m != 1 || row_splits(xs[0]))) return false;
    parallel_for(0, m, 1, rows_work(xs, m, n_), [&](std::size_t lb, std::size_t le) {
      thread_local WordsOf w;
      for (std::size_t l = lb; l < le; ++l) {
        if (bytes) {
          byte_scores(k, colbits_.data(), cw_, byte_rows(), xs[l], counts_.data(), max_count_, alpha, 0, n_, s[l], row,
                      sums(), sld_);
          continue;
        }
        w.set(xs[l], bwords_);
        bit_scores(k, bits_.data(), bld_, w, xs[l].sqnorm, sq_.data(), max_count_, alpha, 0, n_, s[l], row);
      }
    });
    return true;
  }
  // out[i - b] = k(s_i, x) for supports b <= i < e.
  void kernel_range(const Kernel& k, const Example& x, std::size_t b, std::size_t e, double* out) const {
    kernel_rows_range(k, &x, 1, b, e, out, 0);
  }
  // The kernel rows of m examples against every support: out[l * ld + i] = k(s_i, xs[l]). In the
  // dense layout the tiles of 64 supports are the outer loop, and from 2 examples on each tile goes
  // through the examples in pairs, chunk by chunk of its rows (panel_dots).
  // With a thread pool (core/thread_pool.hpp) the supports are split between its threads in
  // ranges of whole tiles when the work is large enough; each value has the same bits either way.
  void kernel_rows(const Kernel& k, const Example* xs, std::size_t m, double* out, std::size_t ld) const {
    kernel_rows_range(k, xs, m, 0, n_, out, ld);
  }
  // The same for supports b <= i < e: out[l * ld + i - b] = k(s_i, xs[l]).
  void kernel_rows_range(const Kernel& k, const Example* xs, std::size_t m, std::size_t b, std::size_t e,
                         double* out, std::size_t ld) const {
    if (b == 0 && e == n_ && fused_rows(k, xs, m, out, ld)) return;
    parallel_for(b, e, kPanelSupports, rows_work(xs, m, e - b),
                 [&](std::size_t cb, std::size_t ce) { rows_part(k, xs, m, cb, ce, out + (cb - b), ld); });
  }
  // Every value above has the same bits whatever the range, the tile, m or the layout: <s_i, x>
  // is the chain fma(x_j, s_ij, .) from 0 over x's features in order (dots_tile, sparse_dots,
  // merge_dot, panel_dots), and the kernel's map from the dot product treats every slot alike
  // (rbf_from_dots, poly_from_dots: one vector function each, the same bits as Kernel::from_dot).

  void reserve(std::size_t cap) {
    if (cap <= cap_) return;
    if (dense_ && cols_held_) {
      const std::size_t ld = cap + kPad;
      std::vector<double, HugePageAllocator<double>> c(dim_ * ld, 0.0);
      for (std::size_t j = 0; j < dim_ && n_ > 0; ++j)  // nothing to copy (and no element) when empty
        std::copy_n(cols_.data() + j * ld_, n_, c.data() + j * ld);
      cols_.swap(c);
      ld_ = ld;
    }
    cap_ = cap;
  }

  // Model files (docs/models.md#supports): the rows in slot order (lengths, 0-based indices,
  // values), their squared norms and ids. The layout is not stored: both give the same bits.
  void save(StateWriter& w, const std::string& p) const {
    std::vector<uint64_t> len;
    std::vector<uint32_t> idx;
    std::vector<double> val;
    for (std::size_t i = 0; i < n_; ++i) {
      len.push_back(rows_idx_[i].size());
      idx.insert(idx.end(), rows_idx_[i].begin(), rows_idx_[i].end());
      val.insert(val.end(), rows_val_[i].begin(), rows_val_[i].end());
    }
    w.put(p + "len", len); w.put(p + "idx", idx); w.put(p + "val", val); w.put(p + "sq", sq_); w.put(p + "id", ids_);
  }
  // Replaces every slot by the saved rows; a row that breaks the Example invariants (ascending
  // indices, finite values and norms) is a ModelError.
  void load(const StateReader& r, const std::string& p) {
    const auto len = r.get<uint64_t>(p + "len");
    const auto idx = r.get<uint32_t>(p + "idx");
    const auto val = r.get<double>(p + "val", idx.size());
    const auto sq = r.get<double>(p + "sq", len.size());
    const auto id = r.get<int64_t>(p + "id", len.size());
    *this = SupportSet(dim_, want_);
    std::size_t b = 0;
    for (std::size_t i = 0; i < len.size(); ++i) {
      require_state(len[i] <= idx.size() - b, p + "len: the rows hold more indices than " + p + "idx");
      const std::size_t e = b + len[i];
      for (std::size_t k = b; k < e; ++k)
        require_state(std::isfinite(val[k]) && (k == b || idx[k - 1] < idx[k]) && idx[k] < UINT32_MAX,
                      p + "idx/val: support " + std::to_string(i) + " has a non-finite value or unordered indices");
      require_state(std::isfinite(sq[i]) && sq[i] >= 0.0, p + "sq: support " + std::to_string(i) + " has a bad norm");
      // sq is the row's own ||s||^2 (a different one changes every kernel value of the support).
      double row_sq = 0.0;
      for (std::size_t k = b; k < e; ++k) row_sq += val[k] * val[k];
      require_state(std::isfinite(row_sq) && std::abs(sq[i] - row_sq) <= 1e-9 * row_sq,
                    p + "sq: support " + std::to_string(i) + " has ||s||^2 " + std::to_string(sq[i]) +
                        ", its row's is " + std::to_string(row_sq));
      // ids are the rounds that added the supports (t >= 1, one support a round at most).
      require_state(id[i] >= 1, p + "id: support " + std::to_string(i) + " has round id " + std::to_string(id[i]) + " (< 1)");
      add({{idx.data() + b, len[i]}, {val.data() + b, len[i]}, sq[i], 0.0}, id[i]);
      b = e;
    }
    require_state(b == idx.size(), p + "len: the rows hold fewer indices than " + p + "idx");
    std::vector<int64_t> sorted = ids_;
    std::sort(sorted.begin(), sorted.end());
    const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    require_state(dup == sorted.end(), p + "id: round id " + (dup == sorted.end() ? "" : std::to_string(*dup)) +
                                           " is held by two supports (one support a round at most)");
  }

  // Density nnz / (n dim) of the supports from which the dense layout is used (below half of it,
  // it is left). Measured (docs/learners.md#layout): on a9a (density 0.11) the dense layout is
  // ~25% faster than the sparse one for a whole pass, on MNIST (0.19) 2-2.5x; on uniform sparse
  // rows of 2048 features the sparse one is faster from 1/4 down (3-10x at 1/32 .. 1/256;
  // bench_high_dim BM_Layout). Text data (news20 3e-4, rcv1 2e-3) are far below.
  static constexpr double kDenseDensity = 1.0 / 16.0;
  // Density from which the bitset index of binary supports is kept (below half of it, dropped):
  // ~dim / 8 bytes a support, so at most twice the sparse index's 16 bytes a non-zero. Speed is
  // not the limit: the binary Gaussian rows of bench_high_dim BM_Layout (2048 supports) ran on
  // it 1-2.4x faster than the better layout from density 1/4 down to 1/512, 5-6x on a9a's shape.
  static constexpr double kBitsDensity = 1.0 / 128.0;

 private:
  struct Entry {
    uint32_t slot;
    double val;
  };

  // Whether kernel_row(x) would run on more than one thread (parallel_for's test).
  bool row_splits(const Example& x) const {
    const ThreadPool* pool = current_pool();
    return pool && pool->width() >= 2 && rows_work(&x, 1, n_) >= parallel_min_work();
  }
  // The fmas and kernel maps of m kernel rows against n supports: what parallel_for weighs. The
  // sparse layout's parts would each walk x's whole index lists: 0, it stays on one thread (unless
  // a test forces every split).
  double rows_work(const Example* xs, std::size_t m, std::size_t n) const {
    if (!dense_) return 0.0;
    double nnz = 0.0;
    for (std::size_t l = 0; l < m; ++l) nnz += static_cast<double>(xs[l].idx.size() + 1);
    return nnz * static_cast<double>(n);
  }
  // Whole binary rows as binary_scores stores them beside a sum with every coefficient 0 (dropped):
  // the same table entries as rows_part's counts and lookup, in one pass where those took two (a
  // row over 793 a9a-like supports 1.6x faster on AVX-512, 1.4x on AVX2, AMD EPYC Zen 4). False,
  // doing nothing, unless every x and the supports are binary, the kernel is not linear and
  // kernel_rows would not split the m rows' supports between threads (those keep their split).
  bool fused_rows(const Kernel& k, const Example* xs, std::size_t m, double* out, std::size_t ld) const {
    if (k.type == Kernel::Type::linear || n_ == 0 || !binary_rounds(xs, m) ||
        !(bytes_rounds(xs, m) || bit_scores_fused()))
      return false;
    const ThreadPool* pool = current_pool();
    if (pool && pool->width() >= 2 && rows_work(xs, m, n_) >= parallel_min_work()) return false;
    thread_local AlignedVector<double> zeros;
    if (zeros.size() < n_) zeros.assign(n_, 0.0);
    for (std::size_t l = 0; l < m; ++l) {
      LaneSum s;
      binary_scores(k, xs + l, 1, zeros.data(), &s, out + l * ld);
    }
    return true;
  }
  // out[l * ld + i - b] = k(s_i, xs[l]) for b <= i < e: one thread's part of kernel_rows.
  void rows_part(const Kernel& k, const Example* xs, std::size_t m, std::size_t b, std::size_t e, double* out,
                 std::size_t ld) const {
    dots_rows(xs, m, b, e, out, ld);
    for (std::size_t l = 0; l < m; ++l) from_dots(k, xs[l], b, e, out + l * ld);
  }

  // The layout the measured density of n supports asks for. Dense is taken only when n is a
  // power of two (a conversion costs O(dim cap + nnz), so O(1) per add amortised) and left as soon
  // as the density falls below half the threshold, so dense memory stays below
  // 8 dim cap <= 16 n dim <= 32 / kDenseDensity * 8 nnz bytes (plus the pad's O(dim)).
  bool want_dense(std::size_t n) const {
    if (want_ == SupportLayout::dense || want_ == SupportLayout::sparse) return want_ == SupportLayout::dense;
    const double density = static_cast<double>(nnz_) /
                           (static_cast<double>(n) * static_cast<double>(std::max<std::size_t>(dim_, 1)));
    if (dense_) return density >= 0.5 * kDenseDensity;
    return (n & (n - 1)) == 0 && density >= kDenseDensity;
  }

  // Rebuilds the values of slots 0..n-1 in the other layout and frees the old one (dense: the
  // columns only where the bitsets do not answer, cols_held_).
  void relayout(bool dense) {
    cols_ = {};
    index_ = {};
    dense_ = dense;
    cols_held_ = !(dense && bits_on_);
    if (dense && !cols_held_) return;
    if (dense) {
      cap_ = std::max<std::size_t>({16, cap_, n_});
      ld_ = cap_ + kPad;
      cols_.assign(dim_ * ld_, 0.0);
      for (std::size_t i = 0; i < n_; ++i)
        for (std::size_t k = 0; k < rows_idx_[i].size(); ++k) cols_[rows_idx_[i][k] * ld_ + i] = rows_val_[i][k];
    } else {
      ld_ = 0;
      for (std::size_t i = 0; i < n_; ++i) index_row(i);
    }
  }
  void index_row(std::size_t i) {
    for (std::size_t k = 0; k < rows_idx_[i].size(); ++k)
      index_[rows_idx_[i][k]].push_back({static_cast<uint32_t>(i), rows_val_[i][k]});
  }

  // The bitset index of binary supports (docs/learners.md#binary): bits_[w * bld_ + i] = word w
  // of support i's features, bwords_ words for dim_, columns past n_ zero.
  bool binary_row(std::size_t i) const { return binary_example(row(i)); }
  // Whether the rows of xs[0..m) are popcounts of the index: it is kept and every x is binary.
  bool binary_rounds(const Example* xs, std::size_t m) const {
    if (!bits_on_) return false;
    for (std::size_t l = 0; l < m; ++l)
      if (!binary_example(xs[l])) return false;
    return true;
  }
  // Whether n supports keep the index: all binary, and (automatic) the density rule of the dense
  // layout with kBitsDensity, taken at powers of two (a build costs O(n dim / 64 + nnz)).
  bool want_bits(std::size_t n) const {
    if (nonbinary_ > 0 || want_ == SupportLayout::dense || want_ == SupportLayout::sparse) return false;
    if (want_ == SupportLayout::bits) return true;
    const double density = static_cast<double>(nnz_) /
                           (static_cast<double>(n) * static_cast<double>(std::max<std::size_t>(dim_, 1)));
    if (bits_on_) return density >= 0.5 * kBitsDensity;
    return (n & (n - 1)) == 0 && density >= kBitsDensity;
  }
  // Slot i was appended (dim_ and nnz_ counted): index it, build the index or drop it.
  void bits_add(std::size_t i) {
    if (binary_row(i)) max_count_ = std::max(max_count_, rows_idx_[i].size());
    else ++nonbinary_;
    if (!want_bits(i + 1)) {
      bits_ = {};
      colbits_ = {};
      colsums_ = {};
      counts_ = {};
      bits_on_ = bytes_on_ = false;
      bwords_ = bld_ = 0;
      return;
    }
    const std::size_t words = (dim_ + 63) / 64;
    if (!bits_on_ || words > bwords_ || i + kPad >= bld_) {  // (re)build, wider or longer: O(1) an add, amortised
      bits_on_ = true;
      bwords_ = words;
      bld_ = std::max<std::size_t>(16, 2 * std::bit_ceil(i + 1)) + kPad;
      bits_.assign(bwords_ * bld_, 0);
      bytes_on_ = byte_columns_wanted() && byte_rows() <= kByteRows;
      cw_ = (bld_ + 63) / 64 + kColumnSlack;
      colbits_.assign(bytes_on_ ? byte_rows() * cw_ : 0, 0);
      sld_ = bld_ + kByteSlack;
      const bool dense_enough = static_cast<double>(nnz_) >= kDenseDensity * static_cast<double>(i + 1) * static_cast<double>(dim_);
      colsums_.assign(bytes_on_ && byte_sums_wanted() && dense_enough ? byte_rows() * sld_ : 0, 0);
      counts_.assign(bytes_on_ ? bld_ + kByteSlack : 0, 0);
      max_count_ = 0;
      for (std::size_t s = 0; s <= i; ++s) set_bits(s);
    } else {
      set_bits(i);
    }
  }
  void set_bits(std::size_t i) {
    max_count_ = std::max(max_count_, rows_idx_[i].size());
    for (uint32_t j : rows_idx_[i]) bits_[j / 64 * bld_ + i] |= uint64_t{1} << (j % 64);
    if (!bytes_on_) return;
    for (uint32_t j : rows_idx_[i]) colbits_[j * cw_ + i / 64] |= uint64_t{1} << (i % 64);
    if (!colsums_.empty())
      for (uint32_t j : rows_idx_[i]) colsums_[j * sld_ + i] = 1;
    counts_[i] = static_cast<uint8_t>(std::min<std::size_t>(rows_idx_[i].size(), 255));  // used only when it fits
  }
  // Slot i goes, the last slot moves into it (before the rows move).
  void bits_remove(std::size_t i, std::size_t last) {
    if (!binary_row(i)) --nonbinary_;
    for (std::size_t w = 0; w < bwords_; ++w) {
      bits_[w * bld_ + i] = bits_[w * bld_ + last];
      bits_[w * bld_ + last] = 0;
    }
    if (!bytes_on_) return;
    const uint64_t bi = uint64_t{1} << (i % 64), bl = uint64_t{1} << (last % 64);
    for (uint32_t j : rows_idx_[i]) colbits_[j * cw_ + i / 64] &= ~bi;  // i's features, then last's moved into i
    for (uint32_t j : rows_idx_[last]) {
      colbits_[j * cw_ + i / 64] |= bi;
      colbits_[j * cw_ + last / 64] &= ~bl;
    }
    if (!colsums_.empty()) {
      for (uint32_t j : rows_idx_[i]) colsums_[j * sld_ + i] = 0;
      for (uint32_t j : rows_idx_[last]) colsums_[j * sld_ + i] = 1, colsums_[j * sld_ + last] = 0;
    }
    counts_[i] = counts_[last];
    counts_[last] = 0;
  }
  // The byte columns (numerics/bit_dots.hpp) cover the bitsets' features: bwords_ * 64 rows.
  std::size_t byte_rows() const { return bwords_ * 64; }
  // The byte columns' counts where kept (byte_sums_wanted()), else null.
  const uint8_t* sums() const { return colsums_.empty() ? nullptr : colsums_.data(); }
  // Whether the rows of xs[0..m) are byte counts: the columns are kept and every count fits a byte
  // (binary_rounds holds).
  bool bytes_rounds(const Example* xs, std::size_t m) const {
    if (!bytes_on_) return false;
    for (std::size_t l = 0; l < m; ++l)
      if (!byte_counts_fit(xs[l].sqnorm, max_count_)) return false;
    return true;
  }

  // out[l * ld + i - b] = <s_i, xs[l]> for b <= i < e. Dense: tiles of 64 supports (by
  // panel_dots from 2 rounds on), then 32, 4 and 1.
  void dots_rows(const Example* xs, std::size_t m, std::size_t b, std::size_t e, double* out,
                 std::size_t ld) const {
    if (e == b) return;  // cols_ may be empty: no pointer into it
    if (binary_rounds(xs, m)) {  // popcounts: the same whole numbers as the chains below
      thread_local WordsOf w;
      for (std::size_t l = 0; l < m; ++l) {
        if (e - b >= 32 && byte_rows_wanted() && bytes_rounds(xs + l, 1)) {  // a few slots (prepared rows): popcounts
          byte_dots(colbits_.data(), cw_, byte_rows(), xs[l], b, e, out + l * ld, sums(), sld_);
          continue;
        }
        w.set(xs[l], bwords_);
        bit_dots(bits_.data(), bld_, w, b, e, out + l * ld);
      }
      return;
    }
    if (!dense_) {
      for (std::size_t l = 0; l < m; ++l) sparse_dots(xs[l], b, e, out + l * ld);
      return;
    }
    if (!cols_held_) {  // a non-binary x against binary supports: each support's own row
      for (std::size_t l = 0; l < m; ++l)
        for (std::size_t i = b; i < e; ++i) out[l * ld + i - b] = merge_dot(xs[l], i);
      return;
    }
    std::size_t i0 = b;
    if (m >= 2 && i0 + kPanelSupports <= e) {  // a support value loaded once for a pair of rounds
      const RoundPairs g = pair_rounds(xs, m, dim_, ld_);
      for (; i0 + kPanelSupports <= e; i0 += kPanelSupports) {
        const double* next = i0 + 2 * kPanelSupports <= e ? &cols_[i0 + kPanelSupports] : nullptr;
        panel_dots(&cols_[i0], next, g, out + (i0 - b), ld);
      }
      if (i0 < e && i0 + kPanelSupports <= ld_) {  // a last partial tile: the columns past it are
        thread_local std::vector<double> tail;  // supports or zeros, finite, and dropped here; every
        tail.resize(m * kPanelSupports);        // entry written by panel_dots
        panel_dots(&cols_[i0], nullptr, g, tail.data(), kPanelSupports);
        for (std::size_t l = 0; l < m; ++l) std::copy_n(&tail[l * kPanelSupports], e - i0, out + l * ld + (i0 - b));
        i0 = e;
      }
    }
    for (; i0 + 32 <= e; i0 += 32)
      for (std::size_t l = 0; l < m; ++l) dots_tile<32>(xs[l], i0, out + l * ld + (i0 - b));
    for (; i0 + 4 <= e; i0 += 4)
      for (std::size_t l = 0; l < m; ++l) dots_tile<4>(xs[l], i0, out + l * ld + (i0 - b));
    for (; i0 < e; ++i0)
      for (std::size_t l = 0; l < m; ++l) dots_tile<1>(xs[l], i0, out + l * ld + (i0 - b));
  }
  // o[i] = <s_{i0+i}, x> for i < N, the sums held in registers across x's features (dense).
  template <std::size_t N>
  void dots_tile(const Example& x, std::size_t i0, double* __restrict o) const {
    double acc[N] = {};
    for (std::size_t q = 0; q < x.idx.size(); ++q) {
      const uint32_t j = x.idx[q];
      if (j >= dim_) break;  // features no support has (x's features are ascending)
      const double v = x.val[q];
      const double* __restrict c = &cols_[j * ld_ + i0];
      for (std::size_t i = 0; i < N; ++i) acc[i] = std::fma(v, c[i], acc[i]);
    }
    for (std::size_t i = 0; i < N; ++i) o[i] = acc[i] + 0.0;  // -0 (an underflow) reads +0 on every path
  }
  // o[k] = <s_{slots[k]}, x> for k < N: dots_tile's chain for slots anywhere (dense).
  template <std::size_t N>
  void slot_chains(const Example& x, const uint32_t* slots, double* __restrict o) const {
    double acc[N] = {};
    for (std::size_t q = 0; q < x.idx.size(); ++q) {
      const uint32_t j = x.idx[q];
      if (j >= dim_) break;
      const double v = x.val[q];
      const double* c = &cols_[j * ld_];
      for (std::size_t k = 0; k < N; ++k) acc[k] = std::fma(v, c[slots[k]], acc[k]);
    }
    for (std::size_t k = 0; k < N; ++k) o[k] = acc[k] + 0.0;  // as dots_tile
  }
  // o[i - b] = <s_i, x> for b <= i < e (sparse): x's features in order, each one's list of supports.
  void sparse_dots(const Example& x, std::size_t b, std::size_t e, double* __restrict o) const {
    std::fill(o, o + (e - b), 0.0);
    const bool all = b == 0 && e == n_;
    for (std::size_t q = 0; q < x.idx.size(); ++q) {
      const auto it = index_.find(x.idx[q]);
      if (it == index_.end()) continue;  // a feature no support has
      const double v = x.val[q];
      for (const Entry& p : it->second)
        if (all || (p.slot >= b && p.slot < e)) o[p.slot - b] = std::fma(v, p.val, o[p.slot - b]);
    }
    for (std::size_t i = 0; i < e - b; ++i) o[i] += 0.0;  // -0 (an underflow) reads +0 on every path
  }
  // <s_i, x> for a binary x from the bitsets (bits_on_): the count of x's features that support i
  // has, the whole number every chain above gives (numerics/bit_dots.hpp), +0 for none.
  double bit_dot(const Example& x, std::size_t i) const {
    uint64_t c = 0;
    for (const uint32_t j : x.idx) {
      if (j >= bwords_ * 64) break;  // features no support has (x's features are ascending)
      c += (bits_[j / 64 * bld_ + i] >> (j % 64)) & 1u;
    }
    return static_cast<double>(c);
  }
  // <s_i, x> from the sorted index lists of both (sparse; x's features in order).
  double merge_dot(const Example& x, std::size_t i) const {
    const auto& si = rows_idx_[i];
    const auto& sv = rows_val_[i];
    double acc = 0.0;
    std::size_t k = 0;
    for (std::size_t q = 0; q < x.idx.size() && k < si.size(); ++q) {
      while (k < si.size() && si[k] < x.idx[q]) ++k;
      if (k < si.size() && si[k] == x.idx[q]) acc = std::fma(x.val[q], sv[k], acc);
    }
    return acc + 0.0;  // -0 (an underflow) reads +0 on every path
  }
  // out[i - b]: <s_i, x> -> k(s_i, x) for b <= i < e.
  void from_dots(const Kernel& k, const Example& x, std::size_t b, std::size_t e, double* out) const {
    from_dots(k, x, b, e, out, out);
  }
  // The same from dots[i - b] (the same bits; dots may be out): the Gaussian reads them where they
  // are, the others map a copy.
  void from_dots(const Kernel& k, const Example& x, std::size_t b, std::size_t e, const double* dots, double* out) const {
    if (k.type == Kernel::Type::rbf && !binary_rounds(&x, 1))
      return rbf_from_dots(k.gamma, x.sqnorm, sq_.data() + b, dots, out, e - b);
    if (dots != out) std::copy_n(dots, e - b, out);
    if (binary_rounds(&x, 1) && kernel_from_counts(k, x.sqnorm, sq_.data() + b, max_count_, out, e - b)) return;
    switch (k.type) {
      case Kernel::Type::linear: break;
      case Kernel::Type::rbf: rbf_from_dots(k.gamma, x.sqnorm, sq_.data() + b, out, e - b); break;
      case Kernel::Type::poly: poly_from_dots(k.gamma, k.coef0, k.degree, out, e - b); break;
    }
  }

  // Column stride ld_ = cap_ + kPad: capacities are powers of two, and columns a power-of-two
  // apart map to the same L1 sets, so a tile's columns would evict each other (measured: the
  // a9a kernel rows ran ~2x slower without the pad).
  static constexpr std::size_t kPad = 8;
  std::size_t dim_ = 0, n_ = 0, cap_ = 0, ld_ = 0, nnz_ = 0;
  SupportLayout want_;
  bool dense_ = false;
  // dense: cols_[j * ld_ + i] = feature j of support i, held while the bitsets are not kept (they
  // answer every binary x; a non-binary one then takes the rows, merge_dot): on a9a the columns
  // would be 8 dim bytes a slot of capacity, 16 MB that a kernel Perceptron's pass never reads.
  std::vector<double, HugePageAllocator<double>> cols_;
  bool cols_held_ = true;
  std::unordered_map<uint32_t, std::vector<Entry>> index_;  // sparse: feature -> its supports
  std::vector<uint64_t, HugePageAllocator<uint64_t>> bits_;  // binary supports' bitsets, feature-block-major
  std::size_t bwords_ = 0, bld_ = 0, nonbinary_ = 0, max_count_ = 0;  // max_count_ >= every |s_i|
  bool bits_on_ = false;
  // The bit columns beside the bitsets (numerics/bit_dots.hpp; byte_columns_wanted()): bit i % 64
  // of colbits_[j * cw_ + i / 64] is set when support i has feature j, counts_[i] = |s_i|; kept up
  // to kByteRows features (the bitsets' memory again, transposed). Slack: a last block's reads.
  static constexpr std::size_t kByteRows = 1024, kByteSlack = 64, kColumnSlack = 8;
  AlignedVector<uint64_t> colbits_;
  AlignedVector<uint8_t> counts_;
  std::size_t cw_ = 0;
  // On the AVX2 path also the byte columns (byte_sums_wanted()): colsums_[j * sld_ + i] = 1 when
  // support i has feature j; eight times colbits_, an eighth of the dense layout's columns. Made
  // only where the supports' density is at least kDenseDensity when the index is (re)built (a9a
  // 0.11), so that they stay below about 64 bytes a non-zero ((dim + 63)(4 n + 72) bytes).
  AlignedVector<uint8_t> colsums_;
  std::size_t sld_ = 0;
  bool bytes_on_ = false;
  std::vector<std::vector<uint32_t>> rows_idx_;
  std::vector<std::vector<double>> rows_val_;
  AlignedVector<double> sq_;  // aligned (as alpha, row_): whole-line vector loads
  std::vector<int64_t> ids_;
};

// f = sum_i alpha_i k(s_i, .). Scratch buffers make score() allocation-free; not thread-safe.
class KernelExpansion {
 public:
  KernelExpansion(Kernel k, std::size_t dim, SupportLayout layout = SupportLayout::automatic)
      : kernel(k), sv(dim, layout) {}

  Kernel kernel;
  SupportSet sv;
  AlignedVector<double> alpha;  // 64-byte aligned: no vector load of it splits a cache line

  std::size_t size() const { return sv.size(); }
  // Computes k_t = (k(s_i,x))_i into row() and returns f(x) = alpha . k_t: where x and the
  // supports are binary, the row stored as its terms are summed (SupportSet::binary_scores; the
  // same bits, one pass instead of the row's and the sum's).
  double score(const Example& x) const {
    row_.resize(sv.size());
    if (prepared_row(x)) return dot_alpha(row_.data());
    LaneSum s;
    if (sv.binary_scores(kernel, &x, 1, alpha.data(), &s, row_.data())) return s.total();
    sv.kernel_row(kernel, x, row_.data());
    return dot_alpha(row_.data());
  }
  // f(x) alone, bit for bit score(x): where x and the supports are binary its terms are formed in
  // registers (SupportSet::binary_scores) and row() is left as it was; otherwise score(x), which
  // fills row().
  double score_only(const Example& x) const {
    LaneSum s;
    if (sv.binary_scores(kernel, &x, 1, alpha.data(), &s)) return s.total();
    return score(x);
  }
  // Rounds known in advance (ExpansionLearner::learn_block): the dot products of xs[0..m) with
  // the current supports, computed together where that shares loads (SupportSet::shares_dots).
  // Until unprepare(), score() of one of those rows (the same data row, in order) takes its
  // products from them and recomputes alone those of the slots added or replaced since: the same
  // bits as without (every product is the same chain), with the columns read once for the block
  // rather than once a round (ijcnn1's 13 columns of B values did not fit in L1).
  void prepare(const Example* xs, std::size_t m) {
    prep_m_ = 0;
    if (m * sv.size() > kPrepareMax || !sv.shares_dots(xs, m)) return;
    prep_xs_ = xs;
    prep_m_ = m;
    prep_n_ = sv.size();
    prep_ld_ = (prep_n_ + 7) / 8 * 8;  // rows of whole cache lines
    prep_next_ = 0;
    prep_dots_.resize(m * prep_ld_);
    prep_dirty_.assign(prep_n_, 0);
    prep_changed_.clear();
    sv.dots(xs, m, prep_dots_.data(), prep_ld_);
  }
  void unprepare() { prep_m_ = 0; }
  static constexpr std::size_t kPrepareMax = std::size_t{1} << 21;  // dot products (16 MB)
  // alpha . k for a kernel row k of size() values (the sum score() computes), in lane sums
  // (numerics/lane_sum.hpp): term i is alpha_i k_i.
  double dot_alpha(const double* k) const { return lane_dot(alpha.data(), k, alpha.size()); }
  // s[l] = the lane sums of score(xs[l]) for l < m <= kPanelLanes: s[l].total() is score(xs[l]) bit
  // for bit, and a caller may first add the terms of supports appended later (their slot numbers
  // follow). The kernel rows come in tiles of kScoreTile supports (they stay in L2), each lane's
  // sums continued across tiles. Does not touch row().
  void scores(const Example* xs, std::size_t m, LaneSum* s) const;
  // f[l] = score(xs[l]), bit for bit.
  void scores(const Example* xs, std::size_t m, double* f) const;
  static constexpr std::size_t kScoreTile = 2048;
  // The kernel row of the last score() call.
  const AlignedVector<double>& row() const { return row_; }
  // Moves that row into out (no copy; row() then holds out's old values until the next score()).
  void take_row(AlignedVector<double>& out) { out.swap(row_); }

  // Every coefficient change goes through add/bump/scale/remove so that the averaged
  // hypothesis (1/T) sum_t f_t can be kept exactly: a change delta made on round t appears in
  // f_t..f_T, so sum_t f_t has coefficients (T+1) alpha_i - wsum_i with wsum_i = sum delta*t.
  std::size_t add(const Example& x, int64_t t, double a) {
    alpha.push_back(a);
    wsum_.push_back(a * static_cast<double>(t));
    changed(sv.size());
    return sv.add(x, t);
  }
  void bump(std::size_t i, double delta, int64_t t) {
    alpha[i] += delta;
    wsum_[i] += delta * static_cast<double>(t);
  }
  // Replaces alpha and the averaging sums wholesale (learners that keep them in another basis:
  // the Projectron). Both must hold size() values.
  void set_coefficients(const std::vector<double>& a, const std::vector<double>& wsum) {
    alpha.assign(a.begin(), a.end());
    wsum_.assign(wsum.begin(), wsum.end());
  }
  // alpha <- c alpha for all i (Forgetron shrink, NORMA decay), as bump(i, (c - 1) alpha_i, t):
  // the same bits, with the sums in one loop the compiler vectorises (the arrays cannot overlap).
  // Once a removal has ended the averaging (averaging_valid() false) the sums are no longer kept:
  // nothing reads them (a BOGD round at its budget scaled both, a tenth of its pass on ijcnn1), and
  // alpha alone goes to scale_coefficients (numerics/coef_scale.hpp, 8 lanes on AVX-512).
  void scale(double c, int64_t t) {
    double* __restrict a = alpha.data();
    double* __restrict w = wsum_.data();
    const double tt = static_cast<double>(t), c1 = c - 1.0;
    if (!averaging_valid_) return scale_coefficients(a, alpha.size(), c1);
    for (std::size_t i = 0, n = alpha.size(); i < n; ++i) {
      const double d = c1 * a[i];
      a[i] += d;
      w[i] += d * tt;
    }
  }
  // Each coefficient times its own factor g[i] (size() values), as bump(i, (g[i] - 1) alpha_i, t):
  // the same bits, as scale's two cases.
  void scale_each(const double* __restrict g, int64_t t) {
    double* __restrict a = alpha.data();
    double* __restrict w = wsum_.data();
    const double tt = static_cast<double>(t);
    if (!averaging_valid_) return scale_coefficients_each(a, g, alpha.size());
    for (std::size_t i = 0, n = alpha.size(); i < n; ++i) {
      const double d = (g[i] - 1.0) * a[i];
      a[i] += d;
      w[i] += d * tt;
    }
  }
  // Removing a support breaks the averaged hypothesis (its past contribution is lost).
  void remove(std::size_t i) {
    changed(i);
    const std::size_t moved = sv.remove(i);
    alpha[i] = alpha[moved];
    wsum_[i] = wsum_[moved];
    alpha.pop_back();
    wsum_.pop_back();
    averaging_valid_ = false;
  }
  bool averaging_valid() const { return averaging_valid_; }
  // The averaging sums (set_coefficients' second argument).
  const AlignedVector<double>& wsum() const { return wsum_; }
  // Averaged hypothesis after T rounds, f_avg = (1/T) sum_{t=1..T} f_t.
  double score_averaged(const Example& x, int64_t T) const {
    row_.resize(sv.size());
    sv.kernel_row(kernel, x, row_.data());
    double f = 0.0;
    const double T1 = static_cast<double>(T + 1);
    for (std::size_t i = 0; i < row_.size(); ++i) f += (T1 * alpha[i] - wsum_[i]) * row_[i];
    return T > 0 ? f / static_cast<double>(T) : 0.0;
  }
  // k(x_i, x_i); 1 for a unit-diagonal kernel, exactly what Kernel::self gives there (exp(-gamma 0)),
  // without a call to exp per support (CKS's and BPA's searches read it for every slot).
  double self(std::size_t i) const { return kernel.unit_diagonal() ? 1.0 : kernel.self(sv.sqnorm(i)); }
  // ||f||^2 = alpha^T K alpha = sum_i alpha_i f(s_i), recomputed from scratch with one kernel
  // row per support (O(n^2 nnz), vectorised like scoring).
  double norm2_exact() const {
    double s = 0.0;
    for (std::size_t i = 0; i < size(); ++i) {
      Example xi = sv.row(i);
      s += alpha[i] * score(xi);
    }
    return s;
  }
  // Model files: the supports, alpha, the averaging sums and whether averaging is still valid.
  void save(StateWriter& w, const std::string& p) const {
    sv.save(w, p + "sv.");
    w.put(p + "alpha", alpha);
    w.put(p + "wsum", wsum_);
    w.put_one<uint64_t>(p + "averaging_valid", averaging_valid_);
  }
  void load(const StateReader& r, const std::string& p) {
    unprepare();
    sv.load(r, p + "sv.");
    const std::vector<double> a = r.get<double>(p + "alpha", sv.size()), ws = r.get<double>(p + "wsum", sv.size());
    alpha.assign(a.begin(), a.end());
    wsum_.assign(ws.begin(), ws.end());
    averaging_valid_ = r.get_one<uint64_t>(p + "averaging_valid") != 0;
  }

 private:
  // Slot i holds another support than at prepare(): its products are recomputed.
  void changed(std::size_t i) {
    if (prep_m_ == 0 || i >= prep_n_ || prep_dirty_[i]) return;
    prep_dirty_[i] = 1;
    prep_changed_.push_back(static_cast<uint32_t>(i));
  }
  // Fills row_ (size() values) from the prepared products when x is one of the prepared rows.
  bool prepared_row(const Example& x) const {
    if (prep_m_ == 0) return false;
    std::size_t l = prep_next_;
    const auto same = [&](const Example& p) {
      return p.idx.data() == x.idx.data() && p.val.data() == x.val.data() && p.idx.size() == x.idx.size() &&
             p.sqnorm == x.sqnorm;
    };
    while (l < prep_m_ && !same(prep_xs_[l])) ++l;
    if (l == prep_m_) return false;
    prep_next_ = l + 1;
    const std::size_t n = sv.size(), kept = std::min(n, prep_n_);
    redo_.clear();
    for (const uint32_t i : prep_changed_)
      if (i < kept) redo_.push_back(i);
    redone_.resize(redo_.size());
    sv.dots_of(x, redo_.data(), redo_.size(), redone_.data());
    // The prepared products of this row, then the slots changed since in place, map to the kernel
    // row straight from where they are (a copy of the row first was 4% of a BOGD pass on ijcnn1).
    double* dots = prep_dots_.data() + l * prep_ld_;
    for (std::size_t k = 0; k < redo_.size(); ++k) dots[redo_[k]] = redone_[k];
    sv.map_dots(kernel, x, 0, kept, dots, row_.data());
    if (kept < n) {  // slots appended since
      redo_.clear();
      for (std::size_t i = kept; i < n; ++i) redo_.push_back(static_cast<uint32_t>(i));
      sv.dots_of(x, redo_.data(), redo_.size(), row_.data() + kept);
      sv.map_dots(kernel, x, kept, n, row_.data() + kept, row_.data() + kept);
    }
    return true;
  }

  mutable AlignedVector<double> row_;
  // prepare(): the rows, their products with the prep_n_ supports of then (row-major), the slots
  // changed since, and the first row not yet scored.
  const Example* prep_xs_ = nullptr;
  std::size_t prep_m_ = 0, prep_n_ = 0, prep_ld_ = 0;  // prep_ld_: the rows' stride
  mutable std::size_t prep_next_ = 0;
  // The scratch rows below are 64-byte aligned, as row_: no vector load of them splits a line.
  mutable AlignedVector<double> prep_dots_;  // a row's changed slots are written in when it is scored
  std::vector<char> prep_dirty_;
  std::vector<uint32_t> prep_changed_;
  mutable std::vector<uint32_t> redo_;  // prepared_row's slots to compute anew, and their products
  mutable std::vector<double> redone_;
  mutable AlignedVector<double> tile_;  // scores(): a tile's kernel rows, lane-major
  AlignedVector<double> wsum_;
  bool averaging_valid_ = true;
};

}  // namespace plab
