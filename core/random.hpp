// Platform-independent randomness: std::mt19937_64 is specified bit-exactly by the standard, but
// std::*_distribution are not, so every transform below is our own and identical everywhere.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace plab {

class Rng {
 public:
  explicit Rng(uint64_t seed) : eng_(seed) {}
  uint64_t bits() { return eng_(); }
  // Uniform in [0,1) with 53 random bits.
  double uniform() { return static_cast<double>(eng_() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n) by rejection (no modulo bias).
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do { r = eng_(); } while (r >= limit);
    return r % n;
  }
  // Standard normal by the Box–Muller transform (both values used).
  double normal() {
    if (have_spare_) { have_spare_ = false; return spare_; }
    double u1;
    do { u1 = uniform(); } while (u1 <= 0.0);
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1)), th = 2.0 * M_PI * u2;
    spare_ = r * std::sin(th);
    have_spare_ = true;
    return r * std::cos(th);
  }
  // The whole state (the engine's words as its standard text form writes them, then the spare
  // normal): set_state(state()) continues the same stream. A state that does not parse is a
  // std::invalid_argument.
  std::vector<uint64_t> state() const {
    std::stringstream s;
    s << eng_;
    std::vector<uint64_t> v;
    for (uint64_t w; s >> w;) v.push_back(w);
    v.push_back(have_spare_);
    v.push_back(std::bit_cast<uint64_t>(spare_));
    return v;
  }
  void set_state(const std::vector<uint64_t>& v) {
    // The engine's n = 312 words, and libstdc++'s position in them (<= n) as a 313th.
    const std::size_t n = std::mt19937_64::state_size, words = v.size() - 2;
    if (v.size() < 2 || words < n || words > n + 1 || (words == n + 1 && v[n] > n))
      throw std::invalid_argument("rng: not an engine state");
    // All words zero: the engine's recurrence stays at zero, every draw is 0 (no seeding gives it).
    bool zero = true;
    for (std::size_t i = 0; i < n; ++i) zero = zero && v[i] == 0;
    if (zero) throw std::invalid_argument("rng: the engine state is all zero (no seed gives it; every draw would be 0)");
    std::stringstream s;
    for (std::size_t i = 0; i + 2 < v.size(); ++i) s << v[i] << ' ';
    std::mt19937_64 e;
    if (!(s >> e)) throw std::invalid_argument("rng: the engine state does not parse");
    if (std::stringstream t; (t << e, t.str()) != s.str().substr(0, s.str().size() - 1))
      throw std::invalid_argument("rng: the engine state is not canonical");
    eng_ = e;
    have_spare_ = v[v.size() - 2] != 0;
    spare_ = std::bit_cast<double>(v.back());
  }
  // Fisher–Yates permutation of 0..n-1.
  std::vector<std::size_t> permutation(std::size_t n) {
    std::vector<std::size_t> p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = i;
    for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[below(i)]);
    return p;
  }

 private:
  std::mt19937_64 eng_;
  bool have_spare_ = false;
  double spare_ = 0.0;
};

// Derives an independent child seed from a parent seed and a label (splitmix64 mixing), so
// every cell / permutation / learner gets its own stream from one printed seed.
inline uint64_t derive_seed(uint64_t parent, uint64_t salt) {
  uint64_t z = parent + 0x9E3779B97F4A7C15ull * (salt + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// d standard normals normalised to unit length (squares summed in index order): a direction
// drawn uniformly from the sphere, as the synthetic generators take it.
inline std::vector<double> random_unit_vector(Rng& rng, std::size_t d) {
  std::vector<double> u(d);
  double s = 0.0;
  for (auto& v : u) v = rng.normal();
  for (double v : u) s += v * v;
  const double nrm = std::sqrt(s);
  for (auto& v : u) v /= nrm;
  return u;
}

}  // namespace plab
