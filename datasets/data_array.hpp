// One of a Dataset's compressed-sparse-row arrays (rowptr, idx, val): either owned (a vector the
// readers grow by push_back) or borrowed (a read-only view of memory someone else keeps alive, as
// the Python module reads a scipy CSR matrix's arrays in place: docs/python.md#copies). Reading is
// the same either way; growing or resizing a borrowed array throws std::logic_error.
#pragma once
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/huge_pages.hpp"

namespace plab {

template <class T>
class DataArray {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  // Large arrays on huge pages but the first 2 MB (core/huge_pages.hpp: the first rows are not kept
  // waiting for a whole page to be zeroed).
  using Owned = std::vector<T, HugePageAllocator<T, true>>;

  DataArray() = default;
  DataArray(std::initializer_list<T> v) : own_(v) {}
  DataArray(const std::vector<T>& v) : own_(v.begin(), v.end()) {}  // NOLINT: a vector is an owned array
  // A view of `s`; the caller keeps its memory alive and unmodified while the array (or a copy) lives.
  static DataArray borrow(std::span<const T> s) {
    DataArray a;
    a.view_ = s;
    a.borrowed_ = true;
    return a;
  }

  bool borrowed() const { return borrowed_; }
  const T* data() const { return borrowed_ ? view_.data() : own_.data(); }
  std::size_t size() const { return borrowed_ ? view_.size() : own_.size(); }
  bool empty() const { return size() == 0; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  const T& back() const { return data()[size() - 1]; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  operator std::span<const T>() const { return {data(), size()}; }  // NOLINT: a view, as vector's
  friend bool operator==(const DataArray& a, const DataArray& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

  // Owned arrays only.
  Owned& owned() {
    if (borrowed_) throw std::logic_error("a borrowed Dataset array cannot be changed (copy it into a new Dataset)");
    return own_;
  }
  void push_back(const T& v) { owned().push_back(v); }
  void reserve(std::size_t n) { owned().reserve(n); }
  void resize(std::size_t n) { owned().resize(n); }
  void clear() { owned().clear(); }

 private:
  Owned own_;
  std::span<const T> view_;
  bool borrowed_ = false;
};

}  // namespace plab
