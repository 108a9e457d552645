#include "models/core/port.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/core/network.h"
#include "models/core/node.h"
#include "test/models/core/test_nodes.h"

namespace xoff::models {
namespace {
using namespace sim::literals;

using test::Sink;

struct TwoNodes {
  sim::Simulator sim;
  Network net{sim};
  Sink& a = net.add_node<Sink>("a");
  Sink& b = net.add_node<Sink>("b");
  TwoNodes(sim::BitsPerSecond rate, sim::Duration delay) { net.connect(a, b, rate, delay); }
  EgressPort& ab() { return a.port(PortIndex(0)); }
  void send(int tc, int64_t bytes, int n = 1) {
    for (int i = 0; i < n; ++i) {
      Packet& p = net.make_packet(sim::Bytes(bytes));
      p.tc = static_cast<uint8_t>(tc);
      ab().enqueue(p);
    }
  }
  Packet& pause(uint8_t enable, uint16_t quanta) {
    Packet& f = net.make_packet(kPauseFrameBytes);
    f.kind = PacketKind::kPause;
    f.pause_enable = enable;
    for (int tc = 0; tc < 8; ++tc) f.set_pause_quanta(tc, quanta);
    return f;
  }
};

// The end of a transmission is an event only when a frame waits behind it
// (the owner here, unlike a host, does not ask to hear of idle ports).
TEST(EgressPort, SchedulesTheEndOfATransmissionOnlyWhenAFrameWaits) {
  TwoNodes one(100_Gbps, 1_us);
  one.send(0, 1500);
  one.sim.run();
  // One frame: its arrival at 120 ns + 1 us is the only event.
  ASSERT_EQ(one.b.arrivals.size(), 1u);
  EXPECT_EQ(one.b.arrivals[0].t.count_ps(), 1'120'000);
  EXPECT_EQ(one.sim.events_executed(), 1u);

  TwoNodes three(100_Gbps, 1_us);
  three.send(0, 1500, 3);
  three.sim.run();
  // Three at once: the ends of the first two start the next (at 120 and
  // 240 ns); nothing waits behind the third. 2 ends + 3 arrivals.
  ASSERT_EQ(three.b.arrivals.size(), 3u);
  EXPECT_EQ(three.b.arrivals[2].t.count_ps(), 1'360'000);
  EXPECT_EQ(three.sim.events_executed(), 5u);
  EXPECT_FALSE(three.ab().busy());
}

TEST(EgressPort, DeliversAtLastBitPlusPropagation) {
  TwoNodes t(100_Gbps, 1_us);
  t.send(0, 1500, 2);
  t.sim.run();
  ASSERT_EQ(t.b.arrivals.size(), 2u);
  // 1500 B at 100G = 120 ns on the wire, plus 1 us of cable.
  EXPECT_EQ(t.b.arrivals[0].t.count_ps(), 1'120'000);
  // Back to back: the second ends serializing at 240 ns.
  EXPECT_EQ(t.b.arrivals[1].t.count_ps(), 1'240'000);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(EgressPort, MaxQuantaPausesOneClassFor335us) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  // Pause class 3 with 0xFFFF quanta: 65535 * 512 bit / 100e9 bit/s = 335.5392 us.
  Packet& f = t.pause(1 << 3, 0xFFFF);
  t.ab().receive_pause(f);
  t.net.consume(f);
  t.send(3, 1000);
  t.send(5, 1000);
  t.sim.run();
  ASSERT_EQ(t.b.arrivals.size(), 2u);
  // Class 5 is not paused: leaves at once, 1000 B = 80 ns.
  EXPECT_EQ(t.b.arrivals[0].tc, 5);
  EXPECT_EQ(t.b.arrivals[0].t.count_ps(), 80'000);
  // Class 3 starts when the pause expires at 335 539 200 ps, plus 80 ns.
  EXPECT_EQ(t.b.arrivals[1].tc, 3);
  EXPECT_EQ(t.b.arrivals[1].t.count_ps(), 335'539'200 + 80'000);
  EXPECT_EQ(t.ab().counters().paused_time[3].count_ps(), 335'539'200);
}

// A port with PFC off for class 3 (set_pfc_enabled, e.g. after DCBX): the
// PAUSE is counted as received, but class 3 leaves at once, and no paused
// time accrues: 1000 B at 100G = 80 ns.
TEST(EgressPort, PauseForAClassWithPfcOffIsCountedAndIgnored) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  t.ab().set_pfc_enabled(1 << 4);
  Packet& f = t.pause(1 << 3, 0xFFFF);
  t.ab().receive_pause(f);
  t.net.consume(f);
  t.send(3, 1000);
  t.sim.run();
  ASSERT_EQ(t.b.arrivals.size(), 1u);
  EXPECT_EQ(t.b.arrivals[0].t.count_ps(), 80'000);
  EXPECT_EQ(t.ab().counters().pause_received[3], 1);
  EXPECT_EQ(t.ab().counters().paused_time[3].count_ps(), 0);
}

TEST(EgressPort, XonResumesBeforeExpiry) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  Packet& f = t.pause(1 << 3, 0xFFFF);
  t.ab().receive_pause(f);
  t.net.consume(f);
  t.send(3, 1000);
  t.sim.run_until(sim::Time::zero() + 10_us);
  EXPECT_TRUE(t.b.arrivals.empty());
  Packet& xon = t.pause(1 << 3, 0);
  t.ab().receive_pause(xon);
  t.net.consume(xon);
  t.sim.run();
  ASSERT_EQ(t.b.arrivals.size(), 1u);
  EXPECT_EQ(t.b.arrivals[0].t.count_ps(), 10'080'000);  // XON at 10 us + 80 ns
  EXPECT_EQ(t.ab().counters().paused_time[3], 10_us);
}

TEST(EgressPort, ResponseDelayPostponesPause) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  t.ab().set_response_delay(1_us);
  Packet& f = t.pause(1 << 0, 100);  // 100 quanta = 51200 bit = 512 ns at 100G
  t.ab().receive_pause(f);
  t.net.consume(f);
  t.send(0, 1250, 20);  // 100 ns each
  t.sim.run();
  // 10 frames go out in the 1 us before the pause takes effect; the 11th starts
  // when it expires at 1 us + 512 ns and arrives 100 ns later.
  ASSERT_EQ(t.b.arrivals.size(), 20u);
  EXPECT_EQ(t.b.arrivals[9].t.count_ps(), 1'000'000);
  EXPECT_EQ(t.b.arrivals[10].t.count_ps(), 1'612'000);
}

TEST(EgressPort, ControlFramesBypassPausedQueues) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  Packet& f = t.pause(0xFF, 0xFFFF);  // every class paused
  t.ab().receive_pause(f);
  t.net.consume(f);
  t.send(3, 1000);
  Packet& cnp = t.net.make_packet(64_B);
  cnp.kind = PacketKind::kCnp;
  t.ab().enqueue_control(cnp);
  t.sim.run_until(sim::Time::zero() + 1_us);
  ASSERT_EQ(t.b.arrivals.size(), 1u);
  EXPECT_EQ(t.b.arrivals[0].t.count_ps(), 5'120);  // 64 B at 100G
}

TEST(EgressPort, CnpInADataClassIsAccountedAsData) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  // A switch classifies a CNP by its DSCP into a data class: it must leave that
  // queue's byte count and be counted as data, like any packet of the class.
  Packet& cnp = t.net.make_packet(78_B);
  cnp.kind = PacketKind::kCnp;
  cnp.tc = 6;
  t.ab().enqueue(cnp);
  t.sim.run();
  ASSERT_EQ(t.b.arrivals.size(), 1u);
  EXPECT_EQ(t.ab().queued_bytes(6), 0);
  EXPECT_EQ(t.ab().counters().tx_packets[6], 1);
  EXPECT_EQ(t.ab().counters().control_packets, 0);
}

TEST(EgressPort, StrictPriorityServesHigherClassFirst) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  SchedulerConfig sc;
  sc.strict[6] = sc.strict[2] = true;
  t.ab().set_scheduler(sc);
  t.send(1, 1000, 3);  // DWRR class; the first starts at once (port idle)
  t.send(2, 1000, 3);
  t.send(6, 1000, 3);
  t.sim.run();
  std::vector<int> order;
  for (auto& a : t.b.arrivals) order.push_back(a.tc);
  EXPECT_EQ(order, (std::vector<int>{1, 6, 6, 6, 2, 2, 2, 1, 1}));
}

TEST(EgressPort, DwrrSharesBandwidthByWeight) {
  TwoNodes t(100_Gbps, sim::Duration::zero());
  SchedulerConfig sc;
  sc.weight = {1, 3, 1, 1, 1, 1, 1, 1};
  t.ab().set_scheduler(sc);
  // Both classes backlogged with mixed sizes; stop while both still have data.
  for (int i = 0; i < 3000; ++i) {
    t.send(0, i % 2 ? 1500 : 700);
    t.send(1, i % 3 ? 1500 : 300);
  }
  t.sim.run_until(sim::Time::zero() + 100_us);  // 100 us at 100G = 1.25 MB sent
  const double c0 = static_cast<double>(t.b.bytes_by_class[0]);
  const double c1 = static_cast<double>(t.b.bytes_by_class[1]);
  // Weights 1:3 -> shares 25% / 75%, within 2%.
  EXPECT_NEAR(c1 / (c0 + c1), 0.75, 0.02);
  EXPECT_NEAR(c0 + c1, 1'250'000, 1500);
}

TEST(EgressPort, LinkDownDropsQueuedAndInFlight) {
  TwoNodes t(100_Gbps, 1_us);
  t.send(0, 1500, 10);
  t.sim.run_until(sim::Time::zero() + 500_ns);  // 4 sent (480 ns), 1 serializing
  t.net.set_link_up(0, false);
  t.sim.run();
  EXPECT_TRUE(t.b.arrivals.empty());
  EXPECT_EQ(t.net.ledger().dropped_packets[static_cast<size_t>(DropReason::kLinkDown)], 10);
  t.net.check_conservation();
  t.net.set_link_up(0, true);
  t.send(0, 1500);
  t.sim.run();
  EXPECT_EQ(t.b.arrivals.size(), 1u);
}

}  // namespace
}  // namespace xoff::models
