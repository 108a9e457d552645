#include "sample_run.h"

#include <algorithm>
#include <string>

namespace xoff::analysis::fixture {
namespace {

using namespace sim::literals;
using sim::Duration;
using sim::Time;

// prefix + i, built with append(): `"literal" + std::to_string(i)` trips a GCC 12
// -Wrestrict false positive.
std::string numbered(const char* prefix, int64_t i) {
  return std::string(prefix).append(std::to_string(i));
}
std::string sw(int i) { return numbered("sw", i); }
std::string host(int i) { return numbered("h", i); }

void record_flows(H5Recorder& rec) {
  const int64_t sizes[] = {4'000, 64'000, 1'000'000};
  for (uint32_t i = 0; i < 24; ++i) {
    models::FlowRecord f;
    f.flow_id = i;
    f.name = i == 0 ? "größe" : numbered("f", i);  // UTF-8 must survive
    f.protocol = i % 3 == 2 ? "tcp" : "roce";
    f.src_host = i % 4;
    f.dst_host = (i + 1) % 4;
    f.traffic_class = f.protocol == "tcp" ? 0 : 3;
    f.size_bytes = sizes[i % 3];
    f.start = Time::zero() + 2_us * i;
    // Ideal: size at 100 Gb/s (80 ps per byte) + 2 us base; measured: 1x..4x ideal.
    f.ideal_fct = Duration::ps(f.size_bytes * 80) + 2_us;
    f.finish = f.start + f.ideal_fct + f.ideal_fct * (i * 7 % 13) / 4;
    f.retransmitted_bytes = i % 5 == 0 ? 1024 : 0;
    rec.flow_finished(f);
  }
}

void record_pfc(H5Recorder& rec) {
  // sw1 p1 tc3 pauses 10..20 us (refreshed at 13 us); sw2 p1 tc3 from 30 us on, never
  // released (part of the deadlock); each XOFF is received by the upstream neighbour.
  const struct {
    int64_t us;
    int node;
    uint16_t quanta;
  } frames[] = {{10, 1, 0xffff}, {13, 1, 0xffff}, {20, 1, 0},     {30, 2, 0xffff},
                {40, 3, 0xffff}, {40, 0, 0xffff}, {60, 1, 0xffff}};
  for (const auto& f : frames) {
    const Time t = Time::zero() + 1_us * f.us;
    rec.pfc_event({t, sw(f.node), 2, 3, true, f.quanta});
    rec.pfc_event({t + 1_us, sw((f.node + 3) % 4), 1, 3, false, f.quanta});
  }
}

void record_events(H5Recorder& rec) {
  rec.watchdog_event({Time::zero() + 130_us, "sw2", 1, 3, "stormed", "drop"});
  rec.watchdog_event({Time::zero() + 200_us, "sw2", 1, 3, "restored", "drop"});
  models::DeadlockRecord d;
  d.formed = Time::zero() + 60_us;
  d.detected = Time::zero() + 160_us;
  for (int i = 0; i < 4; ++i) d.members.push_back({sw(i), 1, 3, 90'000 + 1000 * i});
  d.stuck_bytes = 90'000 + 91'000 + 92'000 + 93'000;
  rec.deadlock(d);

  models::CollectiveRecord c;
  c.name = "allreduce0";
  c.algorithm = "ring";
  c.ranks = 4;
  c.size_bytes = 4'000'000;
  c.start = Time::zero() + 5_us;
  c.finish = Time::zero() + 305_us;
  c.ideal = 120_us;
  for (int s = 0; s < 6; ++s) {  // 2(N-1) = 6 steps
    c.step_times.push_back(40_us + 1_us * s);
    c.step_unloaded.push_back(30_us + 1_us * s);
    c.step_mean_fct.push_back(35_us + 1_us * s);
    c.step_max_fct.push_back(39_us + 1_us * s);
  }
  c.path_flows = 6;
  c.path_bandwidth = 240_us;
  c.path_overhead = 20_us;
  c.path_congestion = 35_us;
  c.path_wait = 5_us;  // 240 + 20 + 35 + 5 = 300 us = finish - start
  rec.collective_finished(c);

  // A workload of two lines: an all-to-all per server, then a ring AllReduce.
  models::CollectiveRecord w = c;
  w.name = "train/iter0";
  w.op = w.algorithm = "workload";
  w.segments.push_back(
      {"all_to_all", "direct", "server", 1'000'000, Time::zero() + 310_us, Time::zero() + 350_us});
  w.segments.push_back(
      {"allreduce", "ring", "all", 3'000'000, Time::zero() + 360_us, Time::zero() + 600_us});
  w.start = Time::zero() + 310_us;
  w.finish = Time::zero() + 600_us;
  rec.collective_finished(w);
}

void record_counters(H5Recorder& rec) {
  for (int i = 0; i < 4; ++i) {
    models::QueueCounters q{sw(i), 1,          3,     1000 + i, 1'000'000 + i,    10 * i,
                            i,     90'000 + i, 5 + i, 4 + i,    150_us + 1_us * i};
    rec.queue_counters(q);
  }
  rec.drop_counters({"sw2", "lossless_violation", 3, 3000});
  rec.drop_counters({"sw2", "watchdog", 70, 70'000});
  rec.buffer_counters(
      {"sw1", 16'000'000, 15'000'000, 1'000'000, 2'500'000, 2'400'000, 36'000, 36'000, 12, 11, 0});
  rec.buffer_counters(
      {"sw2", 4'000'000, 3'000'000, 1'000'000, 3'999'000, 2'950'000, 999'000, 48'000, 40, 39, 1});
}

void record_series(H5Recorder& rec) {
  const uint32_t q1 = rec.declare_series("queue_bytes/sw1/p1/tc3", "bytes");
  const uint32_t q2 = rec.declare_series("queue_bytes/sw2/p1/tc3", "bytes");
  const uint32_t p1 = rec.declare_series("paused/sw1/p1/tc3", "bool");
  uint32_t tx[4];
  for (int h = 0; h < 4; ++h) tx[h] = rec.declare_series(numbered("tx_gbps/h", h), "Gbps");
  for (int64_t us = 0; us <= 300; ++us) {
    const Time t = Time::zero() + 1_us * us;
    const double ramp = static_cast<double>(std::min<int64_t>(us, 60));
    rec.sample({q1, t, static_cast<double>((us * 7'919) % 50'000) + 1500.0 * ramp});
    rec.sample({q2, t, 1500.0 * ramp});
    rec.sample({p1, t, (us >= 10 && us < 20) || us >= 60 ? 1.0 : 0.0});
    for (int h = 0; h < 4; ++h) {
      // 100, 50, 33, 25 Gb/s with some jitter until the deadlock, then nothing.
      const double rate = us < 60 ? 100.0 / (1 + h) + static_cast<double>((us * (h + 3)) % 7) : 0.0;
      rec.sample({tx[h], t, rate});
    }
  }
}

void record_topology(H5Recorder& rec) {
  std::vector<TopologyNode> nodes;
  std::vector<TopologyLink> links;
  for (int i = 0; i < 4; ++i) {
    nodes.push_back({host(i), "host", 0});
    nodes.push_back({sw(i), "switch", 1});
    links.push_back({host(i), sw(i), 0, 0, 100'000'000'000, 1'000'000, true});
    links.push_back({sw(i), sw((i + 1) % 4), 1, 2, 100'000'000'000, 1'000'000, i != 3});
  }
  rec.set_topology(std::move(nodes), std::move(links));
}

}  // namespace

RunMetadata sample_metadata() {
  RunMetadata m;
  m.xoff_version = "0.1.0";
  m.scenario_name = "ring_deadlock";
  m.scenario_text = "# four switches in a ring, 2 µs links\n[topology]\nkind = \"ring\"\n";
  m.seed = 42;
  m.fingerprint = 0x0123'4567'89ab'cdefULL;
  m.events = 1'234'567;
  m.sim_time = Time::zero() + 300_us;
  m.wall_seconds = 0.5;
  return m;
}

void record_sample_run(H5Recorder& rec) {
  record_flows(rec);
  record_pfc(rec);
  record_events(rec);
  record_counters(rec);
  record_series(rec);
  record_topology(rec);
}

}  // namespace xoff::analysis::fixture
