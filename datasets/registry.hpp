// Named data sets, the data search path, and generated (synthetic) data.
// Search path: every directory in $PLAB_DATA (colon-separated), then the build's data directory
// if one was set (this build's own programs set ../shared/datasets next to the source tree:
// experiments/build_tree.cpp; the installed library sets none), then ../shared/datasets relative
// to the working directory.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "datasets/readers.hpp"

namespace plab {

struct DatasetFile {
  std::string path;    // relative to a data root, e.g. "a9a/a9a.xz"
  std::string sha256;  // of the file as stored ("" = not pinned: a set we never had a copy of)
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
  bool multiclass = false;  // no binary default: loading needs a label map (--labels 3:+1,*:-1)
};

// Status of one registry entry on the search path (for `plab datasets`).
struct DatasetStatus {
  std::string root;                   // directory holding every file ("" = not found)
  std::vector<std::string> tried;     // every directory looked at
  std::vector<std::string> bad_files; // files whose SHA-256 differs (only if verified)
};

const std::vector<DatasetInfo>& dataset_registry();
std::vector<std::string> data_search_path();
// Sets the build's data directory of data_search_path ("" = none, the default).
void set_build_data_dir(std::string dir);
const DatasetInfo* find_dataset_info(const std::string& name);  // nullptr if not registered

// The first directory of `search_path` holding every file of `info`; throws DataError listing
// every path tried and the download address when none does.
std::string locate_dataset(const DatasetInfo& info, const std::vector<std::string>& search_path);
// Locates `info` without throwing and, if `verify`, checks every file's SHA-256.
DatasetStatus dataset_status(const DatasetInfo& info, bool verify);
// SHA-256 of `path`, computed once per process for a given (path, size, mtime).
std::string cached_sha256(const std::string& path);
// Throws DataError naming the file, the expected and the actual checksum on mismatch.
void verify_sha256(const std::string& path, const std::string& expected);

// A label map whose tokens for one class match no row of `name`, while '*' takes the rows to the
// other class: the data became one class without a word (`--labels 1:+1,*:-1` on a file that
// spells `1.0`), refused (DataError naming the file). Tokens are matched exactly as written
// (docs/inputs.md#libsvm). load_dataset checks every file; a stream checks itself at its end.
void check_label_map_matched(const std::string& name, const LabelMap& m, bool any_positive, bool any_negative);

// Loads a registry name, a generator spec "synthetic:NAME[:key=value,...]" or a file path
// (format by extension/content: LIBSVM by default). Registry files are located on the search
// path and checksum-verified; a missing data set throws DataError listing the paths tried and
// the download address; a checksum mismatch throws DataError. `labels` overrides the
// registry's label mapping when non-empty.
Dataset load_dataset(const std::string& spec, const LabelMap& labels = {});

// Multiclass labels (LabelMap "classes"): replaces each label by its index among `classes`
// (ascending original values); with `classes` empty they are the data set's distinct labels.
// Throws DataError naming the data set and the label when one is not among `classes`.
void index_classes(Dataset& d, std::vector<double> classes = {});

// "registry:a9a" names the registered set explicitly; a bare "a9a" is refused when a file ./a9a
// also exists (docs/inputs.md#names).
inline constexpr const char* kRegistryPrefix = "registry:";

// How to read a file given by path (the CLI's --labels, --format, --header, --label-column).
struct LoadOptions {
  LabelMap labels;
  std::string format = "auto";            // auto (by extension) | libsvm | csv | tsv | usps
  std::optional<DelimitedLayout> layout;  // CSV/TSV only; unset = header auto, label last
  RowArrivals* arrivals = nullptr;        // a mapped LIBSVM file given by its path publishes its rows there (load_libsvm)
};
Dataset load_dataset(const std::string& spec, const LoadOptions& opt);
// Where `spec` comes from: "registry", "file" or "generator" (recorded in the summary).
std::string dataset_source(const std::string& spec);
// What reads `spec` with --format `format`: "generator", "registry", or a file reader "libsvm",
// "csv", "tsv", "usps" (format auto: by the file name's extension). Owners of reader_options().
std::string data_reader(const std::string& spec, const std::string& format = "auto");

}  // namespace plab
