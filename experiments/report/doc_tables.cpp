#include "experiments/report/doc_tables.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/registry.hpp"
#include "bounds/option_owners.hpp"
#include "core/file_io.hpp"
#include "core/format.hpp"
#include "core/json_text.hpp"
#include "datasets/readers.hpp"
#include "experiments/report/report_summary.hpp"

namespace plab {
namespace {

namespace fs = std::filesystem;

// A table cell: '|' would end it.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string code(const std::string& s) { return "`" + s + "`"; }

// A numeric default outside the declared range: no default, the option must be given (budget 0).
bool default_out_of_range(const OptionDecl& d) {
  if (!d.default_value.is_number()) return false;
  const double x = d.default_value.get<double>();
  return (d.min && (d.min_open ? x <= *d.min : x < *d.min)) || (d.max && (d.max_open ? x >= *d.max : x > *d.max));
}

// A default as a reader of the docs writes it; one outside the declared range is no default.
std::string default_text(const OptionDecl& d) {
  const nlohmann::json& v = d.default_value;
  if (v.is_null()) return "–";
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  if (v.is_string()) return code(v.get<std::string>());
  if (v.is_number()) {
    if (default_out_of_range(d)) return "required";
    return v.is_number_integer() ? std::to_string(v.get<int64_t>()) : fmt::format("{}", v.get<double>());  // shortest round trip
  }
  return code(v.dump());
}

std::string values_text(const OptionDecl& d) {
  if (d.type == OptionDecl::Type::flag) return "on or off";
  if (d.allowed.empty()) return d.range_text().empty() ? "any" : d.range_text();
  std::string s;
  for (const auto& a : d.allowed) s += (s.empty() ? "" : ", ") + code(a);
  return s;
}

std::string owners_text(const OptionDecl& d) {
  if (d.owners.empty()) return d.kind == "run" ? "every run" : "every run (selects the " + d.kind + ")";
  std::string s;
  for (const auto& o : d.owners) s += (s.empty() ? "" : ", ") + code(o);
  if (d.kind == "kernel") return "kernels " + s;
  if (d.kind == "comparator") return "comparators " + s;
  if (d.kind == "reader") return "readers " + s;
  return s;
}

// " (earlier name `ogd_eta`, still read)" for a renamed option (docs/learners.md#options).
std::string aliases_text(const OptionDecl& d) {
  std::string s;
  for (const auto& a : d.aliases) s += (s.empty() ? "" : ", ") + code(a);
  return s.empty() ? "" : " (earlier name " + s + ", still read)";
}

// The kernel options row of a learner's table: which kernels it takes.
std::string kernels_text(const LearnerInfo& l) {
  const std::string see = "see [Kernel options](#kernels)";
  if (l.kernels.empty()) return see;
  std::string s;
  bool options = false;  // a kernel it takes has options
  for (const Kernel::Type t : l.kernels) {
    const std::string name = Kernel{.type = t}.type_name();
    s += (s.empty() ? "" : " or ") + code("--kernel " + name);
    for (const OptionDecl& d : kernel_options()) options = options || (!d.owners.empty() && d.takes(name));
  }
  return s + " only" + (options ? ", " + see : " (no kernel options)");
}

// The heading line of the section of `name` in docs/learners.md ("## `bogd`, `bogd++` — ...").
std::optional<std::string> learner_heading(const std::string& doc, const std::string& name) {
  for (std::size_t p = doc.find("\n## "); p != std::string::npos; p = doc.find("\n## ", p + 1)) {
    const std::string line = doc.substr(p + 1, doc.find('\n', p + 1) - p - 1);
    if (line.find(code(name)) != std::string::npos) return line;
  }
  return std::nullopt;
}

// One block per section of docs/learners.md whose learners take options ("options of bogd, bogd++"):
// learners that share a section share its table.
std::vector<DocBlock> learner_option_blocks(const std::string& learners_doc, const std::string& path) {
  std::vector<DocBlock> blocks;
  std::vector<std::string> headings;  // of blocks[i]
  for (const LearnerInfo& l : learners()) {
    if (l.option_rows().empty()) continue;
    const std::optional<std::string> heading = learner_heading(learners_doc, l.name);
    if (!heading) throw std::invalid_argument(path + ": no section '## " + code(l.name) + " — ...' for the options of " + l.name);
    std::string text = "\n\n";  // the table indented into the section's "* **Options.**" item
    const std::string table = learner_options_markdown(l);
    for (std::size_t b = 0, e; b < table.size(); b = e + 1) {
      e = table.find('\n', b);
      text += "  " + table.substr(b, e - b + 1);
    }
    text += "\n  ";
    const auto it = std::find(headings.begin(), headings.end(), *heading);
    if (it == headings.end()) {
      headings.push_back(*heading);
      blocks.push_back({"docs/learners.md", "options of " + l.name, text});
      continue;
    }
    DocBlock& shared = blocks[static_cast<std::size_t>(it - headings.begin())];
    if (shared.text != text)
      throw std::invalid_argument(path + ": " + l.name + " shares the section '" + *heading + "' but not its options");
    shared.name += ", " + l.name;
  }
  return blocks;
}

}  // namespace

std::string learner_options_markdown(const LearnerInfo& l) {
  using T = OptionDecl::Type;
  std::string s = "| option | type | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const OptionDecl& d : l.option_rows()) {
    const nlohmann::json& v = d.default_value;
    const std::string def = d.type == T::real ? format_g(v.get<double>()) : d.type == T::text ? code(v.get<std::string>()) : v.dump();
    std::string range = d.type == T::flag ? "—" : d.range_text().empty() ? "any" : d.range_text();
    if (!d.allowed.empty()) {
      range.clear();
      for (const auto& a : d.allowed) range += (range.empty() ? "" : " | ") + code(a);
    }
    const std::string required = default_out_of_range(d) ? " (the default " + def + " is out of range: it must be given)" : "";
    s += "| " + code(d.name) + " | " + d.type_name() + " | " + cell(def) + " | " + cell(range) + " | " +
         cell(d.help + aliases_text(d) + required) + " |\n";
  }
  return s + "| kernel options | | | | " + kernels_text(l) + " |\n";
}

std::string learner_table_markdown(const std::string& learners_doc) {
  std::string s = "| `--algo` | what it is | options it takes (default) | kernels |\n|---|---|---|---|\n";
  for (const LearnerInfo& l : learners()) {
    std::string opts;
    for (const OptionDecl& o : l.option_rows()) opts += (opts.empty() ? "" : ", ") + code(o.flag()) + " (" + default_text(o) + ")";
    s += "| [" + code(l.name) + "](" + learners_doc + "#" + l.name + ") | " + cell(l.summary) +
         (l.multiclass ? " (multiclass: class-index labels)" : "") + " | " + cell(opts.empty() ? "–" : opts) + " | " +
         l.kernel_names() + " |\n";
  }
  return s;
}

std::string option_rows_markdown(const std::vector<OptionDecl>& rows) {
  std::string s = "| option | type | default | range or values | taken by | what it sets |\n|---|---|---|---|---|---|\n";
  for (const OptionDecl& d : rows)
    s += "| " + code(d.flag()) + " | " + d.type_name() + " | " + cell(default_text(d)) + " | " + cell(values_text(d)) +
         " | " + cell(owners_text(d)) + " | " + cell(d.help + aliases_text(d)) + " |\n";
  return s;
}

std::string option_table_markdown(const std::vector<std::string>& kinds) {
  std::vector<OptionDecl> rows;
  for (const OptionDecl& d : declared_options())
    if (std::find(kinds.begin(), kinds.end(), d.kind) != kinds.end()) rows.push_back(d);
  return option_rows_markdown(rows);
}

std::string figure_ids_markdown(const std::string& spec_dir) {
  std::vector<std::string> ids;
  for (const auto& e : fs::directory_iterator(spec_dir))
    if (e.path().extension() == ".json" && e.path().stem().extension() != ".schema")  // not spec.schema.json
      ids.push_back(parse_json(read_text_file(e.path().string())).at("figure").get<std::string>());
  if (ids.empty()) throw std::invalid_argument(spec_dir + ": no *.json spec");
  std::sort(ids.begin(), ids.end(), figure_before);
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id;
  return s;
}


std::vector<DocBlock> doc_blocks(const std::string& root) {
  const std::string figures = figure_ids_markdown((fs::path(root) / "experiments" / "specs").string());
  const std::string learners_path = (fs::path(root) / "docs" / "learners.md").string();
  std::vector<DocBlock> blocks = {
      {"README.md", "learners", "\n" + learner_table_markdown("docs/learners.md")},
      {"README.md", "options", "\n" + option_table_markdown({"learner", "kernel", "comparator"})},
      {"README.md", "figure ids", figures},
      {"docs/conventions.md", "figure ids", figures},
      {"docs/learners.md", "learners", "\n" + learner_table_markdown("")},
      {"docs/learners.md", "kernel options", "\n" + option_table_markdown({"kernel"})},
      {"docs/learners.md", "comparator options", "\n" + option_table_markdown({"comparator"})},
      {"docs/learners.md", "reader options", "\n" + option_table_markdown({"reader"})},
      {"docs/learners.md", "run options", "\n" + option_rows_markdown(run_options())},
  };
  for (DocBlock& b : learner_option_blocks(read_text_file(learners_path), learners_path)) blocks.push_back(std::move(b));
  return blocks;
}

std::string doc_block_begin(const std::string& name) { return "<!-- BEGIN " + name + " (generated: plab docs) -->"; }
std::string doc_block_end(const std::string& name) { return "<!-- END " + name + " -->"; }

std::optional<std::string> committed_block(const std::string& doc, const std::string& name) {
  const std::string begin = doc_block_begin(name), end = doc_block_end(name);
  const auto b = doc.find(begin);
  if (b == std::string::npos) return std::nullopt;
  const auto e = doc.find(end, b + begin.size());
  if (e == std::string::npos) return std::nullopt;
  return doc.substr(b + begin.size(), e - b - begin.size());
}

std::string replace_block(const std::string& doc, const std::string& name, const std::string& text,
                          const std::string& path) {
  const std::string begin = doc_block_begin(name), end = doc_block_end(name);
  const auto b = doc.find(begin);
  const auto e = b == std::string::npos ? b : doc.find(end, b + begin.size());
  if (e == std::string::npos)
    throw std::invalid_argument(path + ": no " + begin + " ... " + end + " markers for the generated " + name);
  return doc.substr(0, b + begin.size()) + text + doc.substr(e);
}

}  // namespace plab
