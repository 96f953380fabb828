// Readers for the on-disk formats. All of them throw DataError whose message names the file,
// the line and (where it applies) the column: "path:line:col: what". Compressed files (.gz,
// .bz2, .xz) are decoded transparently by Boost.Iostreams.
#pragma once
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "datasets/dataset.hpp"

namespace plab {

// How raw label tokens become training labels.
struct LabelMap {
  // Empty: the binary spellings +1, 1, 1.0 -> +1 and -1, -1.0, 0 -> -1 (the shared files'
  // spellings). Otherwise: an exact-token map, e.g. {"3": +1} with `others` = -1 for
  // "digit 3 against the rest"; tokens neither mapped nor covered by `others` are errors.
  std::map<std::string, double> map;
  std::optional<double> others;
  bool regression = false;  // keep the numeric label as it is
  // Multiclass ("classes"): the numeric label is kept while reading, then load_dataset maps the
  // distinct values, in ascending order, to class indices 0..m-1 (Dataset::classes keeps them).
  bool classes = false;
  double apply(const std::string& tok, const std::string& where) const;
  // Parses "3:+1,*:-1" style specs, "regression" and "classes" (the CLI's --labels option).
  static LabelMap parse(const std::string& spec);
  // Digit d against the rest.
  static LabelMap one_vs_rest(const std::string& positive);
};

// Opens a file for reading, decompressing by its extension; throws DataError if unreadable.
std::unique_ptr<std::istream> open_input(const std::string& path);

// Streaming LIBSVM reader: calls `sink` per example; strict (see tests/test_readers.cpp).
void read_libsvm(const std::string& path, const LabelMap& labels,
                 const std::function<void(std::span<const uint32_t>, std::span<const double>, double)>& sink);
Dataset load_libsvm(const std::string& path, const LabelMap& labels = {});

// Delimited text (CSV/TSV): `label_column` is 0-based, negative counts from the end;
// `header` skips the first line.
Dataset load_delimited(const std::string& path, char sep, int label_column, bool header,
                       const LabelMap& labels = {});
// MNIST IDX images + labels (pixels scaled to [0,1]).
Dataset load_idx(const std::string& images, const std::string& labels_path, const LabelMap& labels);
// USPS / ESL zip.train format: label first, then 256 grey values, space separated.
Dataset load_usps(const std::string& path, const LabelMap& labels);

}  // namespace plab
