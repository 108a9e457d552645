// PFC watchdog: a sink stuck sending XOFF (a PFC storm) for 2 ms.
// h0 -> sw -> h1 at 100G, lossless class 3; h1 sends XOFF (0xFFFF quanta) every
// 100 us from t = 0 to 1.9 ms, then XON at 2 ms. Watchdog: polls every 10 us,
// detection 100 us, restoration 200 us.
#include <gtest/gtest.h>

#include <vector>

#include "models/switch/switch.h"
#include "test/models/switch/fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::Fabric;
using test::SendSpec;

struct StormRig : Fabric {
  Switch* sw = nullptr;
  explicit StormRig(WatchdogAction action, int64_t frames = 1'000'000, sim::Duration phase = 0_ns) {
    SwitchConfig c = test::plain_config(2'000'000);
    c.mmu.pg[3].lossless = true;
    c.mmu.pg[3].headroom = 50'000_B;
    c.watchdog = WatchdogConfig{true, action, 10_us, 100_us, 200_us, false, phase};
    sw = &add_switch("sw", c);
    net.connect(add_host(), *sw, 100_Gbps, 0_ns);
    net.connect(add_host(), *sw, 100_Gbps, 0_ns);
    sw->set_route(0, {PortIndex(0)});
    sw->set_route(1, {PortIndex(1)});
    for (int k = 0; k < 20; ++k) {
      script.at(at(100_us * k), [this] { hosts[1]->send_pause(1 << 3, 0xFFFF); });
    }
    script.at(at(2_ms), [this] { hosts[1]->send_pause(1 << 3, 0); });
    blaster(0).start(SendSpec{{1}, frames});
  }
  int64_t watchdog_drops() const { return net.drops_at(sw->id(), DropReason::kWatchdog); }
};

TEST(Watchdog, StuckPauseIsStormedAfterDetectionTimeAndDropActionDrainsIt) {
  StormRig r(WatchdogAction::kDrop);
  r.run_until(109_us);
  EXPECT_FALSE(r.sw->watchdog().stormed(PortIndex(1), 3));
  r.run_until(111_us);
  // The queue stalls from the first arrival (80 ns); the 10-us poll first sees
  // it stuck at 10 us and declares the storm 100 us later, at 110 us: within
  // [80 ns + 100 us, 80 ns + 100 us + one poll].
  ASSERT_EQ(r.log.watchdog.size(), 1u);
  EXPECT_EQ(r.log.watchdog[0].time.count_ps(), 110'000'000);
  EXPECT_EQ(r.log.watchdog[0].state, "stormed");
  EXPECT_EQ(r.log.watchdog[0].action, "drop");
  EXPECT_EQ(r.log.watchdog[0].port, 1);
  EXPECT_EQ(r.log.watchdog[0].traffic_class, 3);
  EXPECT_EQ(r.sw->port(PortIndex(1)).queued_bytes(3), 0);  // flushed
  EXPECT_GT(r.watchdog_drops(), 0);
  EXPECT_EQ(r.sw->mmu().pg(0, 3).shared, 0);  // the ingress buffer was released
  r.run_until(2_ms);
  EXPECT_EQ(r.blaster(1).received, 0);  // drop action: nothing reaches the storm
}

TEST(Watchdog, PollsFallAtTheSwitchsPhase) {
  // Phase 3 us: polls at 3, 13, 23, ... us. The first poll to see the queue
  // stuck is at 3 us, so the storm is declared 100 us later, at 103 us.
  StormRig r(WatchdogAction::kDrop, 1'000'000, 3_us);
  EXPECT_EQ(r.sw->watchdog().phase(), 3_us);
  r.run_until(111_us);
  ASSERT_EQ(r.log.watchdog.size(), 1u);
  EXPECT_EQ(r.log.watchdog[0].time.count_ps(), 103'000'000);
}

TEST(Watchdog, RandomPhasesDifferBetweenSwitchesAndRepeatWithTheSeed) {
  // Unaligned pfcwd timers (real switches): each switch draws its own phase
  // in [0, poll_interval) from (seed, name); the same seed gives the same.
  auto phases = [](uint64_t seed) {
    test::Fabric f;
    SwitchConfig c = test::plain_config(2'000'000);
    c.mmu.pg[3].lossless = true;
    c.seed = seed;  // the run's seed: the switch's streams are (seed, name)
    c.watchdog = WatchdogConfig{true, WatchdogAction::kDrop, 10_us, 100_us, 200_us, true, 0_ns};
    std::vector<int64_t> out;
    for (const char* n : {"leaf0", "leaf1", "leaf2", "leaf3"}) {
      out.push_back(f.add_switch(n, c).watchdog().phase().count_ps());
    }
    return out;
  };
  const auto a = phases(7);
  EXPECT_EQ(a, phases(7));
  EXPECT_NE(a, phases(8));
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_GE(a[i], 0);
    EXPECT_LT(a[i], 10'000'000);                           // within one poll interval
    for (size_t j = 0; j < i; ++j) EXPECT_NE(a[i], a[j]);  // 4 draws of 10^7 ps: distinct
  }
}

TEST(Watchdog, RestoresWithinRestorationTimeAfterPausesStop) {
  StormRig r(WatchdogAction::kDrop);
  r.run_until(2500_us);
  ASSERT_EQ(r.log.watchdog.size(), 2u);
  // Last PFC frame (the XON) reaches sw at 2 ms + 5.12 ns; 200 us later is
  // 2200.00512 us; the next poll is at 2210 us.
  EXPECT_EQ(r.log.watchdog[1].state, "restored");
  EXPECT_EQ(r.log.watchdog[1].time.count_ps(), 2'210'000'000);
  EXPECT_FALSE(r.sw->watchdog().stormed(PortIndex(1), 3));
  // Traffic flows again: 290 us at 100G = 362500 B of 1000-B frames, give or take.
  EXPECT_NEAR(r.blaster(1).received, 3625, 5);
  EXPECT_EQ(r.sw->watchdog().storms(), 1);
  EXPECT_EQ(r.sw->watchdog().restorations(), 1);
  r.net.check_conservation();
}

TEST(Watchdog, ForwardActionIgnoresPausesWithoutDropping) {
  StormRig r(WatchdogAction::kForward);
  r.run_until(2_ms);
  EXPECT_TRUE(r.sw->watchdog().stormed(PortIndex(1), 3));
  EXPECT_EQ(r.watchdog_drops(), 0);
  // From 110 us the queue drains at line rate despite the XOFFs.
  EXPECT_GT(r.blaster(1).received, 20'000);
  EXPECT_EQ(r.net.ledger().total_dropped_packets(), 0);
}

TEST(Watchdog, AlertActionOnlyRecords) {
  StormRig r(WatchdogAction::kAlert);
  r.run_until(2_ms);
  ASSERT_EQ(r.log.watchdog.size(), 1u);
  EXPECT_EQ(r.log.watchdog[0].action, "alert");
  EXPECT_EQ(r.watchdog_drops(), 0);
  EXPECT_EQ(r.blaster(1).received, 0);
}

TEST(Watchdog, IdleWatchdogDoesNotKeepTheSimulatorAlive) {
  StormRig r(WatchdogAction::kDrop, 100'000);  // 8 ms of sending at 100G
  r.sim.run();  // ends once the storm is over and every queue has drained
  EXPECT_EQ(r.sw->watchdog().restorations(), 1);
  EXPECT_EQ(r.blaster(1).received + r.watchdog_drops(), 100'000);
  EXPECT_TRUE(r.sw->mmu().empty());
  r.net.check_conservation();
}

}  // namespace
}  // namespace xoff::models
