// The published numbers of a spec beside ours, and the spec's claims checked on our numbers.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// Verdicts that mean "we have no number to judge" (exit code of plab reproduce).
inline constexpr const char* kNoResult = "no result";
inline constexpr const char* kNotEvaluated = "not evaluated (missing results)";

// One row per (published number, selected group): paper value, ours, deviation, verdict.
nlohmann::json published_rows(const Spec& s, const std::vector<Group>& groups);

// One claim: every check compares selections point by point (a selection of one group is
// broadcast); quantifier "all" needs every point to pass every check, "any" one point.
// {"claim", "source", "verdict", "points_passing"?, "numbers": the result in one line
// ("24/24 points; tightest: <comparison>", docs/report.md#claims), "points": one row per
// (point, check) with both sides, "passes" and the relative "margin"}.
nlohmann::json evaluate_claim(const ClaimSpec& c, const std::vector<Group>& groups);

// Published rows with verdict "no result" plus claims "not evaluated", as "<what>" lines.
std::vector<std::string> unevaluated(const nlohmann::json& published, const nlohmann::json& claims);

}  // namespace plab
