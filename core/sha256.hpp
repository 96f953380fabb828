// The one SHA-256 of the project (OpenSSL's SHA256_* functions): checksums of data files and cell keys.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

namespace plab {

// Incremental SHA-256: feed() any number of times, then hex() once (hashing while reading).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  void feed(const char* p, std::size_t n);
  std::string hex();

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

// Lowercase hex SHA-256 of a byte string.
std::string sha256_hex(const std::string& bytes);
// Lowercase hex SHA-256 of a file's bytes as stored; throws std::runtime_error naming the file
// when it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace plab
