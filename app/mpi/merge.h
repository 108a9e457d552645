#pragma once
// The results of a partitioned run, put together: what each part recorded
// becomes the file one process would have written (the same tables in the
// same order, the same fingerprint and event count).
//
// Every part builds the whole fabric and records counters for all of it, so
// the tables have the same shape everywhere; a part holds the real numbers
// for the nodes it simulates and zeros for the rest, except that a frame in
// flight on a link that fails is dropped where the link's far end is
// simulated. So: flows come from the part of their source host (a flow
// finishes at its sender); counter tables are summed per row (peaks: the
// maximum); buffer rows come from the switch's part; series are summed point
// by point (a part samples zeros, or NaN for a DCQCN state, where it does not
// simulate); PFC and
// watchdog events are concatenated and put in canonical order; deadlocks are
// found from every part's stuck queues at once, so every part records the
// same ones and part 0's are kept; events and fingerprints add up.
#include <vector>

#include "analysis/results/run_data.h"
#include "app/mpi/partition.h"
#include "models/topology/topology.h"

namespace xoff::app {

analysis::RunData merge_parts(const std::vector<analysis::RunData>& parts, const Partition& p,
                              const models::Topology& t);

}  // namespace xoff::app
