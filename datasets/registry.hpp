// Named data sets, the data search path, and generated (synthetic) data.
// Search path: every directory in $PLAB_DATA (colon-separated), then ../shared/datasets next to
// the source tree, then ../shared/datasets relative to the working directory.
#pragma once
#include <string>
#include <vector>

#include "datasets/readers.hpp"

namespace plab {

struct DatasetFile {
  std::string path;    // relative to a data root, e.g. "a9a/a9a.xz"
  std::string sha256;  // of the file as stored
};

struct DatasetInfo {
  std::string name;         // e.g. "a9a", "a9a.t", "usps", "mnist-test"
  std::string format;       // libsvm | csv | tsv | idx | usps
  std::vector<DatasetFile> files;  // idx: images then labels
  std::string labels;       // default LabelMap spec ("" = binary spellings)
  int label_column = -1;    // csv/tsv
  bool header = false;      // csv/tsv
  std::string url;          // original public download address
  std::string description;
};

const std::vector<DatasetInfo>& dataset_registry();
std::vector<std::string> data_search_path();

// Loads a registry name, a generator spec "synthetic:NAME[:key=value,...]" or a file path
// (format by extension/content: LIBSVM by default). Registry files are located on the search
// path and checksum-verified; a missing data set throws DataError listing the paths tried and
// the download address; a checksum mismatch throws DataError. `labels` overrides the
// registry's label mapping when non-empty.
Dataset load_dataset(const std::string& spec, const LabelMap& labels = {});

}  // namespace plab
