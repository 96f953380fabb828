// Finished cells on disk, what makes an interrupted `plab reproduce` resume (even after kill -9):
// <dir>/<key>.json holds a cell's deterministic result document, <key>.time.json its times. Both
// are written atomically (temporary file + rename), the times first, so the result file marks
// completion; a cell whose result file exists is not recomputed.
#pragma once
#include <string>

#include "experiments/cell/cell.hpp"

namespace plab {

// Fills o.doc (and its times, when recorded) from its finished cell file; false when there is none
// (or it is not a valid result document).
bool load_finished_cell(const std::string& dir, CellOutcome& o);

// Runs o's cell and writes its files; the cell's error, if any, goes to o.error. True when a file
// could not be written (the disk, not the cell: the caller stops handing out cells).
bool compute_and_store(CellOutcome& o, DataCache& data, const std::string& dir);

}  // namespace plab
