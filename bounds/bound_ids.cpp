#include "bounds/bound_ids.hpp"

#include <stdexcept>

#include "bounds/families.hpp"

namespace plab {

using BF = BoundFamily;

const std::vector<BoundId>& bound_ids() {
  // Fields: id, display name, tag, default kind, family, and on the Kesler construction the tag
  // (CS03 recalled Novikoff's; every other R or V row is derived there) and display name.
  static const std::vector<BoundId> table = {
      {"novikoff", "Novikoff (r/rho)^2", "R", "a_priori", BF::perceptron},
      {"novikoff_n2", "Novikoff N2 (r_I/rho_I)^2", "R", "check", BF::perceptron, "D"},
      {"novikoff_n1", "Novikoff N1 S_I/rho_I", "R", "check", BF::perceptron, "D"},
      {"fs_thm2_all_t", "Freund-Schapire Thm 2 (all T)", "R", "a_priori", BF::perceptron, "D"},
      {"mr4_all_t", "MR (4) all-T", "R", "a_priori", BF::perceptron, "D"},
      {"mr6_all_t", "MR (6) all-T", "R", "a_priori", BF::perceptron, "D"},
      {"blum_exact", "Blum exact (all T)", "D", "a_priori", BF::perceptron},
      {"blum_simplified", "Blum simplified (all T)", "V", "a_priori", BF::perceptron, "D"},
      {"mr3_i", "MR (3) [Thm 2, hinge, S_I]", "R", "check", BF::perceptron, "D"},
      {"mr4_i", "MR (4) [Thm 2, hinge, r_I]", "R", "check", BF::perceptron, "D"},
      {"mr5_i", "MR (5) [Thm 2, sq. hinge, S_I]", "R", "check", BF::perceptron, "D"},
      {"mr6_i", "MR (6) [Thm 2, sq. hinge, r_I]", "R", "check", BF::perceptron, "D"},
      {"mr7_i", "MR (7) [Thm 3, L2, S_I]", "R", "check", BF::perceptron, "D"},
      {"mr8_i", "MR (8) [Thm 3, L2, r_I]", "R", "check", BF::perceptron, "D"},
      {"cs_certificate", "Cauchy-Schwarz certificate D^M + ||g|| ||f_T||", "D", "check", BF::perceptron},
      {"projectron_icml_thm2", "Projectron ICML Thm 2", "R", "a_priori", BF::projectron, "D"},
      {"projectron_icml_cor1", "Projectron ICML Cor 1 (2||g||^2 + 4 D_1)", "R", "a_priori", BF::projectron, "D"},
      {"projectron_jmlr_thm3", "Projectron JMLR Thm 3", "V", "a_priori", BF::projectron, "D"},
      {"projectron_tight", "Projectron P-tight", "D", "a_priori", BF::projectron},
      {"projectron_icml_thm3_recon", "Projectron ICML Thm 3 (reconstructed, radius R)", "R", "a_priori",
       BF::projectron, "D"},
      {"projectron_certificate", "Projectron certificate 3.5", "D", "check", BF::projectron},
      {"projectronpp_jmlr_thm4", "Projectron++ JMLR Thm 4", "V", "a_posteriori", BF::projectron_pp, "D",
       "Projectron++ JMLR Thm 6 (multiclass)"},
      {"projectronpp_thm4_implicit", "Projectron++ Thm 4 implicit (exact root)", "D", "a_posteriori",
       BF::projectron_pp, "", "Projectron++ Thm 6 implicit (exact root)"},
      {"projectronpp_certificate", "Projectron++ certificate 4.3", "D", "check", BF::projectron_pp},
      {"forgetron", "Forgetron 2||g||^2 + 4 sum l* (||g|| <= U(B))", "M", "a_priori", BF::forgetron},
      {"norma_ogd", "NORMA online-gradient bound", "D", "a_priori", BF::norma},
      {"budget_ogd_all_t", "Budget step (a_max D_1 + ||g|| A)/a_min", "D", "a_posteriori", BF::budget_gradient},
      {"budget_ogd_certificate", "Budget step certificate", "D", "check", BF::budget_gradient},
      {"bogd_expectation", "BOGD unbiased removal, in expectation", "D", "expectation", BF::unbiased_removal},
  };
  return table;
}

const std::vector<BoundFamilyInfo>& bound_families() {
  // Fields: family, name, the family whose rows it evaluates, evaluator, trace columns read,
  // columns filled on every mistake, update kinds on a mistake / on a correct round (0: any),
  // support_size counts the add/update rounds, reads the score f(x_t).
  using K = UpdateKind;
  constexpr unsigned perceptron_mistake = kinds_mask({K::add, K::update});  // Novikoff: f += y_t k(x_t,.)
  constexpr unsigned projectron_mistake = kinds_mask({K::add, K::project});  // OKC09 Fig. 1
  constexpr unsigned none = kinds_mask({K::none});
  constexpr unsigned budget_mistake = kinds_mask({K::add, K::evict, K::update});
  static const std::vector<BoundFamilyInfo> table = {
      {BF::perceptron, "perceptron", BF::perceptron, bounds::perceptron_rows, {"kxx", "g", "f_norm2"}, {},
       perceptron_mistake, none, true},
      {BF::perceptron_prefix, "perceptron_prefix", BF::perceptron, bounds::perceptron_prefix_rows,
       {"kxx", "g", "f_norm2"}, {}},
      {BF::perceptron_reference, "perceptron_reference", BF::perceptron, bounds::perceptron_reference_rows,
       {"kxx", "g"}, {}, 0, 0, false, false},
      {BF::projectron, "projectron", BF::projectron, bounds::projectron_rows,
       {"kxx", "g", "delta_norm", "pk2", "tau", "eta_t"}, {"delta_norm", "tau"}, projectron_mistake, none, true},
      // OKC09 Fig. 5: a correct round with a margin error projects or skips.
      {BF::projectron_pp, "projectron_pp", BF::projectron_pp, bounds::projectron_pp_rows,
       {"kxx", "g", "margin_error", "delta_norm", "pk2", "tau", "eta_t"}, {"delta_norm", "tau"}, projectron_mistake,
       kinds_mask({K::none, K::margin_project, K::margin_skip}), true},
      {BF::forgetron, "forgetron", BF::forgetron, bounds::forgetron_rows,
       {"kxx", "g", "phi", "psi", "Q", "sigma_r", "f_r", "removed"}, {}},
      {BF::norma, "norma", BF::norma, bounds::norma_rows,
       {"kxx", "g", "margin_error", "f_norm2", "rho", "coef", "trunc_norm", "trunc_bound"}, {}},
      // Hinge-loss steps (BPA-S, BOGD, BOGD++, NOGD): a mistake has loss >= 1, so f always changes;
      // a correct round may change it too (margin below 1, BOGD's shrink).
      {BF::budget_gradient, "budget_gradient", BF::budget_gradient, bounds::budget_gradient_rows,
       {"kxx", "g", "f_norm2", "tau", "delta_norm"}, {"tau", "delta_norm"}, budget_mistake, 0, false},
      {BF::unbiased_removal, "unbiased_removal", BF::unbiased_removal, bounds::unbiased_removal_rows,
       {"kxx", "g", "f_norm2", "tau", "delta_norm"}, {"tau", "delta_norm"}, budget_mistake, 0, false},
  };
  return table;
}

const BoundId* find_bound(const std::string& id) {
  for (const auto& b : bound_ids())
    if (b.id == id) return &b;
  return nullptr;
}

std::vector<std::string> bound_id_names() {
  std::vector<std::string> v;
  for (const auto& b : bound_ids()) v.push_back(b.id);
  return v;
}

const BoundFamilyInfo& bound_family(BoundFamily family) {
  for (const auto& f : bound_families())
    if (f.family == family) return f;
  throw std::logic_error("bound family " + std::to_string(static_cast<int>(family)) +
                         " has no entry in bounds/bound_ids.cpp");
}

std::vector<const BoundId*> family_rows(BoundFamily family) {
  const BoundFamily rows = bound_family(family).rows;
  std::vector<const BoundId*> v;
  for (const auto& b : bound_ids())
    if (b.family == rows) v.push_back(&b);
  return v;
}

}  // namespace plab
