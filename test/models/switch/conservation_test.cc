// Packet and buffer conservation: random traffic through a 3-switch line with
// small buffers. Every packet ends consumed or dropped, and every MMU returns to
// zero occupancy once the fabric drains.
//
//   h0 h1      h2 h3      h4 h5
//     \ |        | /        | /
//      s0 ------ s1 ------ s2      (100G, 100 ns cables)
#include <gtest/gtest.h>

#include "models/switch/switch.h"
#include "test/models/switch/fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::Fabric;
using test::SendSpec;

struct Line : Fabric {
  std::vector<Switch*> sw;
  uint32_t s0s1 = 0;
  Line() {
    // 400 KB per switch; PG 0 lossy and PG 3 lossless with 2000-B reserves;
    // 40 KB headroom covers 100 ns cables at 100G with 9000-B frames
    // (2 x 1250 + 2 x 9000 + 64 = 20564 B, plus one frame for a threshold
    // lowered under a PG). ECN on every class (DCQCN defaults).
    SwitchConfig c;
    c.mmu.total = 400'000_B;
    c.mmu.pg[0].reserved = 2'000_B;
    c.mmu.pg[3].reserved = 2'000_B;
    c.mmu.pg[3].headroom = 40'000_B;
    for (const char* name : {"s0", "s1", "s2"}) sw.push_back(&add_switch(name, c));
    for (int i = 0; i < 6; ++i) net.connect(add_host(), *sw[i / 2], 100_Gbps, 100_ns);
    s0s1 = net.connect(*sw[0], *sw[1], 100_Gbps, 100_ns);  // s0 p2, s1 p2
    net.connect(*sw[1], *sw[2], 100_Gbps, 100_ns);         // s1 p3, s2 p2
    for (uint32_t h = 0; h < 6; ++h) {
      const PortIndex local(static_cast<uint16_t>(h % 2));
      sw[0]->set_route(h, {h / 2 == 0 ? local : PortIndex(2)});
      sw[1]->set_route(h, {h / 2 == 1 ? local : PortIndex(h / 2 == 0 ? 2 : 3)});
      sw[2]->set_route(h, {h / 2 == 2 ? local : PortIndex(2)});
    }
    for (uint32_t h = 0; h < 6; ++h) {
      SendSpec s;
      for (uint32_t d = 0; d < 6; ++d) {
        if (d != h) s.dsts.push_back(d);
      }
      s.count = 3000;
      s.min_size = 64;
      s.max_size = 9000;
      s.random_dscp = true;  // DSCP 26 (lossless TC 3) or 0 (lossy TC 0)
      s.ecn_capable = true;
      blaster(h).start(s);
    }
  }
  int64_t drops(DropReason r) const { return net.ledger().dropped_packets[static_cast<size_t>(r)]; }
  // Created = data + PAUSE frames; with nothing live, check_conservation()
  // then says every one of them was consumed or dropped.
  void expect_drained() {
    EXPECT_EQ(net.live_packets(), 0u);
    for (Switch* s : sw) EXPECT_TRUE(s->mmu().empty()) << s->name();
    int64_t pauses = 0;
    for (Switch* s : sw) pauses += pauses_made(*s);
    EXPECT_EQ(net.ledger().created_packets, 6 * 3000 + pauses);
    int64_t received = 0;
    for (uint32_t h = 0; h < 6; ++h) received += blaster(h).received;
    EXPECT_GT(received, 6 * 3000 / 2);
  }
  static int64_t pauses_made(const Switch& s) {
    int64_t n = 0;
    for (size_t p = 0; p < s.num_ports(); ++p) {
      const PfcCounters& c = s.pfc().counters(PortIndex(static_cast<uint16_t>(p)), 3);
      n += c.xoff_sent + c.refreshes + c.xon_sent;
    }
    return n;
  }
};

TEST(Conservation, RandomTrafficThroughLineDrainsToZeroOccupancy) {
  Line f;
  for (int step = 1; step <= 20; ++step) {
    f.run_until(10_us * step);
    f.net.check_conservation();
    for (Switch* s : f.sw) s->mmu().check();
  }
  f.sim.run();
  f.net.check_conservation();
  f.expect_drained();
  EXPECT_GT(f.drops(DropReason::kLossyIngress) + f.drops(DropReason::kLossyEgress), 0);
  EXPECT_EQ(f.drops(DropReason::kLosslessViolation), 0);
  int64_t xoff = 0;
  for (Switch* s : f.sw) {
    for (size_t p = 0; p < s->num_ports(); ++p) {
      xoff += s->pfc().counters(PortIndex(static_cast<uint16_t>(p)), 3).xoff_sent;
    }
  }
  EXPECT_GT(xoff, 0);
}

TEST(Conservation, LinkFailureMidRunStillDrainsToZeroOccupancy) {
  Line f;
  f.script.at(Fabric::at(50_us), [&f] { f.net.set_link_up(f.s0s1, false); });
  f.script.at(Fabric::at(80_us), [&f] { f.net.set_link_up(f.s0s1, true); });
  f.sim.run();
  f.net.check_conservation();
  f.expect_drained();
  EXPECT_GT(f.drops(DropReason::kLinkDown), 0);
}

}  // namespace
}  // namespace xoff::models
