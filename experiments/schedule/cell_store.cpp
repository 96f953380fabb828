#include "experiments/schedule/cell_store.hpp"

#include <chrono>

#include "core/file_io.hpp"

namespace plab {

using nlohmann::json;

bool load_finished_cell(const std::string& dir, CellOutcome& o) {
  auto j = read_json_if_valid(dir + "/" + o.key + ".json");
  if (!j || !j->contains("results")) return false;
  o.doc = std::move(*j);
  if (auto t = read_json_if_valid(dir + "/" + o.key + ".time.json")) {
    o.seconds = t->value("seconds", std::nan(""));
    o.cell_seconds = t->value("cell_seconds", std::nan(""));
  }
  return true;
}

bool compute_and_store(CellOutcome& o, DataCache& data, const std::string& dir) {
  const auto c0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count(); };
  bool write_failed = false;
  try {
    double secs = 0.0;
    json doc = run_cell(o.cell, data.get(o.cell), &secs);
    write_json_atomic(dir + "/" + o.key + ".time.json", json{{"seconds", secs}, {"cell_seconds", since()}});
    write_json_atomic(dir + "/" + o.key + ".json", doc);
    o.doc = std::move(doc);
    o.seconds = secs;
  } catch (const WriteError& e) {
    o.error = e.what();
    write_failed = true;
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  o.cell_seconds = since();
  return write_failed;
}

}  // namespace plab
