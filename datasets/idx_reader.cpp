// MNIST IDX reader (LeCun's format): big-endian header, unsigned bytes; images idx3, labels idx1.
#include <algorithm>
#include <string>
#include <vector>

#include "datasets/readers.hpp"

namespace plab {

namespace {
// The whole (decompressed) file (the labels: a byte an image), read in 64 KB pieces.
std::vector<unsigned char> slurp(const std::string& path) {
  auto in = open_input(path);
  constexpr std::size_t kPiece = std::size_t{64} << 10;
  std::vector<unsigned char> bytes;
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

uint32_t be32(const unsigned char* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

std::string hex32(uint32_t v) {
  static const char* h = "0123456789abcdef";
  std::string s = "0x";
  for (int k = 28; k >= 0; k -= 4) s += h[(v >> k) & 15];
  return s;
}

// Checks the magic (0x0000 08 NDIM: unsigned byte data) of a header whose first `have` bytes are
// b; returns the dims.
std::vector<uint32_t> header(const unsigned char* b, std::size_t have, const std::string& path, uint32_t ndim) {
  if (have < 4 + 4 * ndim) throw DataError(path + ": too short for an IDX header (" + std::to_string(have) + " bytes)");
  const uint32_t magic = be32(b), want = 0x00000800u | ndim;
  if (magic != want)
    throw DataError(path + ": bad IDX magic " + hex32(magic) + ", expected " + hex32(want) +
                    (ndim == 3 ? " (images, idx3-ubyte)" : " (labels, idx1-ubyte)"));
  std::vector<uint32_t> dims(ndim);
  for (uint32_t k = 0; k < ndim; ++k) dims[k] = be32(b + 4 + 4 * k);
  return dims;
}
// The exact byte count the dims promise.
void check_size(const std::vector<uint32_t>& dims, uint64_t size, const std::string& path) {
  uint64_t expect = 4 + 4 * dims.size(), items = 1;
  for (const uint32_t n : dims) items *= n;
  expect += items;
  if (size != expect)
    throw DataError(path + ": size mismatch: header promises " + std::to_string(expect) + " bytes, file has " +
                    std::to_string(size));
}
}  // namespace

// The labels are read whole; the images are parsed as they are read, an image at a time (MNIST's
// 47 MB of pixels are never held at once: fresh memory costs a page fault and a clearing a page,
// docs/architecture.md#fixed-cost), and their byte count is checked at the end.
Dataset load_idx(const std::string& images, const std::string& labels_path, const LabelMap& labels) {
  auto in = open_input(images);
  unsigned char head[16];
  in->read(reinterpret_cast<char*>(head), sizeof head);
  uint64_t got = static_cast<uint64_t>(in->gcount());
  if (in->bad()) throw DataError(images + ": read error (corrupt or truncated file?)");
  const auto di = header(head, got, images, 3);
  const auto lab = slurp(labels_path);
  const auto dl = header(lab.data(), lab.size(), labels_path, 1);
  check_size(dl, lab.size(), labels_path);
  if (di[0] != dl[0])
    throw DataError(images + ": size mismatch: " + std::to_string(di[0]) + " images but " + labels_path + " has " +
                    std::to_string(dl[0]) + " labels");
  if (di[0] == 0) throw DataError(images + ": empty file (no examples)");
  const std::size_t npix = std::size_t{di[1]} * di[2];
  // The bytes left in the stream, counted (a file longer or shorter than its header says).
  const auto rest = [&] {
    char buf[1 << 16];
    while (*in) {
      in->read(buf, sizeof buf);
      got += static_cast<uint64_t>(in->gcount());
    }
    if (in->bad()) throw DataError(images + ": read error (corrupt or truncated file?)");
  };
  Dataset d;
  d.path = images;
  std::vector<unsigned char> px(npix);
  std::vector<uint32_t> idx;
  std::vector<double> val;
  for (std::size_t t = 0; t < di[0]; ++t) {
    in->read(reinterpret_cast<char*>(px.data()), static_cast<std::streamsize>(npix));
    got += static_cast<uint64_t>(in->gcount());
    if (static_cast<std::size_t>(in->gcount()) != npix) {
      rest();
      check_size(di, got, images);
    }
    idx.clear();
    val.clear();
    for (std::size_t j = 0; j < npix; ++j)
      if (px[j] != 0) { idx.push_back(static_cast<uint32_t>(j)); val.push_back(px[j] / 255.0); }
    // Where: the label's byte offset, as IDX has no lines.
    const double y = labels.apply(std::to_string(lab[8 + t]),
                                  labels_path + ": label of image " + std::to_string(t) + " (byte " +
                                      std::to_string(8 + t) + ")");
    d.push_back(idx, val, y, images + ": image " + std::to_string(t));
  }
  rest();
  check_size(di, got, images);
  if (npix > d.dim) d.dim = npix;
  return d;
}

}  // namespace plab
