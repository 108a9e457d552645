// Loss recovery through a switch that drops chosen segments: fast retransmit,
// NewReno partial ACKs, retransmission timeouts with backoff.
#include <gtest/gtest.h>

#include <map>

#include "models/tcp/tcp_stack.h"
#include "test/models/tcp/tcp_test_net.h"

namespace xoff::models::tcp_test {
namespace {
using namespace sim::literals;

constexpr int64_t kMss = 1460;

// h0 -- sw -- h1, 10 Gb/s and 10 us each way on both links. The switch drops
// the first `times` transmissions of each listed segment (by segment index).
// Unloaded RTT: 2 x 1214.4 ns (1518 B data) + 2 x 51.2 ns (64 B ACK) + 40 us
// = 42 531.2 ns.
struct LossyPath : TcpNet {
  std::map<int64_t, int> drops_left;  // segment index -> transmissions still to drop
  TestSwitch* sw = nullptr;

  LossyPath() {
    add_host();
    add_host();
    sw = &net.add_node<TestSwitch>("sw");
    net.connect(*hosts[0], *sw, 10_Gbps, 10_us);
    net.connect(*hosts[1], *sw, 10_Gbps, 10_us);
    sw->route = {0, 1};
    sw->drop_rule = [this](const Packet& p) {
      if (p.kind != PacketKind::kTcpData) return false;
      auto it = drops_left.find(p.seq / kMss);
      if (it == drops_left.end() || it->second == 0) return false;
      --it->second;
      return true;
    };
  }
};

TEST(TcpLoss, OneDropIsRepairedByOneFastRetransmitThatHalvesTheWindow) {
  LossyPath t;
  t.drops_left[30] = 1;  // the first segment of slow-start round 2 (rounds of 10, 20, 40)
  t.start(0, 0, 1, 300 * kMss);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 1u);
  EXPECT_EQ(t.log.flows[0].retransmitted, kMss);  // exactly one segment resent
  const TcpStats& s = t.stack(0).stats();
  EXPECT_EQ(s.retransmitted_segments, 1);
  EXPECT_EQ(s.fast_recoveries, 1);
  EXPECT_EQ(s.timeouts, 0);
  EXPECT_EQ(s.partial_acks, 0);
  // The 3rd duplicate ACK (from segment 33) arrives when all of round 2 (segments
  // 30..69) is out: flight = 40 x 1460 = 58 400 B, so ssthresh = 29 200 B.
  const auto fr = t.log.of(TcpEventKind::kFastRetransmit);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].flight, 40 * kMss);
  EXPECT_EQ(fr[0].ssthresh, 20 * kMss);
  EXPECT_EQ(fr[0].cwnd, 23 * kMss);  // ssthresh + 3 SMSS
  // The 39 duplicate ACKs inflate cwnd to 59 segments, letting 19 new ones out;
  // the full ACK deflates to min(ssthresh, 19 x 1460 + 1460) = 29 200 B: half
  // of the 40-segment flight at the loss.
  const auto exit = t.log.of(TcpEventKind::kRecoveryExit);
  ASSERT_EQ(exit.size(), 1u);
  EXPECT_EQ(exit[0].cwnd, 20 * kMss);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(TcpLoss, TwoDropsInOneWindowAreRecoveredInOneFastRecoveryByAPartialAck) {
  LossyPath t;
  t.drops_left[30] = 1;
  t.drops_left[40] = 1;
  t.start(0, 0, 1, 300 * kMss);
  t.run();
  ASSERT_EQ(t.log.flows.size(), 1u);
  EXPECT_EQ(t.log.flows[0].retransmitted, 2 * kMss);
  const TcpStats& s = t.stack(0).stats();
  EXPECT_EQ(s.fast_recoveries, 1);  // one episode: RFC 6582, not two halvings
  EXPECT_EQ(s.partial_acks, 1);     // the ACK of resent 30 stops at 40: resend 40 at once
  EXPECT_EQ(s.timeouts, 0);
  EXPECT_EQ(t.log.of(TcpEventKind::kRecoveryExit).size(), 1u);
  // Only one cut: ssthresh stays half of the 40-segment flight.
  EXPECT_EQ(t.log.of(TcpEventKind::kRecoveryExit)[0].ssthresh, 20 * kMss);
  t.net.check_conservation();
}

TEST(TcpLoss, LostWindowTailWaitsForMinRtoAndBacksOffByDoubling) {
  LossyPath t;
  t.drops_left[7] = 2;  // the original and the first retransmission
  t.drops_left[8] = 1;
  t.drops_left[9] = 1;
  t.start(0, 0, 1, 10 * kMss);  // one initial window
  t.run();
  // Segment i's ACK returns at (i + 2) x 1214.4 ns + 40 us + 2 x 51.2 ns. The last
  // (segment 6, i = 6) at 9715.2 + 40 000 + 102.4 = 49 817.6 ns restarts the timer.
  // RTO = max(min_rto 1 ms, SRTT + 4 RTTVAR = 3 x 42.5 us) = 1 ms.
  const auto to = t.log.of(TcpEventKind::kTimeout);
  ASSERT_EQ(to.size(), 2u);
  EXPECT_EQ(to[0].time.count_ps(), 49'817'600 + 1'000'000'000);
  EXPECT_EQ(to[0].rto, 2_ms);           // backed off for the next expiry
  EXPECT_EQ(to[0].cwnd, kMss);          // loss window: 1 SMSS
  EXPECT_EQ(to[0].ssthresh, 2 * kMss);  // max(3 x 1460 / 2, 2 SMSS)
  EXPECT_EQ(to[1].time - to[0].time, 2_ms);
  EXPECT_EQ(to[1].rto, 4_ms);
  EXPECT_EQ(to[1].ssthresh, 2 * kMss);  // not cut again for the same segment
  // Then 7 goes through: its ACK at +2 x 1214.4 + 40 102.4 ns; segments 8, 9
  // follow (cwnd 2); the ACK of 9 after 3 x 1214.4 + 40 102.4 ns more.
  ASSERT_EQ(t.log.flows.size(), 1u);
  const sim::Time retx = to[1].time;
  EXPECT_EQ((t.log.flows[0].t - retx).count_ps(), 2'428'800 + 40'102'400 + 3'643'200 + 40'102'400);
  EXPECT_EQ(t.log.flows[0].retransmitted, 4 * kMss);  // 7 twice, 8, 9
  EXPECT_EQ(t.stack(0).stats().fast_recoveries, 0);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

// Latency of one 100 B / 10 KB RPC over the switch path, the request's first
// transmission dropped or not.
sim::Duration rpc_latency(bool drop_request) {
  LossyPath t;
  if (drop_request) t.drops_left[0] = 1;
  RpcSpec r;
  r.client = 0;
  r.server = 1;
  r.request = 100_B;
  r.response = 10'000_B;
  t.stack(0).start_rpc(r);
  t.run();
  EXPECT_EQ(t.log.rpcs.size(), 1u);
  t.net.check_conservation();
  return t.log.rpcs.empty() ? sim::Duration::zero() : t.log.rpcs[0].second;
}

TEST(TcpLoss, RpcWhoseRequestIsLostIsLateByExactlyTheInitialRto) {
  // The resent request leaves at initial_rto = 1 ms on an idle path, after which
  // everything happens exactly as without the loss.
  EXPECT_EQ(rpc_latency(true) - rpc_latency(false), 1_ms);
}

}  // namespace
}  // namespace xoff::models::tcp_test
