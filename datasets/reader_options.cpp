// The reader options' declarations (datasets/readers.hpp).
#include "core/option_decl.hpp"
#include "datasets/readers.hpp"

namespace plab {

const std::vector<OptionDecl>& reader_options() {
  using T = OptionDecl::Type;
  const std::string g = "Reader options";
  const std::vector<std::string> files = {"libsvm", "csv", "tsv", "usps"}, delimited = {"csv", "tsv"};
  static const std::vector<OptionDecl> v = {
      declare("reader", g, "format", T::text, "auto", files, "File format: auto (by extension) | libsvm | csv | tsv | usps",
              {}, {"auto", "libsvm", "csv", "tsv", "usps"}),
      declare("reader", g, "header", T::text, "auto", delimited,
              "CSV/TSV first line: auto (a header only when every cell is non-numeric text) | yes | no", {},
              {"auto", "yes", "no"}),
      declare("reader", g, "label_column", T::text, "last", delimited,
              "CSV/TSV label column: last | first | N (1-based) | NAME (from the header)"),
  };
  return v;
}

}  // namespace plab
