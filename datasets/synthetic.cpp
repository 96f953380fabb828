// Synthetic generators. The exact order of random draws is part of the contract (it is mirrored
// by tests/tools/synthetic_reference.py, which pins the first values independently).
#include "datasets/synthetic.hpp"
#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>

#include <charconv>
#include <cmath>
#include <new>
#include <set>
#include <stdexcept>

#include "core/random.hpp"
#include "datasets/text_parse.hpp"

namespace plab {

namespace {
double dotv(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

void check_flip(double flip) {
  if (!(flip >= 0.0 && flip <= 1.0)) throw std::invalid_argument("flip must be in [0, 1]");
}
void check_n(std::size_t n) {
  if (n == 0) throw std::invalid_argument("n must be >= 1");
}
}  // namespace

// Draws per point i (class c = +1 for the first ceil(n/2), else -1): x0 = c + sqrt(0.2) z,
// x1 = c + sqrt(2) z', then one uniform for the flip; finally a permutation sets the order.
// docs/conventions.md#synthetic (Dekel et al. 2007 via JMLR Sec. 7).
Dataset make_dekel(std::size_t n, double flip, uint64_t seed) {
  check_n(n);
  check_flip(flip);
  Rng rng(seed);
  const std::size_t npos = (n + 1) / 2;
  std::vector<double> x0(n), x1(n), y(n);
  const double s0 = std::sqrt(0.2), s1 = std::sqrt(2.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double c = i < npos ? 1.0 : -1.0;
    x0[i] = c + s0 * rng.normal();
    x1[i] = c + s1 * rng.normal();
    y[i] = rng.uniform() < flip ? -c : c;
  }
  const auto perm = rng.permutation(n);
  Dataset d;
  d.name = "synthetic:dekel";
  // Bayes-optimal direction for two Gaussians with shared covariance diag(0.2, 2):
  // Sigma^-1 (mu+ - mu-) = (2/0.2, 2/2) = (10, 1), normalised (no bias needed by symmetry).
  d.truth = {10.0 / std::sqrt(101.0), 1.0 / std::sqrt(101.0)};
  for (std::size_t t = 0; t < n; ++t) {
    const double x[2] = {x0[perm[t]], x1[perm[t]]};
    d.push_dense(x, y[perm[t]]);
  }
  return d;
}

// w = (z, z'), then per point x = (z, z'), y = +1 iff w.x > 0; then a permutation p and the
// labels of points p[0..n/10) are flipped. docs/conventions.md#synthetic (DOGMA demo).
Dataset make_dogma_demo(std::size_t n, uint64_t seed, std::vector<double>* w_out) {
  check_n(n);
  Rng rng(seed);
  const double w0 = rng.normal(), w1 = rng.normal();
  std::vector<double> x0(n), x1(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x0[i] = rng.normal();
    x1[i] = rng.normal();
    y[i] = w0 * x0[i] + w1 * x1[i] > 0.0 ? 1.0 : -1.0;
  }
  const auto perm = rng.permutation(n);
  for (std::size_t k = 0; k < n / 10; ++k) y[perm[k]] = -y[perm[k]];
  if (w_out) *w_out = {w0, w1};
  Dataset d;
  d.name = "synthetic:dogma";
  const double wn = std::hypot(w0, w1);
  d.truth = {w0 / wn, w1 / wn};  // the labelling direction (before the n/10 flips)
  for (std::size_t i = 0; i < n; ++i) {
    const double x[2] = {x0[i], x1[i]};
    d.push_dense(x, y[i]);
  }
  return d;
}

// u = random_unit_vector(d); j = below(n) is the point put exactly on the margin. Per point: sign from
// uniform() < 0.5, t = uniform(), margin m = rho + (r - rho) t (m = rho for j); for d >= 2 a
// normal g is made orthogonal to u and scaled to length sqrt(r^2 - m^2) * uniform(), so
// x = y m u + g has y<u,x> = m and ||x|| <= r (Novikoff setting, docs/bounds.md#novikoff).
Dataset make_separable(std::size_t n, std::size_t d, double rho, double r, uint64_t seed,
                       std::vector<double>* u_out) {
  check_n(n);
  if (d == 0) throw std::invalid_argument("d must be >= 1");
  if (!(r > 0.0) || !std::isfinite(r)) throw std::invalid_argument("r must be > 0");
  if (!(rho > 0.0 && rho <= r)) throw std::invalid_argument("rho must be in (0, r]");
  Rng rng(seed);
  const auto u = random_unit_vector(rng, d);
  const std::size_t j = rng.below(n);
  Dataset ds;
  ds.name = "synthetic:separable";
  std::vector<double> x(d), g(d);
  for (std::size_t i = 0; i < n; ++i) {
    const double y = rng.uniform() < 0.5 ? 1.0 : -1.0;
    const double t = rng.uniform();
    const double m = i == j ? rho : rho + (r - rho) * t;
    const double a = y * m;
    for (std::size_t k = 0; k < d; ++k) x[k] = a * u[k];
    if (d >= 2) {
      for (auto& v : g) v = rng.normal();
      const double c = dotv(g, u);
      for (std::size_t k = 0; k < d; ++k) g[k] -= c * u[k];
      const double gn = std::sqrt(dotv(g, g));
      const double s = std::sqrt(std::max(0.0, r * r - m * m)) * rng.uniform();
      const double b = s / gn;
      for (std::size_t k = 0; k < d; ++k) x[k] = a * u[k] + b * g[k];
    }
    ds.push_dense(x, y);
  }
  if (u_out) *u_out = u;
  ds.truth = u;  // the comparator "truth" of the bounds (Novikoff with the exact rho)
  return ds;
}

// Per point: x = (uniform, uniform) in [0,1)^2, cell (floor(cells x0), floor(cells x1)), y = +1
// on cells of even parity, then one uniform for the flip.
Dataset make_checkerboard(std::size_t n, int cells, double flip, uint64_t seed) {
  check_n(n);
  check_flip(flip);
  if (cells < 2) throw std::invalid_argument("cells must be >= 2");
  Rng rng(seed);
  Dataset d;
  d.name = cells == 2 ? "synthetic:xor" : "synthetic:checkerboard";
  for (std::size_t i = 0; i < n; ++i) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    const auto ci = static_cast<long>(std::floor(x[0] * cells)), cj = static_cast<long>(std::floor(x[1] * cells));
    double y = (ci + cj) % 2 == 0 ? 1.0 : -1.0;
    if (rng.uniform() < flip) y = -y;
    d.push_dense(x, y);
  }
  return d;
}

// u = random_unit_vector(d), redrawn before rounds K, 2K, ...; per round x = d normals,
// y = +1 iff u.x > 0, then one uniform for the flip.
Dataset make_drift(std::size_t n, std::size_t d, std::size_t K, double flip, uint64_t seed) {
  check_n(n);
  check_flip(flip);
  if (d == 0) throw std::invalid_argument("d must be >= 1");
  if (K == 0) throw std::invalid_argument("K must be >= 1");
  Rng rng(seed);
  auto u = random_unit_vector(rng, d);
  Dataset ds;
  ds.name = "synthetic:drift";
  std::vector<double> x(d);
  for (std::size_t t = 0; t < n; ++t) {
    if (t > 0 && t % K == 0) u = random_unit_vector(rng, d);
    for (auto& v : x) v = rng.normal();
    double y = dotv(u, x) > 0.0 ? 1.0 : -1.0;
    if (rng.uniform() < flip) y = -y;
    ds.push_dense(x, y);
  }
  return ds;
}

namespace {
// Values are parsed when read; errors name the key (make_synthetic adds "synthetic:GEN: ").
struct Params {
  std::string gen;
  std::map<std::string, std::string> kv;

  uint64_t u64(const std::string& key, uint64_t def) const {
    const auto it = kv.find(key);
    if (it == kv.end()) return def;
    uint64_t v = 0;
    const auto& s = it->second;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
      throw std::invalid_argument(key + " must be a non-negative integer, got '" + s + "'");
    return v;
  }
  double real(const std::string& key, double def) const {
    const auto it = kv.find(key);
    if (it == kv.end()) return def;
    double v;
    if (!detail::parse_double_token(it->second, v) || !std::isfinite(v))
      throw std::invalid_argument(key + " must be a finite number, got '" + it->second + "'");
    return v;
  }
};

// Re-throws a generator's invalid_argument with the generator's name in front.
template <class F>
Dataset named(const std::string& gen, F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("synthetic:" + gen + ": " + e.what());
  } catch (const std::bad_alloc&) {  // what the estimate let through (the memory others hold)
    throw std::invalid_argument("synthetic:" + gen + ": not enough memory for its rows (lower n or d)");
  } catch (const std::length_error&) {
    throw std::invalid_argument("synthetic:" + gen + ": not enough memory for its rows (lower n or d)");
  }
}


// The generators and the keys each accepts.
const std::map<std::string, std::set<std::string>>& generator_keys() {
  static const std::map<std::string, std::set<std::string>> allowed = {
      {"dekel", {"n", "seed", "flip"}},
      {"dogma", {"n", "seed"}},
      {"separable", {"n", "seed", "d", "rho", "r"}},
      {"xor", {"n", "seed", "flip"}},
      {"checkerboard", {"n", "seed", "flip", "cells"}},
      {"drift", {"n", "seed", "d", "K", "flip"}},
      {"margins", {"n", "seed", "d", "rho", "r", "small", "eps", "wrong", "depth"}},  // T3
      {"sparse", {"n", "seed", "d", "nnz", "flip"}},
  };
  return allowed;
}

// "GEN[:k=v,...]" -> generator name and its key=value items (unknown or repeated keys throw).
Params parse_params(const std::string& spec) {
  Params p;
  const std::size_t colon = spec.find(':');
  p.gen = spec.substr(0, colon);
  const auto gen_it = generator_keys().find(p.gen);
  if (gen_it == generator_keys().end())
    throw std::invalid_argument("synthetic: unknown generator '" + p.gen +
                                "' (known: dekel, dogma, separable, xor, checkerboard, drift, margins, sparse)");
  if (colon == std::string::npos) return p;
  const std::string rest = spec.substr(colon + 1);
  for (std::size_t pos = 0; pos <= rest.size();) {
    const std::size_t c = std::min(rest.find(',', pos), rest.size());
    const std::string item = rest.substr(pos, c - pos);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("synthetic:" + p.gen + ": bad item '" + item + "' (expected key=value)");
    const std::string key = item.substr(0, eq);
    if (!gen_it->second.count(key)) {
      std::string keys;
      for (const auto& k : gen_it->second) keys += (keys.empty() ? "" : ", ") + k;
      throw std::invalid_argument("synthetic:" + p.gen + ": unknown key '" + key + "' (allowed: " + keys + ")");
    }
    if (p.kv.count(key)) throw std::invalid_argument("synthetic:" + p.gen + ": key '" + key + "' given twice");
    p.kv[key] = item.substr(eq + 1);
    pos = c + 1;
  }
  return p;
}

// The rows a generator draws: n, with its default.
uint64_t rows(const Params& p) {
  const uint64_t def = p.gen == "dekel" || p.gen == "drift" ? 10000 : p.gen == "dogma" ? 20000 : p.gen == "margins" ? 2000 : 1000;
  return p.u64("n", def);
}

// The dimension d of a generator's rows, with its default (2 for the planar ones).
uint64_t dimension(const Params& p) {
  if (p.gen == "sparse") return p.u64("d", 100000);
  if (p.gen == "separable" || p.gen == "margins") return p.u64("d", 2);
  if (p.gen == "drift") return p.u64("d", 10);
  return 2;
}

// The generated rows' memory (a row stores d values, nnz of them for the sparse generator; a
// hyperplane of d doubles beside them), refused before any is drawn when it exceeds the machine's
// (docs/inputs.md#counts: an option that sizes memory is refused with its cost, never a
// std::bad_alloc or a growth without end).
void check_fits(const Params& p, uint64_t n) {
  const uint64_t d = dimension(p);
  const double values = static_cast<double>(p.gen == "sparse" ? std::min(p.u64("nnz", 100), d) : d);
  const double bytes = static_cast<double>(n) * (12.0 * values + 24.0) + 8.0 * static_cast<double>(d);
  const double memory = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE));
  if (memory > 0.0 && bytes > memory)
    throw std::invalid_argument(fmt::format("n = {} rows of {:g} values in dimension {} take {:.3g} GiB (12 bytes a value, "
                                            "24 a row, 8 a dimension), more than this machine's {:.1f} GiB of memory",
                                            n, values, d, bytes / 1073741824.0, memory / 1073741824.0));
}

Dataset generate(const Params& p) {
  const uint64_t seed = p.u64("seed", 1), n = rows(p);
  if (p.gen == "sparse") check_sparse(n, p.u64("d", 100000), p.u64("nnz", 100), p.real("flip", 0.0));
  check_fits(p, n);
  if (p.gen == "dekel") return make_dekel(n, p.real("flip", 0.1), seed);
  if (p.gen == "dogma") return make_dogma_demo(n, seed);
  if (p.gen == "separable") return make_separable(n, p.u64("d", 2), p.real("rho", 0.1), p.real("r", 1.0), seed);
  if (p.gen == "xor") return make_checkerboard(n, 2, p.real("flip", 0.0), seed);
  if (p.gen == "checkerboard") {
    const uint64_t cells = p.u64("cells", 4);
    if (cells > 1000000) throw std::invalid_argument("cells must be <= 1000000");
    return make_checkerboard(n, static_cast<int>(cells), p.real("flip", 0.0), seed);
  }
  if (p.gen == "margins")
    return make_margins(n, p.u64("d", 2), p.real("rho", 0.2), p.real("r", 1.0), p.u64("small", 0), p.real("eps", 0.05),
                        p.u64("wrong", 0), p.real("depth", 1.0), seed);
  if (p.gen == "sparse") return make_sparse(n, p.u64("d", 100000), p.u64("nnz", 100), p.real("flip", 0.0), seed);
  return make_drift(n, p.u64("d", 10), p.u64("K", 1000), p.real("flip", 0.0), seed);
}

}  // namespace

Dataset make_synthetic(const std::string& spec_in) {
  std::string spec = spec_in;
  if (spec.rfind("synthetic:", 0) == 0) spec = spec.substr(10);
  const Params p = parse_params(spec);
  Dataset d = named(p.gen, [&] { return generate(p); });
  d.name = "synthetic:" + spec;
  return d;
}

}  // namespace plab
