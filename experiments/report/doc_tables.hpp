// The tables and lists the docs show that are read from declarations, written between markers
// in the committed markdown (`plab docs` writes them, `plab docs --check` and test_doc_tables fail
// when a committed copy differs): the learner table and the option table of README.md (the
// learner registry and the option declarations, algorithms/registry.hpp, bounds/option_owners.hpp),
// the learner table, the kernel, comparator, reader and run option tables and each learner's
// options table (in its section) of docs/learners.md, and the figure ids of README.md and
// docs/conventions.md
// (the committed specs, experiments/specs/*.json, in report order).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/option_decl.hpp"

namespace plab {

struct LearnerInfo;  // algorithms/registry.hpp

// One generated block: the file (relative to the source tree), the marker name and the text
// between "<!-- BEGIN <name> (generated: plab docs) -->" and "<!-- END <name> -->".
struct DocBlock {
  std::string file;
  std::string name;
  std::string text;
};

// Every generated block of the docs, made from the declarations and from the specs under
// `root` (the source tree), in file order.
std::vector<DocBlock> doc_blocks(const std::string& root);

// The learner table: name (linked to `learners_doc` + "#name"), summary, options, kernels.
std::string learner_table_markdown(const std::string& learners_doc);
// The options table of a learner's section of docs/learners.md: each option it takes (type, default,
// range, help), then the kernels it takes.
std::string learner_options_markdown(const LearnerInfo& l);
// Every option of the given kinds ("learner", "kernel", "comparator", "reader"), in declaration
// order: type, default, range or values, owners, help.
std::string option_table_markdown(const std::vector<std::string>& kinds);
// The same table of `rows` (the run's own options, which no owner selects).
std::string option_rows_markdown(const std::vector<OptionDecl>& rows);
// "R1, R1B, R2, ..., B1": the figure ids of the specs in `spec_dir`, in report order.
std::string figure_ids_markdown(const std::string& spec_dir);

std::string doc_block_begin(const std::string& name);
std::string doc_block_end(const std::string& name);
// The text between the markers of `name` in `doc`; nullopt when either marker is missing.
std::optional<std::string> committed_block(const std::string& doc, const std::string& name);
// `doc` with the text between the markers of `name` replaced; throws std::invalid_argument naming
// `path` when the markers are missing.
std::string replace_block(const std::string& doc, const std::string& name, const std::string& text,
                          const std::string& path);

}  // namespace plab
