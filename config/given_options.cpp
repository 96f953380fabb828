#include "config/given_options.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "bounds/option_owners.hpp"
#include "core/nearest.hpp"
#include "datasets/readers.hpp"

namespace plab {
namespace {

// "<label> is an option of the poly and rbf kernels, not of <selected>".
[[noreturn]] void refuse(const OptionDecl& d, const GivenOption& g, const std::string& selected) {
  throw std::invalid_argument(d.not_applicable(selected, g.label()));
}

// How the selection of an owner reads in an error: "--kernel linear", "the default kernel='linear'".
std::string selected(const GivenOptions& given, const std::string& key, const std::string& value) {
  return given.has(key) ? given.spelling(key, value) : given.spelling(key, value) + " (the default)";
}

// A key no declaration of `kinds` has is an error naming the nearest and what `algo` takes.
void check_known(const GivenOptions& given, const std::string& algo, const std::vector<std::string>& kinds) {
  std::vector<std::string> keys, taken;
  const LearnerInfo& info = learner_info(algo, given.spelling("algo"));
  for (const OptionDecl& d : declared_options())
    if (std::find(kinds.begin(), kinds.end(), d.kind) != kinds.end()) {
      keys.push_back(option_key(d));
      if ((d.kind != "learner" || info.uses(d.name)) && std::find(taken.begin(), taken.end(), keys.back()) == taken.end())
        taken.push_back(keys.back());  // a name several learners declare once
      keys.insert(keys.end(), d.aliases.begin(), d.aliases.end());  // earlier names, still read
    }
  std::string known;
  for (const auto& k : taken) known += (known.empty() ? "" : ", ") + given.spelling(k);
  for (const auto& [key, g] : given.values)
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      throw std::invalid_argument(g.label() + ": unknown option" + did_you_mean(key, keys) + " (" + algo + " takes " +
                                  known + ")");
}

// The kind of declaration `key` names: "learner" (any learner's option, by name or earlier name) or
// "kernel" (both the learner's configuration), "comparator", "run" or "reader"; "" when none does.
std::string kind_of(const std::string& key) {
  static const std::map<std::string, std::string> fixed = [] {  // the kernel's, comparator's, run's and readers' keys
    std::map<std::string, std::string> m;
    for (const auto* decls : {&kernel_options(), &comparator_options(), &run_options(), &reader_options()})
      for (const OptionDecl& d : *decls) m[option_key(d)] = d.kind == "kernel" ? "learner" : d.kind;
    return m;
  }();
  if (const auto it = fixed.find(key); it != fixed.end()) {
    // register_learner refuses a learner option named as a kernel's, run's or reader's; the
    // comparators are declared above the registry, so a learner registered at run time is caught here.
    if (it->second == "comparator" && !learners_taking(key).empty())
      throw std::logic_error("option '" + key + "' is declared by " + join_and(learners_taking(key)) +
                             " and as a comparator option");
    return it->second;
  }
  return learners_taking(key).empty() ? "" : "learner";
}

}  // namespace

nlohmann::json kernel_json_given(const Kernel& k) {
  nlohmann::json j = {{"kernel", k.type_name()}};
  for (const OptionDecl& d : kernel_options())
    if (!d.owners.empty() && d.takes(k.type_name())) j[d.name] = k.option(d.name);
  return j;
}

std::string option_key(const OptionDecl& d) {
  std::string k = d.cli.empty() ? d.name : d.cli.substr(2);  // the flag without "--"
  std::replace(k.begin(), k.end(), '-', '_');
  return k;
}

const GivenOption* given_option(const GivenOptions& given, const OptionDecl& d) {
  // Most keys are the name itself: looked up without building option_key's copy.
  const bool plain = d.cli.empty() && d.name.find('-') == std::string::npos;
  const auto it = plain ? given.values.find(d.name) : given.values.find(option_key(d));
  return it == given.values.end() ? nullptr : &it->second;
}

Kernel configure_kernel(const GivenOptions& given) {
  Kernel k;
  const std::vector<OptionDecl>& decls = kernel_options();
  for (const OptionDecl& d : decls)  // the type first: it selects the owner of the others
    if (const GivenOption* g = d.owners.empty() ? given_option(given, d) : nullptr) {
      d.check(g->value, g->label());
      k.set_option(d.name, g->value);
    }
  for (const OptionDecl& d : decls) {
    const GivenOption* g = d.owners.empty() ? nullptr : given_option(given, d);
    if (!g) continue;
    if (!d.takes(k.type_name())) refuse(d, *g, selected(given, "kernel", k.type_name()));
    d.check(g->value, g->label());
    k.set_option(d.name, g->value);
  }
  return k;
}

LearnerConfig configure_learner(const std::string& algo, const GivenOptions& given, const std::vector<std::string>& kinds) {
  const GivenByKind by = by_kind(given);
  refuse_unknown(given, by, algo, kinds);
  const LearnerInfo& info = learner_info(algo, given.spelling("algo"));  // an unknown learner first
  return learner_config(info, by.learner, configure_kernel(by.learner));
}

GivenByKind by_kind(const GivenOptions& given) {
  GivenOptions none;
  none.spell = given.spell;
  none.no_comparator = given.no_comparator;
  GivenByKind by{none, none, none, none, {}};
  for (const auto& [key, g] : given.values) {
    const std::string kind = kind_of(key);
    if (kind.empty()) {
      by.unknown.push_back(key);
      continue;
    }
    (kind == "run" ? by.run : kind == "comparator" ? by.comparator : kind == "reader" ? by.reader : by.learner)
        .values.emplace(key, g);
  }
  return by;
}

void refuse_unknown(const GivenOptions& given, const GivenByKind& by, const std::string& algo,
                    const std::vector<std::string>& kinds) {
  const auto in = [&](const char* kind) { return std::find(kinds.begin(), kinds.end(), kind) != kinds.end(); };
  const bool left_out = (!in("comparator") && !by.comparator.values.empty()) || (!in("run") && !by.run.values.empty()) ||
                        (!in("reader") && !by.reader.values.empty());
  if (by.unknown.empty() && !left_out) return;
  GivenOptions refused = given;  // the keys refused, the first of which check_known names
  std::erase_if(refused.values, [&](const auto& kv) {
    const auto of = [&](const GivenOptions& part) { return part.has(kv.first); };
    return of(by.learner) || (in("comparator") && of(by.comparator)) || (in("run") && of(by.run)) ||
           (in("reader") && of(by.reader));
  });
  check_known(refused, algo, kinds);  // throws, naming the nearest and what algo takes
  throw std::logic_error("refuse_unknown: a key of no kind was not refused");
}

void check_reader_options(const GivenOptions& given, const std::string& reader, const std::string& selected) {
  for (const OptionDecl& d : reader_options()) {
    const GivenOption* g = given_option(given, d);
    if (!g) continue;
    if (!d.takes(reader)) refuse(d, *g, selected);
    d.check(g->value, g->label());
  }
}

void configure_comparator(ComparatorRequest& c, const GivenOptions& given, const Dataset* data, const Kernel& k) {
  const std::vector<OptionDecl>& decls = comparator_options();
  for (const OptionDecl& d : decls)
    if (const GivenOption* g = d.owners.empty() ? given_option(given, d) : nullptr) {
      d.check(g->value, g->label());
      c.kind = g->value.get<std::string>();
    }
  // "auto" is the comparator it picks on this data (docs/bounds.md#comparator).
  const std::string kind = c.kind == "auto" && data ? resolve_comparator(c.kind, *data, k) : c.kind;
  for (const OptionDecl& d : decls) {
    const GivenOption* gp = d.owners.empty() ? nullptr : given_option(given, d);
    if (!gp) continue;
    const GivenOption& g = *gp;
    if (!d.takes(kind)) {
      if (c.kind != kind) {  // the owners other than auto: auto did not pick them
        OptionDecl picked = d;
        std::erase(picked.owners, "auto");
        throw std::invalid_argument(picked.not_applicable("the " + kind + " comparator, which " +
                                                              selected(given, "comparator", c.kind) + " picks on " +
                                                              (data->name.empty() ? "this data" : data->name) +
                                                              (kind == "truth" ? " (its generating hyperplane)" : ""),
                                                          g.label()));
      }
      refuse(d, g, selected(given, "comparator", kind));
    }
    d.check(g.value, g.label());
    if (d.name == "svm_C") c.svm_C = g.value.get<double>();
    if (d.name == "comparator_seed") c.seed = g.value.get<uint64_t>();
  }
  // The truth is the generating hyperplane of a synthetic set: linear, and only where the data has one.
  if (kind == "truth" && k.type != Kernel::Type::linear)
    throw std::invalid_argument(selected(given, "comparator", kind) + " needs " + given.spelling("kernel", "linear") +
                                " (the generating hyperplane is linear)");
  if (kind == "truth" && data && data->truth.empty())
    throw std::invalid_argument(selected(given, "comparator", kind) + ": data set '" + data->name +
                                "' has no generating hyperplane");
}

}  // namespace plab
