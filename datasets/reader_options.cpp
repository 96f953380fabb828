// The reader options' and the run's own options' declarations (datasets/readers.hpp).
#include "core/option_decl.hpp"
#include "core/thread_pool.hpp"
#include "datasets/preprocess.hpp"
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

const std::vector<OptionDecl>& run_options() {
  using T = OptionDecl::Type;
  const std::string g = "Run options";
  // Defaults: no label map given (binary spellings; "classes" for a multiclass learner), none
  // for the seed (the file order).
  static const std::vector<OptionDecl> v = [&] {
    std::vector<OptionDecl> rows = {
        declare("run", g, "labels", T::text, nullptr, {},
                "Label map, e.g. '3:+1,*:-1' (digit 3 against the rest), 'classes' (multiclass learners' default) "
                "or 'regression'"),
        declare("run", g, "preprocess", T::text, "none", {},
                "Input preprocessing, applied to training and test rows after loading: none | pm1-to-01 "
                "((x+1)/2 on every feature) | unit-norm (x/||x||), or a comma-separated list applied left to right "
                "(docs/conventions.md#preprocess)"),
        declare("run", g, "limit", T::count, 0, {}, "Use only the first N rounds (0 = all)"),
        declare("run", g, "shuffle", T::count, nullptr, {}, "Permute the rounds with this seed (default: file order)"),
        declare("run", g, "threads", T::count, 0, {},
                "Threads of this run: the kernel rows are split between them, the results are the same bits on any "
                "number (0 = the hardware threads; docs/threads.md)",
                at_most(kMaxThreads)),
    };
    rows[0].parse = [](const std::string& s, const std::string& at) { LabelMap::parse(s, at); };
    rows[1].parse = [](const std::string& s, const std::string& at) { Preprocess::parse(s, at); };
    return rows;
  }();
  return v;
}

}  // namespace plab
