#include "models/tcp/tcp_stack.h"

#include <gtest/gtest.h>

#include "test/models/tcp/tcp_test_net.h"

namespace xoff::models::tcp_test {
namespace {
using namespace sim::literals;

// Two hosts on one 10 Gb/s link with `delay` of propagation each way.
struct DirectPair : TcpNet {
  explicit DirectPair(sim::Duration delay, const TcpConfig& cfg = {}) {
    add_host(cfg);
    add_host(cfg);
    net.connect(*hosts[0], *hosts[1], 10_Gbps, delay);
  }
};

TEST(TcpStack, SingleFlowOnIdleLinkFinishesInSlowStartRoundsPlusLineRate) {
  DirectPair t(20_us);
  t.start(0, 0, 1, 1'000'000);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 1u);
  // Frames: 1460 + 58 = 1518 B = 1214.4 ns at 10G; ACK 64 B = 51.2 ns.
  // RTT = 1214.4 + 51.2 + 2 x 20 000 = 41 265.6 ns.
  // 1 000 000 B = 685 segments (684 x 1460 + 1360). Initial window 10, doubling:
  // round 0 sends 10 (12.1 us < RTT: idle after), round 1 sends 20 (24.3 us <
  // RTT: idle), round 2 sends 40 (48.6 us > RTT): from 2 RTT the link never
  // idles. The 655 segments left take 654 x 1518 + 1418 = 994 190 B = 795 352 ns.
  // The last ACK arrives 20 us + 51.2 ns + 20 us after the last bit left.
  const double expected_ns = 2 * 41'265.6 + 795'352 + 40'051.2;  // 917 934.4 ns
  // (The model lands on it to the picosecond; 5% leaves room for model refinements.)
  const double fct_ns = static_cast<double>(t.log.flows[0].t.count_ps()) / 1e3;
  EXPECT_NEAR(fct_ns, expected_ns, 0.05 * expected_ns);
  EXPECT_EQ(t.log.flows[0].retransmitted, 0);
  EXPECT_EQ(t.stack(0).stats().segments_sent, 685);
  EXPECT_EQ(t.stack(1).stats().acks_sent, 685);  // delayed ACK off: one per segment
  EXPECT_EQ(t.stack(0).open_connections(), 0u);
  EXPECT_EQ(t.stack(1).open_connections(), 0u);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(TcpStack, RpcLatencyOnIdlePathIsBothSerializationsPlusTwoPropagations) {
  DirectPair t(5_us);
  RpcSpec r;
  r.id = 7;
  r.client = 0;
  r.server = 1;
  r.request = 100_B;
  r.response = 10'000_B;
  t.stack(0).start_rpc(r);
  t.run();
  ASSERT_EQ(t.log.rpcs.size(), 1u);
  EXPECT_EQ(t.log.rpcs[0].first, 7u);
  // Request: 100 + 58 = 158 B = 126.4 ns. Response: 7 segments (6 x 1460 + 1240),
  // 6 x 1518 + 1298 = 10 406 B = 8324.8 ns, sent back to back the instant the
  // request is in (within the initial window of 10; its first segment carries the
  // request's ACK). Plus 5 us of cable each way.
  EXPECT_EQ(t.log.rpcs[0].second.count_ps(), 126'400 + 8'324'800 + 2 * 5'000'000);
  EXPECT_EQ(t.stack(1).stats().acks_sent, 0);  // the request's ACK was piggybacked
  EXPECT_EQ(t.stack(0).stats().acks_sent, 7);
  EXPECT_EQ(t.stack(0).open_connections(), 0u);
  EXPECT_EQ(t.stack(1).open_connections(), 0u);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(TcpStack, TinySegmentsArePaddedToTheEthernetMinimum) {
  DirectPair t(5_us);
  RpcSpec r;
  r.client = 0;
  r.server = 1;
  r.request = 1_B;  // 1 + 58 = 59 B -> 64 B on the wire, 51.2 ns at 10G
  r.response = 1_B;
  t.stack(0).start_rpc(r);
  t.run();
  ASSERT_EQ(t.log.rpcs.size(), 1u);
  EXPECT_EQ(t.log.rpcs[0].second.count_ps(), 2 * 51'200 + 2 * 5'000'000);
}

TEST(TcpStack, DelayedAckAcknowledgesEverySecondSegment) {
  TcpConfig cfg;
  cfg.delayed_ack = true;
  DirectPair t(20_us, cfg);
  t.start(0, 0, 1, 20 * 1460);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 1u);
  EXPECT_EQ(t.stack(1).stats().acks_sent, 10);  // 20 segments, one ACK per pair
  // ABC with L = 2 (RFC 3465): each ACK of two segments grows cwnd by 2 SMSS, so
  // slow start still doubles per round: 10 + 10 segments, two RTTs of 41.27 us
  // plus the ten segments of round 1 (12 144 ns) = 94 675.2 ns.
  EXPECT_EQ(t.log.flows[0].t.count_ps(), 2 * 41'265'600 + 12'144'000);
}

TEST(TcpStack, PacketForAClosedConnectionIsConsumedAsStale) {
  DirectPair t(1_us);
  t.start(0, 0, 1, 1460);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 1u);
  ASSERT_EQ(t.stack(1).open_connections(), 0u);
  Packet& late = t.net.make_packet(1518_B);  // e.g. a retransmitted copy still in flight
  late.kind = PacketKind::kTcpData;
  late.protocol = Protocol::kTcp;
  late.src = 0;
  late.dst = 1;
  late.payload = 1460;
  t.hosts[1]->receive(late, PortIndex(0));
  EXPECT_EQ(t.stack(1).stats().stale_packets, 1);
  EXPECT_EQ(t.stack(1).stats().acks_sent, 1);  // nothing answered it
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(TcpStack, EmptyFlowFinishesAtOnce) {
  DirectPair t(1_us);
  t.start(3, 0, 1, 0);
  ASSERT_EQ(t.log.flows.size(), 1u);
  EXPECT_EQ(t.log.flows[0].id, 3u);
  EXPECT_EQ(t.log.flows[0].t, sim::Time::zero());
}

TEST(TcpStack, SpuriousTimeoutsCostRetransmissionsButTheFlowCompletes) {
  TcpConfig cfg;
  cfg.min_rto = cfg.initial_rto = 10_us;  // far below the 41 us RTT
  DirectPair t(20_us, cfg);
  t.start(0, 0, 1, 100 * 1460);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 1u);
  EXPECT_GT(t.stack(0).stats().timeouts, 0);
  EXPECT_GT(t.log.flows[0].retransmitted, 0);
  EXPECT_EQ(t.stack(0).open_connections(), 0u);
  EXPECT_EQ(t.stack(1).open_connections(), 0u);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(TcpStack, FlowsOfOneHostShareItsLinkRoundRobin) {
  DirectPair t(1_us);
  for (uint32_t f = 0; f < 4; ++f) t.start(f, 0, 1, 100 * 1460);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 4u);
  // 400 segments take 400 x 1214.4 ns = 486 us. One after another, the four
  // would finish 121 us apart (364 us first to last); served one segment each
  // in turn they finish together, apart only by the head start of whoever got
  // into the NIC first (~20 segments, 24 us).
  const sim::Duration spread = t.log.flows.back().t - t.log.flows.front().t;
  EXPECT_LT(spread, 40_us);
  EXPECT_GE(t.log.flows.back().t.count_ps(), 400 * 1'214'400);
  t.net.check_conservation();
}

}  // namespace
}  // namespace xoff::models::tcp_test
