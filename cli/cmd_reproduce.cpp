// `plab reproduce [FIGURE...]`: the flags of the reproduce workflow (experiments/reproduce/reproduce.hpp),
// which runs the experiment specs (experiments/specs/*.json) through the resumable grid runner and
// writes per-figure CSVs and figures and results/REPORT.md; --quick runs every spec's quick override
// into results/quick/, --check compares it with results/reference/.
#include <algorithm>
#include <memory>
#include <thread>

#include "cli/commands.hpp"
#include "core/format.hpp"
#include "experiments/exit_codes.hpp"
#include "experiments/reproduce/reproduce.hpp"

namespace plab {

void register_reproduce_command(CLI::App& app) {
  auto* c = app.add_subcommand("reproduce", "Regenerate the published experiments (experiments/specs/*.json)");
  c->footer(fmt::format(
      "Exit status: 0 success; {} other error (I/O, gnuplot); {} invalid arguments or spec (or the committed report from a dirty tree without --allow-dirty); {} a cell failed; {} --check "
      "found differences from the reference; {} a hard mistake bound is violated; {} a claim or published number could "
      "not be evaluated (missing results). When several apply: {}, then {}, {}, {}.",
      kExitError, kExitInvalid, kExitCellFailed, kExitCheckDiffers, kExitBoundViolated, kExitNotEvaluated,
      kExitBoundViolated, kExitCellFailed, kExitCheckDiffers, kExitNotEvaluated));
  auto a = std::make_shared<ReproduceRequest>();
  a->jobs = std::max(1u, std::thread::hardware_concurrency());
  a->specs = default_specs_dir();
  c->add_option("FIGURE", a->figures, "Figures to run (default: every spec), e.g. R1 R5");
  c->add_flag("--quick", a->quick, "Each spec's quick override (fewer rounds/permutations), into RESULTS/quick/");
  c->add_option("--jobs,-j", a->jobs, "Parallel cells")->capture_default_str();
  c->add_flag("--check", a->check, "Compare the quick numbers with RESULTS/reference/ (exit 4 on differences)");
  c->add_flag("--update-reference", a->update_reference, "Rewrite RESULTS/reference/ from the quick numbers");
  c->add_option("--results", a->results,
                "Results directory (default: results/ of the repository containing the current directory, else "
                "./results)");
  c->add_option("--reference", a->reference, "Reference of --check / --update-reference (default: RESULTS/reference)");
  c->add_flag("--plan", a->plan,
              "Print the per-cell cost distribution of the last run (RESULTS/cell_times.csv) and the predicted "
              "makespan on 1-128 workers; runs nothing");
  c->add_option("--specs", a->specs, "Directory of experiment specs")->capture_default_str();
  c->add_flag("--fresh", a->fresh, "Recompute every cell (ignore finished cell files; --check implies it)");
  c->add_flag("--no-plots", a->no_plots, "Write the gnuplot scripts and data but do not run gnuplot");
  c->add_option("--readme", a->readme,
                "Rewrite the figure table between the markers of this README from the run's summary (RESULTS/figures.json)");
  c->add_flag("--allow-dirty", a->allow_dirty,
              "Write the committed report (RESULTS = the source tree's results/) or --readme even from a tree with "
              "uncommitted changes (the report's first line says so)");
  c->callback([a] {
    if (const int code = reproduce(*a)) throw ExitStatus(code, "");  // reproduce listed the problems
  });
}

}  // namespace plab
