// `plab plot TRACE... [-o out.png|out.svg] [--metric M] [--x rounds|support] [--bounds] [--paper]`:
// one figure of runs recorded by `plab run --trace` (experiments/report/trace_figure.hpp), drawn
// by the report's plot path; docs/plot.md.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "experiments/report/trace_figure.hpp"

namespace plab {

void register_plot_command(CLI::App& app) {
  auto* c = app.add_subcommand("plot", "Draw recorded runs (traces of plab run --trace), with their bounds");
  auto a = std::make_shared<TraceFigureRequest>();
  c->add_option("traces", a->traces, "Trace CSVs written by plab run --trace")->required()->check(CLI::ExistingFile);
  c->add_option("-o,--output", a->out, "Image to write (.png or .svg; the other one, the gnuplot script and its data "
                                        "are written beside it)")
      ->capture_default_str();
  c->add_option("--metric", a->metric, "online_error | mistakes | support_size")->capture_default_str();
  c->add_option("--x", a->x, "rounds | support (the support size after the round)")->capture_default_str();
  c->add_flag("--bounds", a->bounds, "Draw the hard mistake bounds of the (one) trace on its prefixes");
  c->add_flag("--paper", a->paper, "Draw the published series of a figure that ran this data, learner and options");
  c->callback([a] {
    const TraceFigure fig = write_trace_figure(*a);
    for (const auto& n : fig.notes) std::cerr << "plab plot: " << n << "\n";
    std::cout << "wrote " << fig.base << ".png and " << fig.base << ".svg (gnuplot script " << fig.base << ".gp, data "
              << fig.base << ".dat)\n";
  });
}

}  // namespace plab
