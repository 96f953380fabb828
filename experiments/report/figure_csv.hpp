// The CSV files of a figure directory and the deterministic per-group part of summary.json:
//   finals.csv     one row per (dataset, algorithm, grid point): mean and std over permutations
//   curves_<ds>.csv  mean/std online error and support size against the number of samples
//   published.csv  every published number of the spec, ours beside it, deviation, verdict
//   timings.csv    learning time per group (the only non-deterministic file), paper's times
//   claims.csv     every comparison of every claim, point by point (docs/report.md#claims)
//   paper_points.csv.gz  every point of the paper's digitized plots beside ours (docs/report.md#paper-curves)
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// A CSV field, quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);

// Writes <fdir>/finals.csv; returns the summary's "groups" array (bounds keyed by bound id,
// each with its display name).
nlohmann::json write_finals(const Spec& s, const std::vector<Group>& groups, const std::string& fdir);
void write_timings(const Spec& s, const std::vector<Group>& groups, const std::string& fdir);
void write_curves(const Spec& s, const std::vector<Group>& groups, const std::string& fdir);
void write_published_csv(const Spec& s, const nlohmann::json& rows, const std::string& fdir);
// paper_points.csv.gz: every published point of the paper's plots, ours beside it
// (experiments/report/paper_curves.hpp; not written when the figure has no paper data).
void write_paper_points_csv(const Spec& s, const nlohmann::json& points, const std::string& fdir);
// claims.csv from evaluate_claim rows (claim numbered from 1, as the report's anchors).
void write_claims_csv(const Spec& s, const nlohmann::json& claims, const std::string& fdir);

}  // namespace plab
