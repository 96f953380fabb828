#include "numerics/support_set.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <new>
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
  if (s == "bits") return SupportLayout::bits;
  if (s == "auto") return SupportLayout::automatic;
  throw std::invalid_argument("PLAB_LAYOUT must be dense, sparse, bits or auto, not '" + s + "'");
}

std::atomic<SupportLayout>& current() {
  static std::atomic<SupportLayout> layout{from_env()};
  return layout;
}

}  // namespace

void KernelExpansion::scores(const Example* xs, std::size_t m, LaneSum* s) const {
  if (m > kPanelLanes) throw std::invalid_argument("KernelExpansion::scores: more rounds than kPanelLanes");
  for (std::size_t l = 0; l < m; ++l) s[l] = LaneSum{};
  const std::size_t n = size(), T = kScoreTile;
  if (m == 0 || n == 0 || sv.binary_scores(kernel, xs, m, alpha.data(), s)) return;
  tile_.resize(m * T);
  for (std::size_t b = 0; b < n; b += T) {
    const std::size_t e = std::min(n, b + T);
    sv.kernel_rows_range(kernel, xs, m, b, e, tile_.data(), T);
    for (std::size_t l = 0; l < m; ++l) s[l].add(alpha.data() + b, tile_.data() + l * T, e - b, b);
  }
}

void KernelExpansion::scores(const Example* xs, std::size_t m, double* f) const {
  LaneSum s[kPanelLanes];
  scores(xs, m, s);
  for (std::size_t l = 0; l < m; ++l) f[l] = s[l].total();
}

SupportLayout support_layout_default() { return current().load(std::memory_order_relaxed); }
void set_support_layout_default(SupportLayout layout) { current().store(layout, std::memory_order_relaxed); }

}  // namespace plab
