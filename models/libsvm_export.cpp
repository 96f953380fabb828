#include "models/libsvm_export.hpp"

#include <fmt/format.h>

#include "algorithms/norma.hpp"
#include "core/format.hpp"

namespace plab {

std::string libsvm_model_text(const ModelFile& m, const Learner& learner) {
  const KernelExpansion* f = learner.expansion();
  if (!f || !m.header.classes.empty() || m.header.labels == "regression")
    throw ModelError(m.path + ": " + m.header.algo + " is not a binary kernel learner (LIBSVM export takes those)");
  const Kernel& k = f->kernel;
  const auto* norma = dynamic_cast<const Norma*>(&learner);
  const double b = norma ? norma->bias() : 0.0;
  const std::size_t n = f->size();
  std::size_t positive = 0;
  for (double a : f->alpha) positive += a > 0.0;
  std::string s = "svm_type c_svc\n";
  s += "kernel_type " + std::string(k.type == Kernel::Type::poly ? "polynomial" : k.type_name()) + "\n";
  if (k.type == Kernel::Type::poly) s += fmt::format("degree {}\n", k.degree);
  if (k.type != Kernel::Type::linear) s += "gamma " + format_g(k.gamma, 17) + "\n";
  if (k.type == Kernel::Type::poly) s += "coef0 " + format_g(k.coef0, 17) + "\n";
  s += fmt::format("nr_class 2\ntotal_sv {}\nrho {}\nlabel 1 -1\nnr_sv {} {}\nSV\n", n, format_g(0.0 - b, 17), positive,
                   n - positive);
  for (bool pos : {true, false})  // LIBSVM lists the supports of label 1 first
    for (std::size_t i = 0; i < n; ++i) {
      if ((f->alpha[i] > 0.0) != pos) continue;
      const Example x = f->sv.row(i);
      s += format_g(f->alpha[i], 17);
      for (std::size_t q = 0; q < x.idx.size(); ++q) s += fmt::format(" {}:{}", x.idx[q] + 1, format_g(x.val[q], 17));
      s += "\n";
    }
  return s;
}

}  // namespace plab
