// Physics of the PFC storm, incast buffer, ECN trade-off and AllReduce
// scenarios, against the arithmetic in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "analysis/stats/stats.h"
#include "models/nic/dcqcn_fluid.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {
using testing::mean_between;
using testing::run;

TEST(PfcStormScenario, WatchdogContainsTheStormWithinDetectionAndRestorationTime) {
  const RunOutcome o = run("pfc_storm.toml");
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.watchdog_events.size(), 2u);
  const auto& storm = o.data.watchdog_events[0];
  const auto& restore = o.data.watchdog_events[1];
  EXPECT_EQ(storm.node, "leaf0");
  EXPECT_EQ(storm.port, 0);  // towards h0
  EXPECT_EQ(storm.state, "stormed");
  // Storm from 100 us; detection 200 us; polled every 20 us.
  EXPECT_GE(storm.time.to_us(), 300.0);
  EXPECT_LE(storm.time.to_us(), 320.0 + 1.0);
  // The NIC's last XOFF leaves at 1000 us (refreshed every 100 us until 1.1 ms)
  // and lands 1 us later; restoration 200 us, polled every 20 us.
  EXPECT_EQ(restore.state, "restored");
  EXPECT_GE(restore.time.to_us(), 1201.0);
  EXPECT_LE(restore.time.to_us(), 1221.0 + 1.0);
  // Victims (h1..h3 behind leaf0 ports 1..3) run at line rate while the storm
  // is contained (after detection, before the NIC recovers).
  for (int p = 1; p <= 3; ++p) {
    const std::string s = "tx_gbps/leaf0/p" + std::to_string(p);
    EXPECT_GT(mean_between(o.data, s, 350, 1100), 95.0) << s;
  }
  EXPECT_GT(testing::drops(o, "watchdog"), 0);
  EXPECT_EQ(o.lossless_violations, 0);
}

TEST(MysteryScenario, TheCountersPointAtTheSlowReceiver) {
  // docs/troubleshooting.md: the paused port is leaf1:p2 (towards h6), the
  // pauses come from h6 (a host), and the slowest flow is the one into h6.
  const RunOutcome o = run("mystery.toml");
  ASSERT_EQ(o.exit_code, 0);
  int64_t leaf1_rx = 0, h6_tx = 0, others = 0;
  for (const auto& q : o.data.queues) {
    if (q.node == "leaf1" && q.port == 2) {
      leaf1_rx += q.pause_received;
    } else if (q.node == "h6") {
      h6_tx += q.pause_sent;
    } else {
      others += q.pause_sent + q.pause_received;
    }
  }
  EXPECT_GT(h6_tx, 0);
  EXPECT_EQ(leaf1_rx, h6_tx);  // every XOFF h6 sent reached leaf1:p2
  EXPECT_EQ(others, 0);        // and nothing else paused
  // The host's own frames are events too (the pause timeline draws them):
  // as many XOFFs sent by h6 as received by leaf1 on port 2.
  int64_t h6_events = 0, leaf1_events = 0;
  for (const auto& e : o.data.pfc_events) {
    if (e.quanta == 0) continue;  // XON
    if (e.node == "h6" && e.sent) ++h6_events;
    if (e.node == "leaf1" && e.port == 2 && !e.sent) ++leaf1_events;
  }
  EXPECT_EQ(h6_events, h6_tx);
  EXPECT_EQ(leaf1_events, h6_tx);
  const auto slowest =
      std::max_element(o.data.flows.begin(), o.data.flows.end(),
                       [](const auto& a, const auto& b) { return a.slowdown() < b.slowdown(); });
  ASSERT_NE(slowest, o.data.flows.end());
  EXPECT_EQ(slowest->dst_host, 6u);
  EXPECT_GT(slowest->slowdown(), 5.0);
  // Without the slow receiver every flow runs at its ideal.
  const RunOutcome fixed = run("mystery.toml", {"fault[0].rate=100Gbps"});
  for (const auto& f : fixed.data.flows) EXPECT_LT(f.slowdown(), 1.1) << f.name;
}

TEST(PfcStormScenario, AnAclAtTheTrustBoundaryStopsTheStormAtTheFirstHop) {
  // pfc.host_pauses = "drop": leaf0 drops h0's XOFFs at ingress (10 of them:
  // every 100 us from 100 us to 1 ms), so nothing is paused anywhere, the
  // watchdog has nothing to do, and all four flows run at line rate.
  const RunOutcome o = run("pfc_storm.toml", {"pfc.host_pauses=drop"});
  ASSERT_EQ(o.exit_code, 0);
  EXPECT_EQ(testing::drops(o, "acl"), 10);
  EXPECT_TRUE(o.data.watchdog_events.empty());
  int64_t paused = 0;
  for (const auto& q : o.data.queues) paused += q.paused_time.count_ps() > 0 ? 1 : 0;
  EXPECT_EQ(paused, 0);
  ASSERT_EQ(o.data.flows.size(), 4u);
  for (const auto& f : o.data.flows) {
    EXPECT_TRUE(f.finished()) << f.name;
    EXPECT_LT(f.slowdown(), 1.01) << f.name;
  }
  EXPECT_EQ(o.lossless_violations, 0);
}

// NIC-side stall prevention (ConnectX pfc_stall_prevention): h0 stops its
// storm 300 us after it began at 100 us. Its XOFFs leave every 100 us
// (0xFFFF quanta at 100G last 335.5 us; refresh 100 us): at 100, 200 and
// 300 us; the one due at 400 us is not sent. 3 instead of the storm's 10.
// The last pause runs out 335.5 us later, and the flow into h0 finishes.
TEST(PfcStormScenario, NicStallPreventionEndsTheStormAfterItsTimeout) {
  const RunOutcome o = run("pfc_storm.toml", {"nic.pfc_stall_timeout=300us"});
  const RunOutcome storm = run("pfc_storm.toml");
  ASSERT_EQ(o.exit_code, 0);
  const auto h0_xoffs = [](const RunOutcome& r) {
    int64_t n = 0;
    for (const auto& q : r.data.queues) n += q.node == "h0" ? q.pause_sent : 0;
    return n;
  };
  EXPECT_EQ(h0_xoffs(o), 3);
  EXPECT_EQ(h0_xoffs(storm), 10);
  for (const auto& f : o.data.flows) EXPECT_TRUE(f.finished()) << f.name;
  EXPECT_FALSE(storm.traffic_finished);
}

TEST(PfcStormScenario, WithoutTheWatchdogThePauseSpreadsToVictims) {
  const RunOutcome o = run("pfc_storm.toml", {"watchdog.enabled=false"});
  ASSERT_EQ(o.exit_code, 0);
  EXPECT_TRUE(o.data.watchdog_events.empty());
  // leaf0 pauses the spine; the spine's queue to leaf0 carries the victims too.
  EXPECT_GT(mean_between(o.data, "paused/spine0/p0/tc3", 350, 1100), 0.9);
  for (int p = 1; p <= 3; ++p) {
    const std::string s = "tx_gbps/leaf0/p" + std::to_string(p);
    EXPECT_LT(mean_between(o.data, s, 350, 1100), 1.0) << s;
    EXPECT_GT(mean_between(o.data, s, 1400, 2000), 95.0) << s;  // after the NIC recovers
  }
}

TEST(IncastBufferScenario, HeadroomAtTheBoundIsLosslessAndBelowItIsNot) {
  // The 400G leaf uplinks need 2 x 50000 + 1518 + 1518 + 50000 + 64 = 153100 B.
  const RunOutcome ok = run("incast_buffer.toml", {"buffer.headroom=160KB"});
  ASSERT_EQ(ok.exit_code, 0);
  EXPECT_EQ(ok.lossless_violations, 0);
  EXPECT_GT(ok.pause_frames, 0);
  // What a PG really absorbed after its XOFF never exceeds the computed bound.
  int64_t used = 0;
  for (const auto& b : ok.data.buffers) used = std::max(used, b.peak_pg_headroom_bytes);
  EXPECT_GT(used, 0);
  EXPECT_LE(used, 153'100);
  const RunOutcome small = run("incast_buffer.toml", {"buffer.headroom=100KB"});
  EXPECT_GT(small.lossless_violations, 0);
  // 15 x 256 KB of RoCE through one 100G port: 15 x 256 segments of 1062 B =
  // 4.0781 MB = 326.25 us at line rate; the last RoCE flow cannot beat it.
  double last = 0;
  int roce = 0;
  for (const auto& f : ok.data.flows) {
    if (f.protocol != "roce") continue;
    ++roce;
    last = std::max(last, (f.finish - f.start).to_us());
  }
  EXPECT_EQ(roce, 15);
  EXPECT_GE(last, 326.25);
}

TEST(IncastBufferScenario, LargerAlphaMeansFewerPauses) {
  // Dynamic threshold alpha x free: a larger alpha lets a PG hold more before XOFF.
  int64_t previous = INT64_MAX;
  for (const char* alpha : {"0.125", "0.5", "1", "4"}) {
    const RunOutcome o = run("incast_buffer.toml", {std::string("buffer.alpha=") + alpha});
    ASSERT_EQ(o.exit_code, 0);
    EXPECT_LT(o.pause_frames, previous) << "alpha " << alpha;
    previous = o.pause_frames;
  }
}

TEST(EcnTradeoffScenario, LowerMarkingThresholdKeepsTheQueueShorter) {
  int64_t previous_peak = 0;
  double previous_p50 = 0;
  for (const char* kmax : {"20KB", "400KB", "1600KB"}) {
    const RunOutcome o = run("ecn_tradeoff.toml", {std::string("ecn.kmax=") + kmax});
    ASSERT_EQ(o.exit_code, 0);
    int64_t peak = 0;
    for (const auto& q : o.data.queues) {
      if (q.node == "leaf0" && q.port == 0 && q.traffic_class == 3) peak = q.peak_bytes;
    }
    std::vector<double> fct;
    for (const auto& f : o.data.flows) fct.push_back((f.finish - f.start).to_us());
    const double p50 = analysis::percentile(fct, 50);
    EXPECT_GT(peak, previous_peak) << kmax;
    EXPECT_GT(p50, previous_p50) << kmax;  // short flows wait behind a longer queue
    EXPECT_GT(o.ecn_marks, 0);
    previous_peak = peak;
    previous_p50 = p50;
  }
}

TEST(AllReduceScenario, RingAllReduceIsWithinTenPercentOfTheBoundAndSlowsTcp) {
  const RunOutcome o = run("allreduce_tcp.toml");
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.collectives.size(), 1u);
  const auto& c = o.data.collectives[0];
  // Ideal 2 (N-1)/N x S / B = 2 x 7/8 x 64e6 B x 8 / 100e9 b/s = 8.96 ms.
  EXPECT_EQ(c.ideal.count_ps(), 8'960'000'000);
  const double t = (c.finish - c.start).to_us();
  EXPECT_GE(t, 8960.0);
  EXPECT_LE(t, 8960.0 * 1.10);
  EXPECT_EQ(c.step_times.size(), 14u);  // 2 (N - 1)
  // The critical path is one flow per step; its bytes at line rate are the
  // ideal (each step moves S/N = 8 MB per rank), and its parts add up to the
  // measured time. Unloaded overhead per step: the headers (8e6 B in 4096 B
  // payloads is 1954 frames; at about 60 B of headers each, 9.4 us at 100G)
  // plus half a base RTT (4 links of 500 ns and store and forward), so
  // between 14 x 9 us = 126 us and 14 x 20 us = 280 us.
  EXPECT_EQ(c.path_flows, 14u);
  EXPECT_EQ(c.path_bandwidth, c.ideal);
  EXPECT_GT(c.path_overhead.to_us(), 126.0);
  EXPECT_LT(c.path_overhead.to_us(), 280.0);
  EXPECT_EQ(c.path_bandwidth + c.path_overhead + c.path_congestion + c.path_wait,
            c.finish - c.start);
  EXPECT_EQ(o.lossless_violations, 0);
  // Idle RPC latency, h0 -> h5 over leaf0, spine, leaf1 (500 ns per link),
  // every frame with 20 B of preamble, SFD and gap on the wire:
  // request 100 + 58 + 20 = 178 B: 14.24 + 7.12 + 7.12 + 14.24 ns + 4 x 500 ns
  // = 2042.72 ns; response 4 KB = 1460 + 1460 + 1080 B payload, frames 1518,
  // 1518, 1138 B (1538, 1538, 1158 B on the wire); the last arrives when
  // leaf0's 100G port has sent all three: 123.04 (h5's 100G link) + 2 x 61.52
  // (200G) + 338.72 (all three at 100G) + 2000 = 2584.80 ns.
  // Total 4627.52 ns.
  const auto* idle = o.data.find_series("rpc_latency_us/idle");
  const auto* busy = o.data.find_series("rpc_latency_us/during_allreduce");
  ASSERT_NE(idle, nullptr);
  ASSERT_NE(busy, nullptr);
  ASSERT_EQ(idle->value.size(), 100u);
  EXPECT_NEAR(analysis::percentile(idle->value, 50), 4.62752, 1e-6);
  // During the AllReduce the RPCs share links with it (DWRR 1:4): slower.
  EXPECT_GT(analysis::percentile(busy->value, 50), 1.2 * 4.62752);
}

TEST(ClassSharing, TcpAndRoceInSeparateClassesGetTheirDwrrShares) {
  // Both flows long and backlogged for the whole 6 ms; DWRR weights 1 (TCP,
  // class 1) : 3 (RoCE, class 3) at leaf0's 100G port to h0: 25% / 75%.
  const RunOutcome o = run("test/app/data/dwrr_tcp_roce.toml");
  ASSERT_EQ(o.exit_code, 0);
  int64_t tcp = 0, roce = 0;
  for (const auto& q : o.data.queues) {
    if (q.node != "leaf0" || q.port != 0) continue;
    if (q.traffic_class == 1) tcp = q.tx_bytes;
    if (q.traffic_class == 3) roce = q.tx_bytes;
  }
  const double total = static_cast<double>(tcp + roce);
  EXPECT_NEAR(static_cast<double>(roce) / total, 0.75, 0.02);
  EXPECT_NEAR(static_cast<double>(tcp) / total, 0.25, 0.02);
  // The port never idles: 6 ms at 100 Gb/s = 75 MB of wire time, less the
  // first frames' arrival. Every frame also takes 20 B of preamble, SFD and
  // gap: per byte of frames, 1 + 0.25 x 20/1518 (TCP) + 0.75 x 20/1062
  // (RoCE, 1000 + 62 B) = 1.017418 bytes of wire, so 75e6 / 1.017418 =
  // 73.716 MB of frames at most.
  EXPECT_GT(total, 0.999 * 73.716e6);
  EXPECT_LT(total, 73.716e6 * 1.0001);
  EXPECT_EQ(o.lossless_violations, 0);  // RoCE is held back by PFC, never dropped
}

TEST(SlowReceiver, HostPfcHoldsTheSenderToTheReceiversRateWithoutLoss) {
  const RunOutcome o = run("test/app/data/slow_receiver.toml");
  ASSERT_EQ(o.exit_code, 0);
  ASSERT_EQ(o.data.flows.size(), 1u);
  // 1000 segments of 1062 B drained at 25 Gb/s: 339.84 us at the least.
  const double fct = (o.data.flows[0].finish - o.data.flows[0].start).to_us();
  EXPECT_GE(fct, 339.84);
  EXPECT_LE(fct, 339.84 * 1.05);
  int64_t host_xoff = 0;
  for (const auto& q : o.data.queues) {
    if (q.node == "h0") host_xoff += q.pause_sent;
  }
  EXPECT_GT(host_xoff, 0);  // the host itself sent PFC
  EXPECT_EQ(o.lossless_violations, 0);
  EXPECT_EQ(testing::drops(o, "lossy_egress") + testing::drops(o, "lossy_ingress"), 0);
}

TEST(DemoScenario, RoceStaysLosslessAndEveryFlowFinishes) {
  const RunOutcome o = run("demo.toml");
  ASSERT_EQ(o.exit_code, 0);
  EXPECT_TRUE(o.traffic_finished);
  EXPECT_EQ(o.lossless_violations, 0);
  EXPECT_TRUE(o.data.deadlocks.empty());
  EXPECT_GT(o.ecn_marks, 0);
}

// scenarios/dcqcn_stability.toml against models/nic/dcqcn_fluid.h: the
// packet-level queue at leaf0 -> h0 swings as the hybrid (the same reaction
// point and RED, discrete CNPs from random marks, no packets) does, around the
// fluid model's fixed point (21.4 KB), while the fluid model itself is still.
// Measured over 20-100 ms: packet level standard deviation 19.6 KB (4 us) and
// 24.7 KB (85 us); hybrid 18.4 and 21.1 KB; fluid 1.5 and 4.9 KB (0 once
// settled, after 300 ms).
TEST(DcqcnStabilityScenario, PacketLevelSwingsAsTheHybridAroundTheFluidFixedPoint) {
  for (const std::string variant : {"", "delay85"}) {
    const RunOutcome o = run("dcqcn_stability.toml", {"scenario.variant=" + variant});
    ASSERT_EQ(o.exit_code, 0);
    const analysis::SeriesData* q = o.data.find_series("queue_bytes/leaf0/p0/tc3");
    ASSERT_NE(q, nullptr);
    double n = 0, sum = 0, sum2 = 0;
    for (size_t i = 0; i < q->time_ps.size(); ++i) {
      if (q->time_ps[i] < 20'000'000'000) continue;  // after 20 ms
      n += 1;
      sum += q->value[i];
      sum2 += q->value[i] * q->value[i];
    }
    ASSERT_GT(n, 7000);
    const double mean = sum / n;
    const double sd = std::sqrt(sum2 / n - mean * mean);
    models::DcqcnFluidSetup s;  // 2 flows, 40 Gb/s, RED 5-200 KB 1 %, paper DCQCN
    s.feedback_delay = sim::Duration::us(variant.empty() ? 4 : 85);
    const double fixed = models::dcqcn_fixed_point(s).queue_bytes;
    EXPECT_NEAR(fixed, 21.4e3, 50);
    const models::DcqcnTrace hybrid =
        models::dcqcn_hybrid(s, sim::Duration::ms(100), sim::Duration::ms(20), 1);
    const models::DcqcnTrace fluid =
        models::dcqcn_fluid(s, sim::Duration::ms(100), sim::Duration::ms(20));
    EXPECT_NEAR(mean, fixed, 0.25 * fixed) << variant;
    EXPECT_GT(sd, 0.75 * hybrid.queue_stddev) << variant;
    EXPECT_LT(sd, 1.5 * hybrid.queue_stddev) << variant;
    EXPECT_GT(sd, 3 * fluid.queue_stddev) << variant;
  }
}

// Two scenarios of the property test (headroom at the bound it computes) in
// which a link flaps while a priority group behind it is in XOFF: with the
// pause reasserted when the link comes back, nothing lossless is dropped.
// Before, the XOFF waited for its refresh (half a pause, about 170 us at
// 100G) and the upstream sent into a full headroom: 117 (seed 1806) and 68
// (seed 2601) lossless drops.
TEST(LinkFlapScenario, APauseHeldAcrossALinkFlapIsReassertedAndNothingLosslessIsDropped) {
  for (const char* f : {"test/app/data/link_flap_in_xoff_spine_leaf.toml",
                        "test/app/data/link_flap_in_xoff_ring.toml"}) {
    SCOPED_TRACE(f);
    const RunOutcome r = testing::run(f);
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.status, "complete");
    EXPECT_EQ(r.lossless_violations, 0);
    EXPECT_GT(r.pause_frames, 0);  // the fabric did pause
  }
}

}  // namespace
}  // namespace xoff::app
