#pragma once
// The headline numbers of one run, as named columns: what a sweep table holds
// per point and what `xoff collect` merges (FCT tail per protocol, unfinished
// flows, XOFF, ECN marks, lossless violations, drops by reason, peak buffer,
// AllReduce time). Computed from a RunData alone, so a results file is enough.
#include <string>
#include <utility>
#include <vector>

#include "analysis/results/run_data.h"

namespace xoff::analysis {

// Ordered (name, value) pairs. Names are stable and unit-suffixed:
//   flows_finished, flows_unfinished (NaN when the file does not say what was
//   planned), fct_p50_us_<p>, fct_p99_us_<p>, fct_max_us_<p>,
//   slowdown_p50_<p>, slowdown_p99_<p> for every protocol <p> present ("roce",
//   "tcp") and "all", xoff_frames (XOFF frames sent, all ports), ecn_marks,
//   lossless_violations, drops_<reason> for every lossy reason (always present,
//   0 when none), peak_buffer_bytes (the fullest switch), deadlocks,
//   allreduce_us (the longest finished collective; NaN without one),
//   collectives_unfinished, events, sim_time_us.
using Metrics = std::vector<std::pair<std::string, double>>;
Metrics run_metrics(const RunData& d);

// The drop reasons other than lossless violations, in the order of the columns.
const std::vector<std::string>& lossy_drop_reasons();

}  // namespace xoff::analysis
