// Stable bound ids: what specs, summaries, tests and the report refer to. The display name is
// what tables print; renaming it never changes an id. docs/bounds.md has one section per id.
#pragma once
#include <string>
#include <vector>

namespace plab {

struct BoundId {
  std::string id;       // "mr4_all_t"
  std::string name;     // "MR (4) all-T"
  std::string tag;      // provenance: V R D M (docs/bounds.md#provenance)
  // Default kind: "a_priori" (infimum over the run) or "check" (I-restricted, on a grid);
  // evaluate_bounds makes a row "a_posteriori" when it uses quantities of the run.
  std::string kind;
};

// Every bound the suite evaluates, in evaluation order.
const std::vector<BoundId>& bound_ids();
// nullptr when unknown.
const BoundId* find_bound(const std::string& id);
std::vector<std::string> bound_id_names();

}  // namespace plab
