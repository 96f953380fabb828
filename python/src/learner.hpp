// perceptron_lab.Learner: one learner fed one round (or one block of rows) at a time, river-style;
// the rounds continue t = 1, 2, ... across calls, so a fit in pieces equals one pass.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "arrays.hpp"
#include "introspect.hpp"
#include "models/model_file.hpp"

namespace plab::py {

class PyLearner {
 public:
  // `classes` > 0 for multiclass learners (labels are class indices 0..classes-1).
  PyLearner(const LearnerSpec& spec, std::size_t dim, std::size_t classes);
  // The learner of a model file's bytes (docs/models.md), rounds continuing after its own;
  // `where` names the bytes in a ModelError. The spec is the model's learner, kernel and options.
  static PyLearner from_model(const std::string& bytes, const std::string& where);
  // The same for a parsed file (from_path: read_model's first-line check before the rest is read).
  static PyLearner from_model(const ModelFile& m);
  // The model file of this learner (format 1, docs/models.md): what pickling and save() write.
  // `classes`: the original label of each class index (multiclass; empty: the indices).
  std::string model(const std::vector<double>& classes) const;
  const LearnerSpec& spec() const { return spec_; }
  // The model's original class labels (a learner made by from_model; empty otherwise).
  const std::vector<double>& model_classes() const { return model_classes_; }
  // One round on x (dict or 1-D float64 array); y is +-1 or the class index. Returns the record.
  pyb::dict learn_one(const pyb::handle& x, double y);
  // Rounds on the rows of `data` in `order` (every row when empty), the GIL released; returns
  // the number of mistakes.
  std::size_t learn_rows(const Dataset& data, const std::vector<std::size_t>& order);
  // Binary: f(x) per row (n); multiclass: f_c(x) - max_{r != c} f_r(x) per row and class (n x m),
  // whose first arg max over c is the predicted class.
  pyb::array_t<double> scores(const Dataset& data) const;
  // The scores of one x: [f(x)] (binary) or the m class scores as in scores().
  std::vector<double> score_one(const pyb::handle& x);
  std::size_t dim() const { return dim_; }
  std::size_t classes() const { return classes_; }
  int64_t rounds() const { return t_; }
  std::size_t support_size() const { return l_->support_size(); }

 private:
  void score_row(Example x, double* out) const;
  PyLearner(LearnerSpec spec, std::unique_ptr<Learner> l, std::size_t dim, std::size_t classes, int64_t rounds);
  LearnerSpec spec_;
  std::unique_ptr<Learner> l_;
  std::size_t dim_, classes_;
  int64_t t_ = 0;
  std::vector<double> model_classes_;
  Dataset row_;  // the one-row buffer of learn_one / score_one
};

void bind_learner(pyb::module_& m);

}  // namespace plab::py
