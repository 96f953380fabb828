// numpy and scipy inputs as the library's Dataset (docs/python.md#copies): a CSR matrix's arrays read
// in place (borrowed, kept alive by the Dataset), a dense array's rows copied by Dataset::push_back
// (the readers' own path, so ||x||^2 has the same bits as for a data file); each value checked
// finite with the offending X[row, column] named.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab::py {
namespace pyb = pybind11;

// Exactly float64, any strides (C, Fortran or a strided view: read in place, no copy).
using F64Array = pyb::array_t<double, 0>;

// Rows of a 2-D array X (zeros skipped, as a data file omits them); dim = X.shape[1]. `y`: +-1 or
// class indices into `classes` (empty for binary data). Throws std::invalid_argument.
Dataset dataset_dense(const F64Array& X, const F64Array& y, std::vector<double> classes, std::string name);
// Rows of a CSR matrix from its three arrays, read in place: data (float64), indices when int32,
// indptr when int64 (int64 indices and int32 indptr are converted: docs/python.md#copies); column
// indices strictly ascending in each row. The arrays must stay unmodified while the Dataset lives.
Dataset dataset_csr(const F64Array& data, const pyb::array& indices, const pyb::array& indptr, std::size_t ncols,
                    const F64Array& y, std::vector<double> classes, std::string name);
// The numpy arrays a Dataset reads in place, read-only while the object lives: a run, learn_rows
// or scores reads them without the GIL, and another Python thread writing X.indices meanwhile would
// change the rows under it (a spin, or rows that break their invariants); such a write raises
// "assignment destination is read-only" instead. Made and destroyed with the GIL held.
class ReadOnlyWhile {
 public:
  explicit ReadOnlyWhile(const Dataset& d);
  ~ReadOnlyWhile();
  ReadOnlyWhile(const ReadOnlyWhile&) = delete;
  ReadOnlyWhile& operator=(const ReadOnlyWhile&) = delete;

 private:
  std::vector<pyb::array> arrays_;  // those this object made read-only
};
// Replaces the one row of `row` by x: a dict {column: value} or a 1-D float64 array, columns < dim.
void set_row(Dataset& row, const pyb::handle& x, std::size_t dim, double y);

}  // namespace plab::py
