#include "results_compare.h"

namespace xoff::analysis::fixture {
namespace {

void expect_same(const RunMetadata& a, const RunMetadata& b) {
  EXPECT_EQ(a.xoff_version, b.xoff_version);
  EXPECT_EQ(a.scenario_name, b.scenario_name);
  EXPECT_EQ(a.scenario_text, b.scenario_text);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.sim_time, b.sim_time);
  EXPECT_EQ(a.wall_seconds, b.wall_seconds);
}

void expect_same(const models::FlowRecord& a, const models::FlowRecord& b) {
  EXPECT_EQ(a.flow_id, b.flow_id);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.protocol, b.protocol);
  EXPECT_EQ(a.src_host, b.src_host);
  EXPECT_EQ(a.dst_host, b.dst_host);
  EXPECT_EQ(a.traffic_class, b.traffic_class);
  EXPECT_EQ(a.size_bytes, b.size_bytes);
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.finish, b.finish);
  EXPECT_EQ(a.ideal_fct, b.ideal_fct);
  EXPECT_EQ(a.retransmitted_bytes, b.retransmitted_bytes);
}

void expect_same(const models::CollectiveRecord& a, const models::CollectiveRecord& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.ranks, b.ranks);
  EXPECT_EQ(a.size_bytes, b.size_bytes);
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.finish, b.finish);
  EXPECT_EQ(a.ideal, b.ideal);
  EXPECT_EQ(a.step_times, b.step_times);
  EXPECT_EQ(a.step_unloaded, b.step_unloaded);
  EXPECT_EQ(a.step_mean_fct, b.step_mean_fct);
  EXPECT_EQ(a.step_max_fct, b.step_max_fct);
  EXPECT_EQ(a.path_flows, b.path_flows);
  EXPECT_EQ(a.path_bandwidth, b.path_bandwidth);
  EXPECT_EQ(a.path_overhead, b.path_overhead);
  EXPECT_EQ(a.path_congestion, b.path_congestion);
  EXPECT_EQ(a.path_wait, b.path_wait);
  ASSERT_EQ(a.segments.size(), b.segments.size());
  for (size_t i = 0; i < a.segments.size(); ++i) {
    EXPECT_EQ(a.segments[i].op, b.segments[i].op);
    EXPECT_EQ(a.segments[i].algorithm, b.segments[i].algorithm);
    EXPECT_EQ(a.segments[i].group, b.segments[i].group);
    EXPECT_EQ(a.segments[i].size_bytes, b.segments[i].size_bytes);
    EXPECT_EQ(a.segments[i].start, b.segments[i].start);
    EXPECT_EQ(a.segments[i].finish, b.segments[i].finish);
  }
}

void expect_same(const models::QueueCounters& a, const models::QueueCounters& b) {
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.port, b.port);
  EXPECT_EQ(a.traffic_class, b.traffic_class);
  EXPECT_EQ(a.tx_packets, b.tx_packets);
  EXPECT_EQ(a.tx_bytes, b.tx_bytes);
  EXPECT_EQ(a.ecn_marked, b.ecn_marked);
  EXPECT_EQ(a.dropped_packets, b.dropped_packets);
  EXPECT_EQ(a.peak_bytes, b.peak_bytes);
  EXPECT_EQ(a.pause_sent, b.pause_sent);
  EXPECT_EQ(a.pause_received, b.pause_received);
  EXPECT_EQ(a.paused_time, b.paused_time);
}

void expect_same(const models::DropCounters& a, const models::DropCounters& b) {
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.packets, b.packets);
  EXPECT_EQ(a.bytes, b.bytes);
}

void expect_same(const models::BufferCounters& a, const models::BufferCounters& b) {
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.buffer_bytes, b.buffer_bytes);
  EXPECT_EQ(a.shared_pool_bytes, b.shared_pool_bytes);
  EXPECT_EQ(a.headroom_pool_bytes, b.headroom_pool_bytes);
  EXPECT_EQ(a.peak_total_bytes, b.peak_total_bytes);
  EXPECT_EQ(a.peak_shared_bytes, b.peak_shared_bytes);
  EXPECT_EQ(a.peak_headroom_bytes, b.peak_headroom_bytes);
  EXPECT_EQ(a.peak_pg_headroom_bytes, b.peak_pg_headroom_bytes);
  EXPECT_EQ(a.xoff_episodes, b.xoff_episodes);
  EXPECT_EQ(a.xon_sent, b.xon_sent);
  EXPECT_EQ(a.watchdog_storms, b.watchdog_storms);
  EXPECT_EQ(a.acl_remarked, b.acl_remarked);
  EXPECT_EQ(a.tagger_retagged, b.tagger_retagged);
}

void expect_same(const models::PfcEventRecord& a, const models::PfcEventRecord& b) {
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.port, b.port);
  EXPECT_EQ(a.traffic_class, b.traffic_class);
  EXPECT_EQ(a.sent, b.sent);
  EXPECT_EQ(a.quanta, b.quanta);
}

void expect_same(const models::WatchdogEventRecord& a, const models::WatchdogEventRecord& b) {
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.port, b.port);
  EXPECT_EQ(a.traffic_class, b.traffic_class);
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.action, b.action);
}

void expect_same(const models::DeadlockRecord& a, const models::DeadlockRecord& b) {
  EXPECT_EQ(a.formed, b.formed);
  EXPECT_EQ(a.detected, b.detected);
  EXPECT_EQ(a.stuck_bytes, b.stuck_bytes);
  ASSERT_EQ(a.members.size(), b.members.size());
  for (size_t i = 0; i < a.members.size(); ++i) {
    EXPECT_EQ(a.members[i].node, b.members[i].node);
    EXPECT_EQ(a.members[i].port, b.members[i].port);
    EXPECT_EQ(a.members[i].traffic_class, b.members[i].traffic_class);
    EXPECT_EQ(a.members[i].queued_bytes, b.members[i].queued_bytes);
  }
}

void expect_same(const SeriesData& a, const SeriesData& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.unit, b.unit);
  EXPECT_EQ(a.time_ps, b.time_ps);
  EXPECT_EQ(a.value, b.value);  // bit-exact: float64 in, float64 out
}

void expect_same(const TopologyNode& a, const TopologyNode& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.tier, b.tier);
}

void expect_same(const TopologyLink& a, const TopologyLink& b) {
  EXPECT_EQ(a.a, b.a);
  EXPECT_EQ(a.b, b.b);
  EXPECT_EQ(a.a_port, b.a_port);
  EXPECT_EQ(a.b_port, b.b_port);
  EXPECT_EQ(a.rate_bps, b.rate_bps);
  EXPECT_EQ(a.delay_ps, b.delay_ps);
  EXPECT_EQ(a.up, b.up);
}

template <class T>
void expect_same_rows(const std::vector<T>& a, const std::vector<T>& b, const char* table) {
  SCOPED_TRACE(table);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    expect_same(a[i], b[i]);
  }
}

}  // namespace

void expect_same_run(const RunData& a, const RunData& b) {
  expect_same(a.meta, b.meta);
  expect_same_rows(a.flows, b.flows, "flows");
  expect_same_rows(a.collectives, b.collectives, "collectives");
  expect_same_rows(a.queues, b.queues, "queues");
  expect_same_rows(a.drops, b.drops, "drops");
  expect_same_rows(a.buffers, b.buffers, "buffers");
  expect_same_rows(a.pfc_events, b.pfc_events, "pfc");
  expect_same_rows(a.watchdog_events, b.watchdog_events, "watchdog");
  expect_same_rows(a.deadlocks, b.deadlocks, "deadlock");
  expect_same_rows(a.series, b.series, "series");
  expect_same_rows(a.topology_nodes, b.topology_nodes, "topology nodes");
  expect_same_rows(a.topology_links, b.topology_links, "topology links");
}

}  // namespace xoff::analysis::fixture
