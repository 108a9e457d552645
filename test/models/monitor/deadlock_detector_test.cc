#include "models/monitor/deadlock_detector.h"

#include <gtest/gtest.h>

#include <vector>

namespace xoff::models {
namespace {
using namespace sim::literals;

class Hold final : public Node {  // consumes whatever arrives
 public:
  Hold(Network& net, NodeId id, std::string name) : Node(id, std::move(name)), net_(net) {}
  void receive(Packet& p, PortIndex) override { net_.consume(p); }

 private:
  Network& net_;
};

struct Triangle : Recorder {
  sim::Simulator sim;
  Network net{sim, this};
  Hold& a = net.add_node<Hold>("a");
  Hold& b = net.add_node<Hold>("b");
  Hold& c = net.add_node<Hold>("c");
  std::vector<DeadlockRecord> got;
  // Ports: a0->b a1->c, b0->a b1->c, c0->b c1->a (Network::connect numbering).
  Triangle() {
    net.connect(a, b, 100_Gbps, 1_us);
    net.connect(b, c, 100_Gbps, 1_us);
    net.connect(c, a, 100_Gbps, 1_us);
  }
  void deadlock(const DeadlockRecord& r) override { got.push_back(r); }
  // Pauses (node, port) class 3 for the maximum time and queues `bytes` behind it.
  void stall(Node& n, int port, int64_t bytes) {
    Packet& f = net.make_packet(kPauseFrameBytes);
    f.kind = PacketKind::kPause;
    f.pause_enable = 1 << 3;
    f.set_pause_quanta(3, 0xFFFF);  // 335.5 us at 100G
    n.port(PortIndex(static_cast<uint16_t>(port))).receive_pause(f);
    net.consume(f);
    Packet& p = net.make_packet(sim::Bytes(bytes));
    p.tc = 3;
    n.port(PortIndex(static_cast<uint16_t>(port))).enqueue(p);
  }
};

TEST(DeadlockDetector, ReportsCycleOfPausedQueuesWithMembersAndBytes) {
  Triangle t;
  t.stall(t.a, 0, 1000);  // a waits on b
  t.stall(t.b, 1, 2000);  // b waits on c
  t.stall(t.c, 1, 3000);  // c waits on a
  DeadlockDetector d(t.net, {10_us, 100_us, 0xFF});
  d.start();
  t.sim.run_until(sim::Time::zero() + 200_us);
  ASSERT_EQ(t.got.size(), 1u);  // reported once, not at every poll
  const DeadlockRecord& r = t.got[0];
  ASSERT_EQ(r.members.size(), 3u);
  EXPECT_EQ(r.stuck_bytes, 6000);  // 1000 + 2000 + 3000
  // Nothing ever dequeued: formed at 0; window 100 us, polls every 10 us.
  EXPECT_EQ(r.formed, sim::Time::zero());
  EXPECT_EQ(r.detected, sim::Time::zero() + 100_us);
  // Cycle order follows the wait-for edges: each member's peer is the next.
  const std::vector<std::string> names{"a", "b", "c"};
  for (size_t i = 0; i < 3; ++i) {
    const auto& m = r.members[i];
    const auto& next = r.members[(i + 1) % 3];
    const Node& n = t.net.node(NodeId(
        static_cast<uint32_t>(std::find(names.begin(), names.end(), m.node) - names.begin())));
    EXPECT_EQ(n.port(PortIndex(m.port)).peer().name(), next.node);
    EXPECT_EQ(m.traffic_class, 3);
  }
}

TEST(DeadlockDetector, ChainWithoutCycleIsNotADeadlock) {
  Triangle t;
  t.stall(t.a, 0, 1000);  // a waits on b
  t.stall(t.b, 1, 1000);  // b waits on c, c waits on nobody
  DeadlockDetector d(t.net, {10_us, 100_us, 0xFF});
  d.start();
  t.sim.run_until(sim::Time::zero() + 300_us);
  EXPECT_TRUE(t.got.empty());
}

TEST(DeadlockDetector, CycleShorterThanWindowIsNotReported) {
  Triangle t;
  t.stall(t.a, 0, 1000);
  t.stall(t.b, 1, 1000);
  t.stall(t.c, 1, 1000);
  DeadlockDetector d(t.net, {10_us, 400_us, 0xFF});  // pauses expire at 335.5 us
  d.start();
  t.sim.run_until(sim::Time::zero() + 1000_us);
  EXPECT_TRUE(t.got.empty());
}

TEST(DeadlockDetector, ReportsACycleAgainWhenItReformsAfterBreaking) {
  Triangle t;
  t.stall(t.a, 0, 1000);
  t.stall(t.b, 1, 1000);
  t.stall(t.c, 1, 1000);
  DeadlockDetector d(t.net, {10_us, 100_us, 0xFF});
  d.start();
  t.sim.run_until(sim::Time::zero() + 200_us);
  ASSERT_EQ(t.got.size(), 1u);
  // The 0xFFFF pauses lapse at 335.5 us: the queues drain and the cycle breaks.
  t.sim.run_until(sim::Time::zero() + 400_us);
  EXPECT_EQ(t.got.size(), 1u);
  // It forms again at 400 us and stands for the 100 us window: a second report.
  t.stall(t.a, 0, 1000);
  t.stall(t.b, 1, 1000);
  t.stall(t.c, 1, 1000);
  t.sim.run_until(sim::Time::zero() + 600_us);
  ASSERT_EQ(t.got.size(), 2u);
  EXPECT_EQ(t.got[1].formed, sim::Time::zero() + 335539200_ps);  // last dequeues at expiry
}

}  // namespace
}  // namespace xoff::models
