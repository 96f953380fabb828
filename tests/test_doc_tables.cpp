// The docs' generated tables (experiments/report/doc_tables.hpp): every committed copy between
// its markers equals the generated text, the generated text covers every learner, option and
// spec, and `plab docs` rewrites a stale copy and `plab docs --check` finds one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "algorithms/registry.hpp"
#include "bounds/option_owners.hpp"
#include "core/file_io.hpp"
#include "experiments/report/doc_tables.hpp"
#include "tests/test_util.hpp"

namespace doc_tables_test {

using namespace plab;
namespace fs = std::filesystem;

const std::string kSourceTree = PLAB_SOURCE_DIR;

TEST(DocTables, CommittedCopiesAreGenerated) {
  for (const DocBlock& b : doc_blocks(kSourceTree)) {
    const std::string doc = read_text_file(kSourceTree + "/" + b.file);
    const auto committed = committed_block(doc, b.name);
    ASSERT_TRUE(committed.has_value()) << b.file << " lacks the markers " << doc_block_begin(b.name) << " ... "
                                       << doc_block_end(b.name);
    EXPECT_EQ(*committed, b.text) << b.file << ": the " << b.name << " differ from the declarations; regenerate: "
                                  << "build/plab docs (docs/extending.md#generated)";
  }
}

TEST(DocTables, EveryLearnerOptionAndSpecIsListed) {
  const std::string table = learner_table_markdown("docs/learners.md"),
                    options = option_table_markdown({"learner", "kernel", "comparator", "reader"});
  for (const LearnerInfo& l : learners())
    EXPECT_NE(table.find("[`" + l.name + "`](docs/learners.md#" + l.name + ")"), std::string::npos) << l.name;
  for (const OptionDecl& d : declared_options()) EXPECT_NE(options.find("| `" + d.flag() + "` |"), std::string::npos) << d.flag();
  const std::string ids = ", " + figure_ids_markdown(kSourceTree + "/experiments/specs") + ",";
  std::size_t specs = 0;
  for (const auto& e : fs::directory_iterator(kSourceTree + "/experiments/specs"))
    if (e.path().extension() == ".json" && e.path().stem().extension() != ".schema") {
      ++specs;
      EXPECT_NE(ids.find(", " + e.path().stem().string() + ","), std::string::npos) << e.path();
    }
  EXPECT_EQ(static_cast<std::size_t>(std::count(ids.begin(), ids.end(), ',')), specs + 1) << ids;
}

// Each learner's options table: its rows as declared, then the kernels it takes; a learner with
// options and no section of docs/learners.md is an error of plab docs, naming it.
TEST(DocTables, LearnerOptionTablesFollowTheDeclarations) {
  const std::string fogd = learner_options_markdown(learner_info("fogd"));
  EXPECT_NE(fogd.find("\n| `features` | count | 400 | >= 1, <= 16777216 | FOGD: D random Fourier frequencies"), std::string::npos)
      << fogd;
  EXPECT_NE(fogd.find("\n| kernel options | | | | `--kernel rbf` only, see [Kernel options](#kernels) |\n"), std::string::npos)
      << fogd;
  const std::string rbp = learner_options_markdown(learner_info("rbp"));
  EXPECT_NE(rbp.find("\n| `budget` | count | 0 | >= 1 | Budget B: the most supports kept (the default 0 is out of range: it "
                     "must be given) |\n"), std::string::npos) << rbp;
  EXPECT_NE(rbp.find("\n| kernel options | | | | see [Kernel options](#kernels) |\n"), std::string::npos) << rbp;
  const std::string pa1 = learner_options_markdown(learner_info("pa1"));
  EXPECT_NE(pa1.find(" | text | `paper` | `paper` \\| `dogma` | "), std::string::npos) << pa1;
  for (const LearnerInfo& l : learners()) {
    const std::string table = learner_options_markdown(l);
    for (const OptionDecl& d : l.option_rows()) EXPECT_NE(table.find("\n| `" + d.name + "` | "), std::string::npos) << l.name;
  }

  test_util::TempDir d("doc_tables_sections");
  fs::create_directories(d.p / "docs");
  fs::create_directories(d.p / "experiments");
  fs::copy(kSourceTree + "/experiments/specs", d.p / "experiments" / "specs", fs::copy_options::recursive);
  std::string doc = read_text_file(kSourceTree + "/docs/learners.md");
  doc.replace(doc.find("## `nogd` —"), 11, "## NOGD —");
  write_file_atomic((d.p / "docs" / "learners.md").string(), doc);
  try {
    (void)doc_blocks(d.p.string());
    ADD_FAILURE() << "no error without nogd's section";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("learners.md: no section '## `nogd` — ...' for the options of nogd"), std::string::npos)
        << e.what();
  }
}

TEST(DocTables, ReplaceBlockKeepsTheMarkersAndRefusesAMissingOne) {
  const std::string doc = "a " + doc_block_begin("x") + "old" + doc_block_end("x") + " b";
  EXPECT_EQ(replace_block(doc, "x", "new", "f.md"), "a " + doc_block_begin("x") + "new" + doc_block_end("x") + " b");
  EXPECT_EQ(committed_block(doc, "x"), std::optional<std::string>("old"));
  EXPECT_FALSE(committed_block(doc, "y").has_value());
  EXPECT_THROW(replace_block(doc, "y", "new", "f.md"), std::invalid_argument);
}

TEST(DocTables, CliChecksAndRewritesAStaleCopy) {
  test_util::TempDir d("doc_tables");
  fs::create_directories(d.p / "docs");
  fs::create_directories(d.p / "experiments");
  fs::copy(kSourceTree + "/experiments/specs", d.p / "experiments" / "specs", fs::copy_options::recursive);
  for (const char* f : {"README.md", "docs/learners.md", "docs/conventions.md"}) fs::copy_file(kSourceTree + "/" + f, d.p / f);
  const std::string plab = std::string(PLAB_BIN_PATH) + " docs --root " + d.p.string();
  EXPECT_EQ(std::system((plab + " --check > /dev/null").c_str()), 0);
  const std::string readme = (d.p / "README.md").string();
  write_file_atomic(readme, replace_block(read_text_file(readme), "learners", "\nstale\n", readme));
  EXPECT_NE(std::system((plab + " --check > /dev/null 2>&1").c_str()), 0);
  EXPECT_EQ(std::system((plab + " > /dev/null").c_str()), 0);
  EXPECT_EQ(read_text_file(readme), read_text_file(kSourceTree + "/README.md"));
}

}  // namespace doc_tables_test
