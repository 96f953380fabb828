#include "arrays.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/sha256.hpp"

namespace plab::py {
namespace {

struct RowBuf {
  std::vector<uint32_t> idx;
  std::vector<double> val;
  void clear() { idx.clear(); val.clear(); }
  // Appends column j with value v of row `i`; `what` names the input in messages ("X", "x").
  void add(std::size_t j, double v, std::size_t i, const char* what) {
    if (!std::isfinite(v)) throw std::invalid_argument(fmt::format("{}[{}, {}] is {}: every value must be finite", what, i, j, v));
    if (!idx.empty() && j <= idx.back())
      throw std::invalid_argument(fmt::format("{} row {}: column indices must be strictly ascending ({} after {}; "
                                              "call X.sum_duplicates())", what, i, j, idx.back()));
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

template <class I>
void csr_rows(Dataset& d, const F64Array& data, const pyb::array& indices, const pyb::array& indptr,
              std::size_t ncols, const F64Array& y) {
  const auto v = data.unchecked<1>();
  const auto ix = pyb::array_t<I, 0>::ensure(indices).template unchecked<1>();
  const auto p = pyb::array_t<I, 0>::ensure(indptr).template unchecked<1>();
  const auto lab = y.unchecked<1>();
  const std::size_t n = static_cast<std::size_t>(p.shape(0)) - 1;
  RowBuf r;
  for (std::size_t i = 0; i < n; ++i) {
    r.clear();
    const I b = p(i), e = p(i + 1);
    if (b < 0 || e < b || e > static_cast<I>(ix.shape(0)) || e > static_cast<I>(v.shape(0)))
      throw std::invalid_argument(fmt::format("X.indptr[{}..{}] = {}..{} is not a valid row range", i, i + 1, b, e));
    for (I k = b; k < e; ++k) {
      if (ix(k) < 0 || static_cast<std::size_t>(ix(k)) >= ncols)
        throw std::invalid_argument(fmt::format("X row {}: column index {} outside 0..{}", i, ix(k), ncols - 1));
      r.add(static_cast<std::size_t>(ix(k)), v(k), i, "X");
    }
    push(d, r, lab(i), i);
  }
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
  const bool i32 = pyb::isinstance<pyb::array_t<int32_t, 0>>(indices) && pyb::isinstance<pyb::array_t<int32_t, 0>>(indptr);
  const bool i64 = pyb::isinstance<pyb::array_t<int64_t, 0>>(indices) && pyb::isinstance<pyb::array_t<int64_t, 0>>(indptr);
  if (i32) csr_rows<int32_t>(d, data, indices, indptr, ncols, y);
  else if (i64) csr_rows<int64_t>(d, data, indices, indptr, ncols, y);
  else throw std::invalid_argument("X: CSR indices and indptr must both be int32 or both int64");
  finish(d, ncols, std::move(classes), std::move(name));
  return d;
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
