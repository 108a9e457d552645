#pragma once
// Flow lists from files, as other simulators take them (`[[traffic.file]]`,
// docs/scenario-format.md):
//
//   csv   a header row naming the columns, then one flow per row. Required:
//         src, dst (host names like "h3", or host ordinals 0..H-1), size
//         ("64KB", or a bare integer: bytes). Optional: start (a duration,
//         "10us"; 0 by default), protocol ("roce" | "tcp"), class (0..7),
//         dscp (0..63; default 8 x class), name. Absent columns take the
//         [[traffic.file]] table's defaults. Blank lines and lines starting
//         with '#' are skipped.
//   hpcc  the HPCC ns-3 simulator's flow.txt: the first line is the number
//         of flows, then one per line, whitespace separated:
//         `src dst priority dport size start_seconds` (src and dst are host
//         ordinals in the topology's host order, priority the class, dport
//         ignored, size in bytes).
//
// Errors are config::ScenarioError at file:line:col, the column named.
#include <string>
#include <vector>

#include "models/topology/topology.h"
#include "models/traffic/flow_plan.h"

namespace xoff::app {

// At most this many flows per file, and files of at most kMaxFlowFileBytes.
inline constexpr size_t kMaxFileFlows = 10'000'000;
inline constexpr uintmax_t kMaxFlowFileBytes = uintmax_t{2} << 30;

// `format`: "csv" or "hpcc". Flow names: "<prefix>/<row>" unless a name column
// gives one (row counts flows from 0).
std::vector<models::FlowPlan> read_flow_file(const std::string& path, const std::string& format,
                                             const models::Topology& topo,
                                             const models::FlowClass& defaults,
                                             const std::string& prefix);

}  // namespace xoff::app
