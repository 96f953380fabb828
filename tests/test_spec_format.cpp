// The spec format is declared once (experiments/spec/spec_format.hpp): the committed JSON schema
// and the key reference of docs/specs.md are what the declarations generate, the declarations
// are complete (every reference resolves, every learner option is a param), and the structural
// check gives the errors it promises for each kind of value.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "algorithms/options.hpp"
#include "algorithms/registry.hpp"
#include "bounds/bound_ids.hpp"
#include "bounds/option_owners.hpp"
#include "experiments/spec/spec.hpp"
#include "experiments/spec/spec_format.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using namespace plab::spec_format;
using nlohmann::json;

namespace {

const std::string kRoot = PLAB_SOURCE_DIR;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lines of `a` that `b` lacks, for a readable failure.
std::string missing_lines(const std::string& a, const std::string& b) {
  std::set<std::string> have;
  std::istringstream bs(b), as(a);
  for (std::string l; std::getline(bs, l);) have.insert(l);
  std::string out;
  for (std::string l; std::getline(as, l);)
    if (!have.count(l)) out += "  " + l + "\n";
  return out;
}

// The error parse_spec gives for `spec` (the minimal valid figure patched by `patch`).
std::string error_of(const json& patch) {
  json j = json::parse(R"({"figure": "F", "datasets": [{"id": "d", "data": "synthetic:dekel:n=10"}],
                          "algorithms": [{"id": "p", "algo": "projectron"}]})");
  j.merge_patch(patch);
  try {
    parse_spec(j, false, "f.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void collect_refs(const Type& t, std::set<std::string>& out) {
  if (t.kind == Kind::ref) out.insert(t.what);
  for (const auto& i : t.item) collect_refs(i, out);
  for (const auto& f : t.fields) collect_refs(f.type, out);
}

}  // namespace

TEST(SpecFormat, CommittedSchemaIsGenerated) {
  const std::string committed = read(kRoot + "/experiments/specs/spec.schema.json");
  const std::string generated = spec_schema().dump(2) + "\n";
  EXPECT_EQ(committed, generated) << "regenerate: build/plab spec-schema > experiments/specs/spec.schema.json\n"
                                  << "generated lines not committed:\n" << missing_lines(generated, committed)
                                  << "committed lines not generated:\n" << missing_lines(committed, generated);
}

TEST(SpecFormat, DocsKeyReferenceIsGenerated) {
  const std::string doc = read(kRoot + "/docs/specs.md");
  const std::string begin = "<!-- BEGIN spec keys (generated) -->\n", end = "<!-- END spec keys -->";
  const auto b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::string committed = doc.substr(b + begin.size(), e - b - begin.size());
  const std::string generated = spec_keys_markdown();
  EXPECT_EQ(committed, generated) << "regenerate: build/plab spec-schema --markdown, between the markers\n"
                                  << "keys and types the docs lack:\n" << missing_lines(generated, committed)
                                  << "documented but not declared:\n" << missing_lines(committed, generated);
}

TEST(SpecFormat, EveryReferenceResolvesAndEveryDefinitionIsUsed) {
  std::set<std::string> refs;
  for (const auto& d : definitions()) collect_refs(d.type, refs);
  refs.insert("derived");  // named by the params check (spec_kinds.cpp)
  std::set<std::string> names;
  for (const auto& d : definitions()) {
    EXPECT_TRUE(names.insert(d.name).second) << "defined twice: " << d.name;
    EXPECT_FALSE(d.help.empty()) << d.name;
    for (const auto& f : d.type.fields) EXPECT_FALSE(f.help.empty()) << d.name << "/" << f.key;
  }
  for (const auto& r : refs) EXPECT_TRUE(names.count(r)) << "no definition " << r;
  for (const auto& n : names) {
    EXPECT_TRUE(n == "spec" || refs.count(n)) << "unused definition " << n;
  }
}

// conform() rejects a key the declarations lack, so the parser cannot read an undeclared one;
// the reverse, a declared key nothing reads, would be accepted and ignored: every declared key
// must be named in the parser's source.
TEST(SpecFormat, EveryDeclaredKeyIsReadByTheParser) {
  const std::string parser = read(kRoot + "/experiments/spec/spec_parse.cpp");
  ASSERT_FALSE(parser.empty());
  for (const auto& d : definitions())
    for (const auto& f : d.type.fields)
      EXPECT_NE(parser.find("\"" + f.key + "\""), std::string::npos) << d.name << "/" << f.key << " is never read";
}

TEST(SpecFormat, EveryLearnerOptionIsAParamOfItsType) {
  const auto params = spec_schema()["$defs"]["params"]["properties"];
  const std::map<std::string, std::string> json_type = {
      {"real", "number"}, {"count", "integer"}, {"flag", "boolean"}};
  std::set<std::string> keys;  // one key a name (several learners may declare one) and one an earlier name
  for (const auto& o : declared_options()) {  // each learner's rows
    if (o.kind != "learner") continue;
    keys.insert(o.name);
    keys.insert(o.aliases.begin(), o.aliases.end());
    ASSERT_TRUE(params.contains(o.name)) << o.name;
    const auto& fixed = params[o.name]["anyOf"][0];
    if (o.allowed.empty()) {
      EXPECT_EQ(fixed["type"], json_type.at(o.type_name())) << o.name;
    } else {
      EXPECT_EQ(fixed["enum"].get<std::vector<std::string>>(), o.allowed) << o.name;
    }
  }
  EXPECT_TRUE(params.contains("metric_untruncated_tail"));
  EXPECT_EQ(params.size(), keys.size() + 1);
}

// The declared ranges reach the schema, and a value outside one stops the spec when it is read.
TEST(SpecFormat, DeclaredRangesAreInTheSchemaAndCheckedOnRead) {
  const auto params = spec_schema()["$defs"]["params"]["properties"];
  EXPECT_EQ(params["budget"]["anyOf"][0]["minimum"], 1);
  EXPECT_EQ(params["C"]["anyOf"][0]["exclusiveMinimum"], 0);
  EXPECT_EQ(params["nu"]["anyOf"][0]["maximum"], 1);
  EXPECT_EQ(params["truncate"]["anyOf"][0]["minimum"], 0);
  for (const auto& o : declared_options()) {  // a name several learners declare: the union of their ranges
    if (o.kind != "learner" || o.type_name() != "real" || !o.min) continue;
    const auto& s = params[o.name]["anyOf"][0];
    const double lo = s.contains("minimum") ? s["minimum"].get<double>() : s.value("exclusiveMinimum", -1e300);
    EXPECT_LE(lo, *o.min) << o.name;
    if (lo == *o.min && s.contains("exclusiveMinimum")) {
      EXPECT_TRUE(o.min_open) << o.name;
    }
  }
  EXPECT_EQ(params["eta"]["anyOf"][0]["minimum"], 0);  // the Projectron's threshold may be 0, BOGD's step not
  const std::string e = error_of({{"algorithms", {{{"id", "r"}, {"algo", "rbp"}, {"params", {{"budget", 0}}}}}}});
  EXPECT_NE(e.find("f.json: /algorithms/0/params/budget"), std::string::npos) << e;
  EXPECT_NE(e.find("budget must be >= 1 for rbp, got 0"), std::string::npos) << e;
  // Each algorithm's own range, when the spec is read: eta 0 is a Projectron's, not BOGD's.
  const std::string b = error_of({{"algorithms", {{{"id", "b"}, {"algo", "bogd"}, {"params", {{"budget", 5}, {"eta", {0.5, 0}}}}}}}});
  EXPECT_NE(b.find("f.json: /algorithms/0/params/eta"), std::string::npos) << b;
  EXPECT_NE(b.find("eta must be > 0 (and finite) for bogd, got 0"), std::string::npos) << b;
  const std::string p = error_of({{"algorithms", {{{"id", "p"}, {"algo", "projectron"}, {"params", {{"eta", -1}}}}}}});
  EXPECT_NE(p.find("must be >= 0"), std::string::npos) << p;
}

// The schema names learners and bound ids by pattern (the parser checks the registries).
TEST(SpecFormat, EveryLearnerAndBoundIdMatchesItsSchemaPattern) {
  const auto defs = spec_schema()["$defs"];
  const std::regex learner(defs["learner"]["pattern"].get<std::string>());
  const std::regex bound(defs["bound_id"]["pattern"].get<std::string>());
  const std::regex metric(defs["metric"]["anyOf"][1]["pattern"].get<std::string>());
  for (const auto& name : learner_names()) EXPECT_TRUE(std::regex_search(name, learner)) << name;
  for (const auto& id : bound_id_names()) {
    EXPECT_TRUE(std::regex_search(id, bound)) << id;
    EXPECT_TRUE(std::regex_search("bound_ratio:" + id, metric)) << id;
  }
  EXPECT_FALSE(std::regex_search(std::string("MR (4) all-T"), bound));
}

TEST(SpecFormat, StructuralErrorsOfEachKind) {
  const std::vector<std::pair<json, std::string>> cases = {
      {{{"analysis", {{"o2b", {{"delta", 1.5}}}}}}, "f.json: /analysis/o2b/delta: must be in (0, 1)"},
      {{{"analysis", {{"rho_profile", {{"rho", {1, -2}}}}}}}, "f.json: /analysis/rho_profile/rho/1: must be > 0"},
      {{{"plots", {{{"id", "x"}, {"xrange", {1}}}}}}, "f.json: /plots/0/xrange: must have 2 elements"},
      {{{"kind", "table"}}, "f.json: /: missing key \"sources\" (required with \"kind\")"},
      {{{"table", json::object()}}, "f.json: /table: allowed only with \"kind\""},
      {{{"datasets", nullptr}}, "f.json: /: missing key \"datasets\""},
      {{{"plots", {{{"id", "x"}, {"type", "fnal"}}}}}, "f.json: /plots/0/type: unknown plot type \"fnal\" (did you mean \"final\"?)"},
      {{{"plots", {{{"type", "final"}}}}}, "f.json: /plots/0: missing key \"id\""},
      {{{"published", {{{"algorithm", "p"}, {"metric", "mistakes"}, {"value", "3"}}}}},
       "f.json: /published/0/value: must be a number or an object, not string"},
      {{{"plots", {{{"id", "x"}, {"colors", {{"p", 3}}}}}}}, "f.json: /plots/0/colors/p: must be a string, not number"},
      {{{"figure", ""}}, "f.json: /figure: must not be empty"},
      {{{"limit", -1}}, "f.json: /limit: must be >= 0"},
      {{{"datasets", {{{"id", "d"}, {"optional", "yes"}}}}}, "f.json: /datasets/0/optional: must be true or false, not string"},
      {{{"defaults", {{"eta", {{"from", "p"}, {"use", "median"}}}}}}, "f.json: /defaults/eta/use: unknown use \"median\" (did you mean \"mean\"?)"},
      {{{"defaults", {{"metric_untruncated_tail", 1}}}}, "f.json: /defaults/metric_untruncated_tail: metric_untruncated_tail must be true or false, got 1"},
      {{{"bounds", {{"names", {"novikof"}}}}}, "f.json: /bounds/names/0: unknown bound id \"novikof\" (did you mean \"novikoff\"?)"},
  };
  for (const auto& [patch, expected] : cases) EXPECT_EQ(error_of(patch), expected) << patch.dump();
}

TEST(SpecFormat, ValidSpecsPassTheCheck) {
  EXPECT_EQ(error_of(json::object()), "");
  EXPECT_EQ(error_of({{"kind", "table"}, {"sources", {"R1"}}, {"table", {{"bounds", {"novikoff"}}}}}), "");
}

TEST(SpecFormat, CliPrintsTheSchemaAndTheKeys) {
  plab::test_util::TempDir d("spec_schema");
  const std::string out = (d.p / "schema.json").string(), md = (d.p / "keys.md").string();
  ASSERT_EQ(std::system((std::string(PLAB_BIN_PATH) + " spec-schema > " + out).c_str()), 0);
  ASSERT_EQ(std::system((std::string(PLAB_BIN_PATH) + " spec-schema --markdown > " + md).c_str()), 0);
  EXPECT_EQ(read(out), spec_schema().dump(2) + "\n");
  EXPECT_EQ(read(md), spec_keys_markdown());
}
