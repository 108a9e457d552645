// ECN marking (DCQCN's RED on the instantaneous queue): 0 below Kmin, linear to
// Pmax at Kmax, 1 above. Kmin 20 KB, Kmax 100 KB, Pmax 0.2 here.
#include "models/switch/ecn.h"

#include <gtest/gtest.h>

#include <cmath>

#include "models/switch/switch.h"
#include "test/models/switch/fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::Fabric;
using test::SendSpec;

EcnConfig red() {
  EcnConfig c;
  for (auto& e : c.tc) e.enabled = false;
  c.tc[3] = EcnClassConfig{true, 20'000_B, 100'000_B, 0.2};
  return c;
}

TEST(Ecn, ProbabilityIsZeroBelowKminLinearToPmaxAndOneAboveKmax) {
  EcnMarker m(red(), 1, "sw");
  EXPECT_EQ(m.probability(3, 0), 0.0);
  EXPECT_EQ(m.probability(3, 20'000), 0.0);
  EXPECT_DOUBLE_EQ(m.probability(3, 60'000), 0.1);  // midpoint: Pmax / 2
  EXPECT_DOUBLE_EQ(m.probability(3, 100'000), 0.2);
  EXPECT_EQ(m.probability(3, 100'001), 1.0);
  EXPECT_EQ(m.probability(0, 1'000'000), 0.0);  // class 0 not enabled
}

// A port group of its own: host-facing ports mark by host_tc (5 KB / 10 KB /
// 1.0 here), the others by tc (20 KB / 100 KB / 0.2).
TEST(Ecn, HostPortsMarkByTheirOwnThresholds) {
  EcnConfig c = red();
  c.host_ports = true;
  for (auto& e : c.host_tc) e.enabled = false;
  c.host_tc[3] = EcnClassConfig{true, 5'000_B, 10'000_B, 1.0};
  EcnMarker m(c, 1, "sw");
  EXPECT_DOUBLE_EQ(m.probability(3, 7'500, true), 0.5);  // (7500 - 5000) / 5000 x 1.0
  EXPECT_EQ(m.probability(3, 7'500, false), 0.0);        // below the fabric's 20 KB
  EXPECT_DOUBLE_EQ(m.probability(3, 60'000, false), 0.1);
  EXPECT_EQ(m.probability(3, 60'000, true), 1.0);  // above the host ports' 10 KB
  c.host_ports = false;                            // off: every port by tc
  EcnMarker plain(c, 1, "sw");
  EXPECT_EQ(plain.probability(3, 7'500, true), 0.0);
}

TEST(Ecn, MarksPmaxOverTwoAtTheMidpoint) {
  EcnMarker m(red(), 1, "sw");
  int below = 0, mid = 0, above = 0;
  for (int i = 0; i < 10'000; ++i) {
    below += m.decide(3, 19'000);
    mid += m.decide(3, 60'000);
    above += m.decide(3, 150'000);
  }
  EXPECT_EQ(below, 0);
  EXPECT_EQ(above, 10'000);
  // Binomial(10^4, 0.1): mean 1000, sd = sqrt(10^4 x 0.1 x 0.9) = 30; +-3 sd.
  EXPECT_NEAR(mid, 1000, 90);
}

// h0 -> sw -> h1 with h1 holding sw's port in XOFF until 20 us, so the k-th
// 1000-B frame (k from 0) finds k x 1000 B queued ahead of it.
struct EcnRig : Fabric {
  Switch* sw = nullptr;
  explicit EcnRig(bool at_dequeue, bool ect) {
    SwitchConfig c = test::plain_config(10'000'000);
    c.ecn = red();
    c.ecn.mark_at_dequeue = at_dequeue;
    sw = &add_switch("sw", c);
    net.connect(add_host(), *sw, 100_Gbps, 0_ns);
    net.connect(add_host(), *sw, 100_Gbps, 0_ns);
    sw->set_route(0, {PortIndex(0)});
    sw->set_route(1, {PortIndex(1)});
    hosts[1]->send_pause(1 << 3, 0xFFFF);
    script.at(at(20_us), [this] { hosts[1]->send_pause(1 << 3, 0); });
    blaster(0).start(SendSpec{{1}, 150, 1000, 1000, 26, 3, ect});
    sim.run();
  }
  int64_t marked() const { return sw->port(PortIndex(1)).counters().ecn_marked[3]; }
};

TEST(Ecn, MarksAtEnqueueByTheQueueAhead) {
  EcnRig r(false, true);
  const auto& log = r.blaster(1).log;
  ASSERT_EQ(log.size(), 150u);
  for (const auto& rx : log) {
    if (rx.seq <= 20) {
      EXPECT_FALSE(rx.ce) << rx.seq;  // <= 20000 B ahead: Kmin
    }
    if (rx.seq > 100) {
      EXPECT_TRUE(rx.ce) << rx.seq;  // > 100000 B ahead: Kmax
    }
  }
  // Expected marks: 49 certain (k = 101..149) + sum over k = 21..100 of
  // 0.2 x (k - 20) / 80 = 0.2 x 3240 / 80 = 8.1 (sd ~2.6).
  EXPECT_NEAR(r.marked(), 49 + 8.1, 3 * 2.6);
  EXPECT_EQ(r.marked(), r.blaster(1).received_ce);
}

TEST(Ecn, MarksAtDequeueByTheQueueBehind) {
  EcnRig r(true, true);
  for (const auto& rx : r.blaster(1).log) {
    // Frame k leaves (149 - k) x 1000 B behind it.
    if (rx.seq < 49) {
      EXPECT_TRUE(rx.ce) << rx.seq;
    }
    if (rx.seq >= 129) {
      EXPECT_FALSE(rx.ce) << rx.seq;
    }
  }
  EXPECT_EQ(r.marked(), r.blaster(1).received_ce);
}

TEST(Ecn, NeverMarksPacketsThatAreNotEcnCapable) {
  EcnRig r(false, false);
  EXPECT_EQ(r.marked(), 0);
  EXPECT_EQ(r.blaster(1).received_ce, 0);
}

}  // namespace
}  // namespace xoff::models
