// `plab bounds --trace FILE [--prefix T] [--strict] [--json OUT]`: evaluates every applicable bound
// of docs/bounds.md on a recorded run (facts from the trace's metadata line, bounds/bounds.hpp) and
// prints the table. --prefix: on rounds 1..T only (bounds/prefix_bounds.hpp, what `plab plot
// --bounds` draws). --strict: throw plab::BoundViolation (exit code 3) if a hard bound fails.
#include <charconv>
#include <iostream>
#include <memory>

#include "bounds/bounds.hpp"
#include "bounds/prefix_bounds.hpp"
#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "experiments/run/trace.hpp"

namespace plab {
namespace {

struct BoundsArgs {
  std::string trace, json;
  bool strict = false;
  std::size_t prefix = 0;  // 0: every round
};

void run_bounds(const BoundsArgs& a) {
  refuse_shared_paths({{"--trace", a.trace}, {"--json", a.json, true}});
  const Trace tr = read_trace(a.trace);
  const RunFacts facts = trace_facts(tr);
  if (a.prefix > tr.rounds.size())
    throw std::invalid_argument("--prefix " + std::to_string(a.prefix) + ": " + a.trace + " has " +
                                std::to_string(tr.rounds.size()) + " rounds");
  const std::size_t T = a.prefix ? a.prefix : tr.rounds.size();
  const auto results = T ? evaluate_bounds_prefix(tr.rounds, facts, T) : evaluate_bounds(tr.rounds, facts);
  std::cout << "bounds for " << a.trace << " (algo " << facts.algo << ", comparator " << facts.comparator
            << ", ||g0|| = " << facts.g_norm << ", T = " << T << ")\n";
  print_bounds_table(std::cout, results);
  if (!a.json.empty()) {
    nlohmann::json j = {{"trace", a.trace}, {"algo", facts.algo}, {"comparator", facts.comparator},
                        {"g_norm", facts.g_norm}, {"T", T}, {"bounds", nlohmann::json::array()}};
    for (const auto& b : results) j["bounds"].push_back(to_json(b));
    write_json_atomic(a.json, j);
  }
  if (any_hard_violation(results)) {
    std::cerr << "plab bounds: a hard bound is VIOLATED\n";
    if (a.strict) throw BoundViolation("a hard mistake bound is violated (see the table)");
  }
}

}  // namespace

void register_bounds_command(CLI::App& app) {
  auto* c = app.add_subcommand("bounds", "Evaluate the mistake bounds on a recorded trace");
  auto a = std::make_shared<BoundsArgs>();
  c->add_option("--trace", a->trace, "Trace CSV written by plab run --trace")->required()->check(CLI::ExistingFile);
  // A whole number as written (CLI11 would saturate 2^64 to 2^64 - 1 and state its range as doubles).
  c->add_option("--prefix", a->prefix, "Evaluate on rounds 1..N only, as if the run had stopped there (N >= 1)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            std::size_t v = 0;
            const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
            if (r.ptr != s.data() + s.size() || r.ec == std::errc::invalid_argument || s.empty())
              return "expected a whole number >= 1, got '" + s + "'";
            if (r.ec == std::errc::result_out_of_range) return "value " + s + " is out of range (at most 18446744073709551615)";
            return v == 0 ? "expected a whole number >= 1, got 0" : "";
          },
          "N"));
  c->add_option("--json", a->json, "Write the results as JSON here");
  c->add_flag("--strict", a->strict, "Exit with code 3 when a hard bound is violated");
  c->callback([a] { run_bounds(*a); });
}

}  // namespace plab
