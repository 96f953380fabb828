// Round records (algorithms/round_record.hpp) as Python values: one entry per trace column, in
// the trace's column order (experiments/run/trace.hpp; a test checks the names against
// trace_columns()). learn_one's dict and Result.trace's arrays both read this table.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <variant>
#include <vector>

#include "algorithms/round_record.hpp"

namespace plab::py {
namespace pyb = pybind11;

struct RecordField {
  std::string name;
  // int64 fields keep their "not applicable" -1, reals their NaN, as in the record.
  std::variant<int64_t RoundRecord::*, double RoundRecord::*, bool RoundRecord::*, UpdateKind RoundRecord::*> field;
};

inline const std::vector<RecordField>& record_fields() {
  using R = RoundRecord;
  static const std::vector<RecordField> f = {
      {"t", &R::t}, {"y", &R::y}, {"score", &R::score}, {"mistake", &R::mistake}, {"update", &R::update},
      {"support_size", &R::support_size}, {"index", &R::index}, {"pred", &R::pred}, {"competitor", &R::competitor},
      {"kxx", &R::kxx}, {"margin_error", &R::margin_error}, {"f_norm2", &R::f_norm2}, {"delta_norm", &R::delta_norm},
      {"pk2", &R::pk2}, {"tau", &R::tau}, {"eta_t", &R::eta_t}, {"phi", &R::phi}, {"psi", &R::psi}, {"Q", &R::Q},
      {"sigma_r", &R::sigma_r}, {"f_r", &R::f_r}, {"removed", &R::removed}, {"rho", &R::rho}, {"coef", &R::coef},
      {"trunc_norm", &R::trunc_norm}, {"trunc_bound", &R::trunc_bound}, {"g", &R::g}};
  return f;
}

// {column: value} of one record. The key strings are made once (a third of learn_one's time
// otherwise) and never freed: Python objects must not outlive the interpreter in a static.
inline pyb::dict record_dict(const RoundRecord& r) {
  static const auto* keys = [] {
    auto* k = new std::vector<pyb::str>;
    for (const auto& f : record_fields()) k->emplace_back(f.name);
    return k;
  }();
  pyb::dict d;
  const auto& fields = record_fields();
  for (std::size_t i = 0; i < fields.size(); ++i)
    std::visit([&](auto p) {
      if constexpr (std::is_same_v<decltype(p), UpdateKind RoundRecord::*>) d[(*keys)[i]] = std::string(to_string(r.*p));
      else d[(*keys)[i]] = r.*p;
    }, fields[i].field);
  return d;
}

// {column: numpy array} of every record: int64, float64, bool, and str for `update`.
inline pyb::dict record_arrays(const std::vector<RoundRecord>& rs) {
  pyb::dict d;
  for (const auto& f : record_fields())
    std::visit([&](auto p) {
      using T = std::remove_reference_t<decltype(RoundRecord{}.*p)>;
      if constexpr (std::is_same_v<T, UpdateKind>) {
        pyb::list names;
        for (const auto& r : rs) names.append(std::string(to_string(r.*p)));
        d[f.name.c_str()] = pyb::module_::import("numpy").attr("array")(names, "U");
      } else {
        pyb::array_t<T> a(static_cast<pyb::ssize_t>(rs.size()));
        T* out = a.mutable_data();
        for (std::size_t i = 0; i < rs.size(); ++i) out[i] = rs[i].*p;
        d[f.name.c_str()] = a;
      }
    }, f.field);
  return d;
}

}  // namespace plab::py
