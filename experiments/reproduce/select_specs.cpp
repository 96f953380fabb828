#include "experiments/reproduce/select_specs.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace plab {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> spec_files(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json" && e.path().stem().extension() != ".schema")  // not spec.schema.json
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

Spec load_available(const fs::path& f, bool quick) {
  Spec s = load_spec(f.string(), quick);
  drop_unavailable_data(s, quick);
  return s;
}

// A table figure (T7) aggregates its source figures: run them too when they were not named.
void add_sources(std::vector<Spec>& specs, const std::string& dir, bool quick) {
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::vector<std::string> sources = specs[i].sources;  // specs may grow below
    for (const auto& src : sources)
      if (std::none_of(specs.begin(), specs.end(), [&](const Spec& x) { return x.figure == src; })) {
        const fs::path f = fs::path(dir) / (src + ".json");
        if (!fs::exists(f)) throw std::invalid_argument(specs[i].figure + ": source figure '" + src + "' has no spec " + f.string());
        specs.push_back(load_available(f, quick));
      }
  }
}

}  // namespace

std::vector<Spec> select_specs(const std::string& dir, const std::vector<std::string>& figures, bool quick) {
  const std::vector<fs::path> files = spec_files(dir);
  std::vector<Spec> specs;
  std::vector<std::string> wanted = figures;
  std::string known;  // each spec's figure id, with its file where the names differ
  for (const auto& f : files) {
    Spec s = load_available(f, quick);
    known += " " + s.figure + (s.figure == f.stem().string() ? "" : " (" + f.filename().string() + ")");
    if (!figures.empty()) {
      auto it = std::find(wanted.begin(), wanted.end(), s.figure);
      if (it == wanted.end()) continue;
      wanted.erase(it);
    }
    specs.push_back(std::move(s));
  }
  if (!wanted.empty())
    throw std::invalid_argument("FIGURE: no spec with figure '" + wanted[0] + "' in " + dir + " (known:" + known + ")");
  if (specs.empty()) throw std::invalid_argument("--specs: no *.json spec in " + dir);
  add_sources(specs, dir, quick);
  return specs;
}

}  // namespace plab
