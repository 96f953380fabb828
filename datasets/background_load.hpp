// A data set read on a thread of its own while a learner takes its rows as they are stored
// (docs/inputs.md#read-while-learning). Represents: one load_dataset call in progress. A LIBSVM file
// that is mapped publishes its rows as it goes; any other source publishes them all at its end.
// Ensures: finish() gives the very Dataset load_dataset gives, or throws its error. Where the system
// cannot start the thread (no memory or threads left), the constructor reads the data itself.
#pragma once
#include <exception>
#include <string>
#include <thread>

#include "datasets/registry.hpp"
#include "datasets/row_arrivals.hpp"

namespace plab {

class BackgroundLoad {
 public:
  BackgroundLoad(std::string spec, LoadOptions opt);
  ~BackgroundLoad();  // waits for the reader
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;
  const RowArrivals& arrivals() const { return arrivals_; }
  // Waits for the reader; its error rethrown (on every call), else the whole data set.
  Dataset& finish();

 private:
  void load();  // the reader's work: data_ or error_, then every row published and the arrivals closed
  std::string spec_;
  LoadOptions opt_;
  RowArrivals arrivals_;
  Dataset data_;
  std::exception_ptr error_;
  std::thread reader_;
};

}  // namespace plab
