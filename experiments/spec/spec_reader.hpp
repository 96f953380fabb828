// Strict reading of spec JSON: every access knows its JSON pointer, so every error names the
// file and the path ("<file>: /datasets/0/kernal: unknown key (did you mean "kernel"?)").
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace plab::spec_detail {

// "~" and "/" escaped as RFC 6901 asks.
std::string pointer_token(const std::string& key);

class Node {
 public:
  Node(const nlohmann::json& j, std::string pointer, std::string source)
      : j_(&j), ptr_(std::move(pointer)), src_(std::move(source)) {}

  const nlohmann::json& json() const { return *j_; }
  const std::string& pointer() const { return ptr_; }
  const std::string& source() const { return src_; }
  bool has(const std::string& key) const { return j_->is_object() && j_->contains(key); }

  // Throws std::invalid_argument "<source>: <pointer>: <message>".
  [[noreturn]] void fail(const std::string& message) const;
  // The same for a value that is not one of `allowed`: names the nearest one when it is close.
  [[noreturn]] void fail_unknown(const std::string& what, const std::string& value,
                                 const std::vector<std::string>& allowed) const;

  Node child(const std::string& key) const;  // requires has(key)
  Node child(std::size_t i) const;
  std::vector<Node> elements() const;        // requires an array
  std::vector<std::string> keys() const;     // requires an object

  // Type assertions.
  const Node& object() const;
  const Node& array() const;

  std::string text() const;
  double number() const;
  int64_t integer(int64_t min) const;
  bool flag() const;
  std::vector<std::string> texts() const;
  std::vector<double> numbers() const;
  // `value` must be one of `allowed` (else fail_unknown(what, ...)).
  std::string choice(const std::string& what, const std::vector<std::string>& allowed) const;

  // Optional members: the default when the key is absent.
  std::string text(const std::string& key, const std::string& def) const;
  std::optional<std::string> opt_text(const std::string& key) const;
  double number(const std::string& key, double def) const;
  std::optional<double> opt_number(const std::string& key) const;
  bool flag(const std::string& key, bool def) const;
  std::vector<std::string> texts(const std::string& key) const;

 private:
  const nlohmann::json* j_;
  std::string ptr_, src_;
};

}  // namespace plab::spec_detail
