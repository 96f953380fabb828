// Small helpers shared by the text readers (LIBSVM, CSV/TSV, USPS) and the trace reader: strict
// number parsing that tells junk from out-of-range, and token echoing capped for messages.
#pragma once
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace plab::detail {

enum class Number { ok, junk, out_of_range };

// Whole-token, correctly rounded (the value strtod gives). Accepts one leading '+', which
// from_chars does not ("+-1" stays junk). Values beyond the double range (1e999, 1e-999) are
// out_of_range, not junk, so the message can say so.
inline Number parse_number(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) return Number::junk;
  }
  if (s.empty()) return Number::junk;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  if (r.ptr != s.data() + s.size()) return Number::junk;
  if (r.ec == std::errc::result_out_of_range) return Number::out_of_range;
  return r.ec == std::errc() ? Number::ok : Number::junk;
}

inline bool parse_double_token(std::string_view s, double& out) { return parse_number(s, out) == Number::ok; }

// A token as echoed in a message: quoted, at most kEchoMax characters (a 100 MB bad token must
// not become a 100 MB message), with its full length when cut; control bytes (CR, NUL, ESC, ...)
// are written as \xNN so that a message never carries raw binary (docs/inputs.md#text-formats).
inline constexpr std::size_t kEchoMax = 80;
inline std::string escape_controls(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 0x20 && u != 0x7f) { out += ch; continue; }
    const char* hex = "0123456789abcdef";
    out += "\\x";
    out += hex[u >> 4];
    out += hex[u & 15];
  }
  return out;
}
inline std::string quote(std::string_view tok) {
  if (tok.size() <= kEchoMax) return "'" + escape_controls(tok) + "'";
  return "'" + escape_controls(tok.substr(0, kEchoMax)) + "...' (" + std::to_string(tok.size()) + " characters)";
}

// The message for a value token that is not a usable finite number, or "" when it is one.
inline std::string bad_value(std::string_view tok, double& v) {
  switch (parse_number(tok, v)) {
    case Number::junk: return "non-numeric value " + quote(tok);
    case Number::out_of_range: return "value " + quote(tok) + " is out of range for a double (beyond 1.8e308 in magnitude, or so small it rounds to 0)";
    case Number::ok: break;
  }
  if (!std::isfinite(v)) return "value " + quote(tok) + " is NaN or infinite";
  return "";
}

// Strips spaces, tabs and a trailing '\r' at both ends.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace plab::detail
