// Asks the kernel to back a large array with 2 MiB pages where it allows them (transparent huge
// pages in "madvise" mode, the common default): filling a data set's arrays otherwise takes one
// page fault every 4 KiB, and on a virtual machine a fault is dear (docs/architecture.md#fixed-cost).
// Only advice: contents and results do not change, and nothing happens where it is not supported.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <vector>

namespace plab {

// The whole 2 MiB pages inside [p, p + bytes); nothing when there are none.
void advise_huge_pages(const void* p, std::size_t bytes);

// Allocates blocks of 2 MB or more aligned to 2 MB, their size rounded up to whole 2 MB pages, and
// asks the kernel for transparent huge pages before first touch (Linux madvise; elsewhere plain
// aligned memory); smaller ones 64-byte aligned. The dense layout's feature rows are a stride
// apart, so a block of rounds touches ~100 rows at once: with 4 KB pages that is 100 TLB entries
// (measured on MNIST: kernel rows and the PA-I pass 1.4-1.5x faster on huge pages); a data set's
// arrays are filled once, one fault per 2 MB instead of per 4 KB.
// small_head: a data set's array, filled from its start while a learner reads it. Its first
// kSmallHead bytes lie on 4 KB pages (the block starts that far below a 2 MB boundary), so that
// the first rows wait for a few small faults and not for the zeroing of a 2 MB page (about 1 ms
// on some virtual machines); from that boundary on it is advised for huge pages, one fault per
// 2 MB where a 4 KB fault costs ~10 us (docs/architecture.md#fixed-cost).
inline constexpr std::size_t kSmallHead = std::size_t{256} << 10;
void* huge_allocate(std::size_t bytes, bool small_head = false);  // std::bad_alloc on failure
void huge_free(void* p, std::size_t bytes, bool small_head = false);  // what huge_allocate(bytes, small_head) returned
template <class T, bool kHead = false>
struct HugePageAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = HugePageAllocator<U, kHead>;
  };
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U, kHead>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(huge_allocate(n * sizeof(T), kHead)); }
  void deallocate(T* p, std::size_t n) { huge_free(p, n * sizeof(T), kHead); }
  template <class U>
  bool operator==(const HugePageAllocator<U, kHead>&) const { return true; }
};

// A vector on huge_allocate: 64-byte aligned, so that no vector load of it splits a cache line.
template <class T>
using AlignedVector = std::vector<T, HugePageAllocator<T>>;

// Heap warming (a program's choice, made once at its start; the command line makes it): malloc then
// serves blocks up to 256 MB from its heap rather than from fresh mappings and keeps what is freed,
// and warm_heap(bytes) populates the next `bytes` of the heap in one call (on 2 MB pages where the
// kernel allows). Filling a data set and its order then takes no page fault per 4 KB
// (docs/architecture.md#fixed-cost).
// Without enable_heap_warming() (a library inside another program, Python) warm_heap does nothing.
void enable_heap_warming();
void warm_heap(std::size_t bytes);

}  // namespace plab
