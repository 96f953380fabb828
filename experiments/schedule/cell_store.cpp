#include "experiments/schedule/cell_store.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "core/file_io.hpp"
#include "core/sha256.hpp"

namespace plab {

using nlohmann::json;

namespace {
// A cell file carries the SHA-256 of its own document (without this field, as dumped): one edited
// or damaged since it was written is computed again, never read into a figure (README.md#reproduction).
constexpr const char* kDigest = "sha256";
std::string digest_of(json doc) {
  doc.erase(kDigest);
  return sha256_hex(doc.dump());
}
// A recorded time: a finite number of seconds >= 0, else NaN (not recorded).
double seconds_or_nan(const json& t, const char* key) {
  const auto it = t.find(key);
  if (it == t.end() || !it->is_number()) return std::nan("");
  const double s = it->get<double>();
  return std::isfinite(s) && s >= 0.0 ? s : std::nan("");
}
// A cell's file that is neither a regular file nor a folder (a FIFO, a link to a device: never one
// plab wrote) is removed before the cell is written: written through, a FIFO would block the run.
void clear_foreign(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st) && !std::filesystem::is_directory(st))
    std::filesystem::remove(path, ec);
}
}  // namespace

bool load_finished_cell(const std::string& dir, CellOutcome& o) {
  const std::string path = dir + "/" + o.key + ".json";
  auto j = read_json_if_valid(path);
  if (!j || !j->is_object() || !j->contains("results")) return false;
  const auto d = j->find(kDigest);
  if (d == j->end() || !d->is_string() || d->get<std::string>() != digest_of(*j)) {
    std::cerr << "plab reproduce: " << path << ": its content does not match its checksum (edited or damaged "
              << "since it was written): the cell is computed again\n";
    return false;
  }
  j->erase(kDigest);
  o.doc = std::move(*j);
  if (auto t = read_json_if_valid(dir + "/" + o.key + ".time.json"); t && t->is_object()) {
    o.seconds = seconds_or_nan(*t, "seconds");
    o.cell_seconds = seconds_or_nan(*t, "cell_seconds");
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
    // The digest of the document as it reads back from its file (dump and parse are exact).
    json stored = json::parse(doc.dump());
    stored[kDigest] = digest_of(stored);
    for (const char* ext : {".time.json", ".json"}) clear_foreign(dir + "/" + o.key + ext);
    write_json_atomic(dir + "/" + o.key + ".time.json", json{{"seconds", secs}, {"cell_seconds", since()}});
    write_json_atomic(dir + "/" + o.key + ".json", stored);
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
