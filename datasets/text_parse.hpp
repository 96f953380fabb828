// Small helpers shared by the text readers (LIBSVM, CSV/TSV, USPS) and the trace reader: strict
// number parsing that tells junk from out-of-range, and token echoing capped for messages.
#pragma once
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace plab::detail {

enum class Number { ok, junk, out_of_range };

// Clinger's fast path for the tokens data files are made of: digits, an optional fraction and an
// optional exponent, at most 19 significant digits whose integer w is <= 2^53, and a decimal
// exponent q with |q| <= 22. Then w and 10^|q| are exact doubles and w * 10^q (or w / 10^-q) is
// one IEEE operation, so correctly rounded: the value from_chars gives, at a third of its cost
// (parsing was a third of an ijcnn1 run). Returns false, touching nothing, for every other token
// (hex, inf/nan, ".5", "1.", long mantissas, large exponents, junk): from_chars decides those.
// The same over the token that starts at p and ends at the first blank (space or tab) or at e:
// `next` is where it ended. A reader that scans its tokens this way reads each byte once.
inline bool fast_decimal_to_blank(const char* p, const char* e, const char*& next, double& out) {
  const bool neg = p != e && *p == '-';
  if (neg) ++p;
  const auto digit = [&](const char* c) { return c != e && static_cast<unsigned>(*c - '0') < 10u; };
  if (!digit(p)) return false;
  uint64_t w = 0;
  int nd = 0, q = 0;  // significant digits (leading zeros not counted), decimal exponent
  for (; digit(p); ++p) {
    w = w * 10 + static_cast<unsigned>(*p - '0');  // wraps only past 19 digits, refused below
    nd += w != 0;
  }
  if (p != e && *p == '.') {
    ++p;
    if (!digit(p)) return false;
    for (; digit(p); ++p, --q) {
      w = w * 10 + static_cast<unsigned>(*p - '0');
      nd += w != 0;
    }
  }
  if (p != e && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool eneg = p != e && *p == '-';
    if (p != e && (*p == '-' || *p == '+')) ++p;
    if (!digit(p)) return false;
    int x = 0;
    for (; digit(p) && x < 1000; ++p) x = x * 10 + (*p - '0');
    if (digit(p)) return false;
    q += eneg ? -x : x;
  }
  if ((p != e && *p != ' ' && *p != '\t') || nd > 19 || w > (uint64_t{1} << 53) || q < -22 || q > 22) return false;
  static constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const double m = static_cast<double>(w);
  const double v = q >= 0 ? m * kPow10[q] : m / kPow10[-q];
  out = neg ? -v : v;
  next = p;
  return true;
}

inline bool fast_decimal(std::string_view s, double& out) {
  const char* const e = s.data() + s.size();
  const char* next = nullptr;
  double v;
  if (!fast_decimal_to_blank(s.data(), e, next, v) || next != e) return false;
  out = v;
  return true;
}

// Whole-token, correctly rounded (the value strtod gives). Accepts one leading '+', which
// from_chars does not ("+-1" stays junk). Values beyond the double range (1e999, 1e-999) are
// out_of_range, not junk, so the message can say so.
inline Number parse_number(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) return Number::junk;
  }
  if (s.empty()) return Number::junk;
  if (fast_decimal(s, out)) return Number::ok;
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
