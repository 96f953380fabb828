#include "datasets/background_load.hpp"

#include <utility>

namespace plab {

BackgroundLoad::BackgroundLoad(std::string spec, LoadOptions opt) {
  opt.arrivals = &arrivals_;
  reader_ = std::thread([this, spec = std::move(spec), opt = std::move(opt)] {
    try {
      data_ = load_dataset(spec, opt);  // the arrays keep their memory through the move
      arrivals_.publish(data_);         // every row (those a reader did not publish as it went)
    } catch (...) {
      error_ = std::current_exception();
    }
    arrivals_.close();
  });
}

BackgroundLoad::~BackgroundLoad() {
  if (reader_.joinable()) reader_.join();
}

Dataset& BackgroundLoad::finish() {
  if (reader_.joinable()) reader_.join();
  if (error_) std::rethrow_exception(error_);
  return data_;
}

}  // namespace plab
