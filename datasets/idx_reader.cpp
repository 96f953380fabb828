// MNIST IDX reader (LeCun's format): big-endian header, unsigned bytes; images idx3, labels idx1.
#include <algorithm>
#include <string>
#include <vector>

#include "core/huge_pages.hpp"
#include "datasets/readers.hpp"

namespace plab {

namespace {
// The whole (decompressed) file, read in 4 MB pieces into memory on 2 MB pages, not a byte at a
// time into a vector grown on 4 KB pages: a page fault each (docs/architecture.md#fixed-cost).
using Bytes = AlignedVector<unsigned char>;
Bytes slurp(const std::string& path) {
  auto in = open_input(path);
  constexpr std::size_t kPiece = std::size_t{4} << 20;
  Bytes bytes;
  std::size_t n = 0;
  while (*in) {
    if (bytes.size() < n + kPiece) bytes.resize(std::max(2 * bytes.size(), n + kPiece));
    in->read(reinterpret_cast<char*>(bytes.data() + n), static_cast<std::streamsize>(kPiece));
    n += static_cast<std::size_t>(in->gcount());
  }
  if (in->bad()) throw DataError(path + ": read error (corrupt or truncated file?)");
  bytes.resize(n);
  return bytes;
}

uint32_t be32(const Bytes& b, std::size_t off) {
  return (uint32_t{b[off]} << 24) | (uint32_t{b[off + 1]} << 16) | (uint32_t{b[off + 2]} << 8) | uint32_t{b[off + 3]};
}

std::string hex32(uint32_t v) {
  static const char* h = "0123456789abcdef";
  std::string s = "0x";
  for (int k = 28; k >= 0; k -= 4) s += h[(v >> k) & 15];
  return s;
}

// Checks magic (0x0000 08 NDIM: unsigned byte data) and the exact byte count; returns dims.
std::vector<uint32_t> header(const Bytes& b, const std::string& path, uint32_t ndim) {
  if (b.size() < 4 + 4 * ndim)
    throw DataError(path + ": too short for an IDX header (" + std::to_string(b.size()) + " bytes)");
  const uint32_t magic = be32(b, 0), want = 0x00000800u | ndim;
  if (magic != want)
    throw DataError(path + ": bad IDX magic " + hex32(magic) + ", expected " + hex32(want) +
                    (ndim == 3 ? " (images, idx3-ubyte)" : " (labels, idx1-ubyte)"));
  std::vector<uint32_t> dims(ndim);
  uint64_t expect = 4 + 4 * ndim;
  uint64_t items = 1;
  for (uint32_t k = 0; k < ndim; ++k) { dims[k] = be32(b, 4 + 4 * k); items *= dims[k]; }
  expect += items;
  if (b.size() != expect)
    throw DataError(path + ": size mismatch: header promises " + std::to_string(expect) + " bytes, file has " +
                    std::to_string(b.size()));
  return dims;
}
}  // namespace

Dataset load_idx(const std::string& images, const std::string& labels_path, const LabelMap& labels) {
  const auto img = slurp(images);
  const auto lab = slurp(labels_path);
  const auto di = header(img, images, 3);
  const auto dl = header(lab, labels_path, 1);
  if (di[0] != dl[0])
    throw DataError(images + ": size mismatch: " + std::to_string(di[0]) + " images but " + labels_path + " has " +
                    std::to_string(dl[0]) + " labels");
  if (di[0] == 0) throw DataError(images + ": empty file (no examples)");
  const std::size_t npix = std::size_t{di[1]} * di[2];
  Dataset d;
  d.path = images;
  std::vector<uint32_t> idx;
  std::vector<double> val;
  for (std::size_t t = 0; t < di[0]; ++t) {
    idx.clear();
    val.clear();
    const unsigned char* px = img.data() + 16 + t * npix;
    for (std::size_t j = 0; j < npix; ++j)
      if (px[j] != 0) { idx.push_back(static_cast<uint32_t>(j)); val.push_back(px[j] / 255.0); }
    // Where: the label's byte offset, as IDX has no lines.
    const double y = labels.apply(std::to_string(lab[8 + t]),
                                  labels_path + ": label of image " + std::to_string(t) + " (byte " +
                                      std::to_string(8 + t) + ")");
    d.push_back(idx, val, y, images + ": image " + std::to_string(t));
  }
  if (npix > d.dim) d.dim = npix;
  return d;
}

}  // namespace plab
