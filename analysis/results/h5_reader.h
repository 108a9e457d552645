#pragma once
// Reads a results file written by H5Recorder back into RunData: for tests, and for
// `xoff summary` / `xoff compare`. Everything written is read back (series in
// declaration order, deadlock members from /events/deadlock_members).
#include <string>

#include "analysis/results/results_error.h"
#include "analysis/results/run_data.h"

namespace xoff::analysis {

// Throws ResultsError naming `path` if the file is missing, is not an xoff results
// file (/meta@format), has a newer schema_version than this build knows, or any
// table is missing a column or has columns of different lengths.
RunData read_results(const std::string& path);

// The schema version stored in `path`; throws ResultsError like read_results.
uint32_t read_schema_version(const std::string& path);

}  // namespace xoff::analysis
