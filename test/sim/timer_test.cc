#include "sim/timer.h"

#include <gtest/gtest.h>

#include <vector>

namespace xoff::sim {
namespace {
using namespace literals;

struct Owner final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<std::pair<int64_t, uint64_t>> fired;
  void handle_event(uint64_t kind) override { fired.emplace_back(sim->now().count_ps(), kind); }
};

TEST(Timer, FiresOnceAtExpiryWithItsKind) {
  Simulator sim;
  Owner o;
  o.sim = &sim;
  Timer t(sim, o, 7);
  t.arm_in(5_us);
  EXPECT_TRUE(t.armed());
  sim.run();
  ASSERT_EQ(o.fired.size(), 1u);
  EXPECT_EQ(o.fired[0], (std::pair<int64_t, uint64_t>{5'000'000, 7}));
  EXPECT_FALSE(t.armed());
}

TEST(Timer, CancelSuppressesFiring) {
  Simulator sim;
  Owner o;
  o.sim = &sim;
  Timer t(sim, o, 1);
  t.arm_in(5_us);
  t.cancel();
  sim.run();
  EXPECT_TRUE(o.fired.empty());
}

TEST(Timer, RearmLaterOrEarlierKeepsOnlyLatestExpiry) {
  Simulator sim;
  Owner o;
  o.sim = &sim;
  Timer later(sim, o, 1), earlier(sim, o, 2);
  later.arm_in(5_us);
  later.arm_in(9_us);  // pushed back, like a refreshed PFC pause
  earlier.arm_in(5_us);
  earlier.arm_in(2_us);  // pulled in
  sim.run();
  ASSERT_EQ(o.fired.size(), 2u);
  EXPECT_EQ(o.fired[0], (std::pair<int64_t, uint64_t>{2'000'000, 2}));
  EXPECT_EQ(o.fired[1], (std::pair<int64_t, uint64_t>{9'000'000, 1}));
}

TEST(Timer, ManyRearmsCostNoExtraFirings) {
  // 10^5 re-arms (a TCP RTO re-armed per ACK) must yield exactly one firing.
  Simulator sim;
  Owner o;
  o.sim = &sim;
  Timer t(sim, o, 3);
  for (int i = 1; i <= 100'000; ++i) t.arm_at(Time::zero() + 1_ns * i);
  sim.run();
  ASSERT_EQ(o.fired.size(), 1u);
  EXPECT_EQ(o.fired[0].first, 100'000'000);  // 10^5 ns
}

}  // namespace
}  // namespace xoff::sim
