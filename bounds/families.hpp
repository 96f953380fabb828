// The evaluators of the bound families (bounds/bounds.cpp), named by the family table
// (bounds/bound_ids.cpp). Each appends its family's rows, in table order (FamilyEvaluator).
#pragma once
#include <vector>

namespace plab {

struct BoundResult;
struct RunFacts;
struct RoundRecord;

namespace bounds {

using Out = std::vector<BoundResult>;
using Records = std::vector<RoundRecord>;

void perceptron_rows(Out& out, const Records& rounds, const RunFacts& facts);         // every round
void perceptron_prefix_rows(Out& out, const Records& rounds, const RunFacts& facts);  // the Perceptron prefix
void perceptron_reference_rows(Out& out, const Records& rounds, const RunFacts& facts);  // a learner not ours
void projectron_rows(Out& out, const Records& rounds, const RunFacts& facts);
void projectron_pp_rows(Out& out, const Records& rounds, const RunFacts& facts);
void forgetron_rows(Out& out, const Records& rounds, const RunFacts& facts);
void norma_rows(Out& out, const Records& rounds, const RunFacts& facts);
// bounds/budget_bounds.cpp (docs/bounds.md#budget-ogd-bounds)
void budget_gradient_rows(Out& out, const Records& rounds, const RunFacts& facts);
void unbiased_removal_rows(Out& out, const Records& rounds, const RunFacts& facts);

}  // namespace bounds
}  // namespace plab
