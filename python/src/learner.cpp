#include "learner.hpp"

#include <pybind11/stl.h>

#include <algorithm>

#include "core/file_io.hpp"
#include "experiments/run/run.hpp"
#include "config/recorded_options.hpp"
#include "models/model_file.hpp"
#include "record.hpp"
#include "run.hpp"

namespace plab::py {

PyLearner::PyLearner(const LearnerSpec& spec, std::size_t dim, std::size_t classes)
    : spec_(spec), l_(build_learner(spec, dim, classes)), dim_(dim), classes_(classes) {}

PyLearner::PyLearner(LearnerSpec spec, std::unique_ptr<Learner> l, std::size_t dim, std::size_t classes, int64_t rounds)
    : spec_(std::move(spec)), l_(std::move(l)), dim_(dim), classes_(classes), t_(rounds) {}

std::string PyLearner::model(const std::vector<double>& classes) const {
  ModelHeader h = model_header(spec_.algo, built_options(spec_, dim_, classes_));
  h.rounds = t_;
  h.classes = classes;
  if (classes_ && h.classes.empty())
    for (std::size_t c = 0; c < classes_; ++c) h.classes.push_back(static_cast<double>(c));
  h.data = nlohmann::json::array({{{"name", "python"}, {"rows", t_}}});
  return model_bytes(h, *l_);
}

PyLearner PyLearner::from_model(const std::string& bytes, const std::string& where) {
  return from_model(parse_model(bytes, where));
}

PyLearner PyLearner::from_model(const ModelFile& m) {
  const ModelHeader& h = m.header;
  LearnerSpec spec = model_spec(m);
  // dim 0: buffers grow with the rows (the header's dim, unchecked against the state, sizes nothing).
  PyLearner l(std::move(spec), restore_learner(m, 0), h.dim, h.classes.size(), h.rounds);
  l.model_classes_ = h.classes;
  return l;
}

pyb::dict PyLearner::learn_one(const pyb::handle& x, double y) {
  set_row(row_, x, dim_, y);
  RoundRecord r = l_->learn(row_[0], t_ + 1);
  check_finite(r);  // raises NonFiniteError, as plab run stops: the learner is not usable after it
  ++t_;
  return record_dict(r);
}

std::size_t PyLearner::learn_rows(const Dataset& data, const std::vector<std::size_t>& order) {
  const std::size_t n = order.empty() ? data.size() : order.size();
  for (std::size_t k : order)
    if (k >= data.size()) throw std::invalid_argument("order: row " + std::to_string(k) + " outside the data");
  constexpr std::size_t kBlock = 96;  // as run_online: any block size gives the same records
  std::vector<Example> xs;
  std::vector<RoundRecord> recs(kBlock);
  std::size_t mistakes = 0;
  const ReadOnlyWhile frozen(data);
  without_gil([&] {
    for (std::size_t k0 = 0; k0 < n; k0 += kBlock) {
      const std::size_t b = std::min(kBlock, n - k0);
      xs.clear();
      for (std::size_t k = k0; k < k0 + b; ++k) xs.push_back(data[order.empty() ? k : order[k]]);
      l_->learn_block(xs.data(), b, t_ + 1, recs.data());
      t_ += static_cast<int64_t>(b);
      for (std::size_t i = 0; i < b; ++i) {
        check_finite(recs[i]);
        mistakes += recs[i].mistake;
      }
      if ((k0 / kBlock) % 43 == 42) check_interrupt();  // every 4128 rounds
    }
  });
  return mistakes;
}

void PyLearner::score_row(Example x, double* out) const {
  if (!classes_) out[0] = l_->score(x);
  for (std::size_t c = 0; c < classes_; ++c) {
    x.y = static_cast<double>(c);
    out[c] = l_->score(x);
  }
}

pyb::array_t<double> PyLearner::scores(const Dataset& data) const {
  const std::size_t n = data.size(), m = std::max<std::size_t>(classes_, 1);
  pyb::array_t<double> out = classes_ ? pyb::array_t<double>({n, m}) : pyb::array_t<double>(n);
  double* s = out.mutable_data();
  const ReadOnlyWhile frozen(data);
  without_gil([&] {
    for (std::size_t i = 0; i < n; ++i) score_row(data[i], s + i * m);
  });
  return out;
}

std::vector<double> PyLearner::score_one(const pyb::handle& x) {
  set_row(row_, x, dim_, 0.0);
  std::vector<double> s(std::max<std::size_t>(classes_, 1));
  score_row(row_[0], s.data());
  return s;
}

void bind_learner(pyb::module_& m) {
  pyb::class_<PyLearner>(m, "Learner")
      .def(pyb::init<const LearnerSpec&, std::size_t, std::size_t>(), pyb::arg("spec"), pyb::arg("dim"),
           pyb::arg("classes") = 0)
      .def("learn_one", &PyLearner::learn_one)
      .def("learn_rows", &PyLearner::learn_rows, pyb::arg("data"), pyb::arg("order") = std::vector<std::size_t>{})
      .def("scores", &PyLearner::scores)
      .def("score_one", &PyLearner::score_one)
      .def_property_readonly("dim", &PyLearner::dim)
      .def_property_readonly("classes", &PyLearner::classes)
      .def_property_readonly("rounds", &PyLearner::rounds)
      .def_property_readonly("support_size", &PyLearner::support_size)
      .def_property_readonly("spec", &PyLearner::spec)
      .def("model", [](const PyLearner& l, const std::vector<double>& classes) { return pyb::bytes(l.model(classes)); },
           pyb::arg("classes") = std::vector<double>{})
      .def_property_readonly("model_classes", &PyLearner::model_classes)
      .def("save", [](const PyLearner& l, const std::string& path, const std::vector<double>& classes) {
        write_file_atomic(path, l.model(classes));
      })
      .def_static("from_model", [](const pyb::bytes& b, const std::string& where) {
        return PyLearner::from_model(std::string(b), where);
      })
      // A model file by path: its first line is checked before the rest is read (/dev/zero costs
      // 200 bytes; from_model(f.read()) reads a whole device first).
      .def_static("from_path", [](const std::string& path) { return PyLearner::from_model(read_model(path)); })
      // Pickled as its model file (docs/python.md#pickling): every double keeps its bits.
      .def(pyb::pickle([](const PyLearner& l) { return pyb::make_tuple(pyb::bytes(l.model({}))); },
                       [](const pyb::tuple& t) {
                         if (t.size() != 1) throw std::runtime_error("perceptron_lab.Learner: bad pickle state");
                         return PyLearner::from_model(t[0].cast<std::string>(), "pickled perceptron_lab learner");
                       }));
}

}  // namespace plab::py
