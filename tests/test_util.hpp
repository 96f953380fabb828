// Small helpers shared by the tests (not a test file itself: no test_ prefix match on .cpp).
#pragma once
#include <utility>
#include <vector>

#include "algorithms/learner.hpp"
#include "datasets/dataset.hpp"

namespace plab::test_util {

// The 1-d sequences of docs/bounds.md#fixtures: (x, y) pairs.
inline Dataset seq1d(const std::vector<std::pair<double, double>>& s) {
  Dataset d;
  for (const auto& [x, y] : s) d.push_dense(std::vector<double>{x}, y);
  d.dim = 1;
  return d;
}

// Feeds every example in order (t = 1..T) and returns the round records.
inline std::vector<RoundRecord> records(Learner& l, const Dataset& d) {
  std::vector<RoundRecord> out;
  out.reserve(d.size());
  for (std::size_t t = 0; t < d.size(); ++t) out.push_back(l.learn(d[t], static_cast<int64_t>(t + 1)));
  return out;
}

}  // namespace plab::test_util
