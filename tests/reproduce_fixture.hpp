// A small staged experiment for the `plab reproduce` command tests: a synthetic data set, a grid,
// and budgets derived from another algorithm's result (a second stage). Not a test file itself.
#pragma once
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/test_util.hpp"

namespace plab::test_util {

// Writes <dir>/TINY.json with `permutations` permutations per cell, on `rows` synthetic rows.
inline void write_tiny_spec(const std::filesystem::path& dir, int permutations, int rows = 400) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "TINY.json") << R"({
    "figure": "TINY", "permutations": )" << permutations << R"(,
    "datasets": [{"id": "syn", "data": "synthetic:dekel:n=)" << rows << R"(,seed=7", "kernel": {"type": "rbf", "gamma": 1}}],
    "algorithms": [
      {"id": "perceptron", "algo": "kernel-perceptron"},
      {"id": "rbp", "algo": "rbp", "params": {"budget": [5, 10]}},
      {"id": "stoptron", "algo": "stoptron", "params": {"budget": {"from": "perceptron", "field": "support_size"}}}
    ],
    "plots": [{"id": "err", "type": "curve", "metric": "online_error"}]
  })";
}

// The deterministic files of a results folder (relative name -> content): every file except
// timings, the run's report and its summary (figures.json: cell times, provenance) and the lock.
inline std::map<std::string, std::string> deterministic_files(const std::filesystem::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = std::filesystem::relative(e.path(), dir).string();
    bool skip = false;
    for (const char* s : {".time.json", "timings.csv", "cell_times.csv", "figures.json", "REPORT.md", ".lock"})
      skip = skip || name.find(s) != std::string::npos;
    if (!skip) out[name] = read_text(e.path());
  }
  return out;
}

// The finished cell files of <results>/cells (not their times, not temporaries), in name order.
inline std::vector<std::filesystem::path> finished_cell_files(const std::filesystem::path& results) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(results / "cells")) {
    const std::string f = e.path().filename().string();
    if (f.ends_with(".json") && !f.ends_with(".time.json") && f.find(".tmp.") == std::string::npos) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The number of finished cell files in <results>/cells.
inline std::size_t finished_cells(const std::filesystem::path& results) { return finished_cell_files(results).size(); }

}  // namespace plab::test_util
