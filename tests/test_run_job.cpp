// The run's own options through the one configuration step (config/run_config.hpp) and the one
// orchestration of a configured run (experiments/run/run_job.hpp).
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "config/run_config.hpp"
#include "core/thread_pool.hpp"
#include "datasets/registry.hpp"
#include "experiments/run/run_job.hpp"

namespace plab {
namespace {

std::string run_job_error(const nlohmann::json& given) {
  try {
    configure(given_from_json(given), {.algo = "kernel-perceptron", .bounds = false});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RunOptions, DefaultsComeFromTheDeclarations) {
  const RunOptions r = configure(given_from_json(nlohmann::json::object()), {.algo = "kernel-perceptron"}).run();
  EXPECT_EQ(r.labels, "");
  EXPECT_EQ(r.preprocess, "none");
  EXPECT_EQ(r.limit, 0u);
  EXPECT_FALSE(r.shuffle.has_value());
  EXPECT_EQ(r.threads, 0u);
}

TEST(RunOptions, GivenAreCheckedAndSeedTheComparator) {
  const RunConfig c = configure(given_from_json({{"shuffle", 7}, {"limit", 3}, {"threads", 2}, {"labels", "1:+1,*:-1"},
                                                 {"preprocess", "unit-norm"}}),
                                {.algo = "kernel-perceptron"});
  EXPECT_EQ(c.run().shuffle, std::optional<uint64_t>(7));
  EXPECT_EQ(c.run().limit, 3u);
  EXPECT_EQ(c.run().threads, 2u);
  EXPECT_EQ(c.run().labels, "1:+1,*:-1");
  EXPECT_EQ(c.run().preprocess, "unit-norm");
  EXPECT_EQ(c.comparator().seed, default_comparator_seed(7));
  // A context's own permutation (a cell's) seeds the comparator over the given shuffle.
  const RunConfig cell = configure(given_from_json({{"shuffle", 7}}), {.algo = "kernel-perceptron", .permutation_seed = 9});
  EXPECT_EQ(cell.comparator().seed, default_comparator_seed(9));
}

TEST(RunOptions, RefusedValuesNameTheOption) {
  EXPECT_EQ(run_job_error({{"threads", kMaxThreads + 1}}).rfind("threads must be <= 1024, got 1025", 0), 0u);
  EXPECT_EQ(run_job_error({{"limit", -1}}).rfind("limit must be a non-negative integer, got -1", 0), 0u);
  EXPECT_EQ(run_job_error({{"preprocess", "unit_norm"}}).rfind("preprocess: unknown preprocessing 'unit_norm'", 0), 0u);
  EXPECT_EQ(run_job_error({{"labels", "3:+2"}}).rfind("labels: bad item '3:+2'", 0), 0u);  // spelled as given, as preprocess
}

// One pass sorts the given keys by the kind of declaration each names; an unknown one, or one of a
// kind the step does not read, is refused naming the nearest key.
TEST(Configure, EachKeyGoesToItsKindOnce) {
  const GivenByKind by = by_kind(given_from_json(
      {{"budget", 5}, {"gamma", 0.5}, {"kernel", "rbf"}, {"svm_C", 2.0}, {"shuffle", 3}, {"budjet", 5}}));
  const auto keys = [](const GivenOptions& g) {
    std::vector<std::string> k;
    for (const auto& [key, v] : g.values) k.push_back(key);
    return k;
  };
  EXPECT_EQ(keys(by.learner), (std::vector<std::string>{"budget", "gamma", "kernel"}));
  EXPECT_EQ(keys(by.comparator), std::vector<std::string>{"svm_C"});
  EXPECT_EQ(keys(by.run), std::vector<std::string>{"shuffle"});
  EXPECT_EQ(by.unknown, std::vector<std::string>{"budjet"});
  EXPECT_EQ(run_job_error({{"budjet", 5}}).rfind("budjet: unknown option (did you mean \"budget\"?)", 0), 0u);
  try {  // the learner's own step reads no comparator
    configure_learner("rbp", given_from_json({{"svm_C", 2.0}}));
    ADD_FAILURE() << "svm_C was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("svm_C: unknown option", 0), 0u) << e.what();
  }
  // Without bounds, a comparator's option is refused as one of no comparator.
  EXPECT_NE(run_job_error({{"svm_C", 2.0}}).find("svm_C is an option of the auto and svm comparators, not of no bounds"),
            std::string::npos) << run_job_error({{"svm_C", 2.0}});
}

// The reader options are the configuration's too: checked against the reader of each data set the
// context names, and carried in load(); a context with no data sets (a spec, Python) takes none.
TEST(Configure, ReaderOptionsAreCheckedAgainstEachSource) {
  const auto config = [](const nlohmann::json& given, std::vector<DataSource> sources) {
    return configure(given_from_json(given), {.algo = "multiclass-perceptron", .bounds = false, .sources = sources});
  };
  const RunConfig c = config({{"header", "yes"}, {"label_column", "first"}}, {{"--data a.csv", "a.csv"}});
  ASSERT_TRUE(c.load().layout.has_value());
  EXPECT_EQ(c.load().layout->header, DelimitedLayout::Header::yes);
  EXPECT_EQ(c.load().layout->label_column, "first");
  EXPECT_EQ(c.load().format, "auto");
  EXPECT_TRUE(c.load().labels.classes);  // a multiclass learner's default label map
  EXPECT_FALSE(config({{"format", "tsv"}}, {{"--data a.txt", "a.txt"}}).load().layout.has_value());
  const auto error = [&](const nlohmann::json& given, std::vector<DataSource> sources) -> std::string {
    try {
      config(given, sources);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error({{"header", "yes"}}, {{"--data a.csv", "a.csv"}, {"--test t", "synthetic:dekel:n=5"}}),
            "header is an option of the csv and tsv readers, not of --test t (a generator: reader options apply to "
            "files)");
  EXPECT_EQ(error({{"format", "csvv"}}, {{"--data a.csv", "a.csv"}}).rfind("format: unknown value 'csvv'", 0), 0u);
  EXPECT_EQ(error({{"header", "yes"}}, {}).rfind("header: unknown option", 0), 0u);
}

// run_configured is run_pipeline on the request a front end would build by hand: the same bits.
TEST(RunJob, RunsTheConfiguredOrder) {
  const Dataset d = load_dataset("synthetic:dekel:n=80,seed=3");
  const RunConfig c = configure(given_from_json({{"shuffle", 5}, {"limit", 50}, {"threads", 2}}),
                                {.algo = "kernel-perceptron", .data = &d});
  const JobReport job = run_configured(c, {.train = &d});
  RunRequest req;
  req.train = &d;
  req.take(c);
  req.order = make_order(d.size(), 5, 50);
  const RunReport rep = run_pipeline(req);
  EXPECT_EQ(job.req.order, req.order);
  ASSERT_EQ(job.rep.run.rounds.size(), 50u);
  EXPECT_EQ(job.rep.run.mistakes, rep.run.mistakes);
  for (std::size_t t = 0; t < rep.run.rounds.size(); ++t) EXPECT_EQ(job.rep.run.rounds[t].score, rep.run.rounds[t].score);
  ASSERT_EQ(job.rep.bounds.size(), rep.bounds.size());
  for (std::size_t i = 0; i < rep.bounds.size(); ++i) EXPECT_EQ(to_json(job.rep.bounds[i]), to_json(rep.bounds[i]));
}

}  // namespace
}  // namespace plab
