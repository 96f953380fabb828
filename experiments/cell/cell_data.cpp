#include "experiments/cell/cell_data.hpp"

#include "datasets/preprocess.hpp"
#include "datasets/registry.hpp"

namespace plab {

namespace {

// Rows [b, e) of d as a new data set.
Dataset slice(const Dataset& d, std::size_t b, std::size_t e, const std::string& suffix) {
  Dataset out;
  out.name = d.name + suffix;
  out.path = d.path;
  out.sha256 = d.sha256;
  for (std::size_t i = b; i < e; ++i) {
    const Example x = d[i];
    out.push_back(x.idx, x.val, x.y);
  }
  out.dim = d.dim;
  return out;
}

}  // namespace

CellData DataCache::get(const Cell& c) {
  const std::string k = c.data + "\n" + c.labels + "\n" + c.test + "\n" + c.preprocess;
  std::lock_guard<std::mutex> lock(m_);  // loads are serialised; each happens once
  if (auto it = cache_.find(k); it != cache_.end()) return it->second;
  const LabelMap labels = c.labels.empty() ? LabelMap{} : LabelMap::parse(c.labels);
  const Preprocess pre = Preprocess::parse(c.preprocess, "");
  // docs/conventions.md#preprocess: before the halves split; a test set in the training data's space
  auto load = [&](const std::string& spec, std::size_t space) {
    Dataset d = load_dataset(spec, labels);
    apply_preprocess(d, pre, space);
    return d;
  };
  auto full = std::make_shared<Dataset>(load(c.data, 0));
  CellData d;
  if (c.test == "halves") {
    const std::size_t h = full->size() / 2;  // DOGMA demo: first half trains, second half tests
    d.train = std::make_shared<Dataset>(slice(*full, 0, h, "[train half]"));
    d.test = std::make_shared<Dataset>(slice(*full, h, full->size(), "[test half]"));
    d.sha = full->sha256 + "/halves";
  } else {
    d.train = full;
    if (!c.test.empty()) d.test = std::make_shared<Dataset>(load(c.test, full->dim));
    d.sha = full->sha256 + "/" + (d.test ? d.test->sha256 : std::string());
  }
  cache_[k] = d;
  return d;
}

std::vector<std::size_t> cell_training_order(const Cell& c, const Dataset& train,
                                             std::vector<std::size_t> order) {
  const bool novelty = c.options.contains("task") && c.options["task"] == "novelty";
  if (!novelty || c.labels.empty()) return order;
  std::erase_if(order, [&](std::size_t i) { return !(train.y[i] > 0.0); });
  return order;
}

}  // namespace plab
