#include "core/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
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

}  // namespace plab
