// Mercer kernels in the LIBSVM / DOGMA parameterisation (docs/conventions.md#kernels: gamma, never
// sigma).
//   linear      k(x,x') = <x,x'>
//   poly        k(x,x') = (gamma <x,x'> + coef0)^degree, the power correctly rounded (poly_pow.hpp)
//   rbf         k(x,x') = exp(-gamma ||x - x'||^2)
// Every kernel is a function of (<x,x'>, ||x||^2, ||x'||^2), which lets the support set compute a
// whole kernel row from one sparse-times-dense pass (see support_set.hpp).
#pragma once
#include <cmath>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/poly_pow.hpp"
#include "datasets/dataset.hpp"

namespace plab {

struct OptionDecl;  // core/option_decl.hpp

struct Kernel {
  enum class Type { linear, poly, rbf };
  // The defaults of the kernel options: the one place (kernel_options() and every reader of a
  // kernel spec or flag take them from a default-constructed Kernel).
  Type type = Type::linear;
  double gamma = 1.0;
  double coef0 = 0.0;
  int degree = 2;

  static Kernel linear() { return {}; }
  static Kernel rbf(double g) { return {Type::rbf, g, 0.0, 2}; }
  static Kernel poly(double g, double c0, int p) { return {Type::poly, g, c0, p}; }

  // k from the dot product and the two squared norms.
  double from_dot(double d, double sqa, double sqb) const {
    switch (type) {
      case Type::linear: return d;
      case Type::poly: return pow_int(gamma * d + coef0, degree);
      case Type::rbf: return std::exp(-gamma * std::max(0.0, sqa + sqb - 2.0 * d));
    }
    return 0.0;
  }
  double operator()(const Example& a, const Example& b) const {
    return from_dot(dot(a, b), a.sqnorm, b.sqnorm);
  }
  // k(x,x) for an input of squared norm sq.
  double self(double sq) const { return from_dot(sq, sq, sq); }
  // Upper bound on k(x,x) over inputs with ||x||^2 <= r2 (the bounds need it).
  double self_bound(double r2) const {
    return type == Type::rbf ? 1.0 : self(r2);
  }
  // True when k(x,x) = 1 for every x (the Projectron/Forgetron theorems assume k(x,x) <= 1).
  bool unit_diagonal() const { return type == Type::rbf; }

  std::string describe() const {
    switch (type) {
      case Type::linear: return "linear";
      case Type::poly:
        return "poly(gamma=" + std::to_string(gamma) + ",coef0=" + std::to_string(coef0) +
               ",degree=" + std::to_string(degree) + ")";
      case Type::rbf: return "rbf(gamma=" + std::to_string(gamma) + ")";
    }
    return "?";
  }
  std::string type_name() const {
    return type == Type::linear ? "linear" : type == Type::poly ? "poly" : "rbf";
  }
  // The value of the kernel option `name` (a kernel_options() row: "type", "gamma", ...), and its
  // setting from a value that row's check accepted: the configuration step and the model reader
  // read and set a kernel through these alone (numerics/kernel.cpp).
  nlohmann::json option(const std::string& name) const;
  void set_option(const std::string& name, const nlohmann::json& v);
  nlohmann::json options_json() const;  // {name: option(name)} of every kernel option
  static Type parse_type(const std::string& s) {
    if (s == "linear") return Type::linear;
    if (s == "poly" || s == "polynomial") return Type::poly;
    if (s == "rbf" || s == "gaussian") return Type::rbf;
    throw std::invalid_argument("--kernel: unknown kernel '" + s + "' (expected linear, poly or rbf)");
  }
};

// The largest polynomial degree a kernel takes (docs/learners.md#kernels): each value costs degree - 1
// double-double products.
inline constexpr int kMaxPolyDegree = 1000;

// The kernel options (numerics/kernel.cpp): the type, which selects the kernel (spec key "type",
// flag --kernel), and gamma (poly, rbf: > 0), coef0 (poly) and degree (poly: 1 to kMaxPolyDegree), each naming
// the kernel types that take it.
const std::vector<OptionDecl>& kernel_options();

}  // namespace plab
