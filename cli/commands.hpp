// Subcommands of the `plab` program; each cmd_*.cpp registers one.
#pragma once
#include <CLI/CLI.hpp>
#include <stdexcept>

namespace plab {
void register_run_command(CLI::App& app);
void register_datasets_command(CLI::App& app);
void register_bounds_command(CLI::App& app);
void register_reproduce_command(CLI::App& app);
void register_spec_command(CLI::App& app);
void register_docs_command(CLI::App& app);
void register_predict_command(CLI::App& app);
void register_model_command(CLI::App& app);
void register_plot_command(CLI::App& app);

// Thrown by a command to end the program with a given exit status after printing its message.
struct ExitStatus : std::runtime_error {
  int code;
  ExitStatus(int c, const std::string& what) : std::runtime_error(what), code(c) {}
};
}  // namespace plab
