#pragma once
// Everything one run file holds, as plain structs: what H5Recorder buffers and
// writes, and what read_results() returns. Records are the models' own types
// (models/monitor/recorder.h); the rest is what only analysis/ and app/ know.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/monitor/recorder.h"

namespace xoff::analysis {

// Stored as /meta attributes. `wall_seconds` is the only wall-clock value in a file.
struct RunMetadata {
  std::string xoff_version;
  std::string scenario_name;
  std::string scenario_text;  // the scenario file as run, after overrides
  uint64_t seed = 0;
  uint64_t fingerprint = 0;  // sim::Simulator's event fingerprint
  uint64_t events = 0;       // events executed
  sim::Time sim_time;        // simulated time at the end of the run
  double wall_seconds = 0;
  // Flows the run planned, not-yet-generated collective steps included, and
  // collectives; 0 = unknown (a file from before these were recorded).
  uint64_t flows_planned = 0;
  // "complete" | "interrupted" | "event_budget" | "wall_budget" (schema.h).
  std::string status = "complete";
  bool complete() const { return status == "complete"; }
  uint64_t collectives_planned = 0;
  double events_per_second() const {
    return wall_seconds > 0 ? static_cast<double>(events) / wall_seconds : 0.0;
  }
};

// A topology node for pictures: kind "host" | "switch"; tier 0 = hosts, 1 = leaf/ToR,
// 2 = spine, 3 = core (a ring's switches are all tier 1).
struct TopologyNode {
  std::string name;
  std::string kind;
  int32_t tier = 0;
};

struct TopologyLink {
  std::string a;  // node names
  std::string b;
  uint16_t a_port = 0;
  uint16_t b_port = 0;
  int64_t rate_bps = 0;
  int64_t delay_ps = 0;
  bool up = true;  // the link's state when the run ended (a fault may have failed it)
};

// One sampled series: parallel arrays, times non-decreasing.
struct SeriesData {
  std::string name;  // as declared, e.g. "queue_bytes/leaf0/p3/tc3"
  std::string unit;  // "bytes" | "Gbps" | "bool"
  std::vector<int64_t> time_ps;
  std::vector<double> value;
};

struct RunData {
  RunMetadata meta;
  std::vector<models::FlowRecord> flows;
  std::vector<models::CollectiveRecord> collectives;
  std::vector<models::QueueCounters> queues;
  std::vector<models::DropCounters> drops;
  std::vector<models::BufferCounters> buffers;
  std::vector<models::PfcEventRecord> pfc_events;
  std::vector<models::WatchdogEventRecord> watchdog_events;
  std::vector<models::DeadlockRecord> deadlocks;
  std::vector<SeriesData> series;  // in declaration order
  std::vector<TopologyNode> topology_nodes;
  std::vector<TopologyLink> topology_links;

  // The series declared under `name`, or null.
  const SeriesData* find_series(std::string_view name) const {
    for (const auto& s : series) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
};

// "node:port:tc -> node:port:tc -> ..." in cycle order (the /events/deadlock members
// column).
// Puts the event-ordered tables in the order a results file keeps them, which
// does not depend on how a run interleaved its nodes' events (nor on how many
// processes ran it): flows by flow id; PFC and watchdog events by time, then
// node name, each node's events at one instant in the order it had them;
// collectives by finish, then name.
// Counter tables are already in topology order; series in declaration order.
void canonical_order(RunData& d);

std::string format_deadlock_members(const std::vector<models::DeadlockMember>& members);

}  // namespace xoff::analysis
