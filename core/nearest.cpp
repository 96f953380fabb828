#include "core/nearest.hpp"

#include <algorithm>
#include <numeric>

namespace plab {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string nearest_name(const std::string& s, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, s.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(s, c);
    if (d < best_d) { best_d = d; best = c; }
  }
  return best;
}

std::string did_you_mean(const std::string& s, const std::vector<std::string>& candidates) {
  const std::string n = nearest_name(s, candidates);
  return n.empty() ? std::string() : " (did you mean \"" + n + "\"?)";
}

}  // namespace plab
