// The bound table: one entry per bound (stable id, display name, provenance tag, default kind,
// family) and one entry per family (the evaluator that produces its rows, the trace columns its
// bounds read). What specs, summaries, tests and the report refer to is the id; renaming the
// display name never changes an id. docs/bounds.md has one section per id and one per family.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/round_record.hpp"

namespace plab {

// A bit mask of update kinds (BoundFamilyInfo::mistake_kinds).
constexpr unsigned kinds_mask(std::initializer_list<UpdateKind> kinds) {
  unsigned m = 0;
  for (UpdateKind k : kinds) m |= 1u << static_cast<unsigned>(k);
  return m;
}

struct BoundResult;
struct RunFacts;
struct RoundRecord;

// Appends the rows of one family, in table order, for a run whose inputs are finite.
using FamilyEvaluator = void (*)(std::vector<BoundResult>& out, const std::vector<RoundRecord>& rounds,
                                 const RunFacts& facts);

struct BoundFamilyInfo {
  BoundFamily family;
  std::string name;      // "perceptron_prefix": docs/bounds.md#families
  BoundFamily rows;      // whose bound entries it evaluates (perceptron_prefix: the perceptron rows)
  FamilyEvaluator evaluate = nullptr;
  // Trace columns its bounds read besides t,y,score,mistake,update,support_size, and those every
  // learner of the family fills on each mistake round (checked by plab bounds --trace,
  // docs/inputs.md#trace-checks).
  std::vector<std::string> columns, on_mistake;
  // The update kinds its learners make on a mistake round and on a correct one, as bit masks
  // (bit k: UpdateKind k; 0: any), and whether support_size then grows by one exactly on `add` and
  // `update` rounds: what a trace of that learner must show (docs/inputs.md#trace-invariants).
  unsigned mistake_kinds = 0, correct_kinds = 0;
  bool counts_supports = false;
  bool reads_score = true;         // false: an absent (NaN) score f(x_t) is not a missing input
};

struct BoundId {
  std::string id;       // "mr4_all_t"
  std::string name;     // "MR (4) all-T"
  std::string tag;      // provenance: V R D M (docs/bounds.md#provenance)
  // Default kind: "a_priori" (infimum over the run), "a_posteriori" (always reads a quantity of
  // the run) or "check" (I-restricted, on a grid); evaluate_bounds makes an a_priori row
  // "a_posteriori" when this run supplies one of its inputs (docs/bounds.md#kinds).
  std::string kind;
  std::optional<BoundFamily> family;  // the family whose evaluator produces the row
  // On the Kesler construction of a multiclass run (docs/bounds.md#multiclass): its tag and
  // display name there; empty = unchanged.
  std::string kesler_tag = {}, kesler_name = {};
};

// Every bound the suite evaluates, in evaluation order.
const std::vector<BoundId>& bound_ids();
// nullptr when unknown.
const BoundId* find_bound(const std::string& id);
std::vector<std::string> bound_id_names();

// Every family, one entry each; bound_family throws std::logic_error for one without an entry.
const std::vector<BoundFamilyInfo>& bound_families();
const BoundFamilyInfo& bound_family(BoundFamily family);
// The entries a family evaluates (those naming its `rows` family), in table order.
std::vector<const BoundId*> family_rows(BoundFamily family);

}  // namespace plab
