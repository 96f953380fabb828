// The parallel, resumable grid runner behind `plab reproduce`: the cells of the specs
// (experiments/cell/cell.hpp), stage by stage, on threads and, under MPI, on several ranks
// (experiments/schedule/transport.hpp). A cell whose file exists is not recomputed, so an
// interrupted run (even kill -9) resumes (experiments/schedule/cell_store.hpp).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "experiments/cell/cell.hpp"
#include "experiments/schedule/runner_options.hpp"
#include "experiments/spec/spec.hpp"

namespace plab {

// Runs every cell of `specs` stage by stage (derived parameters resolved from earlier stages),
// computing unfinished cells on `jobs` threads, the most expensive first. Returns the outcomes per
// figure, in expansion order (independent of thread count and completion order).
// With several ranks (docs/cluster.md), rank 0 does this and hands cells out to the other ranks'
// threads as well; on the other ranks run_specs computes what rank 0 hands out, writes the cell
// files, waits until rank 0 releases them (release_workers) and returns an empty map. A rank that
// fails ends the job with a message naming the cells in flight.
std::map<std::string, std::vector<CellOutcome>> run_specs(const std::vector<Spec>& specs,
                                                          const RunnerOptions& opt,
                                                          RunStats* stats = nullptr);

// Rank 0: lets the other ranks finish (call once, after the report, or when stopping early).
void release_workers(Transport& t);

// Every cell's stage and times as tab-separated values (RESULTS/cell_times.csv, read by
// `plab reproduce --plan`; not deterministic, like timings.csv).
void write_cell_times(const std::string& path, const std::map<std::string, std::vector<CellOutcome>>& outcomes);

}  // namespace plab
