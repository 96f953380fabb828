// Every declared option of the library, with its owners: the one queryable registry of option
// owners. The declarations live beside their owners' code: learners (each learner's struct Options
// in algorithms/*.hpp, gathered from the registry), kernels (numerics/kernel.hpp), comparators
// (bounds/comparator.hpp) and data readers (datasets/readers.hpp). The CLI (grouped --help, "does not apply" errors, ranges), the
// spec schema and docs/learners.md's parameter tables are read from these rows. Here, at the top of
// the core library, because it is the lowest layer that sees all four kinds of owner.
#pragma once
#include <string>
#include <vector>

#include "core/option_decl.hpp"

namespace plab {

// Rows in the order learners (their rows in registration order, one row with several owners for a
// declaration several learners make alike), kernel, comparator, reader. Each row: kind, group, owners, name, flag(), type, default_value, min/max
// (open or closed) or allowed, help, aliases. A name may have several rows (the Projectron's eta
// and the online gradient learners'), of one type. Learner rows reflect learners registered so far.
std::vector<OptionDecl> declared_options();

// The row of `name` among the options of `kind` ("learner" | "kernel" | "comparator" |
// "reader"); throws std::logic_error when there is none (a declaration the code relies on).
OptionDecl declared_option(const std::string& kind, const std::string& name);

}  // namespace plab
