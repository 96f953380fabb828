#include "core/sha256.hpp"

// SHA256_Init and the rest: OpenSSL 3 deprecates them for EVP, whose first digest sets up the
// default provider and its name tables at every start (measured: docs/architecture.md#fixed-cost);
// these hash with the same code (SHA extensions where the CPU has them) and set up nothing.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <array>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace plab {
struct Sha256::Ctx {
  SHA256_CTX c;
};

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  if (SHA256_Init(&ctx_->c) != 1) throw std::runtime_error("SHA-256: initialisation failed");
}
Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::feed(const char* p, std::size_t n) {
  if (SHA256_Update(&ctx_->c, p, n) != 1) throw std::runtime_error("SHA-256: update failed");
}

std::string Sha256::hex() {
  unsigned char md[SHA256_DIGEST_LENGTH];
  const unsigned len = SHA256_DIGEST_LENGTH;
  if (SHA256_Final(md, &ctx_->c) != 1) throw std::runtime_error("SHA-256: final failed");
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) { out += digits[md[i] >> 4]; out += digits[md[i] & 15]; }
  return out;
}

std::string sha256_hex(const std::string& bytes) {
  Sha256 d;
  d.feed(bytes.data(), bytes.size());
  return d.hex();
}

std::string sha256_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot open for reading (missing or unreadable)");
  Sha256 d;
  std::array<char, 1 << 16> buf;
  while (f) {
    f.read(buf.data(), buf.size());
    if (f.gcount() > 0) d.feed(buf.data(), static_cast<std::size_t>(f.gcount()));
  }
  return d.hex();
}

}  // namespace plab
