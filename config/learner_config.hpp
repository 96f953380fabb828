// The one check of a learner's options (owners, declared types and ranges, the learner's rules) and
// the checked configuration it returns, which alone makes a learner: make_learner cannot be handed
// options that did not pass it, so it cannot fail on them. Every source of options goes through
// it: a run's (configure_learner, config/given_options.hpp), a model file's header and a trace's
// metadata (config/recorded_options.hpp).
#pragma once
#include <memory>
#include <string>

#include "algorithms/registry.hpp"

namespace plab {

// The learner options of `given` for `info`, checked. Every key of `given` is an option `info`
// takes (else "<label> is not an option of <learner> (its options: ...); it is an option of ...",
// or "<label>: unknown option"), of its declared type; every value lies in its declared range
// (its defaults' too: a budget of 0), and its rules hold (own.validate; such an error is prefixed
// with where the options came from, when they say it). Errors name a given option by its label(),
// any other as `given` spells it. An option not given takes its value in `base` (a record written
// before the option existed: options_absent_as_before), else its declared default. The kernel is
// left to the caller.
LearnerOptions configure_learner_options(const LearnerInfo& info, const GivenOptions& given, LearnerOptions base = {});

// The owner, type and range of each option `given` alone, as configure_learner_options checks them
// (what a spec's parameters are checked for when it is read, before a cell's other options are
// known): neither the defaults nor the learner's rules, which tie options together. A null value
// is one not known yet (a spec's derived parameter): its owner alone is checked.
void check_given_learner_options(const LearnerInfo& info, const GivenOptions& given);

// A learner and its options after the one check, kernel included: only the configuration step
// makes one (learner_config). What a run's data gives (dim, classes) and whether the bounds read the
// norms are not options: they are set on it freely.
class LearnerConfig {
 public:
  const std::string& algo() const { return algo_; }
  const LearnerOptions& options() const { return o_; }
  operator const LearnerOptions&() const { return o_; }  // read as plain options (bounds, summaries)
  LearnerConfig& with_data(std::size_t dim, std::size_t classes) {
    o_.dim = dim;
    o_.classes = classes;
    return *this;
  }
  LearnerConfig& with_record_norms(bool on) {
    o_.record_norms = on;
    return *this;
  }

 private:
  friend LearnerConfig learner_config(const LearnerInfo& info, const GivenOptions& given, const Kernel& k,
                                      LearnerOptions base);
  LearnerConfig(std::string algo, LearnerOptions o) : algo_(std::move(algo)), o_(std::move(o)) {}
  std::string algo_;
  LearnerOptions o_;
};

// Refuses a kernel the learner is not defined for, spelt as `given` writes the kernel: "--kernel
// linear is not a kernel of fogd (it takes rbf)" (a default kernel: "... (the default) ...").
void check_learner_takes(const LearnerInfo& info, const Kernel& k, const GivenOptions& given);

// configure_learner_options of the learner options of `given` (its kernel keys aside), and the
// kernel `k` (already configured from those keys), which must be one the learner is defined for
// (check_learner_takes).
LearnerConfig learner_config(const LearnerInfo& info, const GivenOptions& given, const Kernel& k,
                             LearnerOptions base = {});

// Constructs the learner of a checked configuration; it checks nothing again.
std::unique_ptr<Learner> make_learner(const LearnerConfig& c);

}  // namespace plab
