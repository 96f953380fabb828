// The one configuration step of a run (docs/architecture.md#configuration): the options a user
// gave, by name (absent = not given), and the data in, the run request's learner options, kernel
// and comparator out. It resolves each option's owner (the learner, the kernel type, the
// comparator kind, "auto" first resolved to the comparator it picks on the data), refuses an
// option its owner does not take and a value outside the declared range, naming the option as
// the user wrote it and where, and fills the rest from the declarations (core/option_decl.hpp;
// the checks: bounds/given_options.hpp). `plab run` (flags), spec cells, perceptron_lab
// (keywords) and --init-model only translate their own syntax into GivenOptions.
#pragma once
#include "bounds/given_options.hpp"
#include "experiments/run/pipeline.hpp"

namespace plab {

// The options of `given` into `req` (algo, train (may be null: "auto" unresolved), bounds, init and the
// comparator's defaults set by the caller): options, given, comparator. An unknown key is an
// error. With req.init the model fixes the learner's options and the kernel: a given one must
// equal the model's (the error names both values).
void configure_run(RunRequest& req, const GivenOptions& given);
// The comparator part of configure_run alone, for a front end that configured the run before
// its data was read (req.train null then: "auto" unresolved) and now has req.train: "auto" is
// resolved to the comparator it picks on the data and the SVM's options are checked against it.
void configure_comparator_on_data(RunRequest& req, const GivenOptions& given);

}  // namespace plab
