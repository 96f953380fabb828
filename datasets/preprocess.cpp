// Input preprocessing (docs/conventions.md#preprocess): the exact arithmetic of each step.
#include "datasets/preprocess.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <stdexcept>

#include "core/format.hpp"

namespace plab {
namespace {

const char* kAccepted = "none | pm1-to-01 | unit-norm, or a comma-separated list of the last two";

std::string prefix(const std::string& option) { return option.empty() ? "" : option + ": "; }

PreprocessStep parse_step(const std::string& s, const std::string& option) {
  if (s == "pm1-to-01") return PreprocessStep::pm1_to_01;
  if (s == "unit-norm") return PreprocessStep::unit_norm;
  throw std::invalid_argument(prefix(option) + "unknown preprocessing '" + s + "' (accepted: " + kAccepted + ")");
}

const char* step_name(PreprocessStep s) { return s == PreprocessStep::pm1_to_01 ? "pm1-to-01" : "unit-norm"; }

// Row t of d as a dense vector of d.dim values (absent features are 0).
std::vector<double> dense_row(const Dataset& d, std::size_t t, std::size_t width) {
  std::vector<double> x(width, 0.0);
  const Example e = d[t];
  for (std::size_t k = 0; k < e.idx.size(); ++k) x[e.idx[k]] = e.val[k];
  return x;
}

// Row t of d after pm1-to-01 over the feature space of dimension `space` (sparse: the exact zeros,
// from -1, are not stored). A feature beyond it, present in this row only, maps as present ones do;
// absent there, it stays absent: a row's image never depends on the other rows.
void push_pm1_to_01(const Dataset& d, std::size_t t, std::size_t space, Dataset& out) {
  const std::vector<double> x = dense_row(d, t, std::max(space, d.dim));
  std::vector<uint32_t> ix;
  std::vector<double> vx;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (j >= space && x[j] == 0.0) continue;
    if (!(x[j] >= -1.0 && x[j] <= 1.0))
      throw DataError(d.name + ": row " + std::to_string(t + 1) + ": feature " + std::to_string(j + 1) + " = " +
                      format_g(x[j], 17) + " is outside [-1, 1]; --preprocess pm1-to-01 needs data in [-1, 1]");
    const double v = pm1_to_01(x[j]);
    if (v != 0.0) { ix.push_back(static_cast<uint32_t>(j)); vx.push_back(v); }
  }
  out.push_back(ix, vx, d.y[t]);
}

// Row t of d divided by its Euclidean norm (a zero row is kept as it is).
void push_unit_norm(const Dataset& d, std::size_t t, Dataset& out) {
  const Example e = d[t];
  const std::vector<double> v(e.val.begin(), e.val.end());
  const double r = unit_norm_divisor(v);
  std::vector<double> vx(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) vx[k] = r > 0.0 ? v[k] / r : v[k];
  out.push_back(e.idx, vx, d.y[t]);
}

// pm1-to-01 makes every row dense (an absent feature, 0, becomes 0.5): refused before allocating
// when its rows (12 bytes a value) and one dense row cannot fit in the machine's memory.
void check_dense_fits(const Dataset& d, std::size_t dim) {
  const double bytes = 12.0 * static_cast<double>(d.size()) * static_cast<double>(dim) + 8.0 * static_cast<double>(dim);
  const double memory = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE));
  if (memory > 0.0 && bytes > memory)
    throw DataError(fmt::format("{}: --preprocess pm1-to-01 makes every row dense (an absent feature, 0, becomes 0.5): "
                                "{} rows x dimension {} take {:.1f} GiB, more than this machine's {:.1f} GiB of memory",
                                d.name, d.size(), dim, bytes / 1073741824.0, memory / 1073741824.0));
}

Dataset apply_step(const Dataset& d, PreprocessStep s, std::size_t space) {
  if (s == PreprocessStep::pm1_to_01) check_dense_fits(d, std::max(space, d.dim));
  Dataset out;
  out.name = d.name; out.path = d.path; out.sha256 = d.sha256; out.header = d.header;
  out.truth = d.truth; out.classes = d.classes;
  for (std::size_t t = 0; t < d.size(); ++t)
    s == PreprocessStep::pm1_to_01 ? push_pm1_to_01(d, t, space, out) : push_unit_norm(d, t, out);
  out.dim = std::max(space, d.dim);  // the feature space (a trailing feature may now be absent)
  return out;
}

}  // namespace

Preprocess Preprocess::parse(const std::string& text, const std::string& option) {
  Preprocess p;
  if (text == "none") return p;
  std::size_t b = 0;
  while (true) {
    const std::size_t e = text.find(',', b);
    const std::string s = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (s == "none") throw std::invalid_argument(prefix(option) + "'none' cannot be combined with other steps");
    p.steps.push_back(parse_step(s, option));
    if (e == std::string::npos) return p;
    b = e + 1;
  }
}

std::string Preprocess::name() const {
  if (steps.empty()) return "none";
  std::string s;
  for (const auto st : steps) s += (s.empty() ? "" : ",") + std::string(step_name(st));
  return s;
}

// One rounding (of v + 1); the halving is exact (no result in [-1, 1] + 1 is subnormal).
double pm1_to_01(double v) { return (v + 1.0) / 2.0; }

double unit_norm_divisor(const std::vector<double>& vals) {
  double s = 0.0;
  for (const double v : vals) s = std::fma(v, v, s);  // explicit fma: the same bits under any -ffp-contract
  return std::sqrt(s);
}

void apply_preprocess(Dataset& d, const Preprocess& p, std::size_t space) {
  if (space == 0) space = d.dim;
  for (const auto s : p.steps) d = apply_step(d, s, space);
}

}  // namespace plab
