// Loss recovery: go-back-N on NAK, retransmission timeout on a tail loss.
#include <gtest/gtest.h>

#include "models/nic/roce_nic.h"
#include "test/models/nic/nic_test_util.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::add_host;
using test::Completions;
using test::roce_flow;
using test::Wire;

constexpr int64_t kPktPs = 84'960;  // 1062 B at 100 Gb/s
constexpr int64_t kAckPs = 5'280;   // 66 B at 100 Gb/s
constexpr int64_t kHopPs = 1'000'000;

// h0 -- wire -- h1, both links 100 Gb/s, 1 us; the wire drops one data packet.
struct Lossy : test::ViaWire {
  explicit Lossy(int64_t drop_psn, const RoceConfig& cfg = RoceConfig{}) : ViaWire(cfg) {
    w.drop_psn = drop_psn;
  }
};

TEST(RoceNicLoss, GoBackNResendsFromTheLostPsnToTheSendPoint) {
  Lossy t(10);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));  // 100 packets, PSN 0..99
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  // Packet i leaves a during [i T, (i+1) T], T = 84.96 ns, and reaches b at
  // (i+2) T + 2 us. PSN 11 arrives at 13 T + 2 us: b sends NAK(10), which is at
  // a 2 * 5.28 ns + 2 us later: t = 13 T + 4.01056 us = 5115.04 ns. By then a
  // has started PSNs 0..60 (60 T = 5097.6 ns <= t < 61 T), so it resends 10..60:
  // 51 packets = 51 000 payload bytes.
  const int64_t nak_at = 13 * kPktPs + 2 * kHopPs + 2 * kAckPs + 2 * kHopPs;
  EXPECT_EQ(nak_at, 5'115'040);
  const int64_t sent_by_nak = nak_at / kPktPs + 1;  // 61
  EXPECT_EQ(t.done.done[0].retx, (sent_by_nak - 10) * 1000);
  EXPECT_EQ(t.done.done[0].retx, 51'000);
  EXPECT_EQ(t.nic_a.counters().retx_packets, 51);
  EXPECT_EQ(t.nic_a.counters().naks_received, 1);
  // PSNs 11..60 reach b before the resent 10 (sent at 61 T): 50 out of order.
  EXPECT_EQ(t.nic_b.counters().out_of_order_packets, 50);
  EXPECT_EQ(t.nic_b.counters().naks_sent, 1);
  // 151 packets back to back; the last leaves at 150 T, lands at 152 T + 2 us,
  // and its ACK takes 2 * 5.28 ns + 2 us.
  EXPECT_EQ(t.done.done[0].t.count_ps(), 152 * kPktPs + 2 * kHopPs + 2 * kAckPs + 2 * kHopPs);
  EXPECT_EQ(t.net.drops_at(t.w.id(), DropReason::kLossyEgress), 1);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(RoceNicLoss, TimeoutRecoversALostLastPacket) {
  RoceConfig cfg;
  cfg.ack_every = 1;
  Lossy t(99, cfg);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  // No later packet reveals the gap, so no NAK. The ACK for PSN 98 (data lands
  // at 100 T + 2 us) is back at a at 100 T + 4 us + 2 * 5.28 ns = 12 506.56 ns
  // and restarts the 4.194304 ms timeout; PSN 99 is resent when it expires and
  // is acknowledged 2 T + 2 us + 2 * 5.28 ns + 2 us later.
  const int64_t last_progress = 100 * kPktPs + 4 * kHopPs + 2 * kAckPs;
  const int64_t rto = RoceConfig{}.rto.count_ps();
  EXPECT_EQ(rto, 4'194'304'000);
  EXPECT_EQ(t.done.done[0].t.count_ps(),
            last_progress + rto + 2 * kPktPs + 4 * kHopPs + 2 * kAckPs);
  EXPECT_EQ(t.done.done[0].retx, 1000);
  EXPECT_EQ(t.nic_a.counters().timeouts, 1);
  EXPECT_EQ(t.nic_a.counters().naks_received, 0);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

// With coalesced ACKs (default 256) nothing acknowledges PSNs 0..98 of a
// 100-packet message: the only ACK requested is the last packet's, and it is
// lost. The timer starts when PSN 99, the first packet that asks for an ACK,
// is sent at 99 T, and expires at 99 T + RTO: go-back-N resends from PSN 0.
// b already holds 0..98, so each resent one is a duplicate and re-ACKed at
// once; the first re-ACK (ACK 99) is back 2 T + 4 hops + 2 ACK times =
// 4180.48 ns after the timeout, when a has started 0..49 (49 T <= 4180.48 ns
// < 50 T), and a then sends PSN 99: 51 packets = 51 000 payload bytes resent,
// 50 duplicate ACKs + the last. PSN 99 leaves at RTO + 149 T, lands at
// RTO + 151 T + 2 hops, and its ACK is back 2 hops + 2 ACK times later.
TEST(RoceNicLoss, CoalescedAcksResendFromTheOldestUnacknowledgedOnTimeout) {
  Lossy t(99);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  EXPECT_EQ(t.done.done[0].retx, 51'000);
  EXPECT_EQ(t.nic_a.counters().timeouts, 1);
  EXPECT_EQ(t.nic_b.counters().duplicate_packets, 50);
  EXPECT_EQ(t.nic_b.counters().acks_sent, 51);
  const int64_t rto = RoceConfig{}.rto.count_ps();
  EXPECT_EQ(t.done.done[0].t.count_ps(), rto + 151 * kPktPs + 4 * kHopPs + 2 * kAckPs);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(RoceNicLoss, LinkDownMidFlowIsRecoveredByTimeoutAfterRestore) {
  RoceConfig cfg;
  cfg.rto = 100_us;
  Lossy t(-1, cfg);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 1_MB));
  t.sim.run_until(sim::Time::zero() + 20_us);
  t.net.set_link_up(1, false);  // wire -- b
  t.sim.run_until(sim::Time::zero() + 150_us);
  t.net.set_link_up(1, true);
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  EXPECT_GE(t.nic_a.counters().timeouts, 1);
  EXPECT_GT(t.done.done[0].retx, 0);
  EXPECT_EQ(t.nic_b.counters().data_packets_received - t.nic_b.counters().out_of_order_packets -
                t.nic_b.counters().duplicate_packets,
            1000);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

}  // namespace
}  // namespace xoff::models
