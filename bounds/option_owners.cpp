#include "bounds/option_owners.hpp"

#include <algorithm>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/comparator.hpp"
#include "datasets/readers.hpp"
#include "numerics/kernel.hpp"

namespace plab {

std::vector<OptionDecl> declared_options() {
  std::vector<OptionDecl> rows;
  for (const LearnerInfo& l : learners())  // the options learners declare; one row for those declared alike
    for (OptionDecl d : l.own.rows) {
      const auto same = std::find_if(rows.begin(), rows.end(), [&](const OptionDecl& r) { return r.same_as(d); });
      if (same != rows.end()) {
        same->owners.push_back(l.name);
        continue;
      }
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
