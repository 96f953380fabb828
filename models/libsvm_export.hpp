// LIBSVM export (docs/models.md#libsvm): a binary kernel learner's last hypothesis
// f(x) = sum_i alpha_i k(s_i, x) (+ b for NORMA with a bias) as a LIBSVM model file that LIBSVM's
// svm-predict reads: c_svc, labels "1 -1" (so decision value > 0 predicts +1, 0 or less -1),
// sv_coef = alpha, rho = -b, kernel linear / polynomial / rbf with the same gamma, coef0, degree
// (LIBSVM's parameterisation is the suite's, docs/conventions.md#kernels), features 1-based, every
// number with 17 significant digits.
#pragma once
#include <string>

#include "algorithms/learner.hpp"
#include "models/model_file.hpp"

namespace plab {

// The LIBSVM model text; ModelError naming the model when it is not a binary kernel learner.
std::string libsvm_model_text(const ModelFile& m, const Learner& learner);

}  // namespace plab
