// The data of a cell (experiments/cell/cell.hpp): its training and test sets, loaded once per
// process and shared by every cell that names the same files, labels and preprocessing.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "datasets/dataset.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

struct CellData {
  std::shared_ptr<const Dataset> train, test;  // test may be null
  std::string sha;                             // train sha + test sha ("" parts for generated data)
};

// Loads each (data, labels, test) combination once per process; thread-safe.
class DataCache {
 public:
  CellData get(const Cell& c);

 private:
  std::mutex m_;
  std::map<std::string, CellData> cache_;
};

// Rows a cell learns from, in order: novelty detection (option task = "novelty") on a data set
// with a label map trains on its +1 rows only (one-class training; the test set keeps every row).
// Every other cell: `order` unchanged.
std::vector<std::size_t> cell_training_order(const Cell& c, const Dataset& train,
                                             std::vector<std::size_t> order);

}  // namespace plab
