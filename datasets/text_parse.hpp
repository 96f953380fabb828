// Small helpers shared by the text readers (CSV/TSV, USPS): strict number parsing.
#pragma once
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace plab::detail {

// Whole-token strtod (accepts a leading '+', which from_chars does not); false on junk or overflow.
inline bool parse_double_token(std::string_view s, double& out) {
  if (s.empty()) return false;
  const std::string tmp(s);
  char* end = nullptr;
  errno = 0;
  out = std::strtod(tmp.c_str(), &end);
  return end == tmp.c_str() + tmp.size() && errno != ERANGE;
}

// Strips spaces, tabs and a trailing '\r' at both ends.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace plab::detail
