// Multiclass Projectron++ (Orabona, Keshet, Caputo, JMLR 10 (2009) Sec. 5; DOGMA
// k_projectron2_multi_train.m; docs/learners.md#multiclass-projectron++).
//
// Represents: the multiclass expansion of multiclass.hpp where class c's coefficients live on its own
// basis S_c (the supports that entered class c with a full step), with one Cholesky factor
// K_c = L_c L_c^T per class, grown by appends (GramCholesky and forward_panel of the binary
// Projectron, projectron.hpp). On a mistake or margin error the projections of k(x,.) onto span(S_y)
// and span(S_competitor) are z_c = L_c^{-1} k_c, with squared distances delta_c = max(k(x,x) - ||z_c||^2, 0)
// and projected coefficients d_c = L_c^{-T} z_c = K_c^{-1} k_c (JMLR Eqs. 7-8 per class).
//
// Conventions (docs/conventions.md#multiclass-projectron):
//   dogma (DOGMA's code): eta bounds each SQUARED distance separately. Mistake: class c is projected
//     when (delta_y <= eta and delta_comp <= eta) or delta_c < eps (2^-52, absolute; we also treat
//     delta_c <= 1e-12 k(x,x) as 0: see the rounding note in the docs), else it gets the
//     full step (+1 on y, -1 on the competitor) and x enters S_c; x joins the support set when either
//     delta exceeds eta. Margin error: loss l = 1 - f_y + f_comp, delta = delta_y + delta_comp; update
//     iff l - delta/(2 eta) > 0 with tau = min(l/(2k(x,x) - delta), 1, 2(l - delta/(2 eta))/(2k(x,x) - delta)).
//   paper (the binary Projectron++ of JMLR Fig. 5 on the Kesler construction, Sec. 5): the update
//     direction z = phi(x,y) - phi(x,comp) has projection error ||delta|| = sqrt(delta_y + delta_comp).
//     Mistake: project both classes iff ||delta|| <= eta and S is not empty, else full step on both,
//     except a class whose delta_c <= kGuard k(x,x) (the binary numerical guard) is projected.
//     Margin error: update iff l - ||delta||/eta > 0, tau = min(l/pk2, 2(l - ||delta||/eta)/pk2, 1)
//     with pk2 = ||P z||^2 = 2k(x,x) - delta_y - delta_comp.
// Record (Kesler quantities, docs/bounds.md#multiclass): pk2 = ||P z||^2; delta_norm = the norm of what
// the applied step misses of tau z (sqrt of the projected classes' deltas) on project and margin
// rounds, and sqrt(delta_y + delta_comp) on add rounds, as in the binary record; tau (1 on mistakes).
// A mistake where one class is projected and the other steps fully is recorded as `project`.
#pragma once
#include <array>
#include <cfloat>

#include "algorithms/multiclass.hpp"
#include "algorithms/projectron.hpp"

namespace plab {

class MulticlassProjectronPP final : public MulticlassLearner {
 public:
  // Its own options: the Projectron's eta and eta_convention, declared alike (projectron.hpp).
  struct Options : ProjectronOptions {
    static std::vector<OptionMember<Options>> rows() { return threshold_rows<Options>(false); }
  };
  MulticlassProjectronPP(const LearnerOptions& o, const Options& own)
      : MulticlassLearner(o), eta_(own.eta), dogma_(own.convention() == EtaConvention::dogma), chol_(m_), basis_(m_) {
    for (GramCholesky& L : chol_) L.keep_columns();  // one right-hand side a solve (forward)
  }
  // Its options from o.own (what make_learner hands it; absent ones at their defaults).
  explicit MulticlassProjectronPP(const LearnerOptions& o) : MulticlassProjectronPP(o, options_from<Options>(o.own)) {}
  // Squared distances delta_y, delta_competitor of the last mistake or margin error (tests).
  std::array<double, 2> last_deltas() const { return {proj_[0].delta, proj_[1].delta}; }
  const std::vector<std::size_t>& basis(std::size_t c) const { return basis_[c]; }
  // Per class c: its basis S_c (support slots) and its factor L_c as it grew (projectron.hpp).
  void save_state(StateWriter& w) const override {
    MulticlassLearner::save_state(w);
    for (std::size_t c = 0; c < m_; ++c) {
      w.put("basis." + std::to_string(c), std::vector<uint64_t>(basis_[c].begin(), basis_[c].end()));
      chol_[c].save(w, "L." + std::to_string(c));
    }
  }
  void load_state(const StateReader& r) override {
    MulticlassLearner::load_state(r);
    for (std::size_t c = 0; c < m_; ++c) {
      const auto b = r.get<uint64_t>("basis." + std::to_string(c));
      for (uint64_t s : b) require_state(s < sv_.size(), "basis." + std::to_string(c) + ": a slot past the supports");
      basis_[c].assign(b.begin(), b.end());
      chol_[c].load(r, "L." + std::to_string(c), b.size());
    }
  }

  // Binary Projectron's relative guard (paper convention) and DOGMA's absolute eps.
  static constexpr double kGuard = ProjectronBase::kGuard;
  static constexpr double kEps = DBL_EPSILON;
  static constexpr double kRounding = 1e-12;  // dogma: relative floor under which delta counts as 0

 protected:
  void round(const Example& x, int64_t t, const double* row, RoundRecord& r) override {
    if (!r.mistake && !r.margin_error) return;
    const std::size_t y = label(x), comp = static_cast<std::size_t>(r.competitor);
    project(0, y, row, r.kxx);
    project(1, comp, row, r.kxx);
    const double delta = proj_[0].delta + proj_[1].delta;
    r.pk2 = 2.0 * r.kxx - delta;
    if (r.mistake) mistake_step(x, t, r, delta);
    else margin_step(r, delta);
  }

 private:
  struct Projection {
    std::size_t cls = 0;
    std::vector<double> z, d;  // L_c^{-1} k_c and K_c^{-1} k_c (d formed by the first projected step)
    bool has_d = false;
    double delta = 0.0;        // squared distance of k(x,.) to span(S_c)
  };

  // Projection of k(x,.) onto span(S_c) into proj_[slot]: z and delta (d only when a step needs it).
  void project(int slot, std::size_t c, const double* row, double kxx) {
    Projection& p = proj_[slot];
    const std::vector<std::size_t>& S = basis_[c];
    p.cls = c;
    p.z.resize(S.size());
    for (std::size_t j = 0; j < S.size(); ++j) p.z[j] = row[S[j]];
    chol_[c].forward(p.z.data());
    p.delta = std::max(kxx - fixed_dot(p.z.data(), p.z.data(), S.size()), 0.0);
    p.has_d = false;
  }

  // coef(S_c, c) += a d_c: the projected step of one class.
  void projected_step(Projection& p, double a) {
    const std::vector<std::size_t>& S = basis_[p.cls];
    if (!p.has_d) {
      tmp_.assign(p.z.begin(), p.z.end());
      p.d.resize(S.size());
      chol_[p.cls].backward(tmp_.data(), p.d.data());
      p.has_d = true;
    }
    for (std::size_t j = 0; j < S.size(); ++j) coef_[S[j] * m_ + p.cls] += a * p.d[j];
  }

  void mistake_step(const Example& x, int64_t t, RoundRecord& r, double delta) {
    r.tau = 1.0;
    Projection &py = proj_[0], &pc = proj_[1];
    bool proj_y, proj_c;
    if (dogma_) {
      const bool small = py.delta <= eta_ && pc.delta <= eta_;
      // DOGMA's absolute eps, and a rounding floor: an exact 0 computed in double precision is
      // ~1e-15 k(x,x), above eps once k(x,x) > 1 (docs/conventions.md#multiclass-projectron).
      proj_y = small || py.delta < kEps || py.delta <= kRounding * r.kxx;
      proj_c = small || pc.delta < kEps || pc.delta <= kRounding * r.kxx;
    } else {
      const bool small = sv_.size() > 0 && std::sqrt(delta) <= eta_;
      proj_y = small || !(py.delta > kGuard * r.kxx);
      proj_c = small || !(pc.delta > kGuard * r.kxx);
    }
    const bool joins = dogma_ ? (py.delta > eta_ || pc.delta > eta_) : !(proj_y && proj_c);
    // ||f + step||^2 = ||f||^2 + 2 <f, step> + ||step||^2 with <f, step> = score (f_c in span(S_c))
    // and ||step||^2 = sum over the two classes of k(x,x) (full) or k(x,x) - delta_c (projected).
    norm2_ += 2.0 * r.score + (proj_y ? r.kxx - py.delta : r.kxx) + (proj_c ? r.kxx - pc.delta : r.kxx);
    if (proj_y) projected_step(py, 1.0);
    if (proj_c) projected_step(pc, -1.0);
    std::vector<double> v(m_, 0.0);
    for (const Projection* p : {&py, &pc}) {
      if (p == &py ? proj_y : proj_c) continue;
      v[p->cls] = p == &py ? 1.0 : -1.0;
      chol_[p->cls].append(p->z.data(), std::sqrt(p->delta));
      basis_[p->cls].push_back(sv_.size());  // the slot x takes below
    }
    if (joins) {
      sv_.add(x, t);
      coef_.insert(coef_.end(), v.begin(), v.end());
    }
    const double missed = (proj_y ? py.delta : 0.0) + (proj_c ? pc.delta : 0.0);
    r.update = proj_y || proj_c ? UpdateKind::project : UpdateKind::add;
    r.delta_norm = std::sqrt(r.update == UpdateKind::add ? delta : missed);
  }

  void margin_step(RoundRecord& r, double delta) {
    const double l = 1.0 - f_[label_of(r)] + f_[static_cast<std::size_t>(r.competitor)], pk2 = r.pk2;
    r.delta_norm = std::sqrt(delta);
    bool upd = false;
    double tau = 0.0;
    if (eta_ > 0.0 && pk2 > 0.0) {
      if (dogma_) {
        const double slack = l - delta / (2.0 * eta_);  // DOGMA: eta per projection, two projections
        upd = slack > 0.0;
        tau = std::min({l / pk2, 1.0, 2.0 * slack / pk2});
      } else {
        const double slack = l - r.delta_norm / eta_;  // JMLR Fig. 5 on the Kesler vector
        upd = slack > 0.0;
        tau = std::min({l / pk2, 2.0 * slack / pk2, 1.0});
      }
    }
    if (!upd) {
      r.tau = 0.0;
      r.update = UpdateKind::margin_skip;
      return;
    }
    projected_step(proj_[0], tau);
    projected_step(proj_[1], -tau);
    norm2_ += 2.0 * tau * r.score + tau * tau * pk2;  // ||f + tau P z||^2, <f, P z> = score
    r.tau = tau;
    r.update = UpdateKind::margin_project;
  }

  static std::size_t label_of(const RoundRecord& r) { return static_cast<std::size_t>(r.y); }

  double eta_;
  bool dogma_;
  std::vector<GramCholesky> chol_;
  std::vector<std::vector<std::size_t>> basis_;  // S_c as support slots, in the order they entered
  std::array<Projection, 2> proj_;
  std::vector<double> tmp_;  // backward's scratch
};

}  // namespace plab
