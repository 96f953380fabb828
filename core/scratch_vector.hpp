// A std::vector whose resize leaves the new elements of a trivially constructible type
// uninitialised: for scratch arrays that are written in full before they are read, where
// value-initialisation would zero B doubles at every round (a memset per round that nothing reads).
#pragma once
#include <memory>
#include <new>
#include <utility>
#include <type_traits>
#include <vector>

namespace plab {

template <class T>
struct NoInitAllocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  NoInitAllocator() = default;
  template <class U>
  NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no zeroing
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

template <class T>
using ScratchVector = std::vector<T, NoInitAllocator<T>>;

}  // namespace plab
