#include "experiments/schedule/cell_schedule.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <queue>
#include <sstream>
#include <stdexcept>

#include "core/format.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

double estimate_cost(const Cell& c, const Dataset& train) {
  const double n = static_cast<double>(train.size());
  const double rounds = c.limit ? std::min(n, static_cast<double>(c.limit)) : n;
  const double nnz = n > 0 ? static_cast<double>(train.idx.size()) / n : 0.0;
  if (c.algo == "perceptron") return rounds * std::max(nnz, 1.0);
  double support = rounds;
  if (c.options.contains("budget") && c.options["budget"].is_number())
    support = std::min(support, c.options["budget"].get<double>());
  return rounds * std::max(nnz, 1.0) * std::max(support, 1.0);
}

double lpt_makespan(std::vector<double> costs, std::size_t workers) {
  if (costs.empty() || workers == 0) return 0.0;
  std::sort(costs.begin(), costs.end(), std::greater<>());
  std::priority_queue<double, std::vector<double>, std::greater<>> load;
  for (std::size_t i = 0; i < std::min(workers, costs.size()); ++i) load.push(0.0);
  for (const double c : costs) {
    const double least = load.top();
    load.pop();
    load.push(least + c);
  }
  double makespan = 0.0;
  for (; !load.empty(); load.pop()) makespan = std::max(makespan, load.top());
  return makespan;
}

namespace {
constexpr const char* kCellTimesHeader = "figure\tdataset\talgorithm\tpoint\tperm\tstage\tkey\tcell_seconds\tlearn_seconds\tcached";
// A whole field as an unsigned count, or false.
bool count_field(const std::string& f, std::size_t& out) {
  const auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  return !f.empty() && r.ec == std::errc() && r.ptr == f.data() + f.size();
}
}  // namespace

std::vector<CellTime> read_cell_times(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read (run plab reproduce first: it records every cell's time there)");
  const auto fail = [&](std::size_t ln, const std::string& what) {
    return std::runtime_error(path + ":" + std::to_string(ln) + ": " + what);
  };
  std::vector<CellTime> out;
  std::string line;
  if (!std::getline(in, line) || line != kCellTimesHeader)
    throw fail(1, std::string("not the header plab reproduce writes ('") + kCellTimesHeader + "')");
  for (std::size_t ln = 2; std::getline(in, line); ++ln) {
    std::vector<std::string> f;
    std::string field;
    std::istringstream ss(line);
    while (std::getline(ss, field, '\t')) f.push_back(field);
    if (f.size() < 8) throw fail(ln, "expected 8 tab-separated fields");
    std::size_t perm = 0, stage = 0;
    if (!count_field(f[4], perm) || perm > static_cast<std::size_t>(INT32_MAX) || !count_field(f[5], stage))
      throw fail(ln, "bad number in '" + line + "'");
    // cell_seconds: a time >= 0, or nan for a cell reused from a run that did not record it.
    double secs = 0.0;
    if (f[7] != "nan" && (detail::parse_number(f[7], secs) != detail::Number::ok || !std::isfinite(secs) || secs < 0.0))
      throw fail(ln, "cell_seconds " + detail::quote(f[7]) + " is not a time in seconds >= 0 (or nan)");
    if (f[7] == "nan") continue;
    out.push_back({f[0], f[1], f[2], f[3], static_cast<int>(perm), stage, secs});
  }
  return out;
}

std::string plan_report(const std::vector<CellTime>& cells, const std::vector<std::size_t>& workers) {
  std::map<std::size_t, std::vector<double>> by_stage;
  double total = 0.0;
  for (const auto& c : cells) {
    by_stage[c.stage].push_back(c.seconds);
    total += c.seconds;
  }
  std::vector<const CellTime*> largest;
  for (const auto& c : cells) largest.push_back(&c);
  std::sort(largest.begin(), largest.end(), [](auto* a, auto* b) { return a->seconds > b->seconds; });
  if (cells.empty() || !(total > 0.0)) return fmt::format("{} cells with a recorded time, none longer than 0 s: nothing to plan\n", cells.size());
  std::string r = fmt::format("{} cells with a recorded time, {} stage(s); total {:.1f} s of cell time\n", cells.size(),
                              by_stage.size(), total);
  r += "largest cells:\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(5, largest.size()); ++i) {
    const CellTime& c = *largest[i];
    r += fmt::format("  {:9.3f} s  {:4.1f}%  {} {} {} {} perm {} (stage {})\n", c.seconds, 100.0 * c.seconds / total,
                     c.figure, c.dataset, c.algorithm, c.point.empty() ? "{}" : c.point, c.perm, c.stage);
  }
  r += "predicted makespan (LPT per stage, stages in sequence; workers = ranks x --jobs):\n";
  double floor = 0.0;
  for (const auto& [s, v] : by_stage) floor += *std::max_element(v.begin(), v.end());
  for (const std::size_t p : workers) {
    double m = 0.0;
    for (const auto& [s, v] : by_stage) m += lpt_makespan(v, p);
    r += fmt::format("  {:4d} workers: {:9.1f} s  (floor: the largest cell of each stage, {:.1f} s; speed-up {:.1f})\n", p,
                     m, floor, total / m);
  }
  return r;
}

}  // namespace plab
