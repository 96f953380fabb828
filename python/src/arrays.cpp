#include "arrays.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "core/sha256.hpp"

namespace plab::py {
namespace {

// Checks of value v in column j of row i, after column `prev` (`first`: none); `what` names the
// input in messages ("X", "x").
void check_entry(std::size_t j, double v, bool first, std::size_t prev, std::size_t i, const char* what) {
  if (!std::isfinite(v)) throw std::invalid_argument(fmt::format("{}[{}, {}] is {}: every value must be finite", what, i, j, v));
  if (!first && j <= prev)
    throw std::invalid_argument(fmt::format("{} row {}: column indices must be strictly ascending ({} after {}; "
                                            "call X.sum_duplicates())", what, i, j, prev));
}

struct RowBuf {
  std::vector<uint32_t> idx;
  std::vector<double> val;
  void clear() { idx.clear(); val.clear(); }
  // Appends column j with value v of row `i`.
  void add(std::size_t j, double v, std::size_t i, const char* what) {
    check_entry(j, v, idx.empty(), idx.empty() ? 0 : idx.back(), i, what);
    idx.push_back(static_cast<uint32_t>(j));
    val.push_back(v);
  }
};

void check_labels(const F64Array& y, std::size_t rows) {
  if (y.ndim() != 1 || static_cast<std::size_t>(y.shape(0)) != rows)
    throw std::invalid_argument(fmt::format("y must be 1-D with one label per row of X ({} rows)", rows));
}

void push(Dataset& d, const RowBuf& r, double y, std::size_t i) {
  try {
    d.push_back(r.idx, r.val, y, fmt::format("X[{}]", i));
  } catch (const DataError& e) {
    throw std::invalid_argument(e.what());
  }
}

// The identity of in-memory data (the pipeline shares comparators between runs on equal data).
void finish(Dataset& d, std::size_t ncols, std::vector<double> classes, std::string name) {
  d.dim = std::max(d.dim, ncols);
  d.classes = std::move(classes);
  d.name = std::move(name);
  Sha256 h;
  const auto feed = [&](const auto& v) { h.feed(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0])); };
  feed(d.rowptr); feed(d.idx); feed(d.val); feed(d.y); feed(d.classes);
  h.feed(reinterpret_cast<const char*>(&d.dim), sizeof d.dim);
  d.sha256 = h.hex();
}

// Python references released with the GIL held: the last copy of a Dataset may be dropped by a
// thread that does not hold it (a run releases the GIL).
std::shared_ptr<const void> keep_alive(pyb::object o) {
  return std::shared_ptr<const void>(new pyb::object(std::move(o)), [](pyb::object* p) {
    pyb::gil_scoped_acquire gil;
    delete p;
  });
}

// The row ranges, columns, values and labels of a CSR's rows, checked in one pass as RowBuf::add
// and Dataset::push_back check a row (the same messages, and the same loop for ||x||^2: the same
// bits), with each row's squared norm and label appended to d.
template <class I, class P, class L>
void check_rows(Dataset& d, const double* v, const I* ix, const P* p, std::size_t n, std::size_t len, std::size_t ncols,
                const L& lab) {
  if (p[0] != 0) throw std::invalid_argument(fmt::format("X.indptr[0] = {}: a CSR's indptr starts at 0", p[0]));
  d.y.reserve(n);
  d.sqnorm.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const P b = p[i], e = p[i + 1];
    if (e < b || static_cast<std::size_t>(e) > len)
      throw std::invalid_argument(fmt::format("X.indptr[{}..{}] = {}..{} is not a valid row range", i, i + 1, b, e));
    double s = 0.0;
    bool nonzero = false;
    for (P k = b; k < e; ++k) {
      const I j = ix[k];
      if (j < 0 || static_cast<std::size_t>(j) >= ncols)
        throw std::invalid_argument(fmt::format("X row {}: column index {} outside 0..{}", i, j, ncols - 1));
      check_entry(static_cast<std::size_t>(j), v[k], k == b, k == b ? 0 : static_cast<std::size_t>(ix[k - 1]), i, "X");
      s += v[k] * v[k];
      nonzero = nonzero || v[k] != 0.0;
    }
    if (!row_sqnorm_ok(s, nonzero)) {
      try {
        check_row_sqnorm(s, fmt::format("X[{}]", i), nonzero);
      } catch (const DataError& err) {
        throw std::invalid_argument(err.what());
      }
    }
    d.sqnorm.push_back(s);
    d.y.push_back(lab(i));
  }
}

// `a` as a C-contiguous array of T (the same array unless it is strided); none when a's dtype is not T.
template <class T>
std::optional<pyb::array_t<T, pyb::array::c_style>> contiguous(const pyb::array& a) {
  if (!pyb::isinstance<pyb::array_t<T, 0>>(a)) return std::nullopt;
  return pyb::array_t<T, pyb::array::c_style>::ensure(a);
}

// The CSR's rows read in place: val always; idx when int32 (a valid index has uint32's bits);
// rowptr when int64 (size_t's bits). int64 indices are narrowed and int32 indptr widened into
// owned copies. d.owner holds references to the arrays read in place.
template <class I, class P>
void borrow_csr(Dataset& d, const pyb::array_t<double, pyb::array::c_style>& data, const pyb::array_t<I, pyb::array::c_style>& indices,
                const pyb::array_t<P, pyb::array::c_style>& indptr, std::size_t ncols, const F64Array& y) {
  static_assert(sizeof(std::size_t) == sizeof(int64_t) && alignof(std::size_t) == alignof(int64_t));
  const std::size_t n = static_cast<std::size_t>(indptr.shape(0)) - 1;
  const std::size_t len = static_cast<std::size_t>(std::min(data.shape(0), indices.shape(0)));
  check_rows(d, data.data(), indices.data(), indptr.data(), n, len, ncols, y.unchecked<1>());
  const P* p = indptr.data();
  const std::size_t nnz = static_cast<std::size_t>(p[n]);
  if constexpr (std::is_same_v<P, int64_t>) d.rowptr = DataArray<std::size_t>::borrow({reinterpret_cast<const std::size_t*>(p), n + 1});
  else d.rowptr = std::vector<std::size_t>(p, p + n + 1);
  if constexpr (std::is_same_v<I, int32_t>) d.idx = DataArray<uint32_t>::borrow({reinterpret_cast<const uint32_t*>(indices.data()), nnz});
  else d.idx = std::vector<uint32_t>(indices.data(), indices.data() + nnz);
  d.val = DataArray<double>::borrow({data.data(), nnz});
  d.owner = keep_alive(pyb::make_tuple(data, indices, indptr));
}

template <class I>
void borrow_csr(Dataset& d, const pyb::array_t<double, pyb::array::c_style>& data, const pyb::array_t<I, pyb::array::c_style>& indices,
                const pyb::array& indptr, std::size_t ncols, const F64Array& y) {
  if (const auto p = contiguous<int64_t>(indptr)) borrow_csr(d, data, indices, *p, ncols, y);
  else if (const auto p = contiguous<int32_t>(indptr)) borrow_csr(d, data, indices, *p, ncols, y);
  else throw std::invalid_argument(fmt::format("X.indptr has dtype {}: expected int32 or int64", pyb::str(indptr.dtype()).cast<std::string>()));
}

}  // namespace

Dataset dataset_dense(const F64Array& X, const F64Array& y, std::vector<double> classes, std::string name) {
  if (X.ndim() != 2) throw std::invalid_argument(fmt::format("X must be 2-D (rows x features), got {} dimensions", X.ndim()));
  const auto x = X.unchecked<2>();
  const std::size_t n = static_cast<std::size_t>(x.shape(0)), m = static_cast<std::size_t>(x.shape(1));
  check_labels(y, n);
  if (m >= (std::size_t{1} << 32)) throw std::invalid_argument("X has more than 2^32 - 1 columns");
  const auto lab = y.unchecked<1>();
  Dataset d;
  RowBuf r;
  for (std::size_t i = 0; i < n; ++i) {
    r.clear();
    for (std::size_t j = 0; j < m; ++j)
      if (x(i, j) != 0.0) r.add(j, x(i, j), i, "X");
    push(d, r, lab(i), i);
  }
  finish(d, m, std::move(classes), std::move(name));
  return d;
}

Dataset dataset_csr(const F64Array& data, const pyb::array& indices, const pyb::array& indptr, std::size_t ncols,
                    const F64Array& y, std::vector<double> classes, std::string name) {
  if (data.ndim() != 1 || indices.ndim() != 1 || indptr.ndim() != 1 || indptr.shape(0) < 1)
    throw std::invalid_argument("X: a CSR matrix has 1-D data, indices and indptr (indptr of length rows + 1)");
  if (ncols >= (std::size_t{1} << 32)) throw std::invalid_argument("X has more than 2^32 - 1 columns");
  check_labels(y, static_cast<std::size_t>(indptr.shape(0)) - 1);
  Dataset d;
  const auto v = pyb::array_t<double, pyb::array::c_style>::ensure(data);
  if (const auto ix = contiguous<int32_t>(indices)) borrow_csr(d, v, *ix, indptr, ncols, y);
  else if (const auto ix = contiguous<int64_t>(indices)) borrow_csr(d, v, *ix, indptr, ncols, y);
  else throw std::invalid_argument(fmt::format("X.indices has dtype {}: expected int32 or int64", pyb::str(indices.dtype()).cast<std::string>()));
  finish(d, ncols, std::move(classes), std::move(name));
  return d;
}

ReadOnlyWhile::ReadOnlyWhile(const Dataset& d) {
  if (!d.owner) return;
  const auto& held = *static_cast<const pyb::object*>(d.owner.get());  // keep_alive's tuple
  if (!pyb::isinstance<pyb::tuple>(held)) return;
  for (const auto& o : pyb::reinterpret_borrow<pyb::tuple>(held)) {
    if (!pyb::isinstance<pyb::array>(o)) continue;
    auto a = pyb::reinterpret_borrow<pyb::array>(o);
    if (!a.writeable()) continue;
    a.attr("flags").attr("writeable") = false;
    arrays_.push_back(a);
  }
}

ReadOnlyWhile::~ReadOnlyWhile() {
  for (auto& a : arrays_) {
    try {
      a.attr("flags").attr("writeable") = true;
    } catch (const pyb::error_already_set&) {  // numpy refuses it for a view of a read-only base
    }
  }
}

void set_row(Dataset& row, const pyb::handle& x, std::size_t dim, double y) {
  RowBuf r;
  if (pyb::isinstance<pyb::dict>(x)) {
    std::vector<std::pair<long long, double>> items;
    for (const auto& [k, v] : pyb::reinterpret_borrow<pyb::dict>(x)) {
      if (!PyIndex_Check(k.ptr()) || PyBool_Check(k.ptr()))
        throw std::invalid_argument("x: dict keys must be int column indices");
      int overflow = 0;
      const long long j = PyLong_AsLongLongAndOverflow(pyb::int_(pyb::reinterpret_borrow<pyb::object>(k)).ptr(), &overflow);
      if (overflow || j < 0 || static_cast<unsigned long long>(j) >= dim)
        throw std::invalid_argument(fmt::format("x: column {} outside 0..{} (the learner's dim is {})",
                                                pyb::str(k).cast<std::string>(), dim - 1, dim));
      const auto f = pyb::reinterpret_steal<pyb::object>(PyNumber_Float(v.ptr()));
      if (!f) {
        PyErr_Clear();
        throw std::invalid_argument(fmt::format("x[{}]: the value must be a real number", j));
      }
      items.emplace_back(j, PyFloat_AS_DOUBLE(f.ptr()));
    }
    std::sort(items.begin(), items.end());
    for (const auto& [j, v] : items) {
      if (v != 0.0 || !std::isfinite(v)) r.add(static_cast<std::size_t>(j), v, 0, "x");
    }
  } else {
    const auto a = F64Array::ensure(x);
    if (!a || a.ndim() != 1) throw std::invalid_argument("x must be a dict {column: value} or a 1-D float64 array");
    if (static_cast<std::size_t>(a.shape(0)) != dim)
      throw std::invalid_argument(fmt::format("x has {} features, the learner's dim is {}", a.shape(0), dim));
    const auto v = a.unchecked<1>();
    for (std::size_t j = 0; j < dim; ++j)
      if (v(j) != 0.0) r.add(j, v(j), 0, "x");
  }
  row.rowptr.resize(1);  // one row, buffers kept between calls
  row.idx.clear(); row.val.clear(); row.y.clear(); row.sqnorm.clear();
  row.dim = 0;
  push(row, r, y, 0);
}

}  // namespace plab::py
