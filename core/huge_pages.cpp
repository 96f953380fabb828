#include "core/huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>

#include <algorithm>
#include <atomic>

#if defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace plab {

void advise_huge_pages(const void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t b = (a + kHuge - 1) & ~(kHuge - 1), e = (a + bytes) & ~(kHuge - 1);
  if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);  // advice: a failure changes nothing
#else
  (void)p;
  (void)bytes;
#endif
}

namespace {
constexpr std::size_t kHuge = std::size_t{2} << 20;
// Where a small-head block starts in its allocation: kSmallHead below its first 2 MB boundary.
constexpr std::size_t kHeadOffset = kHuge - kSmallHead;
}  // namespace

void* huge_allocate(std::size_t bytes, bool small_head) {
  if (bytes < kHuge) {  // 64-byte aligned (rows panel_dots may stream)
    if (void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + (bytes ? 0 : 64))) return p;
    throw std::bad_alloc();
  }
  // A small head: [p + kHeadOffset, p + kHuge) on 4 KB pages, never advised; the first kHeadOffset
  // bytes are address space only (never touched, so never backed).
  const std::size_t lead = small_head ? kHeadOffset : 0;
  const std::size_t size = (lead + bytes + kHuge - 1) / kHuge * kHuge;
  char* p = static_cast<char*>(std::aligned_alloc(kHuge, size));
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  const std::size_t advised = lead ? kHuge : 0;
  if (size > advised)  // advice only: without huge pages the memory works the same
    madvise(p + advised, size - advised, MADV_HUGEPAGE);
#endif
  return p + lead;
}

void huge_free(void* p, std::size_t bytes, bool small_head) {
  if (p && bytes >= kHuge && small_head) p = static_cast<char*>(p) - kHeadOffset;
  std::free(p);
}

namespace {
std::atomic<bool> warming{false};
}  // namespace

void enable_heap_warming() {
#if defined(__linux__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);  // big blocks from the heap, whose pages warm_heap populates
  mallopt(M_TRIM_THRESHOLD, 512 << 20);  // and freed ones kept there for the next
  warming = true;
#endif
}

void warm_heap(std::size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr std::size_t kMin = std::size_t{1} << 20, kMax = std::size_t{256} << 20, kHuge = std::size_t{2} << 20;
  if (!warming || bytes < kMin) return;
  bytes = std::min(bytes, kMax);
  void* p = std::malloc(bytes);
  if (!p) return;  // advice only
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t b = (a + 4095) & ~std::uintptr_t{4095}, e = (a + bytes) & ~std::uintptr_t{4095};
  const std::uintptr_t hb = (a + kHuge - 1) & ~(kHuge - 1), he = (a + bytes) & ~(kHuge - 1);
  if (he > hb) madvise(reinterpret_cast<void*>(hb), he - hb, MADV_HUGEPAGE);
  if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_POPULATE_WRITE);  // a failure changes nothing
  std::free(p);
#else
  (void)bytes;
#endif
}

}  // namespace plab
