// plab: the command-line front end (LIBSVM-style: small, flat, one binary).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <string_view>
#include <utility>

#include "bounds/bounds.hpp"
#include "cli/commands.hpp"
#include "core/huge_pages.hpp"
#include "datasets/readers.hpp"

int main(int argc, char** argv) {
  plab::enable_heap_warming();  // core/huge_pages.hpp: a data set's arrays filled without a fault a page
  CLI::App app{"perceptron-lab: online Perceptron-family learners checked against their mistake bounds"};
  app.require_subcommand(1);
  const std::pair<std::string_view, void (*)(CLI::App&)> commands[] = {
      {"run", plab::register_run_command},         {"datasets", plab::register_datasets_command},
      {"bounds", plab::register_bounds_command},   {"plot", plab::register_plot_command},
      {"reproduce", plab::register_reproduce_command}, {"spec", plab::register_spec_command},
      {"docs", plab::register_docs_command},       {"predict", plab::register_predict_command},
      {"model", plab::register_model_command}};
  // Only the command named is built (its option rows are most of a short run's start-up); every
  // command for the top-level help, an unknown name and `plab docs`, which documents them all.
  const std::string_view named = argc > 1 ? argv[1] : "";
  const bool one = named != "docs" && std::any_of(std::begin(commands), std::end(commands),
                                                  [&](const auto& c) { return c.first == named; });
  for (const auto& [name, add] : commands)
    if (!one || name == named) add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help is 0; every bad flag or value is 2, as documented
  } catch (const plab::BoundViolation& e) {
    std::cerr << "plab: " << e.what() << "\n";
    return 3;
  } catch (const plab::ExitStatus& e) {
    if (*e.what()) std::cerr << "plab: " << e.what() << "\n";
    return e.code;
  } catch (const plab::DataError& e) {
    std::cerr << "plab: data error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "plab: invalid argument: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {  // e.g. a folder without search permission
    std::cerr << "plab: cannot access " << e.path1().string() << ": " << e.code().message() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "plab: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
