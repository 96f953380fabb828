// The compiled module perceptron_lab._core (docs/python.md). The public API is the Python package
// (python/perceptron_lab/__init__.py); this file binds data, catalogues and errors, run.cpp the
// run pipeline and learner.cpp the round-at-a-time learner.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "algorithms/learner.hpp"
#include "arrays.hpp"
#include "core/json_text.hpp"
#include "core/state_archive.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/run.hpp"
#include "experiments/run/trace.hpp"
#include "external.hpp"
#include "introspect.hpp"
#include "learner.hpp"
#include "record.hpp"
#include "run.hpp"
#include "trace_plot.hpp"

namespace pyb = pybind11;
using namespace plab;
using namespace plab::py;

namespace {

template <class T>
pyb::array_t<T> to_numpy(std::span<const T> v) {
  return pyb::array_t<T>(static_cast<pyb::ssize_t>(v.size()), v.data());
}

// A registry data set (or file path) as CSR arrays: (data, indices int32, indptr int64, shape, y, classes).
pyb::tuple load(const std::string& spec, const std::string& labels) {
  // A multiclass registry set has no binary default: its class labels, as plab run's multiclass learners.
  const DatasetInfo* info = find_dataset_info(spec);
  const std::string map = labels.empty() && info && info->multiclass ? "classes" : labels;
  Dataset d;
  {
    pyb::gil_scoped_release nogil;
    d = load_dataset(spec, LabelMap::parse(map, "labels"));
  }
  std::vector<int32_t> ix(d.idx.begin(), d.idx.end());
  std::vector<int64_t> ptr(d.rowptr.begin(), d.rowptr.end());
  return pyb::make_tuple(to_numpy<double>(d.val), to_numpy<int32_t>(ix), to_numpy<int64_t>(ptr), pyb::make_tuple(d.size(), d.dim),
                         to_numpy<double>(d.y), d.classes, d.name);
}

std::vector<std::string> record_names() {
  std::vector<std::string> v;
  for (const auto& f : record_fields()) v.push_back(f.name);
  return v;
}

// The library's exceptions as Python ones a user can catch: DataError and ModelError are
// ValueErrors, NonFiniteError a FloatingPointError.
void bind_errors(pyb::module_& m) {
  static pyb::exception<DataError> data_error(m, "DataError", PyExc_ValueError);
  static pyb::exception<NonFiniteError> non_finite(m, "NonFiniteError", PyExc_FloatingPointError);
  static pyb::exception<ModelError> model_error(m, "ModelError", PyExc_ValueError);
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const DataError& e) {
      data_error(e.what());
    } catch (const NonFiniteError& e) {
      non_finite(e.what());
    } catch (const ModelError& e) {
      model_error(e.what());
    } catch (const FeatureIndexError& e) {  // a row's column, as run() reports it (a DataError there)
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

void bind_data(pyb::module_& m) {
  pyb::class_<Dataset, std::shared_ptr<Dataset>>(m, "Dataset")
      .def_property_readonly("rows", &Dataset::size)
      .def_property_readonly("dim", [](const Dataset& d) { return d.dim; })
      // Testing hook (python/tests/test_zero_copy.py): where rowptr, idx and val live and whether
      // each is borrowed, and the squared norms.
      .def("_buffers", [](const Dataset& d) {
        const auto at = [](const auto& a) { return pyb::make_tuple(reinterpret_cast<std::uintptr_t>(a.data()), a.borrowed()); };
        return pyb::dict(pyb::arg("rowptr") = at(d.rowptr), pyb::arg("idx") = at(d.idx), pyb::arg("val") = at(d.val));
      })
      .def("_sqnorm", [](const Dataset& d) { return to_numpy<double>(d.sqnorm); });
  m.def("dataset_dense", [](const F64Array& X, const F64Array& y, std::vector<double> classes, std::string name) {
    return std::make_shared<Dataset>(dataset_dense(X, y, std::move(classes), std::move(name)));
  });
  m.def("dataset_csr", [](const F64Array& data, const pyb::array& indices, const pyb::array& indptr, std::size_t ncols,
                          const F64Array& y, std::vector<double> classes, std::string name) {
    return std::make_shared<Dataset>(dataset_csr(data, indices, indptr, ncols, y, std::move(classes), std::move(name)));
  });
  m.def("load", &load, pyb::arg("spec"), pyb::arg("labels") = "");
  m.def("data_search_path", &data_search_path);
  m.def("order", [](std::size_t n, std::optional<uint64_t> seed) { return make_order(n, seed); });
}

LearnerSpec spec_from_state(const pyb::tuple& t) {
  if (t.size() != 2) throw std::runtime_error("perceptron_lab.LearnerSpec: bad pickle state");
  return {t[0].cast<std::string>(), parse_json(t[1].cast<std::string>())};
}

void bind_catalogue(pyb::module_& m) {
  pyb::class_<LearnerSpec>(m, "LearnerSpec")
      .def(pyb::init<>())
      .def_readwrite("algo", &LearnerSpec::algo)
      .def_property("options_json", [](const LearnerSpec& s) { return s.options.dump(); },
                    [](LearnerSpec& s, const std::string& j) {
                      try {
                        s.options = parse_json(j);
                      } catch (const JsonRefused& e) {
                        throw std::invalid_argument(std::string("options: ") + e.what());
                      } catch (const nlohmann::json::parse_error&) {  // Python's json writes NaN, Infinity
                        throw std::invalid_argument("options " + j + ": a value is NaN or infinite (every option must be finite)");
                      }
                    })
      .def(pyb::pickle(
          [](const LearnerSpec& s) { return pyb::make_tuple(s.algo, s.options.dump()); },
          &spec_from_state));
  m.def("learners_json", [] { return learner_catalog().dump(); });
  m.def("options_json", [](const std::string& algo) { return option_catalog(algo).dump(); });
  m.def("is_multiclass", &is_multiclass);
  m.def("trace_columns", &trace_columns);
  m.def("record_columns", &record_names);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "perceptron-lab's core library: learners, run pipeline and bounds (use the perceptron_lab package)";
  bind_errors(m);
  bind_data(m);
  bind_catalogue(m);
  bind_run(m);
  bind_learner(m);
  bind_external(m);
  bind_trace_plot(m);
}
