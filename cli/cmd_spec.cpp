// `plab spec-schema [--markdown]`: the spec format's declarations (experiments/spec/spec_format.hpp)
// as the JSON schema committed as experiments/specs/spec.schema.json, or as the key reference of
// docs/specs.md. test_spec_format fails when either committed copy differs.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "experiments/spec/spec_format.hpp"

namespace plab {

void register_spec_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("spec-schema", "Print the JSON schema of experiment specs (docs/specs.md)");
  auto markdown = std::make_shared<bool>(false);
  cmd->add_flag("--markdown", *markdown, "Print the key reference of docs/specs.md instead");
  cmd->callback([markdown] {
    if (*markdown) std::cout << spec_format::spec_keys_markdown();
    else std::cout << spec_format::spec_schema().dump(2) << "\n";
  });
}

}  // namespace plab
