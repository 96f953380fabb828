// synthetic:sparse — high-dimensional sparse sets shaped like text data (news20.binary: 1.36
// million features, a few hundred non-zeros per row), to run the learners in O(nnz) memory
// (docs/conventions.md#synthetic, docs/learners.md#layout).
//
// synthetic:sparse:d=D,nnz=K,n=N,flip=F,seed=SEED
//   u = D normals normalised (summed in index order); truth = u (comparator "truth").
//   Per row: K distinct features by Floyd's algorithm (for j = D-K .. D-1: c = below(j + 1);
//   take c, or j when c is already taken), sorted ascending; then per feature in ascending order
//   v = 1 - uniform() in (0, 1]; the row is scaled to unit norm (x_j = v_j / sqrt(sum v^2), the
//   sum in index order); y = +1 iff <u, x> > 0 (summed in index order); then one uniform for the
//   flip. Memory O(N K) for the rows plus O(D) for u.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_set>

#include "core/random.hpp"
#include "datasets/synthetic.hpp"

namespace plab {

void check_sparse(std::size_t n, std::size_t d, std::size_t nnz, double flip) {
  if (n == 0) throw std::invalid_argument("n must be >= 1");
  if (d == 0 || d > (std::size_t{1} << 32)) throw std::invalid_argument("d must be in [1, 2^32]");
  if (nnz == 0 || nnz > d) throw std::invalid_argument("nnz must be in [1, d]");
  if (n > (std::size_t{1} << 32) / nnz) throw std::invalid_argument("n * nnz must be <= 2^32");
  if (!(flip >= 0.0 && flip <= 1.0)) throw std::invalid_argument("flip must be in [0, 1]");
}

Dataset make_sparse(std::size_t n, std::size_t d, std::size_t nnz, double flip, uint64_t seed) {
  check_sparse(n, d, nnz, flip);
  Rng rng(seed);
  const std::vector<double> u = random_unit_vector(rng, d);
  Dataset ds;
  ds.name = "synthetic:sparse";
  ds.rowptr.reserve(n + 1);
  ds.idx.reserve(n * nnz);
  ds.val.reserve(n * nnz);
  std::unordered_set<uint64_t> taken;
  std::vector<uint32_t> ix(nnz);
  std::vector<double> vx(nnz);
  for (std::size_t i = 0; i < n; ++i) {
    taken.clear();
    for (std::size_t j = d - nnz; j < d; ++j) {  // Floyd: nnz distinct values in [0, d)
      const uint64_t c = rng.below(j + 1);
      taken.insert(taken.count(c) ? j : c);
    }
    ix.clear();
    for (uint64_t c : taken) ix.push_back(static_cast<uint32_t>(c));  // c < d <= 2^32
    std::sort(ix.begin(), ix.end());
    double s = 0.0;
    for (auto& v : vx) { v = 1.0 - rng.uniform(); s += v * v; }
    const double nrm = std::sqrt(s);
    double m = 0.0;
    for (std::size_t k = 0; k < nnz; ++k) {
      vx[k] /= nrm;
      m += u[ix[k]] * vx[k];
    }
    double y = m > 0.0 ? 1.0 : -1.0;
    if (rng.uniform() < flip) y = -y;
    ds.push_back(ix, vx, y);
  }
  ds.dim = d;
  ds.truth = std::move(u);
  return ds;
}

}  // namespace plab
