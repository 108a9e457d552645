// Writes each table of schema.h as a group of 1-D column datasets. Table::add checks
// every column against the schema's list, so the writer cannot drift from it.
#include "analysis/results/h5_write_tables.h"

#include <array>
#include <limits>
#include <type_traits>

#include "analysis/results/h5_io.h"
#include "analysis/results/schema.h"
#include "sim/check.h"

namespace xoff::analysis::detail {
namespace {

template <size_t N>
class Table {
 public:
  Table(hid_t parent, const char* path, const std::array<const char*, N>& columns)
      : group_(h5::create_group(parent, path)), columns_(columns) {}

  template <class T>
  void add(const char* name, const std::vector<T>& values) {
    expect(name);
    if constexpr (std::is_same_v<T, std::string>) {
      h5::write_strings(group_, name, values);
    } else {
      h5::write_column(group_, name, values);
    }
  }

 private:
  void expect(const char* name) {
    XOFF_CHECK(next_ < N && std::string_view(columns_[next_]) == name,
               std::string("column not in schema order: ") + name);
    ++next_;
  }
  h5::Handle group_;
  const std::array<const char*, N>& columns_;
  size_t next_ = 0;
};

// The column `f(row)` over all rows.
template <class R, class F>
auto col(const std::vector<R>& rows, F f) {
  std::vector<std::decay_t<decltype(f(std::declval<const R&>()))>> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(f(r));
  return out;
}

void write_pfc(hid_t file, const std::vector<models::PfcEventRecord>& ev) {
  using R = models::PfcEventRecord;
  Table t(file, schema::events::kPfc, schema::events::kPfcColumns);
  t.add("time_ps", col(ev, [](const R& r) { return r.time.count_ps(); }));
  t.add("node", col(ev, [](const R& r) { return r.node; }));
  t.add("port", col(ev, [](const R& r) { return r.port; }));
  t.add("traffic_class", col(ev, [](const R& r) { return r.traffic_class; }));
  t.add("sent", col(ev, [](const R& r) { return static_cast<uint8_t>(r.sent ? 1 : 0); }));
  t.add("quanta", col(ev, [](const R& r) { return r.quanta; }));
}

void write_watchdog(hid_t file, const std::vector<models::WatchdogEventRecord>& ev) {
  using R = models::WatchdogEventRecord;
  Table t(file, schema::events::kWatchdog, schema::events::kWatchdogColumns);
  t.add("time_ps", col(ev, [](const R& r) { return r.time.count_ps(); }));
  t.add("node", col(ev, [](const R& r) { return r.node; }));
  t.add("port", col(ev, [](const R& r) { return r.port; }));
  t.add("traffic_class", col(ev, [](const R& r) { return r.traffic_class; }));
  t.add("state", col(ev, [](const R& r) { return r.state; }));
  t.add("action", col(ev, [](const R& r) { return r.action; }));
}

void write_deadlocks(hid_t file, const std::vector<models::DeadlockRecord>& ev) {
  using R = models::DeadlockRecord;
  Table t(file, schema::events::kDeadlock, schema::events::kDeadlockColumns);
  t.add("formed_ps", col(ev, [](const R& r) { return r.formed.count_ps(); }));
  t.add("detected_ps", col(ev, [](const R& r) { return r.detected.count_ps(); }));
  t.add("members", col(ev, [](const R& r) { return format_deadlock_members(r.members); }));
  t.add("member_count",
        col(ev, [](const R& r) { return static_cast<uint32_t>(r.members.size()); }));
  t.add("stuck_bytes", col(ev, [](const R& r) { return r.stuck_bytes; }));

  std::vector<std::pair<uint32_t, models::DeadlockMember>> rows;
  for (size_t i = 0; i < ev.size(); ++i) {
    for (const auto& m : ev[i].members) rows.emplace_back(static_cast<uint32_t>(i), m);
  }
  using M = std::pair<uint32_t, models::DeadlockMember>;
  Table m(file, schema::events::kDeadlockMembers, schema::events::kDeadlockMemberColumns);
  m.add("deadlock", col(rows, [](const M& r) { return r.first; }));
  m.add("node", col(rows, [](const M& r) { return r.second.node; }));
  m.add("port", col(rows, [](const M& r) { return r.second.port; }));
  m.add("traffic_class", col(rows, [](const M& r) { return r.second.traffic_class; }));
  m.add("queued_bytes", col(rows, [](const M& r) { return r.second.queued_bytes; }));
}

void write_collective_steps(hid_t file, const std::vector<models::CollectiveRecord>& cs) {
  std::vector<uint32_t> collective;
  std::vector<uint32_t> step;
  std::vector<int64_t> duration, unloaded, mean_fct, max_fct;
  auto at = [](const std::vector<sim::Duration>& v, size_t s) {
    return s < v.size() ? v[s].count_ps() : int64_t{0};
  };
  for (size_t i = 0; i < cs.size(); ++i) {
    for (size_t s = 0; s < cs[i].step_times.size(); ++s) {
      collective.push_back(static_cast<uint32_t>(i));
      step.push_back(static_cast<uint32_t>(s));
      duration.push_back(cs[i].step_times[s].count_ps());
      unloaded.push_back(at(cs[i].step_unloaded, s));
      mean_fct.push_back(at(cs[i].step_mean_fct, s));
      max_fct.push_back(at(cs[i].step_max_fct, s));
    }
  }
  Table t(file, schema::collectives::kStepsGroup, schema::collectives::kStepColumns);
  t.add("collective", collective);
  t.add("step", step);
  t.add("duration_ps", duration);
  t.add("unloaded_ps", unloaded);
  t.add("mean_fct_ps", mean_fct);
  t.add("max_fct_ps", max_fct);
}

void write_collective_segments(hid_t file, const std::vector<models::CollectiveRecord>& cs) {
  std::vector<uint32_t> collective, segment;
  std::vector<std::string> op, algorithm, group;
  std::vector<int64_t> size, start, finish, duration;
  for (size_t i = 0; i < cs.size(); ++i) {
    for (size_t s = 0; s < cs[i].segments.size(); ++s) {
      const models::CollectiveSegment& g = cs[i].segments[s];
      collective.push_back(static_cast<uint32_t>(i));
      segment.push_back(static_cast<uint32_t>(s));
      op.push_back(g.op);
      algorithm.push_back(g.algorithm);
      group.push_back(g.group);
      size.push_back(g.size_bytes);
      start.push_back(g.start.count_ps());
      finish.push_back(g.finish.count_ps());
      duration.push_back((g.finish - g.start).count_ps());
    }
  }
  Table t(file, schema::collectives::kSegmentsGroup, schema::collectives::kSegmentColumns);
  t.add("collective", collective);
  t.add("segment", segment);
  t.add("op", op);
  t.add("algorithm", algorithm);
  t.add("group", group);
  t.add("size_bytes", size);
  t.add("start_ps", start);
  t.add("finish_ps", finish);
  t.add("duration_ps", duration);
}

}  // namespace

void write_meta(hid_t file, const RunMetadata& meta) {
  namespace m = schema::meta;
  const h5::Handle g = h5::create_group(file, m::kGroup);
  h5::write_attr(g, m::kFormatAttr, std::string(schema::kFormat));
  h5::write_attr(g, m::kSchemaVersion, schema::kVersion);
  h5::write_attr(g, m::kXoffVersion, meta.xoff_version);
  h5::write_attr(g, m::kScenarioName, meta.scenario_name);
  h5::write_attr(g, m::kScenarioText, meta.scenario_text);
  h5::write_attr(g, m::kSeed, meta.seed);
  h5::write_attr(g, m::kFingerprint, meta.fingerprint);
  h5::write_attr(g, m::kEvents, meta.events);
  h5::write_attr(g, m::kSimTime, meta.sim_time.count_ps());
  h5::write_attr(g, m::kWallSeconds, meta.wall_seconds);
  h5::write_attr(g, m::kEventsPerSecond, meta.events_per_second());
  h5::write_attr(g, m::kStatus, meta.status);
  h5::write_attr(g, m::kFlowsPlanned, meta.flows_planned);
  h5::write_attr(g, m::kCollectivesPlanned, meta.collectives_planned);
}

void write_flows(hid_t file, const std::vector<models::FlowRecord>& flows) {
  using R = models::FlowRecord;
  Table t(file, schema::flows::kGroup, schema::flows::kColumns);
  t.add("flow_id", col(flows, [](const R& r) { return r.flow_id; }));
  t.add("name", col(flows, [](const R& r) { return r.name; }));
  t.add("protocol", col(flows, [](const R& r) { return r.protocol; }));
  t.add("src_host", col(flows, [](const R& r) { return r.src_host; }));
  t.add("dst_host", col(flows, [](const R& r) { return r.dst_host; }));
  t.add("traffic_class", col(flows, [](const R& r) { return r.traffic_class; }));
  t.add("size_bytes", col(flows, [](const R& r) { return r.size_bytes; }));
  t.add("start_ps", col(flows, [](const R& r) { return r.start.count_ps(); }));
  t.add("finish_ps", col(flows, [](const R& r) { return r.finish.count_ps(); }));
  t.add("fct_ps", col(flows, [](const R& r) {
          return r.finished() ? (r.finish - r.start).count_ps() : int64_t{-1};
        }));
  t.add("ideal_fct_ps", col(flows, [](const R& r) { return r.ideal_fct.count_ps(); }));
  t.add("slowdown", col(flows, [](const R& r) {
          return r.finished() ? r.slowdown() : std::numeric_limits<double>::quiet_NaN();
        }));
  t.add("retransmitted_bytes", col(flows, [](const R& r) { return r.retransmitted_bytes; }));
  t.add("state", col(flows, [](const R& r) {
          return std::string(r.state == R::State::kFinished  ? schema::flows::kFinished
                             : r.state == R::State::kRunning ? schema::flows::kRunning
                                                             : schema::flows::kWaiting);
        }));
  t.add("bytes_delivered", col(flows, [](const R& r) { return r.bytes_delivered; }));
  t.add("cnps_received", col(flows, [](const R& r) { return r.cnps_received; }));
}

void write_collectives(hid_t file, const std::vector<models::CollectiveRecord>& cs) {
  using R = models::CollectiveRecord;
  Table t(file, schema::collectives::kGroup, schema::collectives::kColumns);
  t.add("name", col(cs, [](const R& r) { return r.name; }));
  t.add("op", col(cs, [](const R& r) { return r.op; }));
  t.add("algorithm", col(cs, [](const R& r) { return r.algorithm; }));
  t.add("ranks", col(cs, [](const R& r) { return r.ranks; }));
  t.add("size_bytes", col(cs, [](const R& r) { return r.size_bytes; }));
  t.add("start_ps", col(cs, [](const R& r) { return r.start.count_ps(); }));
  t.add("finish_ps", col(cs, [](const R& r) { return r.finish.count_ps(); }));
  t.add("duration_ps", col(cs, [](const R& r) { return (r.finish - r.start).count_ps(); }));
  t.add("ideal_ps", col(cs, [](const R& r) { return r.ideal.count_ps(); }));
  t.add("steps", col(cs, [](const R& r) { return static_cast<uint32_t>(r.step_times.size()); }));
  t.add("path_flows", col(cs, [](const R& r) { return r.path_flows; }));
  t.add("path_bandwidth_ps", col(cs, [](const R& r) { return r.path_bandwidth.count_ps(); }));
  t.add("path_overhead_ps", col(cs, [](const R& r) { return r.path_overhead.count_ps(); }));
  t.add("path_congestion_ps", col(cs, [](const R& r) { return r.path_congestion.count_ps(); }));
  t.add("path_wait_ps", col(cs, [](const R& r) { return r.path_wait.count_ps(); }));
  write_collective_steps(file, cs);
  write_collective_segments(file, cs);
}

void write_events(hid_t file, const RunData& run) {
  write_pfc(file, run.pfc_events);
  write_watchdog(file, run.watchdog_events);
  write_deadlocks(file, run.deadlocks);
}

void write_counters(hid_t file, const std::vector<models::QueueCounters>& qs,
                    const std::vector<models::DropCounters>& ds) {
  using Q = models::QueueCounters;
  Table t(file, schema::counters::kQueues, schema::counters::kQueueColumns);
  t.add("node", col(qs, [](const Q& r) { return r.node; }));
  t.add("port", col(qs, [](const Q& r) { return r.port; }));
  t.add("traffic_class", col(qs, [](const Q& r) { return r.traffic_class; }));
  t.add("tx_packets", col(qs, [](const Q& r) { return r.tx_packets; }));
  t.add("tx_bytes", col(qs, [](const Q& r) { return r.tx_bytes; }));
  t.add("ecn_marked", col(qs, [](const Q& r) { return r.ecn_marked; }));
  t.add("dropped_packets", col(qs, [](const Q& r) { return r.dropped_packets; }));
  t.add("peak_bytes", col(qs, [](const Q& r) { return r.peak_bytes; }));
  t.add("pause_sent", col(qs, [](const Q& r) { return r.pause_sent; }));
  t.add("pause_received", col(qs, [](const Q& r) { return r.pause_received; }));
  t.add("paused_time_ps", col(qs, [](const Q& r) { return r.paused_time.count_ps(); }));

  using D = models::DropCounters;
  Table d(file, schema::counters::kDrops, schema::counters::kDropColumns);
  d.add("node", col(ds, [](const D& r) { return r.node; }));
  d.add("reason", col(ds, [](const D& r) { return r.reason; }));
  d.add("packets", col(ds, [](const D& r) { return r.packets; }));
  d.add("bytes", col(ds, [](const D& r) { return r.bytes; }));
}

void write_buffers(hid_t file, const std::vector<models::BufferCounters>& bs) {
  using B = models::BufferCounters;
  Table t(file, schema::counters::kBuffers, schema::counters::kBufferColumns);
  t.add("node", col(bs, [](const B& r) { return r.node; }));
  t.add("buffer_bytes", col(bs, [](const B& r) { return r.buffer_bytes; }));
  t.add("shared_pool_bytes", col(bs, [](const B& r) { return r.shared_pool_bytes; }));
  t.add("headroom_pool_bytes", col(bs, [](const B& r) { return r.headroom_pool_bytes; }));
  t.add("peak_total_bytes", col(bs, [](const B& r) { return r.peak_total_bytes; }));
  t.add("peak_shared_bytes", col(bs, [](const B& r) { return r.peak_shared_bytes; }));
  t.add("peak_headroom_bytes", col(bs, [](const B& r) { return r.peak_headroom_bytes; }));
  t.add("peak_pg_headroom_bytes", col(bs, [](const B& r) { return r.peak_pg_headroom_bytes; }));
  t.add("xoff_episodes", col(bs, [](const B& r) { return r.xoff_episodes; }));
  t.add("xon_sent", col(bs, [](const B& r) { return r.xon_sent; }));
  t.add("watchdog_storms", col(bs, [](const B& r) { return r.watchdog_storms; }));
  t.add("acl_remarked", col(bs, [](const B& r) { return r.acl_remarked; }));
  t.add("tagger_retagged", col(bs, [](const B& r) { return r.tagger_retagged; }));
}

void write_series(hid_t file, const std::vector<SeriesData>& series,
                  const std::vector<std::string>& keys) {
  const h5::Handle root = h5::create_group(file, schema::series::kGroup);
  for (size_t i = 0; i < series.size(); ++i) {
    const SeriesData& s = series[i];
    XOFF_CHECK(s.time_ps.size() == s.value.size(), "series time and value lengths differ");
    const h5::Handle g = h5::create_group(root, keys[i]);
    h5::write_attr(g, schema::series::kNameAttr, s.name);
    h5::write_attr(g, schema::series::kUnitAttr, s.unit);
    h5::write_column(g, schema::series::kTime, s.time_ps);
    h5::write_column(g, schema::series::kValue, s.value);
  }
}

void write_topology(hid_t file, const std::vector<TopologyNode>& nodes,
                    const std::vector<TopologyLink>& links) {
  using N = TopologyNode;
  Table n(file, schema::topology::kNodes, schema::topology::kNodeColumns);
  n.add("name", col(nodes, [](const N& r) { return r.name; }));
  n.add("kind", col(nodes, [](const N& r) { return r.kind; }));
  n.add("tier", col(nodes, [](const N& r) { return r.tier; }));

  using L = TopologyLink;
  Table l(file, schema::topology::kLinks, schema::topology::kLinkColumns);
  l.add("a", col(links, [](const L& r) { return r.a; }));
  l.add("b", col(links, [](const L& r) { return r.b; }));
  l.add("a_port", col(links, [](const L& r) { return r.a_port; }));
  l.add("b_port", col(links, [](const L& r) { return r.b_port; }));
  l.add("rate_bps", col(links, [](const L& r) { return r.rate_bps; }));
  l.add("delay_ps", col(links, [](const L& r) { return r.delay_ps; }));
  l.add("up", col(links, [](const L& r) { return static_cast<uint8_t>(r.up ? 1 : 0); }));
}

}  // namespace xoff::analysis::detail
