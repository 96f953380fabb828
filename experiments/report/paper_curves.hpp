// The paper's plotted data (digitized from the PDF into experiments/published/, see the README
// there) beside ours: drawn into the same plot and judged point by point.
//
// A panel file holds one row per plotted point: figure,panel,series,element,curve,x,y,
// y_err_low,y_err_high,text (element: line | marker | errorbar | refline | annotation). The
// verdict rule is docs/report.md#paper-curves (experiments/report/point_judge.hpp): each point is
// compared through the spread of what the paper drew (one run, or a mean of n), and a series
// differs when the root mean square of its points' z exceeds kSeriesRmsZ (2.1).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/report/aggregate.hpp"
#include "experiments/report/plot.hpp"
#include "experiments/report/point_judge.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

struct PaperPoint {
  std::string series, element, text;
  int curve = 0;
  double x = 0.0, y = 0.0, lo = 0.0, hi = 0.0;  // lo/hi: error-bar ends (NaN when none)
  std::size_t line = 0;                         // line in the panel file
};

struct PaperPanel {
  std::string path;
  std::vector<PaperPoint> points;
  double dx = 0.0, dy = 0.0;            // digitization precision in data units (the panel's manifest entry)
  std::map<std::string, Drawn> drawn;   // series -> what the paper drew (the manifest's "drawn")
};

// Reads a panel file, its precision and what each series is from manifest.json beside it. Throws
// std::invalid_argument naming the file and line on a malformed row, a missing manifest entry or
// a series without a "drawn" entry.
PaperPanel read_paper_panel(const std::string& path);

// The panel files of a spec's plots (plot id -> panel), read once per figure; a missing file
// leaves the plot out with its reason in `missing` (plot id -> reason).
struct PaperPanels {
  std::map<std::string, PaperPanel> panels;
  std::map<std::string, std::string> missing;
};
PaperPanels read_paper_panels(const Spec& s);

// `s` with every published number that names paper data (PublishedSpec::paper) given its value
// (and the annotation's ± as its std) from the panels; throws as paper_value.
Spec with_paper_values(Spec s, const PaperPanels& panels);

// The paper's series of one plot as plot series (dashed, muted, "paper: <series>" in the key), in
// the plot's units (x_scale, y_scale), coloured as the learner each is judged against.
std::vector<PlotSeries> paper_series(const Spec& s, const FigurePlot& p, const PaperPanel& panel);

// Judges every published point of a plot against our groups: one row per paper series
// ({"plot","series","algorithm","drawn","points","judged","within","outside","duplicates",
// "rms_z","max_z","at_x","direction","not_judged","verdict"}); with `points` non-null, appends
// one row per point (the per-point CSV).
nlohmann::json judge_paper_plot(const Spec& s, const FigurePlot& p, const PaperPanel& panel,
                                const std::vector<Group>& groups, nlohmann::json* points);

// The value a published number takes from a panel (PublishedSpec::paper): the annotation's
// value and its ±, a reference line's y or right end, or the last vertex of a line (largest x). Throws
// std::invalid_argument naming the spec and what is missing.
struct PaperValue {
  double value = 0.0;
  std::optional<double> std;
};
PaperValue paper_value(const Spec& s, const PaperRef& ref, const PaperPanels& panels);

}  // namespace plab
