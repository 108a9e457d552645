// PFC generation at the switch: XOFF at the threshold crossing, refresh while
// congested, XON below threshold - hysteresis, and headroom sizing.
#include <gtest/gtest.h>

#include "models/switch/switch.h"
#include "test/models/switch/fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::Fabric;
using test::SendSpec;

// h0 -> sw -> h1, 100G, no cable. PG 3 lossless, pool exactly 1 MB (alpha 1),
// xon_offset 10000 B. The sink h1 holds the switch's port in XOFF for class 3
// from t = 0 (refreshing every 300 us, before the 335.5 us pause expires) and
// sends XON at 1 ms.
struct XoffRig : Fabric {
  Switch* sw = nullptr;
  XoffRig() {
    SwitchConfig c = test::plain_config(1'000'000 + 2 * 20'000);
    c.mmu.pg[3] = PgConfig{true, 0_B, 1.0, 0_B, 20'000_B, 10'000_B};
    sw = &add_switch("sw", c);
    net.connect(add_host(), *sw, 100_Gbps, 0_ns);
    net.connect(add_host(), *sw, 100_Gbps, 0_ns);
    sw->set_route(0, {PortIndex(0)});
    sw->set_route(1, {PortIndex(1)});
    for (int k = 0; k < 4; ++k) {
      script.at(at(300_us * k), [this] { hosts[1]->send_pause(1 << 3, 0xFFFF); });
    }
    script.at(at(1_ms), [this] { hosts[1]->send_pause(1 << 3, 0); });
    blaster(0).start(SendSpec{{1}, 2000});  // 1000 B, DSCP 26 -> TC 3
  }
};

TEST(Pfc, SendsXoffExactlyWhenIngressCrossesThreshold) {
  XoffRig r;
  r.run_until(39_us);
  EXPECT_TRUE(r.log.sent("sw", true).empty());
  r.run_until(41_us);
  const auto xoff = r.log.sent("sw", true);
  ASSERT_EQ(xoff.size(), 1u);
  // Threshold = 1 x (1e6 - shared): crossed when shared = 500000 B, i.e. by the
  // 500th 1000-B frame, which arrives at 500 x 80 ns = 40 us.
  EXPECT_EQ(xoff[0].time.count_ps(), 40'000'000);
  EXPECT_EQ(xoff[0].port, 0);
  EXPECT_EQ(xoff[0].traffic_class, 3);
  EXPECT_EQ(xoff[0].quanta, 0xFFFF);
  EXPECT_EQ(r.sw->mmu().pg(0, 3).shared, 500'000);
  // Frame 501 was already on the wire when the PAUSE reached h0 (5.12 ns
  // later): it lands in headroom.
  EXPECT_EQ(r.sw->mmu().pg(0, 3).headroom, 1'000);
}

TEST(Pfc, RefreshesXoffAtHalfThePauseTimeWhileCongested) {
  XoffRig r;
  r.run_until(999_us);
  // 0xFFFF quanta x 512 bit / 100 Gb/s = 335.5392 us; refresh every 167.7696 us
  // after the XOFF at 40 us: 207.7696, 375.5392, 543.3088, 711.0784, 878.848 us.
  const auto xoff = r.log.sent("sw", true);
  ASSERT_EQ(xoff.size(), 6u);
  for (size_t k = 0; k < xoff.size(); ++k) {
    EXPECT_EQ(xoff[k].time.count_ps(), 40'000'000 + static_cast<int64_t>(k) * 167'769'600);
  }
  EXPECT_EQ(r.sw->port(PortIndex(0)).counters().pause_sent[3], 6);
  EXPECT_EQ(r.sw->pfc().counters(PortIndex(0), 3).refreshes, 5);
  // h0 never resumed: 501 frames reached the switch, and h0 staged 19 more
  // behind the pause (it fills its class queue up to 2 x 9216 B).
  EXPECT_EQ(r.blaster(0).sent, 520);
  EXPECT_TRUE(r.log.sent("sw", false).empty());
}

TEST(Pfc, SendsXonBelowThresholdMinusHysteresis) {
  XoffRig r;
  r.run_until(1001_us);
  const auto xon = r.log.sent("sw", false);
  ASSERT_EQ(xon.size(), 1u);
  // The sink's XON reaches sw at 1 ms + 5.12 ns; frames then leave every 80 ns.
  // The 1st frees the 1000 B of headroom (shared 500000); XON needs
  // shared <= (1e6 - shared) - 10000, i.e. shared <= 495000: after the 6th,
  // at 1 ms + 5.12 ns + 5 x 80 ns.
  EXPECT_EQ(xon[0].time.count_ps(), 1'000'000'000 + 5'120 + 400'000);
  EXPECT_EQ(r.sw->pfc().counters(PortIndex(0), 3).xon_sent, 1);
  r.sim.run();
  EXPECT_EQ(r.blaster(1).received, 2000);
  EXPECT_TRUE(r.sw->mmu().empty());
  EXPECT_EQ(r.net.ledger().total_dropped_packets(), 0);
  r.net.check_conservation();
}

// A priority group still in XOFF when its link comes back is checked as its
// refresh timer would check it. h0 -> sw -> h1 and h2 -> sw -> h3 (100G, no
// cable, pool 1 MB, alpha 1, xon_offset 10000 B); h1 and h3 pause class 3
// at t = 0. The two ingress PGs fill alike and both go XOFF when each holds
// s >= 1e6 - 2s, s = 334 frames (26.72 us). h0's link goes down at 50 us;
// h3 resumes at 60 us, so h2's PG drains (h2 sends 340 frames in all, the
// last gone by 60 us + 340 x 80 ns = 87.2 us) and the threshold for h0's
// PG rises to 1e6 - 333000 B, 657000 with the offset, above its 333000: it
// could be released, but only its refresh
// (26.72 + 167.77 = 194.49 us) or a dequeue of its own would look. At the
// link's return (100 us) it is released at once (XON) instead of pausing h0
// again for up to half a pause.
struct FlapRig : Fabric {
  Switch* sw = nullptr;
  uint32_t h0_link = 0;
  FlapRig() {
    SwitchConfig c = test::plain_config(1'000'000 + 4 * 20'000);
    c.mmu.pg[3] = PgConfig{true, 0_B, 1.0, 0_B, 20'000_B, 10'000_B};
    sw = &add_switch("sw", c);
    for (int i = 0; i < 4; ++i) {
      const uint32_t l = net.connect(add_host(), *sw, 100_Gbps, 0_ns);
      if (i == 0) h0_link = l;
      sw->set_route(static_cast<uint32_t>(i), {PortIndex(static_cast<uint16_t>(i))});
    }
    script.at(at(0_us), [this] {
      hosts[1]->send_pause(1 << 3, 0xFFFF);
      hosts[3]->send_pause(1 << 3, 0xFFFF);
    });
    script.at(at(50_us), [this] { net.set_link_up(h0_link, false); });
    // h1 lets two frames go (XON at 55 us, XOFF again 100 ns later): they
    // empty the PG's headroom (XON needs it empty) without releasing it.
    script.at(at(55_us), [this] { hosts[1]->send_pause(1 << 3, 0); });
    script.at(at(55_us + 100_ns), [this] { hosts[1]->send_pause(1 << 3, 0xFFFF); });
    script.at(at(60_us), [this] { hosts[3]->send_pause(1 << 3, 0); });
    script.at(at(100_us), [this] { net.set_link_up(h0_link, true); });
    blaster(0).start(SendSpec{{1}, 2000});
    blaster(2).start(SendSpec{{3}, 340});  // enough to reach XOFF, then done
  }
};

TEST(Pfc, APgInXoffWhenItsLinkComesBackIsReleasedIfItMayBe) {
  FlapRig r;
  r.run_until(99_us);
  ASSERT_TRUE(r.sw->mmu().pg(0, 3).xoff);
  // 334 frames in, two out (the headroom's 1000 B first, then 1000 of shared).
  EXPECT_EQ(r.sw->mmu().pg(0, 3).shared, 333'000);
  EXPECT_EQ(r.sw->mmu().pg(0, 3).headroom, 0);
  EXPECT_EQ(r.sw->mmu().pg(2, 3).shared, 0);  // h2's 340 frames all gone by 87.2 us
  EXPECT_EQ(r.sw->pfc().counters(PortIndex(0), 3).xoff_sent, 1);
  r.run_until(101_us);
  const auto& c = r.sw->pfc().counters(PortIndex(0), 3);
  EXPECT_EQ(c.xon_sent, 1);
  EXPECT_EQ(c.refreshes, 0);
  EXPECT_FALSE(r.sw->mmu().pg(0, 3).xoff);
  const auto xon = r.log.sent("sw", false);
  ASSERT_FALSE(xon.empty());
  EXPECT_EQ(xon.back().port, 0);
  EXPECT_EQ(xon.back().time.count_ps(), 100'000'000);
}

// 4:1 incast of 9000-B lossless frames through one switch at 100G; each sender
// 100 m away (500 ns at 5 ns/m) and reacting to PAUSE after 1 us.
// Headroom bound (models/topology/headroom.h, 802.1Qbb Annex N):
//   cable round trip 2 x 500 ns x 12.5 B/ns  = 12500 B
//   2 x MTU                                   = 18000 B
//   response delay 1 us x 12.5 B/ns           = 12500 B
//   PAUSE frame                               =    64 B
//   total                                     = 43064 B
struct Incast : Fabric {
  Switch* sw = nullptr;
  explicit Incast(int64_t headroom) {
    SwitchConfig c = test::plain_config(0);
    c.mmu.pg[3] = PgConfig{true, 0_B, 1.0, 0_B, sim::Bytes(headroom), 9'216_B};
    c.mmu.total = sim::Bytes(500'000 + 5 * headroom);
    sw = &add_switch("sw", c);
    for (int i = 0; i < 5; ++i) {
      Host& h = add_host();
      net.connect(h, *sw, 100_Gbps, 500_ns);
      h.nic_port().set_response_delay(1_us);
      sw->set_route(i, {PortIndex(static_cast<uint16_t>(i))});
    }
    for (int i = 0; i < 4; ++i) blaster(i).start(SendSpec{{4}, 200, 9000, 9000});
  }
  int64_t peak_headroom() const {
    int64_t m = 0;
    for (int i = 0; i < 4; ++i) m = std::max(m, sw->mmu().pg(i, 3).peak_headroom);
    return m;
  }
};

TEST(Pfc, HeadroomAtTheBoundLosesNothing) {
  Incast r(43'064);
  r.sim.run();
  EXPECT_EQ(r.net.drops_at(r.sw->id(), DropReason::kLosslessViolation), 0);
  EXPECT_EQ(r.blaster(4).received, 800);
  EXPECT_GT(r.sw->pfc().counters(PortIndex(0), 3).xoff_sent, 0);
  // After XOFF, 2725.12 ns of sending still lands (PAUSE 5.12 ns + 500 ns
  // cable + 1 us response + a 720-ns frame in progress + 500 ns cable): three
  // 9000-B frames. A fourth comes first when the PG's XOFF is triggered by a
  // frame that finds the PG above a threshold the other PGs have lowered (it
  // goes to headroom itself): 36000 B, still below the 43064-B bound.
  EXPECT_EQ(r.peak_headroom(), 36'000);
  EXPECT_TRUE(r.sw->mmu().empty());
  r.net.check_conservation();
}

TEST(Pfc, HeadroomAtHalfTheBoundViolatesLosslessness) {
  Incast r(43'064 / 2);  // 21532 B: room for two 9000-B frames, not three or four
  r.sim.run();
  EXPECT_GT(r.net.drops_at(r.sw->id(), DropReason::kLosslessViolation), 0);
  EXPECT_LT(r.blaster(4).received, 800);
  EXPECT_EQ(r.peak_headroom(), 18'000);
  EXPECT_TRUE(r.sw->mmu().empty());
  r.net.check_conservation();
}

}  // namespace
}  // namespace xoff::models
