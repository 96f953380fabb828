#include "experiments/spec/spec_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <stdexcept>

#include "core/nearest.hpp"

namespace plab::spec_detail {

using nlohmann::json;

std::string pointer_token(const std::string& key) {
  std::string o;
  for (char c : key) {
    if (c == '~') o += "~0";
    else if (c == '/') o += "~1";
    else o += c;
  }
  return o;
}

void Node::fail(const std::string& message) const {
  throw std::invalid_argument(src_ + ": " + (ptr_.empty() ? "/" : ptr_) + ": " + message);
}

void Node::fail_unknown(const std::string& what, const std::string& value,
                        const std::vector<std::string>& allowed) const {
  fail("unknown " + what + " \"" + value + "\"" + did_you_mean(value, allowed));
}

Node Node::child(const std::string& key) const { return Node(j_->at(key), ptr_ + "/" + pointer_token(key), src_); }
Node Node::child(std::size_t i) const { return Node(j_->at(i), ptr_ + "/" + std::to_string(i), src_); }

std::vector<Node> Node::elements() const {
  array();
  std::vector<Node> out;
  for (std::size_t i = 0; i < j_->size(); ++i) out.push_back(child(i));
  return out;
}

std::vector<std::string> Node::keys() const {
  object();
  std::vector<std::string> out;
  for (const auto& [k, v] : j_->items()) out.push_back(k);
  return out;
}

const Node& Node::object() const {
  if (!j_->is_object()) fail("must be an object, not " + std::string(j_->type_name()));
  return *this;
}
const Node& Node::array() const {
  if (!j_->is_array()) fail("must be an array, not " + std::string(j_->type_name()));
  return *this;
}

std::string Node::text() const {
  if (!j_->is_string()) fail("must be a string, not " + std::string(j_->type_name()));
  return j_->get<std::string>();
}
double Node::number() const {
  if (!j_->is_number()) fail("must be a number, not " + std::string(j_->type_name()));
  return j_->get<double>();
}
int64_t Node::integer(int64_t min) const {
  if (!j_->is_number_integer()) fail("must be an integer, not " + std::string(j_->type_name()));
  // An unsigned JSON integer above 2^63 - 1 would wrap to a negative int64_t: say so as written.
  if (j_->is_number_unsigned() && j_->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    fail("must be at most " + std::to_string(INT64_MAX) + ", got " + std::to_string(j_->get<uint64_t>()));
  const int64_t v = j_->get<int64_t>();
  if (v < min) fail("must be >= " + std::to_string(min));
  return v;
}
bool Node::flag() const {
  if (!j_->is_boolean()) fail("must be true or false, not " + std::string(j_->type_name()));
  return j_->get<bool>();
}
std::vector<std::string> Node::texts() const {
  std::vector<std::string> out;
  for (const auto& e : elements()) out.push_back(e.text());
  return out;
}
std::vector<double> Node::numbers() const {
  std::vector<double> out;
  for (const auto& e : elements()) out.push_back(e.number());
  return out;
}
std::string Node::choice(const std::string& what, const std::vector<std::string>& allowed) const {
  const std::string v = text();
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) fail_unknown(what, v, allowed);
  return v;
}

std::string Node::text(const std::string& key, const std::string& def) const {
  return has(key) ? child(key).text() : def;
}
std::optional<std::string> Node::opt_text(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return child(key).text();
}
double Node::number(const std::string& key, double def) const { return has(key) ? child(key).number() : def; }
std::optional<double> Node::opt_number(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return child(key).number();
}
bool Node::flag(const std::string& key, bool def) const { return has(key) ? child(key).flag() : def; }
std::vector<std::string> Node::texts(const std::string& key) const {
  return has(key) ? child(key).texts() : std::vector<std::string>{};
}

}  // namespace plab::spec_detail
