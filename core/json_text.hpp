// The one JSON reading step of every reader (model headers, trace metadata, specs, Python
// keywords and pickles): nesting is bounded before nlohmann parses, and values echoed in messages
// are cut short (docs/inputs.md#json).
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace plab {

// Deepest nesting of arrays and objects a reader accepts. nlohmann's parser, its dump and its
// destructor recurse once a level: a 100000-deep `[[[...]]]` would overflow the stack. The
// project's own files nest at most 6 levels (a spec's grid).
inline constexpr std::size_t kMaxJsonDepth = 64;

// A JSON text that parses but that no reader takes: nested deeper than kMaxJsonDepth ("field
// 'options.x' nests arrays or objects deeper than 64 levels"), or an object that gives one key twice
// ("field 'options' gives the key 'budget' twice"), whose meaning would be the parser's choice.
struct JsonRefused : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct JsonTooDeep : JsonRefused {
  using JsonRefused::JsonRefused;
};

// "" when `text` nests at most max_depth levels, else the message of JsonTooDeep. A bracket
// counter that skips strings (with their escapes); it does not otherwise check the syntax.
std::string json_depth_fault(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

// nlohmann::json::parse(text) after json_depth_fault: JsonRefused (too deep, a key given twice), or
// nlohmann's parse_error.
nlohmann::json parse_json(std::string_view text);

// An exception's message cut at 240 characters, with its full length when cut: the JSON library's
// syntax errors quote the token they stopped at, which may be a 50000-digit number.
std::string json_error_text(const std::exception& e);

// A value as echoed in a message: its dump cut at 80 characters, with its full length when cut.
std::string json_excerpt(const nlohmann::json& v);

}  // namespace plab
