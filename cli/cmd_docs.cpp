// `plab docs [--check] [--root DIR]`: writes the docs' generated tables and lists
// (experiments/report/doc_tables.hpp) between their markers in README.md, docs/learners.md and
// docs/conventions.md; --check only compares and exits 1 naming each block that differs.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "experiments/report/doc_tables.hpp"

namespace plab {

void register_docs_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("docs", "Write the docs' generated tables (learners, options, figure ids) "
                                         "between their markers (docs/extending.md#generated)");
  auto check = std::make_shared<bool>(false);
  auto root = std::make_shared<std::string>(PLAB_SOURCE_DIR);
  cmd->add_flag("--check", *check, "Only compare: exit 1 naming each block whose committed text differs");
  cmd->add_option("--root", *root, "The source tree holding README.md and docs/")->capture_default_str();
  cmd->callback([check, root] {
    int stale = 0;
    for (const DocBlock& b : doc_blocks(*root)) {
      const std::string path = (std::filesystem::path(*root) / b.file).string();
      const std::string doc = read_text_file(path);
      const std::optional<std::string> now = committed_block(doc, b.name);
      if (now == b.text) continue;
      ++stale;
      if (*check) std::cout << path << ": the generated " << b.name << " differ" << (now ? "" : " (no markers)") << "\n";
      else {
        write_file_atomic(path, replace_block(doc, b.name, b.text, path));
        std::cout << path << ": wrote the " << b.name << "\n";
      }
    }
    if (*check && stale) throw ExitStatus(1, "regenerate with plab docs");
  });
}

}  // namespace plab
