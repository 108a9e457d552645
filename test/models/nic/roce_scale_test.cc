// The QP scheduler with many queue pairs: all complete, served round-robin.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/nic/qp_scheduler.h"
#include "models/nic/roce_nic.h"
#include "test/models/nic/nic_test_util.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using test::add_host;
using test::Completions;
using test::Direct;
using test::roce_flow;

constexpr int64_t kPktPs = 84'960;  // 1062 B at 100 Gb/s
constexpr int64_t kAckPs = 5'280;

TEST(QpScheduler, ReleasesWaitingQpsInTimeThenInsertionOrder) {
  QpScheduler s;
  const sim::Time t0 = sim::Time::zero();
  s.wait_until(7, 3, t0 + 20_ns);
  s.wait_until(5, 3, t0 + 10_ns);
  s.wait_until(9, 3, t0 + 10_ns);
  s.wait_until(2, 1, t0 + 30_ns);
  EXPECT_EQ(s.next_wakeup(), t0 + 10_ns);
  s.release_due(t0 + 20_ns);
  EXPECT_EQ(s.ready_mask(), 1 << 3);
  EXPECT_EQ(s.pop_ready(3), 5u);
  EXPECT_EQ(s.pop_ready(3), 9u);
  EXPECT_EQ(s.pop_ready(3), 7u);
  EXPECT_EQ(s.ready_mask(), 0);
  EXPECT_EQ(s.next_wakeup(), t0 + 30_ns);
  s.release_due(t0 + 30_ns);
  EXPECT_EQ(s.ready_mask(), 1 << 1);
  EXPECT_EQ(s.pop_ready(1), 2u);
}

TEST(RoceNicScale, ThousandEqualQpsAllFinishWithinOneRound) {
  Direct t;
  constexpr uint32_t kQps = 1000;
  for (uint32_t i = 0; i < kQps; ++i) t.nic_a.start_flow(roce_flow(i, 0, 1, 10_KB));
  t.sim.run();
  ASSERT_EQ(t.done.done.size(), kQps);
  int64_t first = INT64_MAX;
  int64_t last = 0;
  for (const auto& d : t.done.done) {
    first = std::min(first, d.t.count_ps());
    last = std::max(last, d.t.count_ps());
    EXPECT_EQ(d.retx, 0);
  }
  // 10 000 packets leave back to back: the link is never idle, so the last
  // ACK arrives at 10 000 T + 2 us + 5.28 ns = 851.60528 us.
  EXPECT_EQ(last, 10'000 * kPktPs + 2'000'000 + kAckPs);
  // Round robin: every QP's 10th packet is in the last round of 1000 packets,
  // so all finish within one round (1000 T = 84.96 us) of each other.
  EXPECT_LE(last - first, 1000 * kPktPs);
  EXPECT_GE(first, 9'000 * kPktPs);
  EXPECT_EQ(t.nic_a.active_qps(), 0u);
  t.net.check_conservation();
  EXPECT_EQ(t.net.live_packets(), 0u);
}

TEST(RoceNicScale, FinishedQpSlotsAreReusedByLaterFlows) {
  Direct t;
  for (uint32_t wave = 0; wave < 5; ++wave) {
    for (uint32_t i = 0; i < 200; ++i) t.nic_a.start_flow(roce_flow(wave * 200 + i, 0, 1, 2_KB));
    t.sim.run();
  }
  EXPECT_EQ(t.done.done.size(), 1000u);
  EXPECT_EQ(t.nic_a.counters().flows_finished, 1000);
  t.net.check_conservation();
}

}  // namespace
}  // namespace xoff::models
