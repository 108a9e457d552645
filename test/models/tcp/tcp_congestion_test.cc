// Long-running flows through a bottleneck: DCTCP against the marking threshold
// guideline of Alizadeh et al. (SIGCOMM 2010), NewReno through a small
// drop-tail buffer.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/tcp/tcp_stack.h"
#include "test/models/tcp/tcp_test_net.h"

namespace xoff::models::tcp_test {
namespace {
using namespace sim::literals;

constexpr int64_t kFrame = 1518;  // a full segment on the wire

// Senders on `access` links into a switch whose port to the receiver (the last
// host) is a 10 Gb/s bottleneck; 10 us of cable on every link.
struct Bottleneck : TcpNet {
  TestSwitch* sw = nullptr;
  PortIndex out{0};
  Bottleneck(int senders, sim::BitsPerSecond access, const TcpConfig& cfg) {
    for (int i = 0; i <= senders; ++i) add_host(cfg);
    sw = &net.add_node<TestSwitch>("sw");
    for (int i = 0; i <= senders; ++i) {
      net.connect(*hosts[i], *sw, i < senders ? access : 10_Gbps, 10_us);
      sw->route.push_back(static_cast<uint16_t>(i));
    }
    out = PortIndex(static_cast<uint16_t>(senders));
  }
  // Bottleneck utilization (data frame bytes / line rate) over the next `d`,
  // after `warmup`.
  double utilization(sim::Duration warmup, sim::Duration d) {
    run_for(warmup);
    sw->reset_stats();
    run_for(d);
    int64_t bytes = 0;
    for (int64_t b : sw->tx_by_flow) bytes += b;
    return static_cast<double>(bytes) * 8 / d.to_seconds() / 10e9;
  }
};

// 8 DCTCP flows from one 40 Gb/s host. Base RTT = 4 x 10 us + 1518 B at 40G
// (303.6 ns) and 10G (1214.4 ns) + 64 B ACK at 10G (51.2 ns) and 40G (12.8 ns)
// = 41 582 ns, so C x RTT = 10 Gb/s x 41.582 us = 51 978 B (34 frames) and the
// guideline K > C x RTT / 7 = 7425 B. The worst case of the derivation is
// N = (C x RTT + K) / 8 flows, about 7 for K = 30 KB: hence 8 flows.
struct DctcpResult {
  double utilization;
  double mean_queue;
  int64_t max_queue;
  int64_t marks;
  int64_t timeouts;
};
DctcpResult run_dctcp(int64_t k) {
  TcpConfig cfg;
  cfg.dctcp = true;
  Bottleneck t(1, 40_Gbps, cfg);
  t.sw->ecn_k = k;
  for (uint32_t f = 0; f < 8; ++f) t.start(f, 0, 1, int64_t{1} << 40);
  const double u = t.utilization(5_ms, 20_ms);
  return {u, t.sw->mean_queue(t.out), t.sw->max_queue(t.out), t.sw->marks,
          t.stack(0).stats().timeouts};
}

TEST(Dctcp, MarkingAboveTheGuidelineKeepsFullThroughputWithTheQueueNearK) {
  const int64_t k = 30'000;  // 4x the 7425 B guideline
  const DctcpResult r = run_dctcp(k);
  EXPECT_GE(r.utilization, 0.95);
  // Alizadeh et al. eq. (8)-(9): the queue peaks at K + N packets and its
  // minimum K + N - sqrt(2N(C x RTT + K)) / 2 = (19.8 + 8 - 14.7) frames stays
  // above zero, so it oscillates around K and never drains.
  EXPECT_NEAR(r.mean_queue, static_cast<double>(k), 0.1 * static_cast<double>(k));
  EXPECT_LE(r.max_queue, k + 9 * kFrame);
  EXPECT_GT(r.marks, 0);
  EXPECT_EQ(r.timeouts, 0);
}

TEST(Dctcp, MarkingFarBelowTheGuidelineLosesThroughput) {
  // K = 1 frame, a fifth of C x RTT / 7: the minimum of the sawtooth is
  // 1 + 8 - sqrt(16 x 35.2) / 2 = -2.9 frames, so the queue runs dry every cycle.
  const DctcpResult low = run_dctcp(kFrame);
  const DctcpResult high = run_dctcp(30'000);
  EXPECT_LT(low.utilization, 0.95);
  EXPECT_GT(high.utilization - low.utilization, 0.04);
  EXPECT_LT(low.mean_queue, 2.0 * kFrame);
}

// Two NewReno senders on 25 Gb/s links into the 10 Gb/s bottleneck with a
// 30 KB drop-tail buffer, 0.57 of the 52 KB bandwidth-delay product (RTT =
// 40 us + 485.76 + 1214.4 + 51.2 + 20.48 ns = 41.77 us). Appenzeller et al.
// (SIGCOMM 2004) put full utilization at BDP / sqrt(2) = 37 KB for two
// synchronized flows, so a little is lost, but no more than a tenth.
//
// Why faster access links: with senders at exactly the bottleneck rate and no
// jitter, a flow that fills the buffer alone sends one packet per departure
// slot, never loses one, and locks the other flow out for good (the phase
// effects of Floyd & Jacobson 1992, which a deterministic simulator shows in
// their purest form).
TEST(NewReno, TwoFlowsFillASmallDropTailBufferAndShareItFairly) {
  Bottleneck t(2, 25_Gbps, TcpConfig{});
  t.sw->queue_limit = 30'000;
  t.start(0, 0, 2, int64_t{1} << 40);
  t.run_for(2_ms);  // the second flow joins late and must converge
  t.start(1, 1, 2, int64_t{1} << 40);
  const double u = t.utilization(3_ms, 50_ms);
  EXPECT_GE(u, 0.90);
  const double a = static_cast<double>(t.sw->tx_by_flow[0]);
  const double b = static_cast<double>(t.sw->tx_by_flow[1]);
  EXPECT_GE(std::min(a, b) / std::max(a, b), 0.8);
  EXPECT_GT(t.sw->tail_drops, 0);
  EXPECT_GT(t.stack(0).stats().fast_recoveries, 10);
  t.net.check_conservation();
}

}  // namespace
}  // namespace xoff::models::tcp_test
