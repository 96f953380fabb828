// The kernel options' declarations (numerics/kernel.hpp); defaults from Kernel{}.
#include "numerics/kernel.hpp"

#include <limits>
#include <stdexcept>

#include "core/option_decl.hpp"

namespace plab {

const std::vector<OptionDecl>& kernel_options() {
  using T = OptionDecl::Type;
  static const std::vector<OptionDecl> v = [] {
    const Kernel k;
    const std::string g = "Kernel options";
    std::vector<OptionDecl> d = {
        declare("kernel", g, "type", T::text, k.type_name(), {},
                "linear | poly | rbf (aliases: polynomial, gaussian)", {},
                {"linear", "poly", "rbf", "polynomial", "gaussian"}),
        declare("kernel", g, "gamma", T::real, k.gamma, {"poly", "rbf"},
                "Kernel gamma: rbf exp(-gamma||x-x'||^2), poly (gamma<x,x'>+coef0)^degree", above(0)),
        // A value costs degree - 1 double-double products (numerics/poly_pow.hpp): time linear in
        // the degree, so a degree of 2^31 - 1 would take a minute a value. Papers use 2 to 10.
        declare("kernel", g, "degree", T::integer, k.degree, {"poly"}, "Polynomial degree",
                {1.0, double(kMaxPolyDegree)}),
        // coef0 < 0 makes (gamma<x,x'> + coef0)^degree indefinite (k(x,x) < 0 at degree 1): no RKHS,
        // so no norm and no bound of docs/bounds.md holds; LIBSVM takes any value, we refuse it.
        declare("kernel", g, "coef0", T::real, k.coef0, {"poly"}, "Polynomial coef0 (>= 0: a positive semi-definite kernel)",
                at_least(0)),
    };
    d[0].cli = "--kernel";
    return d;
  }();
  return v;
}

// The one map from the declared keys to Kernel's fields.
nlohmann::json Kernel::option(const std::string& name) const {
  if (name == "type") return type_name();
  if (name == "gamma") return gamma;
  if (name == "coef0") return coef0;
  if (name == "degree") return degree;
  throw std::logic_error("no kernel option '" + name + "'");
}

void Kernel::set_option(const std::string& name, const nlohmann::json& v) {
  if (name == "type") type = parse_type(v.get<std::string>());
  else if (name == "gamma") gamma = v.get<double>();
  else if (name == "coef0") coef0 = v.get<double>();
  else if (name == "degree") degree = v.get<int>();
  else throw std::logic_error("no kernel option '" + name + "'");
}

nlohmann::json Kernel::options_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const OptionDecl& d : kernel_options()) j[d.name] = option(d.name);
  return j;
}

}  // namespace plab
