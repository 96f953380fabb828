// Input preprocessing of a loaded data set: a named, exact transformation of every row, applied
// before any learner sees the data (docs/conventions.md#preprocess).
// A preprocessing is a comma-separated list of steps applied left to right:
//   none       nothing (the default; alone only)
//   pm1-to-01  x_j -> (x_j + 1) / 2 on every feature j < dim (absent features are 0 -> 1/2); data
//              in [-1, 1] become [0, 1] (USPS as distributed -> background 0, ink 1)
//   unit-norm  x -> x / ||x||_2 (zero rows stay zero)
// Invalid text throws std::invalid_argument naming the option and the accepted values.
#pragma once
#include <string>
#include <vector>

#include "datasets/dataset.hpp"

namespace plab {

enum class PreprocessStep { pm1_to_01, unit_norm };

struct Preprocess {
  std::vector<PreprocessStep> steps;  // empty = none
  // Parses "none" or "step[,step...]"; `option` (if not empty) starts the error message.
  static Preprocess parse(const std::string& text, const std::string& option = "--preprocess");
  std::string name() const;  // canonical text ("none" when empty)
  bool none() const { return steps.empty(); }
};

// Applies p to every row of d in place (rows, labels, classes kept; sqnorm recomputed).
// pm1-to-01 throws DataError naming the row when a value lies outside [-1, 1]. `space`: the
// dimension of the feature space pm1-to-01 fills (an absent feature j < space becomes 1/2), d's own
// when 0; a test set or the rows a model scores give their training data's, so that a row's image
// never depends on which other rows share its file (dim becomes the larger of the two).
void apply_preprocess(Dataset& d, const Preprocess& p, std::size_t space = 0);

// One row's steps (exposed for the tests): x_j = (x_j + 1) / 2 exactly as computed in double.
double pm1_to_01(double v);
// The divisor of unit-norm: sqrt of sum_j x_j^2 accumulated by fma in ascending feature order.
double unit_norm_divisor(const std::vector<double>& vals);

}  // namespace plab
