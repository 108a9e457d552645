#pragma once
// A training job's communication from a file (`[[collective]] workload =`,
// docs/scenario-format.md "Workloads"). Two formats:
//
//   xoff   one step per line, run in order, the list once per iteration:
//            compute <duration>                      e.g. compute 2.5ms
//            <op> <size> [group=all|server|rail] [algorithm=...]
//          op: allreduce, reduce_scatter, all_gather, all_to_all; size as in
//          scenarios ("64MB"); group (default all): the job's ranks, each
//          server's GPUs (over NVLink), or each rail (GPU i of every server);
//          algorithm as for [[collective]] (allreduce: ring, halving_doubling,
//          hierarchical; all_to_all: direct). '#' starts a comment.
//   astra  the ASTRA-sim 1.0 / SimAI text workload of a data-parallel job:
//          line 1 "DATA", line 2 the number of layers, then per layer
//          `name reserved fwd_compute fwd_type fwd_size ig_compute ig_type
//          ig_size wg_compute wg_type wg_size update_delay`, types ALLREDUCE,
//          ALLGATHER, REDUCESCATTER, ALLTOALL or NONE, sizes in bytes, times in
//          cycles of `cycle`. It runs as ASTRA-sim's DATA loop does: forward
//          through the layers (compute, then the collective), backward from
//          the last layer (weight-gradient compute and collective, then the
//          input-gradient ones, none for the first layer; then the update
//          delay). Unlike
//          ASTRA-sim, a weight-gradient collective blocks the next layer's
//          backward compute (no overlap): an upper bound on iteration time.
//          Other loop types (HYBRID_*) are refused: they need model-parallel
//          groups xoff does not map.
//
// Errors are config::ScenarioError at file:line:col.
#include <string>
#include <vector>

#include "models/traffic/collective.h"

namespace xoff::app {

std::vector<models::WorkloadStep> read_workload_file(const std::string& path,
                                                     const std::string& format,
                                                     sim::Duration cycle);

}  // namespace xoff::app
