// "Did you mean ...?": the closest valid name to a misspelt one, for error messages.
#pragma once
#include <string>
#include <vector>

namespace plab {

// Edit (Levenshtein) distance between two strings.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate closest to `s` when it is close enough to be a likely typo (distance at most
// max(2, |s| / 3)); "" otherwise.
std::string nearest_name(const std::string& s, const std::vector<std::string>& candidates);
// " (did you mean \"x\"?)" or "".
std::string did_you_mean(const std::string& s, const std::vector<std::string>& candidates);

}  // namespace plab
