#include "datasets/background_load.hpp"

#include <system_error>
#include <utility>

namespace plab {

BackgroundLoad::BackgroundLoad(std::string spec, LoadOptions opt) : spec_(std::move(spec)), opt_(std::move(opt)) {
  opt_.arrivals = &arrivals_;
  try {
    reader_ = std::thread([this] { load(); });
  } catch (const std::system_error&) {  // no thread to be had: the same read, on this one
    load();
  }
}

void BackgroundLoad::load() {
  try {
    data_ = load_dataset(spec_, opt_);  // the arrays keep their memory through the move
    arrivals_.publish(data_);           // every row (those a reader did not publish as it went)
  } catch (...) {
    error_ = std::current_exception();
  }
  arrivals_.close();
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
