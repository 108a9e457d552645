// Dynamic thresholds (Choudhury & Hahne 1998): with S congested queues or PGs
// sharing a pool P at factor alpha, each settles at alpha x P / (1 + alpha x S).
// P = 1 MB, alpha = 1: S = 1, 2, 4 -> 500000, 333333, 200000 B.
#include <gtest/gtest.h>

#include "models/switch/switch.h"
#include "test/models/switch/fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::Fabric;
using test::SendSpec;

constexpr int64_t kPool = 1'000'000;
constexpr int64_t kFrame = 1000;

int64_t settle(int s) { return kPool / (1 + s); }  // alpha = 1

// Sinks hold their switch port in XOFF for every class (0xFFFF quanta =
// 335.5 us at 100G, longer than the run), so the queues only fill.
void freeze_sink(Host& sink) { sink.send_pause(0xFF, 0xFFFF); }

// The switch's accounting check (run with every conservation check) catches
// a frame queued at a port past the MMU: the MMU's egress sum (0) is no
// longer the bytes its ports queue (1000).
TEST(SwitchAccountingDeathTest, AFrameQueuedPastTheMmuIsCaught) {
  Fabric f;
  Switch& sw = f.add_switch("sw", test::plain_config(kPool));
  f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  freeze_sink(*f.hosts[1]);
  f.run_until(1_us);  // the pause is in force on the switch's port 1
  f.net.check_conservation();
  Packet& p = f.net.make_packet(sim::Bytes(kFrame));
  p.dst = 1;
  sw.port(PortIndex(1)).enqueue(p);  // class 0, paused: it stays queued
  EXPECT_EQ(sw.port(PortIndex(1)).queued_bytes(0), kFrame);
  // Packets and bytes are conserved (the port holds what was made): only the
  // switch's accounting, which the conservation check runs, can fail.
  EXPECT_DEATH(f.net.check_conservation(), "sw: ports queue 1000 B but the MMU holds 0 B");
}

class LossyThreshold : public ::testing::TestWithParam<int> {};

// S egress queues, each fed by two 100G senders: ingress PGs hold half of
// their queue, so only the egress threshold binds.
TEST_P(LossyThreshold, CongestedQueuesSettleAtAlphaPOverOnePlusAlphaS) {
  const int s = GetParam();
  Fabric f;
  Switch& sw = f.add_switch("sw", test::plain_config(kPool));  // all lossy, no reserves
  for (int i = 0; i < 3 * s; ++i) f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  for (int h = 0; h < 3 * s; ++h) sw.set_route(h, {PortIndex(static_cast<uint16_t>(h))});
  for (int q = 0; q < s; ++q) freeze_sink(*f.hosts[2 * s + q]);
  for (int i = 0; i < 2 * s; ++i) {
    f.blaster(i).start(
        SendSpec{{static_cast<uint32_t>(2 * s + i / 2)}, 1'000'000, kFrame, kFrame, 0, 0});
  }
  f.run_until(100_us);
  for (int q = 0; q < s; ++q) {
    const size_t out = 2 * s + q;
    const int64_t queued = sw.port(PortIndex(static_cast<uint16_t>(out))).queued_bytes(0);
    EXPECT_NEAR(queued, settle(s), kFrame) << "queue " << q;
  }
  // Only the S frozen queues hold bytes: the MMU's egress sum is theirs.
  int64_t sum = 0;
  for (int q = 0; q < s; ++q)
    sum += sw.port(PortIndex(static_cast<uint16_t>(2 * s + q))).queued_bytes(0);
  EXPECT_EQ(sw.mmu().totals().egress, sum);
  EXPECT_GT(f.net.drops_at(sw.id(), DropReason::kLossyEgress), 0);
  EXPECT_EQ(f.net.drops_at(sw.id(), DropReason::kLossyIngress), 0);
  f.net.check_conservation();
}

INSTANTIATE_TEST_SUITE_P(S, LossyThreshold, ::testing::Values(1, 2, 4));

// The egress threshold is per queue: class 0's queue at the frozen port sits
// at the threshold (P / 2 = 500000 B, dropping), and ten frames of class 1
// (DSCP 8) into the same port all queue, their own queue being far below it
// (at most 9000 B against alpha x (P - 510000) = 490000 B). Counting the
// port's whole queue, or class 0's, would drop them.
TEST(LossyThreshold, EachClassIsJudgedByItsOwnQueue) {
  Fabric f;
  Switch& sw = f.add_switch("sw", test::plain_config(kPool));
  for (int i = 0; i < 3; ++i) f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  for (int h = 0; h < 3; ++h) sw.set_route(h, {PortIndex(static_cast<uint16_t>(h))});
  freeze_sink(*f.hosts[2]);
  f.blaster(0).start(SendSpec{{2}, 1'000'000, kFrame, kFrame, 0, 0});
  f.run_until(100_us);
  const EgressPort& out = sw.port(PortIndex(2));
  ASSERT_NEAR(out.queued_bytes(0), settle(1), kFrame);
  ASSERT_GT(out.counters().dropped[0], 0);
  f.blaster(1).start(SendSpec{{2}, 10, kFrame, kFrame, 8, 1});
  f.run_until(110_us);
  EXPECT_EQ(out.queued_bytes(1), 10 * kFrame);
  EXPECT_EQ(out.counters().dropped[1], 0);
  f.net.check_conservation();
}

class LosslessThreshold : public ::testing::TestWithParam<int> {};

// S:1 incast of lossless traffic: each ingress PG's shared bytes stop at the
// threshold (XOFF), the rest of what is in flight goes to headroom.
TEST_P(LosslessThreshold, CongestedPgsSettleAtAlphaPOverOnePlusAlphaS) {
  const int s = GetParam();
  SwitchConfig c = test::plain_config(0);
  c.mmu.pg[3].lossless = true;
  c.mmu.pg[3].headroom = 100'000_B;
  c.mmu.total = sim::Bytes(kPool + (s + 1) * 100'000);  // pool exactly 1 MB
  Fabric f;
  Switch& sw = f.add_switch("sw", c);
  for (int i = 0; i <= s; ++i) f.net.connect(f.add_host(), sw, 100_Gbps, 0_ns);
  for (int h = 0; h <= s; ++h) sw.set_route(h, {PortIndex(static_cast<uint16_t>(h))});
  ASSERT_EQ(sw.mmu().shared_pool(), kPool);
  freeze_sink(*f.hosts[s]);
  for (int i = 0; i < s; ++i) f.blaster(i).start(SendSpec{{static_cast<uint32_t>(s)}, 1'000'000});
  f.run_until(100_us);
  for (int i = 0; i < s; ++i) {
    const PgState& pg = sw.mmu().pg(i, 3);
    EXPECT_NEAR(pg.shared, settle(s), kFrame) << "PG of port " << i;
    EXPECT_TRUE(pg.xoff);
    EXPECT_GT(pg.headroom, 0);
  }
  EXPECT_EQ(f.net.ledger().total_dropped_packets(), 0);
}

INSTANTIATE_TEST_SUITE_P(S, LosslessThreshold, ::testing::Values(1, 2, 4));

}  // namespace
}  // namespace xoff::models
