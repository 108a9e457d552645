#pragma once
// The narrow interface through which models report results. models/ knows
// nothing about files: analysis/ implements Recorder (HDF5), tests implement
// it in memory. Every record is a plain struct with units in the field names
// where the type cannot carry them.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/units.h"

namespace xoff::models {

// A flow (RoCE message or TCP transfer) that finished: FCT and slowdown.
struct FlowRecord {
  uint32_t flow_id = 0;
  std::string name;       // scenario-given name or "f<id>"
  std::string protocol;   // "roce" | "tcp" | "nvlink"
  uint32_t src_host = 0;  // host ordinal (0..H-1)
  uint32_t dst_host = 0;
  uint8_t traffic_class = 0;
  int64_t size_bytes = 0;
  sim::Time start;
  sim::Time finish;
  sim::Duration ideal_fct;  // size at the bottleneck line rate + base RTT/2
  int64_t retransmitted_bytes = 0;
  // How the flow stood when the run ended: finished (finish is its FCT's
  // end), running (started, not done: finish is the run's end) or waiting
  // (never started: start is when it was planned or became ready, finish the
  // run's end). Only finished flows have an FCT.
  enum class State : uint8_t { kFinished, kRunning, kWaiting };
  State state = State::kFinished;
  int64_t bytes_delivered = 0;  // payload acknowledged (size when finished; -1 unknown)
  int64_t cnps_received = -1;   // CNPs its sender's QP received (RoCE; -1 not counted)
  bool finished() const { return state == State::kFinished; }
  double slowdown() const {
    return ideal_fct.count_ps() > 0 ? static_cast<double>((finish - start).count_ps()) /
                                          static_cast<double>(ideal_fct.count_ps())
                                    : 0.0;
  }
};

// A PFC frame sent or received at a port. quanta == 0 is XON.
struct PfcEventRecord {
  sim::Time time;
  std::string node;
  uint16_t port = 0;
  uint8_t traffic_class = 0;
  bool sent = true;  // true: this port sent it upstream; false: received
  uint16_t quanta = 0;
};

// A PFC watchdog transition on an egress queue.
struct WatchdogEventRecord {
  sim::Time time;
  std::string node;
  uint16_t port = 0;
  uint8_t traffic_class = 0;
  std::string state;   // "stormed" | "restored"
  std::string action;  // "drop" | "forward" | "alert"
};

struct DeadlockMember {
  std::string node;
  uint16_t port = 0;
  uint8_t traffic_class = 0;
  int64_t queued_bytes = 0;
};

// A cycle of paused queues that made no progress for the detection window.
struct DeadlockRecord {
  sim::Time formed;                     // when the last member of the cycle became paused
  sim::Time detected;                   // formed + window (or later, at a detector poll)
  std::vector<DeadlockMember> members;  // in cycle order
  int64_t stuck_bytes = 0;
};

// A collective (AllReduce) that finished, with one entry per step.
// One line of a workload (a collective of it), within one iteration: from
// the first flow's start (after the line's compute) to the last finish.
struct CollectiveSegment {
  std::string op;         // as CollectiveRecord::op
  std::string algorithm;  // as CollectiveRecord::algorithm
  std::string group;      // "all" | "server" | "rail"
  int64_t size_bytes = 0;
  sim::Time start;
  sim::Time finish;
};

struct CollectiveRecord {
  std::string name;
  std::string op = "allreduce";  // "allreduce" | "reduce_scatter" | "all_gather" | "all_to_all"
  std::string algorithm;         // "ring" | "halving_doubling" | "hierarchical" | "direct"
  uint32_t ranks = 0;
  int64_t size_bytes = 0;
  sim::Time start;
  sim::Time finish;
  sim::Duration ideal;  // the bandwidth bound (collective_ideal())
  std::vector<sim::Duration> step_times;
  // Per step, over its N flows (where the time went, app/run/summary.cc):
  // the longest unloaded FCT (each flow's ideal_fct: the step alone on an
  // idle fabric), and the mean and the longest measured FCT.
  std::vector<sim::Duration> step_unloaded;
  std::vector<sim::Duration> step_mean_fct;
  std::vector<sim::Duration> step_max_fct;
  // The critical path: the chain of path_flows flows (each released by the
  // later of its dependencies) that ended with the last one to finish. Its
  // four parts add up to finish - start: bytes at line rate, unloaded FCT
  // beyond that (headers, latency), FCT beyond unloaded (queueing, pauses,
  // rate cuts, sharing a link), and gaps between a dependency and the start.
  sim::Duration path_bandwidth;
  sim::Duration path_overhead;
  sim::Duration path_congestion;
  sim::Duration path_wait;
  uint32_t path_flows = 0;
  // A workload's collectives in order (empty for a single collective).
  std::vector<CollectiveSegment> segments;
};

// One point of a sampled time series; `series` names it, e.g.
// "queue_bytes/leaf0/p3/tc3", "tx_gbps/host2", "paused/spine1/p0/tc3".
struct SamplePoint {
  uint32_t series = 0;  // index returned by Recorder::declare_series
  sim::Time time;
  double value = 0;
};

// End-of-run counters for one egress queue (port, traffic class).
struct QueueCounters {
  std::string node;
  uint16_t port = 0;
  uint8_t traffic_class = 0;
  int64_t tx_packets = 0;
  int64_t tx_bytes = 0;
  int64_t ecn_marked = 0;
  int64_t dropped_packets = 0;  // all reasons, this queue
  int64_t peak_bytes = 0;
  int64_t pause_sent = 0;  // XOFF frames sent from this port for this class
  int64_t pause_received = 0;
  sim::Duration paused_time;  // total time this queue was paused
};

// End-of-run drop counts by reason for a node.
struct DropCounters {
  std::string node;
  std::string reason;  // "lossless_violation" | "lossy_egress" | "lossy_ingress" | "link_down" |
                       // "watchdog" | "no_route" | "ttl"
  int64_t packets = 0;
  int64_t bytes = 0;
};

// End-of-run shared-buffer figures of one switch: what a buffer architect sizes.
struct BufferCounters {
  std::string node;
  int64_t buffer_bytes = 0;         // B, the configured total
  int64_t shared_pool_bytes = 0;    // what reserves and the headroom partition leave
  int64_t headroom_pool_bytes = 0;  // headroom partition (or shared headroom pool)
  int64_t peak_total_bytes = 0;     // reserved + shared + headroom, at its highest
  int64_t peak_shared_bytes = 0;
  int64_t peak_headroom_bytes = 0;
  int64_t peak_pg_headroom_bytes = 0;  // the most one (port, PG) ever held in headroom
  int64_t xoff_episodes = 0;           // XOFF decisions (refreshes not counted)
  int64_t xon_sent = 0;
  int64_t watchdog_storms = 0;
  int64_t acl_remarked = 0;     // host packets remarked out of a lossless class (DSCP ACL)
  int64_t tagger_retagged = 0;  // bounced packets moved to the next Tagger tag
};

class Recorder {
 public:
  virtual ~Recorder() = default;
  virtual void flow_finished(const FlowRecord&) {}
  // At the end of a run, one record per flow that did not finish (state
  // running or waiting), after every finished one.
  virtual void flow_unfinished(const FlowRecord&) {}
  virtual void pfc_event(const PfcEventRecord&) {}
  virtual void watchdog_event(const WatchdogEventRecord&) {}
  virtual void deadlock(const DeadlockRecord&) {}
  virtual void collective_finished(const CollectiveRecord&) {}
  // Returns the index used in SamplePoint::series. unit: "bytes", "Gbps", "bool".
  virtual uint32_t declare_series(const std::string& name, const std::string& unit) {
    (void)name;
    (void)unit;
    return 0;
  }
  virtual void sample(const SamplePoint&) {}
  virtual void queue_counters(const QueueCounters&) {}
  virtual void drop_counters(const DropCounters&) {}
  virtual void buffer_counters(const BufferCounters&) {}
};

}  // namespace xoff::models
