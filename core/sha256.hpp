// The one SHA-256 of the project (OpenSSL EVP): checksums of data files and cell keys.
#pragma once
#include <string>

namespace plab {

// Lowercase hex SHA-256 of a byte string.
std::string sha256_hex(const std::string& bytes);
// Lowercase hex SHA-256 of a file's bytes as stored; throws std::runtime_error naming the file
// when it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace plab
