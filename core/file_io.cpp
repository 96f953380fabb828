#include "core/file_io.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace plab {

void write_file_atomic(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  // Unique per process and per call: two writers of one path never share a temporary.
  static std::atomic<uint64_t> serial{0};
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot open for writing");
    out << content;
    out.flush();
    if (!out) throw std::runtime_error(path + ": write failed");
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) {
    fs::remove(tmp);
    throw std::runtime_error(path + ": cannot rename into place: " + ec.message());
  }
}

void write_json_atomic(const std::string& path, const nlohmann::json& j) {
  write_file_atomic(path, j.dump(2) + "\n");
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read " + path);
  return ss.str();
}

std::optional<nlohmann::json> read_json_if_valid(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try { return nlohmann::json::parse(in); } catch (const nlohmann::json::exception&) { return std::nullopt; }
}

}  // namespace plab
