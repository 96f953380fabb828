#include "bounds/option_owners.hpp"

#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/comparator.hpp"
#include "datasets/readers.hpp"
#include "numerics/kernel.hpp"

namespace plab {

std::vector<OptionDecl> declared_options() {
  std::vector<OptionDecl> rows;
  for (const OptionInfo& o : option_table()) {
    rows.push_back(o);
    rows.back().owners = learners_taking(o.name);
  }
  for (const LearnerInfo& l : learners())  // the options learners declare themselves
    for (OptionDecl d : l.own.rows) {
      d.owners = {l.name};
      rows.push_back(std::move(d));
    }
  for (const auto* decls : {&kernel_options(), &comparator_options(), &reader_options()})
    rows.insert(rows.end(), decls->begin(), decls->end());
  return rows;
}

OptionDecl declared_option(const std::string& kind, const std::string& name) {
  for (auto& row : declared_options())
    if (row.kind == kind && row.name == name) return row;
  throw std::logic_error("no declared " + kind + " option '" + name + "'");
}

}  // namespace plab
