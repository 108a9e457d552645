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
//   planned), flows_running (started, not done), fct_p50_us_<p>, fct_p99_us_<p>, fct_max_us_<p>,
//   slowdown_p50_<p>, slowdown_p99_<p> for every protocol <p> present ("roce",
//   "tcp") and "all", xoff_frames (XOFF frames sent, all ports), ecn_marks,
//   lossless_violations, drops_<reason> for every lossy reason (always present,
//   0 when none), peak_buffer_bytes (the fullest switch), deadlocks,
//   allreduce_us (the longest finished collective; NaN without one) and its
//   allreduce_busbw_gbs (nccl-tests' bus bandwidth, bus_bandwidth below) and
//   allreduce_{overhead,congestion,wait}_us (collective_breakdown below),
//   collective_mean_us (the mean of every finished collective record: with
//   iterations, the mean iteration's communication), collective_mean_us_<op>
//   per op (allreduce, all_to_all, ...: over single collectives and workload
//   lines), rpc_{p50,p99,mean}_us_<probe> for every TCP RPC probe with a
//   finished RPC, collectives_unfinished, events, sim_time_us.
using Metrics = std::vector<std::pair<std::string, double>>;
Metrics run_metrics(const RunData& d);

// Where a collective's time went, in microseconds, along its critical path
// (the chain of flows, each released by the later of its two dependencies,
// that ended with the last flow to finish). The four parts add up to the
// collective's time exactly:
//   bandwidth   the path's bytes at the collective's link rate (for ring and
//               halving-doubling, the ideal 2 (N-1)/N x S / B)
//   overhead    the path's unloaded FCTs beyond that: headers, propagation,
//               store and forward, the last ACK (each flow alone, idle fabric)
//   congestion  its FCTs beyond the unloaded ones: queueing behind other
//               flows (incast, ECMP collisions), PFC pauses, DCQCN rate cuts
//   wait        gaps between a dependency's finish and the next flow's start
// valid is false for a record without a path (a file from before it).
struct CollectiveBreakdown {
  bool valid = false;
  uint32_t flows = 0;
  double total_us = 0, bandwidth_us = 0, overhead_us = 0, congestion_us = 0, wait_us = 0;
};
CollectiveBreakdown collective_breakdown(const models::CollectiveRecord& c);

// nccl-tests' figures of a collective (its PERFORMANCE.md): algbw = S / t and
// busbw = algbw x 2 (n - 1) / n for an allreduce, algbw x (n - 1) / n for
// reduce-scatter, all-gather and all-to-all, in GB/s (10^9 B/s). busbw is what
// compares with the links' line rate: the flat algorithms reach it at best.
struct BusBandwidth {
  double algbw_gbs = 0;
  double busbw_gbs = 0;
};
BusBandwidth bus_bandwidth(const models::CollectiveRecord& c);

// The drop reasons other than lossless violations, in the order of the columns.
const std::vector<std::string>& lossy_drop_reasons();

}  // namespace xoff::analysis
