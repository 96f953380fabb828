#include "core/sha256.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace plab {
struct Sha256::Ctx {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> md{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};

namespace {
// OpenSSL without its configuration file: a digest needs none, and reading openssl.cnf took ~2 ms
// of every run's start (docs/architecture.md#fixed-cost). Once per process.
bool crypto_ready() {
  static const bool ok = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr) == 1;
  return ok;
}
}  // namespace

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  if (!crypto_ready() || !ctx_->md || EVP_DigestInit_ex(ctx_->md.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256: OpenSSL initialisation failed");
}
Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::feed(const char* p, std::size_t n) {
  if (EVP_DigestUpdate(ctx_->md.get(), p, n) != 1) throw std::runtime_error("SHA-256: update failed");
}

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx_->md.get(), md, &len) != 1) throw std::runtime_error("SHA-256: final failed");
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
