#include "experiments/schedule/runner.hpp"

#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/file_io.hpp"
#include "core/format.hpp"
#include "experiments/schedule/scheduler.hpp"
#include "experiments/schedule/worker.hpp"

namespace plab {

std::map<std::string, std::vector<CellOutcome>> run_specs(const std::vector<Spec>& specs,
                                                          const RunnerOptions& opt, RunStats* stats) {
  const auto t_start = std::chrono::steady_clock::now();
  Transport& t = opt.transport ? *opt.transport : single_process_transport();
  StagePlan plan(specs);
  if (t.rank() > 0) {
    WorkerRank worker(plan, opt, t);
    for (std::size_t stage = 0; stage < plan.stage_count(); ++stage)
      if (!worker.serve_stage(stage)) break;
    worker.wait_for_release();
    return {};
  }
  std::filesystem::create_directories(opt.cells_dir);
  remove_temporaries(opt.cells_dir);
  RunStats st;
  Scheduler scheduler(plan, opt, t);
  for (std::size_t stage = 0; stage < plan.stage_count(); ++stage) scheduler.run_stage(stage, st);
  for (const auto& [f, v] : plan.outcomes())
    for (const auto& o : v) st.failed += !o.error.empty();
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (stats) *stats = st;
  return std::move(plan.outcomes());
}

void release_workers(Transport& t) {
  if (t.size() <= 1) return;
  while (auto e = t.try_recv(-1))  // late requests are moot; a late failure still fails the run
    if (const auto* f = std::get_if<RankFailed>(&e->message))
      stop_for_failed_rank(t, e->source, f->what, "Cells in flight: none (every cell was finished).\n");
  for (int r = 1; r < t.size(); ++r) t.send(r, Release{});
}

void write_cell_times(const std::string& path, const std::map<std::string, std::vector<CellOutcome>>& outcomes) {
  std::ostringstream out;
  out << "figure\tdataset\talgorithm\tpoint\tperm\tstage\tkey\tcell_seconds\tlearn_seconds\tcached\n";
  std::set<std::string> keys;  // a key computed once for several figures costs once
  for (const auto& [fig, v] : outcomes)
    for (const auto& o : v)
      out << o.cell.figure << '\t' << o.cell.dataset << '\t' << o.cell.algo_id << '\t'
          << (o.cell.point.empty() ? "" : o.cell.point.dump()) << '\t' << o.cell.perm << '\t' << o.stage << '\t'
          << o.key << '\t' << fmt::format("{:.6g}", keys.insert(o.key).second ? o.cell_seconds : std::nan("")) << '\t' << fmt::format("{:.6g}", o.seconds) << '\t'
          << o.cached << '\n';
  write_file_atomic(path, out.str());
}

}  // namespace plab
