#include "algorithms/support_set.hpp"

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace plab {
namespace {

SupportLayout from_env() {
  const char* env = std::getenv("PLAB_LAYOUT");
  if (!env || !*env) return SupportLayout::automatic;
  const std::string s = env;
  if (s == "dense") return SupportLayout::dense;
  if (s == "sparse") return SupportLayout::sparse;
  if (s == "auto") return SupportLayout::automatic;
  throw std::invalid_argument("PLAB_LAYOUT must be dense, sparse or auto, not '" + s + "'");
}

std::atomic<SupportLayout>& current() {
  static std::atomic<SupportLayout> layout{from_env()};
  return layout;
}

}  // namespace

SupportLayout support_layout_default() { return current().load(std::memory_order_relaxed); }
void set_support_layout_default(SupportLayout layout) { current().store(layout, std::memory_order_relaxed); }

}  // namespace plab
