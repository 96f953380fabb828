#include "experiments/schedule/stages.hpp"

#include <algorithm>

#include "experiments/schedule/cell_store.hpp"

namespace plab {

using nlohmann::json;

StagePlan::StagePlan(const std::vector<Spec>& specs) : specs_(specs) {
  for (const auto& s : specs) stages_.push_back(s.stages());
}

std::size_t StagePlan::stage_count() const {
  std::size_t n = 0;
  for (const auto& st : stages_) n = std::max(n, st.size());
  return n;
}

std::vector<CellOutcome*> StagePlan::expand(std::size_t stage) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (stage >= stages_[i].size()) continue;
    const Spec& s = specs_[i];
    const ResultLookup lookup = [&](const std::string& ds, const std::string& a, std::size_t p, int q) {
      auto it = done_.find({s.figure, ds, a, p, q});
      return it == done_.end() ? json() : it->second;
    };
    auto& vec = out_[s.figure];
    for (const auto& id : stages_[i][stage])
      for (auto& c : expand_algorithm(s, id, lookup)) {
        CellOutcome o;
        o.cell = std::move(c);
        o.stage = stage;
        vec.push_back(std::move(o));
      }
  }
  std::vector<CellOutcome*> batch;
  for (auto& [fig, vec] : out_)
    for (auto& o : vec)
      if (o.stage == stage && o.key.empty() && o.doc.is_null() && o.error.empty()) batch.push_back(&o);
  return batch;
}

std::vector<CellOutcome*> StagePlan::resolve(const std::vector<CellOutcome*>& batch, const std::string& cells_dir,
                                             bool reuse, std::map<std::string, CellOutcome*>& first_of_key) {
  std::vector<CellOutcome*> work;
  for (auto* o : batch) {
    o->key = "-";
    if (!o->cell.error.empty()) { o->error = o->cell.error; continue; }
    try {
      o->key = cell_key(o->cell, data_.get(o->cell));
    } catch (const std::exception& e) {
      o->error = std::string("data: ") + e.what();
      continue;
    }
    if (reuse && load_finished_cell(cells_dir, *o)) {
      o->cached = true;
    } else if (!first_of_key.count(o->key)) {
      first_of_key[o->key] = o;
      work.push_back(o);
    }
  }
  return work;
}

std::size_t StagePlan::settle(const std::vector<CellOutcome*>& batch,
                              const std::map<std::string, CellOutcome*>& first_of_key) {
  for (auto* o : batch)
    if (o->doc.is_null() && o->error.empty()) {
      const CellOutcome* f = first_of_key.at(o->key);
      o->doc = f->doc; o->error = f->error; o->seconds = f->seconds; o->cached = true;
    }
  std::size_t cached = 0;
  for (auto* o : batch) {
    cached += o->cached;
    if (o->error.empty())
      done_[{o->cell.figure, o->cell.dataset, o->cell.algo_id, o->cell.point_index, o->cell.perm}] = o->results();
  }
  return cached;
}

StageEnd StagePlan::stage_end(const std::vector<CellOutcome*>& batch) const {
  StageEnd end;
  for (const auto* o : batch)
    if (o->error.empty())
      end.results.push_back({o->cell.figure, o->cell.dataset, o->cell.algo_id, o->cell.point_index, o->cell.perm,
                             o->results()});
  return end;
}

void StagePlan::apply(const StageEnd& end) {
  for (const auto& r : end.results) done_[{r.figure, r.dataset, r.algo_id, r.point_index, r.perm}] = r.results;
}

}  // namespace plab

