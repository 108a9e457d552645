// The headline numbers of a run (analysis/stats/run_metrics.h) from hand-made
// records, each expectation worked out in the comment beside it.
#include "analysis/stats/run_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace xoff::analysis {
namespace {
using namespace sim::literals;
using sim::Time;

models::CollectiveRecord two_steps() {
  // 130 us: a critical path of 2 flows, 100 us of bytes at line rate, 12 us of
  // unloaded overhead, 15 us of congestion, 3 us of waiting.
  models::CollectiveRecord c;
  c.name = "ar";
  c.start = Time::zero();
  c.finish = Time::zero() + 130_us;
  c.ideal = 100_us;
  c.path_flows = 2;
  c.path_bandwidth = 100_us;
  c.path_overhead = 12_us;
  c.path_congestion = 15_us;
  c.path_wait = 3_us;
  return c;
}

TEST(CollectiveBreakdown, IsTheCriticalPathInMicroseconds) {
  const CollectiveBreakdown b = collective_breakdown(two_steps());
  ASSERT_TRUE(b.valid);
  EXPECT_EQ(b.flows, 2u);
  EXPECT_DOUBLE_EQ(b.total_us, 130);
  EXPECT_DOUBLE_EQ(b.bandwidth_us, 100);
  EXPECT_DOUBLE_EQ(b.overhead_us, 12);
  EXPECT_DOUBLE_EQ(b.congestion_us, 15);
  EXPECT_DOUBLE_EQ(b.wait_us, 3);
  models::CollectiveRecord old = two_steps();
  old.path_flows = 0;  // a file from before the critical path
  EXPECT_FALSE(collective_breakdown(old).valid);
}

TEST(BusBandwidth, IsNcclTestsAlgbwTimesTwoNMinusOneOverN) {
  // 64e6 B over 8 ranks in 10 ms: algbw 6.4 GB/s, busbw 6.4 x 14/8 = 11.2 GB/s.
  models::CollectiveRecord c;
  c.ranks = 8;
  c.size_bytes = 64'000'000;
  c.start = Time::zero();
  c.finish = Time::zero() + 10_ms;
  const BusBandwidth b = bus_bandwidth(c);
  EXPECT_DOUBLE_EQ(b.algbw_gbs, 6.4);
  EXPECT_DOUBLE_EQ(b.busbw_gbs, 11.2);
  // At the ring's ideal time on 100G (8.96 ms) busbw is the line rate, 12.5 GB/s.
  c.finish = Time::zero() + 8960_us;
  EXPECT_NEAR(bus_bandwidth(c).busbw_gbs, 12.5, 1e-9);
}

TEST(RunMetrics, CountsFromTheTablesAndThePlan) {
  RunData d;
  d.meta.flows_planned = 5;
  d.meta.collectives_planned = 2;
  for (int i = 0; i < 3; ++i) {
    models::FlowRecord f;
    f.protocol = i < 2 ? "roce" : "tcp";
    f.start = Time::zero();
    f.finish = Time::zero() + 10_us * (i + 1);  // 10, 20, 30 us
    f.ideal_fct = 10_us;
    d.flows.push_back(f);
  }
  d.queues.push_back({"leaf0", 1, 3, 0, 0, 7, 0, 0, 4, 0, {}});
  d.queues.push_back({"leaf1", 2, 3, 0, 0, 5, 0, 0, 6, 0, {}});
  d.drops.push_back({"leaf0", "lossless_violation", 2, 2000});
  d.drops.push_back({"leaf0", "lossy_egress", 9, 9000});
  d.drops.push_back({"leaf1", "lossy_egress", 1, 1000});
  d.buffers.push_back({"leaf0", 0, 0, 0, 1234, 0, 0, 0, 0, 0, 0});
  d.buffers.push_back({"leaf1", 0, 0, 0, 4321, 0, 0, 0, 0, 0, 0});
  d.collectives.push_back(two_steps());
  std::map<std::string, double> m;
  for (const auto& [k, v] : run_metrics(d)) m[k] = v;
  EXPECT_EQ(m.at("flows_finished"), 3);
  EXPECT_EQ(m.at("flows_unfinished"), 2);  // 5 planned
  // All three: 10, 20, 30 -> p50 20, p99 at rank 1.98: 20 + 0.98 x 10 = 29.8.
  EXPECT_DOUBLE_EQ(m.at("fct_p50_us_all"), 20);
  EXPECT_NEAR(m.at("fct_p99_us_all"), 29.8, 1e-9);
  EXPECT_DOUBLE_EQ(m.at("fct_max_us_roce"), 20);
  EXPECT_DOUBLE_EQ(m.at("slowdown_p50_tcp"), 3);  // 30 / 10
  EXPECT_EQ(m.at("xoff_frames"), 10);             // 4 + 6
  EXPECT_EQ(m.at("ecn_marks"), 12);               // 7 + 5
  EXPECT_EQ(m.at("lossless_violations"), 2);
  EXPECT_EQ(m.at("drops_lossy_egress"), 10);  // 9 + 1
  EXPECT_EQ(m.at("drops_watchdog"), 0);
  EXPECT_EQ(m.at("peak_buffer_bytes"), 4321);
  EXPECT_DOUBLE_EQ(m.at("allreduce_us"), 130);
  EXPECT_DOUBLE_EQ(m.at("allreduce_congestion_us"), 15);
  EXPECT_EQ(m.at("collectives_unfinished"), 1);  // 2 planned
  // A file that does not record its plan: unknown, not zero.
  d.meta.flows_planned = 0;
  d.meta.collectives_planned = 0;
  // No RPC probe, one plain AllReduce: its own time.
  EXPECT_EQ(m.count("rpc_p50_us_mgmt"), 0u);
  EXPECT_DOUBLE_EQ(m.at("collective_mean_us_allreduce"), 130);
  for (const auto& [k, v] : run_metrics(d)) m[k] = v;
  EXPECT_TRUE(std::isnan(m.at("flows_unfinished")));
  EXPECT_TRUE(std::isnan(m.at("collectives_unfinished")));
}

TEST(RunMetrics, TrainingLoopsAveragePerOpAndRpcProbesComeFromTheirSeries) {
  RunData d;
  // Two iterations of a workload (all-to-all 40 us then AllReduce 100 us, and
  // 50 us then 120 us) beside a plain AllReduce of 130 us.
  for (int it = 0; it < 2; ++it) {
    models::CollectiveRecord w;
    w.op = "workload";
    const Time t0 = Time::zero() + 1_ms * it;
    w.start = t0;
    w.segments.push_back({"all_to_all", "direct", "all", 1, t0 + 10_us, t0 + (it ? 60_us : 50_us)});
    w.segments.push_back({"allreduce", "ring", "all", 1, t0 + 70_us, t0 + (it ? 190_us : 170_us)});
    w.finish = w.segments.back().finish;
    d.collectives.push_back(w);
  }
  d.collectives.push_back(two_steps());
  // RPC latencies 4, 5, 6, 100 us (recorded at their start times).
  d.series.push_back({"rpc_latency_us/mgmt", "us", {0, 1, 2, 3}, {4, 5, 6, 100}});
  std::map<std::string, double> m;
  for (const auto& [k, v] : run_metrics(d)) m[k] = v;
  EXPECT_DOUBLE_EQ(m.at("collective_mean_us_all_to_all"), 45);         // (40 + 50) / 2
  EXPECT_NEAR(m.at("collective_mean_us_allreduce"), 350.0 / 3, 1e-9);  // (100 + 120 + 130) / 3
  EXPECT_NEAR(m.at("collective_mean_us"), 490.0 / 3, 1e-9);            // (170 + 190 + 130) / 3
  // p50 of 4, 5, 6, 100: rank 1.5 -> 5.5; p99: rank 2.97 -> 6 + 0.97 x 94 = 97.18.
  EXPECT_DOUBLE_EQ(m.at("rpc_p50_us_mgmt"), 5.5);
  EXPECT_NEAR(m.at("rpc_p99_us_mgmt"), 97.18, 1e-9);
  EXPECT_DOUBLE_EQ(m.at("rpc_mean_us_mgmt"), 28.75);  // 115 / 4
}

}  // namespace
}  // namespace xoff::analysis
