#include "bounds/bound_ids.hpp"

namespace plab {

const std::vector<BoundId>& bound_ids() {
  static const std::vector<BoundId> table = {
      {"novikoff", "Novikoff (r/rho)^2", "R", "a_priori"},
      {"novikoff_n2", "Novikoff N2 (r_I/rho_I)^2", "R", "check"},
      {"novikoff_n1", "Novikoff N1 S_I/rho_I", "R", "check"},
      {"fs_thm2_all_t", "Freund-Schapire Thm 2 (all T)", "R", "a_priori"},
      {"mr4_all_t", "MR (4) all-T", "R", "a_priori"},
      {"mr6_all_t", "MR (6) all-T", "R", "a_priori"},
      {"blum_exact", "Blum exact (all T)", "D", "a_priori"},
      {"blum_simplified", "Blum simplified (all T)", "V", "a_priori"},
      {"mr3_i", "MR (3) [Thm 2, hinge, S_I]", "R", "check"},
      {"mr4_i", "MR (4) [Thm 2, hinge, r_I]", "R", "check"},
      {"mr5_i", "MR (5) [Thm 2, sq. hinge, S_I]", "R", "check"},
      {"mr6_i", "MR (6) [Thm 2, sq. hinge, r_I]", "R", "check"},
      {"mr7_i", "MR (7) [Thm 3, L2, S_I]", "R", "check"},
      {"mr8_i", "MR (8) [Thm 3, L2, r_I]", "R", "check"},
      {"cs_certificate", "Cauchy-Schwarz certificate D^M + ||g|| ||f_T||", "D", "check"},
      {"projectron_icml_thm2", "Projectron ICML Thm 2", "R", "a_priori"},
      {"projectron_icml_cor1", "Projectron ICML Cor 1 (2||g||^2 + 4 D_1)", "R", "a_priori"},
      {"projectron_jmlr_thm3", "Projectron JMLR Thm 3", "V", "a_priori"},
      {"projectron_tight", "Projectron P-tight", "D", "a_priori"},
      {"projectron_icml_thm3_recon", "Projectron ICML Thm 3 (reconstructed, radius R)", "R", "a_priori"},
      {"projectron_certificate", "Projectron certificate 3.5", "D", "check"},
      {"projectronpp_jmlr_thm4", "Projectron++ JMLR Thm 4", "V", "a_priori"},
      {"projectronpp_thm4_implicit", "Projectron++ Thm 4 implicit (exact root)", "D", "a_priori"},
      {"projectronpp_certificate", "Projectron++ certificate 4.3", "D", "check"},
      {"forgetron", "Forgetron 2||g||^2 + 4 sum l* (||g|| <= U(B))", "M", "a_priori"},
      {"norma_ogd", "NORMA online-gradient bound", "D", "a_priori"},
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

}  // namespace plab
