// `plab reproduce [FIGURE...]`: runs the experiment specs (experiments/specs/*.json) through the
// resumable grid runner, writes per-figure CSVs and figures and results/REPORT.md; --quick runs
// every spec's quick override into results/quick/, --check compares it with results/reference/.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "core/format.hpp"

#include <fmt/chrono.h>

#include "experiments/exit_codes.hpp"
#include "experiments/report.hpp"
#include "experiments/report_summary.hpp"
#include "experiments/verdicts.hpp"
#include "experiments/cell_schedule.hpp"
#include "experiments/mpi_comm.hpp"
#include "experiments/runner.hpp"
#include "experiments/version.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/theory_figures.hpp"
#include "experiments/trace.hpp"

namespace plab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;


struct ReproduceArgs {
  std::vector<std::string> figures;
  bool quick = false, check = false, update_reference = false, no_plots = false, fresh = false, allow_dirty = false;
  std::string readme;  // README whose figure table is rewritten (empty = none)
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string results;    // "": default_results_dir()
  std::string reference;  // "": RESULTS/reference
  bool plan = false;
  std::string specs = std::string(PLAB_SOURCE_DIR) + "/experiments/specs";
};

// results/ of the repository containing the current directory (a folder with .git and
// experiments/specs/), else ./results: resolved at run time, so a moved or second checkout
// writes into its own tree.
std::string default_results_dir() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  for (fs::path d = cwd; !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / ".git", ec) && fs::is_directory(d / "experiments" / "specs", ec)) return (d / "results").string();
    if (d == d.parent_path()) break;
  }
  return (cwd / "results").string();
}

// `--plan`: the per-cell cost distribution of the last run and its predicted makespan.
void print_plan(const std::string& out) {
  const auto cells = read_cell_times(out + "/cell_times.csv");
  std::cout << "plab reproduce --plan: recorded cell times of " << out << "/cell_times.csv\n"
            << plan_report(cells, {1, 2, 8, 32, 128});
}

std::vector<Spec> load_specs(const ReproduceArgs& a) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(a.specs))
    if (e.path().extension() == ".json" && e.path().stem().extension() != ".schema")  // not spec.schema.json
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Spec> specs;
  std::vector<std::string> wanted = a.figures;
  for (const auto& f : files) {
    Spec s = load_spec(f.string(), a.quick);
    drop_unavailable_data(s, a.quick);
    if (!a.figures.empty()) {
      auto it = std::find(wanted.begin(), wanted.end(), s.figure);
      if (it == wanted.end()) continue;
      wanted.erase(it);
    }
    specs.push_back(std::move(s));
  }
  if (!wanted.empty()) {
    std::string known;
    for (const auto& f : files) { known += ' '; known += f.stem().string(); }
    throw std::invalid_argument("FIGURE: no spec for '" + wanted[0] + "' in " + a.specs + " (known:" + known + ")");
  }
  if (specs.empty()) throw std::invalid_argument("--specs: no *.json spec in " + a.specs);
  // A table figure (T7) aggregates its source figures: run them too when they were not named.
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::vector<std::string> sources = specs[i].sources;  // specs may grow below
    for (const auto& src : sources)
      if (std::none_of(specs.begin(), specs.end(), [&](const Spec& x) { return x.figure == src; })) {
        const fs::path f = fs::path(a.specs) / (src + ".json");
        if (!fs::exists(f)) throw std::invalid_argument(specs[i].figure + ": source figure '" + src + "' has no spec " + f.string());
        specs.push_back(load_spec(f.string(), a.quick));
        drop_unavailable_data(specs.back(), a.quick);
      }
  }
  return specs;
}

std::string utc_now() { return fmt::format("{:%Y-%m-%d %H:%M} UTC", fmt::gmtime(std::time(nullptr))); }

void check_args(const ReproduceArgs& a) {
  if (a.jobs < 1) throw std::invalid_argument("--jobs must be >= 1");
  if (a.check && a.update_reference) throw std::invalid_argument("--check and --update-reference exclude each other");
  if ((a.check || a.update_reference) && !a.quick)
    throw std::invalid_argument("--check / --update-reference compare the quick numbers: add --quick");
}

// The committed report is the full run into the source tree's results/ (what `make reproduce` writes).
bool writes_committed_report(const ReproduceArgs& a) {
  std::error_code ec;
  return !a.quick && fs::weakly_canonical(a.results, ec) == fs::weakly_canonical(std::string(PLAB_SOURCE_DIR) + "/results", ec);
}

// Committed outputs must name a clean commit (docs/report.md#provenance); README markers are
// checked before any cell runs.
void check_provenance(const ReproduceArgs& a, const TreeState& tree) {
  if ((writes_committed_report(a) || !a.readme.empty()) && !tree.clean && !a.allow_dirty)
    throw std::invalid_argument("the committed report and README table must come from a clean commit, but this is a " +
                                tree.describe() + ". Commit first, or pass --allow-dirty (make reproduce ALLOW_DIRTY=1)");
  if (!a.readme.empty()) {
    if (!fs::is_regular_file(a.readme)) throw std::invalid_argument("--readme " + a.readme + ": no such file");
    (void)replace_readme_block(read_text_file(a.readme), "", a.readme);  // throws when the markers are missing
  }
}

struct Figures {
  std::vector<std::vector<Group>> groups;
  std::vector<FigureOutputs> outs;
};

Figures write_figures(const std::vector<Spec>& specs, const std::map<std::string, std::vector<CellOutcome>>& outcomes,
                      const std::string& out, bool draw) {
  Figures f;
  static const std::vector<CellOutcome> none;
  for (const auto& s : specs) {
    const auto it = outcomes.find(s.figure);
    f.groups.push_back(aggregate(s, it == outcomes.end() ? none : it->second));
    f.outs.push_back(write_figure(s, f.groups.back(), out, draw));
  }
  for (std::size_t i = 0; i < specs.size(); ++i)  // table figures (T7) over their sources' groups
    if (!specs[i].sources.empty()) {
      const json t = tightness_table(specs[i], specs, f.groups, out);
      f.outs[i].extra_markdown = "\n### Bound / empirical mistakes\n\n" + t["markdown"].get<std::string>() +
                                 "\nFile: `" + specs[i].figure + "/tightness.csv`.\n";
      f.outs[i].summary["table"] = t["rows"];
      write_json_atomic(out + "/" + specs[i].figure + "/summary.json", f.outs[i].summary);
    }
  return f;
}

std::string report_header(const ReproduceArgs& a, const RunStats& st) {
  std::string hd = fmt::format(
      "Generated by `plab reproduce{}` at {}, code version `{}`, {} job(s) on {} hardware thread(s). Cells: {} ({} "
      "computed in this run, {} reused (earlier runs, or identical cells of another figure), {} failed); wall time "
      "of this run {:.1f} s.\n",
      a.quick ? " --quick" : "", utc_now(), git_revision(), a.jobs, std::thread::hardware_concurrency(), st.total,
      st.computed, st.cached, st.failed, st.wall_seconds);
  if (a.quick)
    hd += "\n**Quick mode**: fewer rounds and permutations than the papers (each spec's `quick` "
          "block); numbers are for the regression check, not for comparison.\n";
  return hd;
}

// "/groups/N/..." differences name their group so they can be read without the file.
std::string group_label(const std::string& d, const json& summary) {
  if (d.rfind("/groups/", 0) != 0) return "";
  const std::size_t n = std::strtoul(d.c_str() + 8, nullptr, 10);
  const json& gs = summary["groups"];
  if (n >= gs.size()) return "";
  return " [" + gs[n]["dataset"].get<std::string>() + " " + gs[n]["algorithm"].get<std::string>() +
         (gs[n]["point"].empty() ? "" : " " + gs[n]["point"].dump()) + "]";
}

// Number of differences from results/reference/ (printed on stderr).
std::size_t check_reference(const std::vector<Spec>& specs, const Figures& f, const std::string& ref_dir) {
  std::size_t ndiff = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string path = ref_dir + "/" + specs[i].figure + ".json";
    const auto ref = read_json_if_valid(path);
    if (!ref) {
      std::cerr << specs[i].figure << ": no reference " << path << " (run make update-reference)\n";
      ++ndiff;
      continue;
    }
    const auto diffs = compare_json(f.outs[i].summary, *ref);
    for (const auto& d : diffs) std::cerr << specs[i].figure << group_label(d, f.outs[i].summary) << ": " << d << "\n";
    ndiff += diffs.size();
  }
  return ndiff;
}

// The exit status of a finished run (experiments/exit_codes.hpp); problems are listed on stderr.
void exit_status(const std::vector<Spec>& specs, const Figures& f, const RunStats& st, std::size_t ndiff,
                 const std::string& ref_dir) {
  std::size_t violated = 0, missing = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto bad = hard_bound_violations(f.groups[i]);
    for (const auto& b : bad) std::cerr << "plab reproduce: " << specs[i].figure << ": HARD BOUND VIOLATED: " << b << "\n";
    violated += bad.size();
    const auto none = unevaluated(f.outs[i].published, f.outs[i].claims);
    for (const auto& m : none) std::cerr << "plab reproduce: " << specs[i].figure << ": " << m << "\n";
    missing += none.size();
  }
  const int code = reproduce_exit_code({violated, st.failed, ndiff, missing});
  if (code == kExitBoundViolated) throw ExitStatus(code, std::to_string(violated) + " hard bound violation(s) (listed in the report)");
  if (code == kExitCellFailed) throw ExitStatus(code, std::to_string(st.failed) + " cell(s) failed (listed in the report)");
  if (code == kExitCheckDiffers) throw ExitStatus(code, std::to_string(ndiff) + " difference(s) from the reference in " + ref_dir);
  if (code == kExitNotEvaluated)
    throw ExitStatus(code, std::to_string(missing) + " claim(s) / published number(s) without a result");
}

// Rank 0 (or the only process), before any cell: the results folder is ours (lock), free of stale
// temporary files, and writable.
std::unique_ptr<FolderLock> prepare_results(const std::string& out) {
  auto lock = std::make_unique<FolderLock>(out, &std::cerr);
  if (const std::size_t n = remove_temporaries(out))
    std::cerr << "plab reproduce: removed " << n << " stale temporary file(s) (*.tmp.*) under " << out << "\n";
  check_writable(out);
  check_writable(out + "/cells");
  return lock;
}

void run_reproduce(const ReproduceArgs& a, const std::string& out, const TreeState& tree);

void reproduce(ReproduceArgs a) {
  check_args(a);
  if (a.results.empty()) a.results = default_results_dir();
  const std::string out = a.quick ? a.results + "/quick" : a.results;
  if (a.plan) return print_plan(out);  // reads cell_times.csv, writes nothing: no provenance check
  const TreeState tree = tree_state(PLAB_SOURCE_DIR, git_revision());
  check_provenance(a, tree);
  mpi::init();  // several ranks only under mpirun / srun (experiments/mpi_comm.hpp)
  if (mpi::rank() > 0) {  // compute what rank 0 hands out; rank 0 writes everything else
    const auto specs = load_specs(a);
    RunnerOptions ro;
    ro.cells_dir = out + "/cells";
    ro.jobs = a.jobs;
    ro.reuse = false;
    run_specs(specs, ro);
    wait_for_release();
    return;
  }
  try {
    run_reproduce(a, out, tree);
  } catch (...) {
    release_workers();
    throw;
  }
  release_workers();
}

void run_reproduce(const ReproduceArgs& a, const std::string& out, const TreeState& tree) {
  const auto specs = load_specs(a);
  const auto lock = prepare_results(out);
  RunnerOptions ro;
  ro.cells_dir = out + "/cells";
  ro.jobs = a.jobs;
  ro.log = &std::cerr;
  ro.reuse = !(a.fresh || a.check || a.update_reference);
  std::cerr << "plab reproduce: " << specs.size() << " figure(s)" << (a.quick ? " (quick)" : "") << ", " << a.jobs
            << " job(s)" << (mpi::size() > 1 ? fmt::format(" on each of {} MPI ranks", mpi::size()) : "")
            << ", results in " << out << "\n";
  RunStats st;
  const auto outcomes = run_specs(specs, ro, &st);
  write_cell_times(out + "/cell_times.csv", outcomes);
  const Figures f = write_figures(specs, outcomes, out, !a.no_plots);
  std::string named;  // a run of named figures writes a REPORT.md of those only, and says so
  for (const auto& fig : a.figures) named += (named.empty() ? "" : " ") + fig;
  const json figures = write_report(out, specs, f.groups, f.outs, tree, report_header(a, st), named);
  if (!a.readme.empty()) {
    write_file_atomic(a.readme, replace_readme_block(read_text_file(a.readme), readme_block(figures), a.readme));
    std::cerr << "plab reproduce: figure table of " << a.readme << " rewritten\n";
  }
  if (!tree.clean) std::cerr << "plab reproduce: the report says it comes from a " << tree.describe() << "\n";
  std::cerr << fmt::format("plab reproduce: {} cells ({} computed, {} reused, {} failed) in {:.1f} s; report {}/REPORT.md\n",
                           st.total, st.computed, st.cached, st.failed, st.wall_seconds, out);
  const std::string ref_dir = a.reference.empty() ? a.results + "/reference" : a.reference;
  if (a.update_reference) {
    exit_status(specs, f, st, 0, ref_dir);  // never record the numbers of a failed or violated run
    for (std::size_t i = 0; i < specs.size(); ++i)
      write_json_atomic(ref_dir + "/" + specs[i].figure + ".json", f.outs[i].summary);
    std::cerr << "plab reproduce: reference updated in " << ref_dir << "\n";
  }
  const std::size_t ndiff = a.check ? check_reference(specs, f, ref_dir) : 0;
  if (a.check && !ndiff) std::cerr << "plab reproduce: quick numbers identical to the reference\n";
  exit_status(specs, f, st, ndiff, ref_dir);
}

}  // namespace

void register_reproduce_command(CLI::App& app) {
  auto* c = app.add_subcommand("reproduce", "Regenerate the published experiments (experiments/specs/*.json)");
  c->footer(fmt::format(
      "Exit status: 0 success; {} other error (I/O, gnuplot); {} invalid arguments or spec (or the committed report from a dirty tree without --allow-dirty); {} a cell failed; {} --check "
      "found differences from the reference; {} a hard mistake bound is violated; {} a claim or published number could "
      "not be evaluated (missing results). When several apply: {}, then {}, {}, {}.",
      kExitError, kExitInvalid, kExitCellFailed, kExitCheckDiffers, kExitBoundViolated, kExitNotEvaluated,
      kExitBoundViolated, kExitCellFailed, kExitCheckDiffers, kExitNotEvaluated));
  auto a = std::make_shared<ReproduceArgs>();
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
  c->callback([a] { reproduce(*a); });
}

}  // namespace plab
