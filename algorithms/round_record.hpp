// The one round-record schema every learner returns (docs/bounds.md#round-log).
// Fields that do not apply to an algorithm stay NaN (reals) or -1 (indices) and are written as
// empty CSV cells. The comparator score g(x_t) is filled by the run driver, never by learners.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <string_view>

namespace plab {

inline constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

enum class UpdateKind : uint8_t {
  none,            // hypothesis unchanged
  add,             // new support added (Perceptron-type step, PA, NORMA)
  project,         // Projectron: mistake, projected update, S unchanged
  margin_project,  // Projectron++: margin error, projected update
  margin_skip,     // Projectron++: margin error, no update
  evict,           // added and evicted another support (RBP, CKS)
  shrink,          // Forgetron: added, shrank all weights, removed the oldest
  update,          // coefficients changed without a new support (primal Perceptron, averaged)
};

inline std::string_view to_string(UpdateKind k) {
  switch (k) {
    case UpdateKind::none: return "none";
    case UpdateKind::add: return "add";
    case UpdateKind::project: return "project";
    case UpdateKind::margin_project: return "margin_project";
    case UpdateKind::margin_skip: return "margin_skip";
    case UpdateKind::evict: return "evict";
    case UpdateKind::shrink: return "shrink";
    case UpdateKind::update: return "update";
  }
  return "?";
}

// True when the hypothesis changed on this round (what the `updates` count and I contain).
inline bool changed(UpdateKind k) { return k != UpdateKind::none && k != UpdateKind::margin_skip; }

struct RoundRecord {
  int64_t t = 0;               // round, 1-based
  int64_t index = -1;          // row of the example in its data set (after shuffling)
  double y = 0.0;              // label / target
  double score = 0.0;          // s_t = f_{t-1}(x_t)
  double kxx = kNone;          // k(x_t, x_t)
  bool mistake = false;        // y s <= 0 (ties count)
  bool margin_error = false;   // 0 < y s < margin (1 for Projectron++/PA, rho for NORMA)
  UpdateKind update = UpdateKind::none;
  int64_t support_size = 0;    // |S_t| after the round
  double f_norm2 = kNone;      // ||f_t||^2 after the round (running update)
  // Projectron / Projectron++ (docs/learners.md#projectron, docs/learners.md#projectron++)
  double delta_norm = kNone;   // ||delta_t||
  double pk2 = kNone;          // ||P_{t-1} k(x_t,.)||^2
  double tau = kNone;          // step tau_t (1 on mistakes)
  double eta_t = kNone;        // per-round eta (ICML Eq. 13)
  // Forgetron (docs/learners.md#forgetron, docs/learners.md#forgetron-basic)
  double phi = kNone, psi = kNone, Q = kNone, sigma_r = kNone, f_r = kNone;
  int64_t removed = -1;        // id (round) of the removed / evicted support
  // NORMA (docs/learners.md#norma)
  double rho = kNone;          // margin / eps threshold used on this round
  double coef = kNone;         // coefficient given to x_t (0 when none)
  double trunc_norm = kNone;   // exact RKHS norm of what truncation dropped this round
  double trunc_bound = kNone;  // bound on that norm (docs/bounds.md#norma-truncation)
  // Multiclass learners (docs/learners.md#multiclass): y is the class index, score = f_y - f_competitor.
  int64_t pred = -1;           // predicted class: the first arg max of f_c(x_t) over all classes
  int64_t competitor = -1;     // the first arg max over the classes other than y
  // Filled by the driver: comparator score g(x_t) on every round; for multiclass learners the
  // comparator's multiclass margin u_y(x_t) - max_{r != y} u_r(x_t) (docs/bounds.md#multiclass).
  double g = kNone;
};

// Builds a round's record in its slot: `make()`'s result is constructed there (guaranteed copy
// elision), not copied. A copy of a record just written reads it back in 16-byte pieces that
// span the 8-byte and 1-byte stores that wrote it, which store forwarding cannot serve: a stall
// of a fraction of a fast learner's round. RoundRecord is trivially destructible.
template <class Make>
inline void emplace_record(RoundRecord* slot, Make&& make) {
  ::new (static_cast<void*>(slot)) RoundRecord(make());
}

}  // namespace plab
