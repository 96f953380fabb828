#include "bounds/prefix_bounds.hpp"

#include <cmath>
#include <stdexcept>

namespace plab {

std::vector<std::size_t> log_spaced_rounds(std::size_t T) {
  std::vector<std::size_t> ts;
  for (std::size_t t = 1; t < T; t *= 2) ts.push_back(t);
  if (T > 0) ts.push_back(T);
  return ts;
}

RunFacts prefix_facts(const RunFacts& facts, std::size_t t, std::size_t T) {
  RunFacts f = facts;
  if (t < T) f.f_norm2_exact = kNone;
  return f;
}

std::vector<BoundResult> evaluate_bounds_prefix(const std::vector<RoundRecord>& rounds, const RunFacts& facts,
                                                std::size_t t) {
  if (t < 1 || t > rounds.size())
    throw std::out_of_range("bounds on rounds 1.." + std::to_string(t) + ": the run has " +
                            std::to_string(rounds.size()) + " rounds");
  if (t == rounds.size()) return evaluate_bounds(rounds, facts);
  const std::vector<RoundRecord> prefix(rounds.begin(), rounds.begin() + static_cast<std::ptrdiff_t>(t));
  return evaluate_bounds(prefix, prefix_facts(facts, t, rounds.size()));
}

bool drawn_bound(const BoundResult& b) {
  return b.applicable && b.hard && std::isfinite(b.value) && b.kind != "reference" && b.kind != "expectation";
}

std::vector<BoundPoint> prefix_bound_points(const std::vector<RoundRecord>& rounds, const RunFacts& facts) {
  std::vector<std::vector<BoundPoint>> by_row;  // the rows keep evaluate_bounds' order
  std::vector<std::string> ids;
  for (const std::size_t t : log_spaced_rounds(rounds.size())) {
    for (const BoundResult& b : evaluate_bounds_prefix(rounds, facts, t)) {
      if (!drawn_bound(b)) continue;
      std::size_t row = 0;
      while (row < ids.size() && ids[row] != b.id) ++row;
      if (row == ids.size()) { ids.push_back(b.id); by_row.emplace_back(); }
      auto& pts = by_row[row];
      if (!pts.empty() && pts.back().rounds == b.rounds) continue;  // the prefix it covers has ended
      pts.push_back({b.id, b.name, t, b.rounds, b.value, b.empirical, b.vacuous, b.holds});
    }
  }
  std::vector<BoundPoint> out;
  for (auto& pts : by_row) out.insert(out.end(), pts.begin(), pts.end());
  return out;
}

nlohmann::json to_json(const BoundPoint& p) {
  return {{"id", p.id}, {"name", p.name}, {"t", p.t}, {"rounds", p.rounds}, {"value", p.value},
          {"mistakes", p.mistakes}, {"vacuous", p.vacuous}, {"holds", p.holds}};
}

std::string no_drawn_bound_reason(const std::vector<BoundResult>& full_run) {
  for (const BoundResult& b : full_run)
    if (drawn_bound(b)) return "";
  for (const BoundResult& b : full_run)
    if (!b.applicable && !b.why_not.empty()) return b.why_not;
  return full_run.empty() ? "the learner has no proven mistake bound (docs/bounds.md)"
                          : "no applicable hard bound (report-only, reference or in-expectation rows only)";
}

}  // namespace plab
