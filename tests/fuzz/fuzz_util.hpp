// Shared by the libFuzzer harnesses: the readers take a path, so each input is written to a
// per-process temporary file first (its extension chosen by the harness).
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace plab::fuzz {

inline std::string write_input(const uint8_t* data, std::size_t size, const std::string& ext) {
  const std::string path = "/tmp/plab_fuzz_" + std::to_string(::getpid()) + ext;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

}  // namespace plab::fuzz
