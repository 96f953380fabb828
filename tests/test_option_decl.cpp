// OptionDecl::accepts answers as check does: true exactly where check throws nothing, for every
// type, both kinds of bound, values of the wrong type, negative counts, non-finite reals and texts
// outside their allowed values.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/option_decl.hpp"

namespace option_decl_test {

using namespace plab;
using nlohmann::json;

bool check_passes(const OptionDecl& d, const json& v) {
  try {
    d.check(v, "--x");
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

TEST(OptionDecl, AcceptsIsCheckWithoutItsException) {
  using T = OptionDecl::Type;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<OptionDecl> decls = {
      declare("learner", "g", "a", T::real, 1.0, {}, "", above(0)),
      declare("learner", "g", "b", T::real, 1.0, {}, "", at_least(0)),
      declare("learner", "g", "c", T::real, 0.5, {}, "", at_most(1)),
      declare("learner", "g", "d", T::real, 0.5, {}, "", {0.0, 1.0, true, true}),
      declare("learner", "g", "e", T::real, 0.5, {}, "", any_value()),
      declare("learner", "g", "f", T::count, 0, {}, "", at_least(1)),
      declare("learner", "g", "h", T::count, 3, {}, "", any_value()),
      declare("learner", "g", "i", T::integer, -2, {}, "", at_least(-3)),
      declare("learner", "g", "j", T::flag, false, {}, ""),
      declare("learner", "g", "k", T::text, "x", {}, "", any_value(), {"x", "y"}),
  };
  const std::vector<json> values = {0, 1, -1, 2, -3, -4, 0.0, 0.5, 1.0, -0.0, 1e300, -1e300, inf, -inf, nan,
                                    uint64_t{18446744073709551615ULL}, int64_t{-9223372036854775807LL}, true,
                                    "x", "z", json(), json::array()};
  for (const OptionDecl& d : decls)
    for (const json& v : values)
      EXPECT_EQ(d.accepts(v), check_passes(d, v)) << d.name << " (" << d.type_name() << ") given " << v.dump();
}

}  // namespace option_decl_test
