#include "config/recorded_options.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "core/json_text.hpp"

namespace plab {

Kernel model_kernel(const ModelFile& m) {
  Kernel k;
  for (const OptionDecl& d : kernel_options()) {
    const nlohmann::json& v = m.header.kernel.at(d.name);  // every field is there (read_model)
    try {
      d.check(v, "header: kernel." + d.name);
    } catch (const std::invalid_argument& e) {
      throw ModelError(m.path + ": " + e.what());
    }
    k.set_option(d.name, v);
  }
  return k;
}

LearnerConfig model_learner(const ModelFile& m, std::size_t dim) {
  const ModelHeader& h = m.header;
  const LearnerInfo* info = find_learner(h.algo);
  if (!info) throw ModelError(m.path + ": learner '" + h.algo + "' is not registered in this plab");
  if (info->multiclass != !h.classes.empty() || h.classes.size() == 1)
    throw ModelError(m.path + ": " + h.algo + (info->multiclass ? " needs a class list of 2 or more" : " takes no class list"));
  if (!h.options.is_object()) throw ModelError(m.path + ": header: options is not an object");
  const Kernel kernel = model_kernel(m);
  try {
    // The header's options as given options, each named "option 'k'" (the path prefixes the
    // error); its kernel, checked above, named "kernel <type>".
    GivenOptions given;
    for (const auto& [k, v] : h.options.items()) given.add(k, v, "", "option '" + k + "'");
    given.add("kernel", kernel.type_name());
    LearnerOptions before;
    options_absent_as_before(before, h.options, info->own.rows);
    return learner_config(*info, given, kernel, before).with_data(dim, h.classes.size());
  } catch (const std::invalid_argument& e) {
    throw ModelError(m.path + ": " + e.what());
  }
}

std::unique_ptr<Learner> restore_learner(const ModelFile& m, std::size_t dim, bool record_norms) {
  LearnerConfig c = model_learner(m, dim);
  c.with_record_norms(record_norms);
  try {
    check_finite_state(m.arrays);
    std::unique_ptr<Learner> l = make_learner(c);
    const StateReader arrays(m.arrays);
    l->load_state(arrays);
    // Every array is the learner's: one it does not read would be silently dropped (a model of
    // another learner relabelled, an edited file) (docs/models.md#refused).
    if (const std::vector<std::string> extra = arrays.unread(); !extra.empty()) {
      std::string names;
      for (std::size_t i = 0; i < extra.size() && i < 8; ++i) names += (i ? ", '" : "'") + extra[i] + "'";
      throw ModelError("array " + names + (extra.size() > 8 ? ", ..." : "") + " is not part of " + m.header.algo +
                       "'s state (a model of another learner?)");
    }
    const LearnerInfo& info = learner_info(m.header.algo);
    if (const std::size_t budget = own_value<std::size_t>(info, c, "budget", 0); info.uses("budget") && l->support_size() > budget)
      throw ModelError(std::to_string(l->support_size()) + " supports exceed the budget " + std::to_string(budget) +
                       " of options.budget");
    return l;
  } catch (const std::bad_alloc&) {
    throw ModelError(m.path + ": the state does not fit in memory");
  } catch (const std::exception& e) {
    throw ModelError(m.path + ": " + m.header.algo + " state: " + e.what());
  }
}

std::unique_ptr<Learner> load_model(const std::string& path) {
  // dim 0: a learner's dimension grows with the rows it sees and only sizes its buffers.
  return restore_learner(read_model(path), 0);
}

namespace {
// A registered learner's recorded kernel: every field declared (numerics/kernel.cpp) and in its
// range, and a kernel the learner takes, as plab run checks them.
void check_meta_kernel(const LearnerInfo& info, const nlohmann::json& meta) {
  if (!meta.contains("kernel")) return;
  const nlohmann::json& kj = meta.at("kernel");
  if (!kj.is_object()) throw std::invalid_argument("trace metadata: kernel: not an object, got " + json_excerpt(kj));
  Kernel k;
  const std::vector<OptionDecl>& decls = kernel_options();
  for (const auto& item : kj.items()) {
    const std::string name = item.key();  // not a structured binding: clang before 16 cannot capture one
    const nlohmann::json& v = item.value();
    const auto d = std::find_if(decls.begin(), decls.end(), [&](const OptionDecl& o) { return o.name == name; });
    if (d == decls.end()) throw std::invalid_argument("trace metadata: kernel." + name + ": not a kernel option");
    d->check(v, "trace metadata: kernel." + name);
    k.set_option(name, v);
  }
  if (!info.takes(k))
    throw std::invalid_argument("trace metadata: kernel: " + k.type_name() + " is not a kernel of " + info.name +
                                " (it takes " + info.kernel_names() + ")");
}
}  // namespace

RunFacts facts_from_meta(const nlohmann::json& meta) {
  RunFacts f = RunFacts::from_meta(meta);
  const LearnerInfo* info = f.algo.empty() ? nullptr : find_learner(f.algo);
  if (info) check_meta_kernel(*info, meta);
  if (!meta.contains("options")) return f;
  const nlohmann::json& options = meta.at("options");  // an object: from_meta checked its type
  if (!info) {  // a learner not ours takes none
    if (!options.empty())
      throw std::invalid_argument("trace metadata: options: " + options.begin().key() + ": unknown option (" +
                                  (f.algo.empty() ? std::string("no algo given") : "no learner '" + f.algo + "' here") +
                                  " to take it)");
    return f;
  }
  try {
    options_absent_as_before(f.options, options, info->own.rows);
    f.options = configure_learner_options(*info, given_from_json(options), f.options);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("trace metadata: options: ") + e.what());
  }
  return f;
}

}  // namespace plab
