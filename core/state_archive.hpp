// The state of a learner as named little-endian arrays (docs/models.md#arrays): what a model file
// holds after its header. Learners write every quantity they continue from through StateWriter
// (save_state) and read it back through StateReader (load_state); doubles keep their bits.
// Represents: an ordered list of arrays, each a name, an element type and raw bytes. Ensures: the
// reader never reads past an array; a missing array, a wrong type or count is a ModelError naming it.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace plab {

// A model file or state that cannot be used: the message says what is wrong (the model reader
// prefixes the file name). The CLI exits with status 2.
struct ModelError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Element types: f64 (double), i64, u64, u32.
enum class StateType : char { f64 = 'd', i64 = 'i', u64 = 'u', u32 = 'w' };

struct StateArray {
  std::string name;
  StateType type = StateType::f64;
  std::size_t count = 0;
  std::string bytes;  // count elements, little-endian
};

namespace state_detail {
template <class T> constexpr StateType type_of();
template <> constexpr StateType type_of<double>() { return StateType::f64; }
template <> constexpr StateType type_of<int64_t>() { return StateType::i64; }
template <> constexpr StateType type_of<uint64_t>() { return StateType::u64; }
template <> constexpr StateType type_of<uint32_t>() { return StateType::u32; }
// Reverses the bytes of every element on a big-endian host (the file is little-endian).
inline void to_little(char* p, std::size_t n, std::size_t size) {
  if constexpr (std::endian::native == std::endian::big)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t a = 0, b = size - 1; a < b; ++a, --b) std::swap(p[i * size + a], p[i * size + b]);
  (void)p; (void)n; (void)size;
}
}  // namespace state_detail

class StateWriter {
 public:
  template <class T>
  void put(const std::string& name, std::span<const T> v) {
    StateArray a{name, state_detail::type_of<T>(), v.size(), std::string(v.size() * sizeof(T), '\0')};
    if (!v.empty()) std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
    state_detail::to_little(a.bytes.data(), v.size(), sizeof(T));
    arrays_.push_back(std::move(a));
  }
  template <class T, class A>
  void put(const std::string& name, const std::vector<T, A>& v) { put(name, std::span<const T>(v)); }
  template <class T>
  void put_one(const std::string& name, T v) { put(name, std::span<const T>(&v, 1)); }
  std::vector<StateArray>& arrays() { return arrays_; }
  const std::vector<StateArray>& arrays() const { return arrays_; }

 private:
  std::vector<StateArray> arrays_;
};

class StateReader {
 public:
  explicit StateReader(std::vector<StateArray> arrays) {
    for (auto& a : arrays) {
      const std::string name = a.name;
      if (!by_name_.emplace(name, std::move(a)).second) throw ModelError("array '" + name + "' appears twice");
    }
  }
  // The array `name` as T; `count` (when not -1) is the count it must have.
  template <class T>
  std::vector<T> get(const std::string& name, std::size_t count = static_cast<std::size_t>(-1)) const {
    const StateArray& a = find(name);
    if (a.type != state_detail::type_of<T>())
      throw ModelError("array '" + name + "' has element type '" + std::string(1, static_cast<char>(a.type)) +
                       "', expected '" + std::string(1, static_cast<char>(state_detail::type_of<T>())) + "'");
    if (count != static_cast<std::size_t>(-1) && a.count != count)
      throw ModelError("array '" + name + "' holds " + std::to_string(a.count) + " values, expected " +
                       std::to_string(count));
    std::vector<T> v(a.count);
    if (a.count) std::memcpy(v.data(), a.bytes.data(), a.count * sizeof(T));
    state_detail::to_little(reinterpret_cast<char*>(v.data()), v.size(), sizeof(T));
    return v;
  }
  template <class T>
  T get_one(const std::string& name) const { return get<T>(name, 1)[0]; }
  bool has(const std::string& name) const { return by_name_.count(name) > 0; }
  // The arrays no get() has read, in name order: after load_state, arrays the learner does not
  // have (a model relabelled as another learner keeps the first one's arrays).
  std::vector<std::string> unread() const {
    std::vector<std::string> v;
    for (const auto& [name, a] : by_name_)
      if (!read_.count(name)) v.push_back(name);
    return v;
  }

 private:
  const StateArray& find(const std::string& name) const {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) throw ModelError("array '" + name + "' is missing");
    read_.insert(name);
    return it->second;
  }
  std::map<std::string, StateArray> by_name_;
  mutable std::set<std::string> read_;
};

// Throws ModelError "<what>" unless `ok` (the state checks of load_state).
inline void require_state(bool ok, const std::string& what) {
  if (!ok) throw ModelError(what);
}

}  // namespace plab
