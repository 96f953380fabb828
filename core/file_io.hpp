// File writing shared by every layer: results are written atomically so that an interrupted run
// never leaves a half-written file where a finished one is expected.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace plab {

// Writes to path atomically (temporary file "<path>.tmp.<pid>" in the same directory, then
// rename); creates missing parent directories. Throws std::runtime_error naming the path.
void write_file_atomic(const std::string& path, const std::string& content);
// The same for a JSON document (two-space indentation, trailing newline).
void write_json_atomic(const std::string& path, const nlohmann::json& j);
// A whole file; throws std::runtime_error naming the path when it cannot be read.
std::string read_text_file(const std::string& path);
// Parses a JSON file; nullopt when it is missing or not valid JSON (a cache miss, not an error).
std::optional<nlohmann::json> read_json_if_valid(const std::string& path);

}  // namespace plab
