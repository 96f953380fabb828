// Asks the kernel to back a large array with 2 MiB pages where it allows them (transparent huge
// pages in "madvise" mode, the common default): filling a data set's arrays otherwise takes one
// page fault every 4 KiB, and on a virtual machine a fault is dear (docs/architecture.md#fixed-cost).
// Only advice: contents and results do not change, and nothing happens where it is not supported.
#pragma once
#include <cstddef>

namespace plab {

// The whole 2 MiB pages inside [p, p + bytes); nothing when there are none.
void advise_huge_pages(const void* p, std::size_t bytes);

}  // namespace plab
