// RoCE NIC end to end over direct host-host links (and a plain forwarding
// "wire" node): timing, ACKs, CNP generation and the sender's reaction.
#include "models/nic/roce_nic.h"

#include <gtest/gtest.h>

#include "test/models/nic/nic_test_util.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::add_host;
using test::Completions;
using test::Direct;
using test::roce_flow;
using test::ViaWire;
using test::Wire;

constexpr int64_t kPktPs = 84'960;  // 1062 B at 100 Gb/s = 8496 bit / 100 Gb/s = 84.96 ns
constexpr int64_t kAckPs = 5'280;   // 66 B at 100 Gb/s

TEST(RoceNic, OneFlowFinishesInWireTimePlusRoundTrip) {
  Direct t;
  t.nic_a.start_flow(roce_flow(0, 0, 1, 1_MB));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  // 1 MB = 1000 segments of 1000 B, 1062 B each on the wire: 1 062 000 B at
  // 100 Gb/s = 84.96 us, back to back at line rate. The last one lands at
  // 84.96 us + 1 us; its ACK (66 B, 5.28 ns) comes back 1 us later.
  EXPECT_EQ(t.done.done[0].t.count_ps(), 1000 * kPktPs + 1'000'000 + kAckPs + 1'000'000);
  EXPECT_EQ(t.done.done[0].retx, 0);
  EXPECT_EQ(t.nic_a.counters().data_packets_sent, 1000);
  EXPECT_EQ(t.nic_a.counters().data_wire_bytes_sent, 1'062'000);
  // ack_every = 256 (the default): ACKs for PSNs 255, 511, 767 and the last, 999.
  EXPECT_EQ(t.nic_b.counters().acks_sent, 4);
  EXPECT_EQ(t.nic_a.active_qps(), 0u);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

// A packet carries its payload in 16 bits (models/core/packet.h): a NIC
// with a larger MTU is refused when it is made (the parser allows 9,154 B).
TEST(RoceNicDeathTest, AnMtuBeyondSixteenBitsIsRefused) {
  RoceConfig cfg;
  cfg.mtu = sim::Bytes(65'536);
  EXPECT_DEATH(Direct{cfg}, "at most 65,535 B");
}

TEST(RoceNic, LastSegmentCarriesTheRemainder) {
  Direct t;
  t.nic_a.start_flow(roce_flow(0, 0, 1, sim::Bytes(2500)));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  // 1000 + 1000 + 500 payload -> 1062 + 1062 + 562 = 2686 B on the wire.
  EXPECT_EQ(t.nic_a.counters().data_wire_bytes_sent, 2686);
  // Last frame ends at 2686 B * 80 ps/B = 214.88 ns; + 1 us + ACK + 1 us.
  EXPECT_EQ(t.done.done[0].t.count_ps(), 2686 * 80 + 2'000'000 + kAckPs);
}

TEST(RoceNic, CoalescedAcksStillAcknowledgeTheLastPacket) {
  RoceConfig cfg;
  cfg.ack_every = 8;
  Direct t(cfg);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 100_KB));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  // 100 packets: an ACK after every 8th (12 ACKs) plus one for the last.
  EXPECT_EQ(t.nic_b.counters().acks_sent, 13);
  EXPECT_EQ(t.done.done[0].t.count_ps(), 100 * kPktPs + 2'000'000 + kAckPs);
}

TEST(RoceNic, TwoFlowsInOneClassShareTheLinkAndFinishTogether) {
  Direct t;
  t.nic_a.start_flow(roce_flow(0, 0, 1, 500_KB));
  t.nic_a.start_flow(roce_flow(1, 0, 1, 500_KB));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 2u);
  // Round robin, 1000 packets in total: flow 0's last is packet 999 - 1,
  // flow 1's is packet 999.
  EXPECT_EQ(t.done.done[0].flow, 0u);
  EXPECT_EQ(t.done.done[0].t.count_ps(), 999 * kPktPs + 2'000'000 + kAckPs);
  EXPECT_EQ(t.done.done[1].t.count_ps(), 1000 * kPktPs + 2'000'000 + kAckPs);
}

TEST(RoceNic, ReceiverSendsOneCnpPerIntervalForAlwaysMarkedFlow) {
  RoceConfig cfg;
  cfg.dcqcn.enabled = false;  // the sender stays at line rate: a CE mark every 84.96 ns
  ViaWire t(cfg);
  t.w.mark_ce = true;
  // 11 770 packets arrive over 11 769 * 84.96 ns = 999.9 us, i.e. within 1 ms.
  t.nic_a.start_flow(roce_flow(0, 0, 1, sim::Bytes(11'770'000)));
  t.sim.run();
  // CNP k goes with the first packet at least 50 us after CNP k-1: every
  // ceil(50 us / 84.96 ns) = 589 packets = 50.04144 us; 999.9 / 50.04 -> k = 0..19.
  EXPECT_EQ(t.nic_b.counters().ce_packets_received, 11'770);
  EXPECT_EQ(t.nic_b.counters().cnps_sent, 20);
  EXPECT_EQ(t.nic_a.counters().cnps_received, 20);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(RoceNic, CnpHalvesTheSendersRateAndPacesAtIt) {
  ViaWire t;  // paper DCQCN: alpha 1 -> the first CNP halves R_C
  t.w.mark_ce = true;
  t.nic_a.start_flow(roce_flow(0, 0, 1, 10_MB));
  // First data packet reaches b at 2 * 84.96 ns + 2 us; its CNP (78 B, 6.24 ns
  // per hop) is back at a at 2.16992 us + 2 * 6.24 ns + 2 us = 4.1824 us.
  const sim::Time cnp_at = sim::Time::from_ps(2 * kPktPs + 2'000'000 + 2 * 6'240 + 2'000'000);
  t.sim.run_until(cnp_at - 1_ps);
  EXPECT_EQ(t.nic_a.rate_control(0)->rate(), 100_Gbps);
  t.sim.run_until(cnp_at);
  EXPECT_EQ(t.nic_a.counters().cnps_received, 1);
  EXPECT_EQ(t.nic_a.rate_control(0)->rate(), 50_Gbps);
  const int64_t sent = t.nic_a.counters().data_packets_sent;
  t.sim.run_until(cnp_at + 10_us);
  // At 50 Gb/s one 1062 B packet per 169.92 ns: 10 us / 169.92 ns = 58.9 packets.
  const int64_t in_10us = t.nic_a.counters().data_packets_sent - sent;
  EXPECT_GE(in_10us, 58);
  EXPECT_LE(in_10us, 60);
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  t.net.check_conservation();
}

// nic.cnp = "ack": the same notifications, carried by the ACKs. With an ACK
// per packet the 20 CNPs of the test above ride on 20 of the 11 770 ACKs: the
// fabric carries only data and ACKs (23 540 packets), against 23 560 with CNP
// frames.
TEST(RoceNic, CnpOnAckSendsNoFrameAndTheSenderStillCounts) {
  for (const bool on_ack : {false, true}) {
    RoceConfig cfg;
    cfg.ack_every = 1;
    cfg.dcqcn.enabled = false;
    cfg.cnp_on_ack = on_ack;
    ViaWire t(cfg);
    t.w.mark_ce = true;
    t.nic_a.start_flow(roce_flow(0, 0, 1, sim::Bytes(11'770'000)));
    t.sim.run();
    EXPECT_EQ(t.nic_b.counters().cnps_sent, 20);
    EXPECT_EQ(t.nic_a.counters().cnps_received, 20);
    EXPECT_EQ(t.net.ledger().created_packets, on_ack ? 23'540 : 23'560);
    t.net.check_conservation();
  }
}

// With coalesced ACKs (the default, every 256th PSN and the last) a CNP on an
// ACK cannot wait for the next requested one: the packet that raised it is
// acknowledged at once. 11 770 packets: requested ACKs for PSNs 255, 511, ...,
// 11 519 (45) and the last (46 in all); the 20 CNPs add 20 ACKs of their own
// (none of them falls on a requested PSN: 20 CNPs 50 us apart, one per
// 588.5 packets, each on the first CE packet after the interval).
TEST(RoceNic, CnpOnAckIsSentAtOnceWhenAcksAreCoalesced) {
  for (const bool on_ack : {false, true}) {
    RoceConfig cfg;
    cfg.dcqcn.enabled = false;
    cfg.cnp_on_ack = on_ack;
    ViaWire t(cfg);
    t.w.mark_ce = true;
    t.nic_a.start_flow(roce_flow(0, 0, 1, sim::Bytes(11'770'000)));
    t.sim.run();
    EXPECT_EQ(t.nic_b.counters().cnps_sent, 20);
    EXPECT_EQ(t.nic_a.counters().cnps_received, 20);
    EXPECT_EQ(t.nic_b.counters().acks_sent, on_ack ? 66 : 46);
    EXPECT_EQ(t.net.ledger().created_packets, 11'770 + 66);
    t.net.check_conservation();
  }
}

// The first CNP on an ACK: the first data packet reaches b at 2 x 84.96 ns +
// 2 us; its ACK (66 B, 5.28 ns per hop) is back at a at 2.16992 us + 2 x
// 5.28 ns + 2 us = 4.18048 us, and halves the rate then (a CNP frame, 78 B,
// arrives 1.92 ns later: the test above).
TEST(RoceNic, CnpOnAckCutsTheRateWhenTheAckArrives) {
  RoceConfig cfg;
  cfg.cnp_on_ack = true;
  ViaWire t(cfg);
  t.w.mark_ce = true;
  t.nic_a.start_flow(roce_flow(0, 0, 1, 10_MB));
  const sim::Time ack_at = sim::Time::from_ps(2 * kPktPs + 2'000'000 + 2 * kAckPs + 2'000'000);
  t.sim.run_until(ack_at - 1_ps);
  EXPECT_EQ(t.nic_a.rate_control(0)->rate(), 100_Gbps);
  t.sim.run_until(ack_at);
  EXPECT_EQ(t.nic_a.counters().cnps_received, 1);
  EXPECT_EQ(t.nic_a.rate_control(0)->rate(), 50_Gbps);
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), 1u);
  t.net.check_conservation();
}

TEST(RoceNic, PacedQpWakesEarlyWhenItsRateTimerRaisesTheRate) {
  RoceConfig cfg;
  cfg.dcqcn.clamp_target_always = false;  // back-to-back cuts keep R_T = 100G
  Direct t(cfg);
  t.nic_a.start_flow(roce_flow(0, 0, 1, 10_MB));
  const sim::Time cut_at = sim::Time::zero() + 10_us;
  t.sim.run_until(cut_at);
  // Ten CNPs at once (alpha stays 1): 100G / 2^10 = 97.7 Mb/s -> min rate 100 Mb/s.
  for (int i = 0; i < 10; ++i) {
    Packet& c = t.net.make_packet(kRoceCnpBytes);
    c.kind = PacketKind::kCnp;
    c.protocol = Protocol::kRoce;
    c.flow = 0;
    t.nic_a.receive(c);
  }
  EXPECT_EQ(t.nic_a.rate_control(0)->rate(), 100_Mbps);
  // The last packet left at 117 * 84.96 ns = 9.94032 us; at 100 Mb/s the next
  // would wait 84.96 us. The rate timer fires first, at 10 + 55 us: fast
  // recovery gives (100G + 0.1G) / 2 = 50.05G, and the QP sends at once.
  const int64_t before = t.nic_a.counters().data_packets_sent;
  t.sim.run_until(cut_at + 55_us - 1_ps);
  EXPECT_EQ(t.nic_a.counters().data_packets_sent, before);
  t.sim.run_until(cut_at + 55_us);
  EXPECT_EQ(t.nic_a.counters().data_packets_sent, before + 1);
  EXPECT_EQ(t.nic_a.rate_control(0)->rate().count(), 50'050'000'000);
  t.sim.run();
  EXPECT_EQ(t.done.done.size(), 1u);
  t.net.check_conservation();
}

TEST(RoceNic, StagesAtMostTheHostLimitInThePort) {
  Direct t;
  for (uint32_t i = 0; i < 50; ++i) t.nic_a.start_flow(roce_flow(i, 0, 1, 10_KB));
  // Every QP is ready at once; the NIC stops when class 3 holds >= 18 432 B:
  // 18 packets (18 * 1062 = 19 116 B; the first one is already on the wire).
  EXPECT_EQ(t.a.nic_port().queued_packets(3), 18u);
  t.sim.run();
  EXPECT_EQ(t.done.done.size(), 50u);
}

}  // namespace
}  // namespace xoff::models
