#include "models/switch/switch.h"

#include <gtest/gtest.h>

#include "test/models/switch/fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::Fabric;
using test::SendSpec;

// h0 -- sw -- h1, 100G, no cable delay.
struct OneSwitch : Fabric {
  Switch& sw;
  explicit OneSwitch(const SwitchConfig& c) : sw(add_switch("sw", c)) {
    add_host();
    add_host();
    net.connect(*hosts[0], sw, 100_Gbps, 0_ns);
    net.connect(*hosts[1], sw, 100_Gbps, 0_ns);
    sw.set_route(0, {PortIndex(0)});
    sw.set_route(1, {PortIndex(1)});
  }
};

TEST(Switch, ForwardsStoreAndForwardAtLineRate) {
  OneSwitch f(test::plain_config(1'000'000));
  f.blaster(0).start(SendSpec{{1}, 2, 1000, 1000});
  f.sim.run();
  EXPECT_EQ(f.blaster(1).received, 2);
  // 1000 B at 100G = 80 ns per hop; the second leaves h0 at 160 ns, sw at 240 ns.
  EXPECT_EQ(f.blaster(1).last_arrival.count_ps(), 240'000);
  EXPECT_TRUE(f.sw.mmu().empty());
  f.net.check_conservation();
}

TEST(Switch, ClassifiesDscp26ToTc3UnderTheMap) {
  SwitchConfig c = test::plain_config(1'000'000);
  c.classification.dscp_to_tc.fill(0);
  c.classification.dscp_to_tc[26] = 3;
  c.mmu.pg[3].lossless = true;
  OneSwitch f(c);
  Packet p;
  p.dscp = 26;
  f.sw.classify(p);
  EXPECT_EQ(p.tc, 3);
  EXPECT_EQ(p.pg, 3);
  EXPECT_TRUE(f.sw.lossless_class(3));
  p.dscp = 0;  // mis-marked RoCE: lands in the lossy default class
  f.sw.classify(p);
  EXPECT_EQ(p.tc, 0);
  EXPECT_FALSE(f.sw.lossless_class(0));
}

TEST(Switch, TrustPcpIgnoresDscp) {
  SwitchConfig c = test::plain_config(1'000'000);
  c.classification.trust = ClassificationConfig::Trust::kPcp;
  c.classification.pcp_to_tc = {0, 0, 0, 5, 0, 0, 0, 0};
  c.classification.tc_to_pg = {0, 0, 0, 0, 0, 2, 0, 0};
  OneSwitch f(c);
  Packet p;
  p.dscp = 26;
  p.pcp = 3;
  f.sw.classify(p);
  EXPECT_EQ(p.tc, 5);
  EXPECT_EQ(p.pg, 2);
}

// Two senders into one 100G port: DSCP 26 (lossless TC 3) and a mis-marked
// DSCP 0 (TC 0, lossy). The lossless class is paused, never dropped; the
// mis-marked one is dropped at the buffer limit.
TEST(Switch, MisMarkedPacketIsLossyUnderCongestion) {
  SwitchConfig c = test::plain_config(200'000);
  c.mmu.pg[3].lossless = true;
  c.mmu.pg[3].headroom = 50'000_B;  // 3 ports x 50 KB = 150 KB, pool 50 KB
  Fabric f;
  Switch& sw = f.add_switch("sw", c);
  for (int i = 0; i < 3; ++i) f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  for (uint32_t h = 0; h < 3; ++h) sw.set_route(h, {PortIndex(static_cast<uint16_t>(h))});
  f.blaster(0).start(SendSpec{{2}, 2000, 1000, 1000, 26, 3});
  f.blaster(1).start(SendSpec{{2}, 2000, 1000, 1000, 0, 3});
  f.sim.run();
  EXPECT_EQ(f.blaster(2).received_by_tc[3], 2000);
  EXPECT_GT(f.net.drops_at(sw.id(), DropReason::kLossyIngress) +
                f.net.drops_at(sw.id(), DropReason::kLossyEgress),
            0);
  EXPECT_EQ(f.net.drops_at(sw.id(), DropReason::kLosslessViolation), 0);
  EXPECT_LT(f.blaster(2).received_by_tc[0], 2000);
  EXPECT_GT(sw.port(PortIndex(0)).counters().pause_sent[3], 0);
  EXPECT_EQ(sw.port(PortIndex(1)).counters().pause_sent[3], 0);
  EXPECT_TRUE(sw.mmu().empty());
  f.net.check_conservation();
}

// CNPs are forwarded through the control queue: past a paused class, uncharged.
TEST(Switch, ForwardsCnpAheadOfPausedClassesWithoutBuffering) {
  OneSwitch f(test::plain_config(1'000'000));
  f.hosts[1]->send_pause(0xFF, 0xFFFF);  // every class of sw's port 1 paused
  f.run_until(1_us);
  Packet& cnp = f.net.make_packet(64_B);
  cnp.kind = PacketKind::kCnp;
  cnp.protocol = Protocol::kRoce;
  cnp.dst = 1;
  cnp.dscp = 48;
  f.hosts[0]->nic_port().enqueue_control(cnp);
  f.run_until(2_us);
  EXPECT_EQ(f.blaster(1).received, 1);
  // 64 B at 100G = 5.12 ns per hop, sent at 1 us.
  EXPECT_EQ(f.blaster(1).last_arrival.count_ps(), 1'000'000 + 2 * 5'120);
  EXPECT_TRUE(f.sw.mmu().empty());
}

// SwitchConfig::pfc.response_delay reaches every port: h1's XOFF arrives at
// 5.12 ns and takes effect 1 us later, at 1005.12 ns. Frame k (1000 B) reaches
// sw at k x 80 ns and starts out at once: frames 1..12 start before 1005.12 ns.
TEST(Switch, AppliesResponseDelayToItsPorts) {
  SwitchConfig c = test::plain_config(1'000'000);
  c.pfc.response_delay = 1_us;
  OneSwitch f(c);
  f.hosts[1]->send_pause(0xFF, 0xFFFF);
  f.blaster(0).start(SendSpec{{1}, 100, 1000, 1000, 0, 0});
  f.run_until(10_us);
  EXPECT_EQ(f.blaster(1).received, 12);
}

// SwitchConfig::scheduler reaches every port: with TC 6 strict, a backlog of
// TC 0 and TC 6 released by XON leaves TC 6 first.
TEST(Switch, AppliesSchedulerToItsPorts) {
  SwitchConfig c = test::plain_config(1'000'000);
  c.scheduler.strict[6] = true;
  Fabric f;
  Switch& sw = f.add_switch("sw", c);
  for (int i = 0; i < 3; ++i) f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  for (uint32_t h = 0; h < 3; ++h) sw.set_route(h, {PortIndex(static_cast<uint16_t>(h))});
  f.hosts[2]->send_pause(0xFF, 0xFFFF);
  f.script.at(Fabric::at(5_us), [&f] { f.hosts[2]->send_pause(0xFF, 0); });
  f.blaster(0).start(SendSpec{{2}, 10, 1000, 1000, 0, 0});   // TC 0
  f.blaster(1).start(SendSpec{{2}, 10, 1000, 1000, 48, 6});  // DSCP 48 -> TC 6
  f.sim.run();
  const auto& log = f.blaster(2).log;
  ASSERT_EQ(log.size(), 20u);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(log[i].tc, 6) << i;
}

TEST(Switch, DropsWithoutRoute) {
  OneSwitch f(test::plain_config(1'000'000));
  f.sw.set_route(1, {});  // black hole
  f.blaster(0).start(SendSpec{{1}, 5});
  f.sim.run();
  EXPECT_EQ(f.net.drops_at(f.sw.id(), DropReason::kNoRoute), 5);
  f.net.check_conservation();
}

// h0 - a - b - h1 with both switches sending h1's traffic to each other: each
// packet bounces until its TTL runs out. TTL 64: visit k sees 65 - k, the 64th
// visit (an even one, at b) sees 1 and drops.
TEST(Switch, RoutingLoopEndsInTtlDrop) {
  Fabric f;
  Switch& a = f.add_switch("a", test::plain_config(1'000'000));
  Switch& b = f.add_switch("b", test::plain_config(1'000'000));
  f.net.connect(f.add_host(), a, 100_Gbps, 0_ns);
  f.net.connect(a, b, 100_Gbps, 0_ns);
  f.net.connect(f.add_host(), b, 100_Gbps, 0_ns);
  a.set_route(1, {PortIndex(1)});
  b.set_route(1, {PortIndex(0)});  // back to a: a loop
  f.blaster(0).start(SendSpec{{1}, 3, 1000, 1000, 0, 0});
  f.sim.run();
  EXPECT_EQ(f.net.drops_at(b.id(), DropReason::kTtl), 3);
  EXPECT_EQ(f.net.drops_at(a.id(), DropReason::kTtl), 0);
  f.net.check_conservation();
}

// A node that swallows everything, to count what each ECMP member receives.
class Counter final : public Node {
 public:
  Counter(Network& net, NodeId id, std::string name) : Node(id, std::move(name)), net_(net) {}
  void receive(Packet& p, PortIndex) override {
    ++n;
    net_.consume(p);
  }
  int64_t n = 0;

 private:
  Network& net_;
};

TEST(Switch, EcmpSpreadsFlowsEvenlyAndPinsEachFlow) {
  Fabric f;
  Switch& sw = f.add_switch("sw", test::plain_config(10'000'000));
  f.net.connect(f.add_host(), sw, 400_Gbps, 0_ns);
  std::vector<Counter*> up;
  for (int i = 0; i < 4; ++i) {
    std::string name = "u";
    name += std::to_string(i);
    up.push_back(&f.net.add_node<Counter>(name));
    f.net.connect(sw, *up.back(), 400_Gbps, 0_ns);
  }
  sw.set_route(7, {PortIndex(1), PortIndex(2), PortIndex(3), PortIndex(4)});
  sw.set_ecmp_salt(0x1234);
  // 8000 distinct flow hashes: each member expects 2000, sd = sqrt(8000 x 1/4 x 3/4) = 38.7.
  f.blaster(0).start(SendSpec{{7}, 8000, 64, 64, 0, 0});
  f.sim.run();
  for (Counter* c : up) EXPECT_NEAR(c->n, 2000, 4 * 39);
  // One flow hash always takes one path.
  for (Counter* c : up) c->n = 0;
  f.blaster(0).start(SendSpec{{7}, 100, 64, 64, 0, 0, false, 0xBEEF});
  f.sim.run();
  int members = 0;
  for (Counter* c : up) members += c->n > 0;
  EXPECT_EQ(members, 1);
  EXPECT_EQ(ecmp_pick(sw.routes().lookup(7), 0xBEEF, 0x1234),
            ecmp_pick(sw.routes().lookup(7), 0xBEEF, 0x1234));
}

TEST(Switch, InstalledRoutesTakeEffectAtTheirTime) {
  Fabric f;
  Switch& sw = f.add_switch("sw", test::plain_config(1'000'000));
  f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  auto& u0 = f.net.add_node<Counter>("u0");
  auto& u1 = f.net.add_node<Counter>("u1");
  f.net.connect(sw, u0, 100_Gbps, 0_ns);
  f.net.connect(sw, u1, 100_Gbps, 0_ns);
  sw.set_route(5, {PortIndex(1)});
  RouteTable next;
  const PortIndex p2[] = {PortIndex(2)};
  next.set(5, p2);
  sw.install_routes_at(Fabric::at(10_us + 40_ns), next);
  // 1000 packets of 1000 B reach sw every 80 ns (the k-th at k x 80 ns): those
  // before the install at 10.04 us (10 us / 80 ns = 125) use the old route.
  f.blaster(0).start(SendSpec{{5}, 1000, 1000, 1000, 0, 0});
  f.sim.run();
  EXPECT_EQ(u0.n, 125);
  EXPECT_EQ(u1.n, 875);
  EXPECT_EQ(sw.counters().routes_installed, 1);
}

}  // namespace
}  // namespace xoff::models
