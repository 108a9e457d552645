#pragma once
// The xoff results file format (schema version 1), defined here and nowhere else.
// The writer, the reader, the tests and analysis/plot/xoff_plot.py follow these names.
//
// One HDF5 file per run. Every table is a group of equal-length 1-D datasets, one per
// column, so it reads straight into pandas:
//   df = pd.DataFrame({k: (c.asstr()[:] if c.dtype.kind == "O" else c[:])
//                      for k, c in f["flows"].items()})
// (or analysis/plot/xoff_results.py: pd.DataFrame(table(f, "flows"))).
// Inside a table, h5py lists columns in the order below (groups track creation
// order); the top-level groups list by name (HDF5 1.10 ignores order on the root).
// Strings are variable-length UTF-8. Raw integers carry their unit in the name.
// Column types: *_ps, *_bytes, bytes, packets and the queue counters int64; flow_id,
// src_host, dst_host, ranks, steps, step, member_count and row references (collective,
// deadlock) uint32; port, a_port, b_port, quanta uint16; traffic_class uint8; sent
// uint8 0/1; tier int32; slowdown and series values float64. Tables are always
// present, possibly with zero rows; /topology only when the app provided one.
//
//   /meta                   group, attributes only (see `meta` below)
//   /flows                  one row per finished flow
//   /collectives            one row per finished collective
//   /collective_steps       one row per step: `collective` is the row in /collectives
//   /collective_segments    one row per collective of a workload (same `collective`)
//   /counters/queues        one row per egress queue (node, port, traffic class)
//   /counters/buffers       one row per switch: shared-buffer sizes and peaks
//   /counters/drops         one row per (node, reason)
//   /events/pfc             PFC frames sent or received by switch and host NIC ports (quanta 0 =
//   XON) /events/watchdog        PFC watchdog transitions /events/deadlock        one row per
//   detected cycle; `members` is the cycle as
//                           "node:port:tc -> node:port:tc -> ..." in cycle order
//   /events/deadlock_members  the same members as rows: `deadlock` is the row above
//   /series/<key>           datasets `time_ps` (int64) and `value` (float64); attributes
//                           `name` (the model's name, e.g. "queue_bytes/leaf0/p3/tc3")
//                           and `unit` ("bytes", "Gbps", "bool", "frames", "1"); kinds
//                           and their names: models/monitor/sampler.h. <key> is the name with
//                           every '/' replaced by '.' (flat, so iterating /series yields
//                           series, not a tree); a key that would repeat an earlier one
//                           gets "~<declaration index>" appended. Read `name`, not <key>.
//   /topology/nodes         name, kind ("host" | "switch"), tier (0 = hosts, 1 = leaf...)
//   /topology/links         a, b (node names), a_port, b_port, rate_bps, delay_ps
//
// Determinism: nothing in the file depends on the wall clock except the
// `wall_seconds` and `events_per_second` attributes, which come from the caller.
// HDF5 object timestamps are switched off, so two writes of the same run with the
// same metadata are byte-identical; tests compare datasets, which is what matters.
#include <array>
#include <cstdint>

namespace xoff::analysis::schema {

inline constexpr uint32_t kVersion = 1;
inline constexpr const char* kFormat = "xoff-results";  // value of /meta@format

namespace meta {
inline constexpr const char* kGroup = "meta";
inline constexpr const char* kFormatAttr = "format";
inline constexpr const char* kSchemaVersion = "schema_version";       // uint32
inline constexpr const char* kXoffVersion = "xoff_version";           // string
inline constexpr const char* kScenarioName = "scenario_name";         // string
inline constexpr const char* kScenarioText = "scenario_text";         // string: the TOML as run
inline constexpr const char* kSeed = "seed";                          // uint64
inline constexpr const char* kFingerprint = "fingerprint";            // uint64 event fingerprint
inline constexpr const char* kEvents = "events";                      // uint64 events executed
inline constexpr const char* kSimTime = "sim_time_ps";                // int64
inline constexpr const char* kWallSeconds = "wall_seconds";           // float64
inline constexpr const char* kEventsPerSecond = "events_per_second";  // float64
// Planned work, so a reader can count what did not finish (/flows and
// /collectives hold finished rows only). Added within schema 1: files
// written before them lack both, and readers then report 0 (unknown).
// How the run ended: "complete", or stopped early with partial results:
// "interrupted" (SIGINT/SIGTERM), "event_budget" (--max-events), "wall_budget"
// (--max-wall). Absent in files from before it: complete.
inline constexpr const char* kStatus = "status";                           // string
inline constexpr const char* kFlowsPlanned = "flows_planned";              // uint64
inline constexpr const char* kCollectivesPlanned = "collectives_planned";  // uint64
}  // namespace meta

namespace flows {
inline constexpr const char* kGroup = "flows";
inline constexpr std::array kColumns = {"flow_id",
                                        "name",
                                        "protocol",
                                        "src_host",
                                        "dst_host",
                                        "traffic_class",
                                        "size_bytes",
                                        "start_ps",
                                        "finish_ps",
                                        "fct_ps",
                                        "ideal_fct_ps",
                                        "slowdown",
                                        "retransmitted_bytes",
                                        "state",
                                        "bytes_delivered",
                                        "cnps_received"};
// Every planned flow is a row (collective steps not yet generated when the
// run ended excepted: /meta@flows_planned counts them). state: "finished",
// "running" (started, not done), "waiting" (never started). For the last two
// finish_ps is the run's end, fct_ps is -1 and slowdown NaN; bytes_delivered
// is the payload acknowledged (-1: the transport cannot tell). cnps_received:
// the CNPs the flow's sender (its RoCE QP) received, -1 for transports that do
// not count them (and in files written before the column). Files written
// before state existed hold finished flows only (readers assume "finished").
inline constexpr const char* kFinished = "finished";
inline constexpr const char* kRunning = "running";
inline constexpr const char* kWaiting = "waiting";
}  // namespace flows

namespace collectives {
inline constexpr const char* kGroup = "collectives";
// path_*: the critical path (models/monitor/recorder.h CollectiveRecord), whose
// parts add up to duration_ps; files written before they existed lack them.
// op: "allreduce" unless set; files written before it existed lack it.
inline constexpr std::array kColumns = {"name",
                                        "op",
                                        "algorithm",
                                        "ranks",
                                        "size_bytes",
                                        "start_ps",
                                        "finish_ps",
                                        "duration_ps",
                                        "ideal_ps",
                                        "steps",
                                        "path_flows",
                                        "path_bandwidth_ps",
                                        "path_overhead_ps",
                                        "path_congestion_ps",
                                        "path_wait_ps"};
inline constexpr const char* kStepsGroup = "collective_steps";
// unloaded_ps, mean_fct_ps, max_fct_ps: over the step's flows (models/monitor/recorder.h
// CollectiveRecord); files written before they existed lack them.
inline constexpr std::array kStepColumns = {"collective",  "step",        "duration_ps",
                                            "unloaded_ps", "mean_fct_ps", "max_fct_ps"};
// A workload's collectives, one row per (iteration record, line with bytes):
// `collective` is the row in /collectives, `segment` the line's order.
// Files written before it lack the table.
inline constexpr const char* kSegmentsGroup = "collective_segments";
inline constexpr std::array kSegmentColumns = {"collective", "segment",   "op",
                                               "algorithm",  "group",     "size_bytes",
                                               "start_ps",   "finish_ps", "duration_ps"};
}  // namespace collectives

namespace counters {
inline constexpr const char* kGroup = "counters";
inline constexpr const char* kQueues = "counters/queues";
inline constexpr std::array kQueueColumns = {
    "node",       "port",           "traffic_class",   "tx_packets",
    "tx_bytes",   "ecn_marked",     "dropped_packets", "peak_bytes",
    "pause_sent", "pause_received", "paused_time_ps"};
inline constexpr const char* kBuffers = "counters/buffers";
inline constexpr std::array kBufferColumns = {"node",
                                              "buffer_bytes",
                                              "shared_pool_bytes",
                                              "headroom_pool_bytes",
                                              "peak_total_bytes",
                                              "peak_shared_bytes",
                                              "peak_headroom_bytes",
                                              "peak_pg_headroom_bytes",
                                              "xoff_episodes",
                                              "xon_sent",
                                              "watchdog_storms",
                                              "acl_remarked",
                                              "tagger_retagged"};
inline constexpr const char* kDrops = "counters/drops";
inline constexpr std::array kDropColumns = {"node", "reason", "packets", "bytes"};
}  // namespace counters

namespace events {
inline constexpr const char* kGroup = "events";
inline constexpr const char* kPfc = "events/pfc";
inline constexpr std::array kPfcColumns = {"time_ps",       "node", "port",
                                           "traffic_class", "sent", "quanta"};
inline constexpr const char* kWatchdog = "events/watchdog";
inline constexpr std::array kWatchdogColumns = {"time_ps",       "node",  "port",
                                                "traffic_class", "state", "action"};
inline constexpr const char* kDeadlock = "events/deadlock";
inline constexpr std::array kDeadlockColumns = {"formed_ps", "detected_ps", "members",
                                                "member_count", "stuck_bytes"};
inline constexpr const char* kDeadlockMembers = "events/deadlock_members";
inline constexpr std::array kDeadlockMemberColumns = {"deadlock", "node", "port", "traffic_class",
                                                      "queued_bytes"};
inline constexpr const char* kMemberSeparator = " -> ";
}  // namespace events

namespace series {
inline constexpr const char* kGroup = "series";
inline constexpr const char* kTime = "time_ps";
inline constexpr const char* kValue = "value";
inline constexpr const char* kNameAttr = "name";
inline constexpr const char* kUnitAttr = "unit";
}  // namespace series

namespace topology {
inline constexpr const char* kGroup = "topology";
inline constexpr const char* kNodes = "topology/nodes";
inline constexpr std::array kNodeColumns = {"name", "kind", "tier"};
inline constexpr const char* kLinks = "topology/links";
// up: uint8 1/0, the link's state at the end of the run (absent in older files: up).
inline constexpr std::array kLinkColumns = {"a",        "b",        "a_port", "b_port",
                                            "rate_bps", "delay_ps", "up"};
}  // namespace topology

}  // namespace xoff::analysis::schema
