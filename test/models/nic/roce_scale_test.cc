// The QP scheduler with many queue pairs: all complete, served round-robin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

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

// The rings and the heap keep their first entries in the scheduler and move
// to the heap past that: both must keep FIFO and (time, insertion) order
// across the move and across wrap-arounds. The oracle is a std::deque per
// class and a stable sort of the waits by time.
TEST(QpScheduler, KeepsOrderInsideAndPastItsInlineStorage) {
  QpScheduler s;
  std::deque<uint32_t> model[2];  // classes 2 and 5
  uint64_t x = 12345;             // a fixed linear congruential sequence
  auto next = [&x] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(x >> 33);
  };
  // Ready rings: sizes wander between 0 and 40, so each ring wraps while
  // inline (up to 4) and again after it spilled.
  uint32_t id = 0;
  for (int step = 0; step < 4000; ++step) {
    const int c = static_cast<int>(next() % 2);
    const int tc = c == 0 ? 2 : 5;
    const size_t limit = step < 1000 ? 4 : 40;  // inline only, then past it
    if (model[c].size() < limit && (model[c].empty() || next() % 2 == 0)) {
      s.make_ready(id, tc);
      model[c].push_back(id++);
    } else if (!model[c].empty()) {
      ASSERT_EQ(s.pop_ready(tc), model[c].front()) << "step " << step;
      model[c].pop_front();
    }
    ASSERT_EQ(s.ready(tc), model[c].size());
    const uint8_t mask =
        static_cast<uint8_t>((model[0].empty() ? 0 : 1 << 2) | (model[1].empty() ? 0 : 1 << 5));
    ASSERT_EQ(s.ready_mask(), mask);
  }
  for (int c = 0; c < 2; ++c) {
    while (!model[c].empty()) {
      ASSERT_EQ(s.pop_ready(c == 0 ? 2 : 5), model[c].front());
      model[c].pop_front();
    }
  }
  // Waiting heap: 300 QPs (ids up to 2^21 - 1, classes 5 - 7: every bit of
  // the packed word) on 8 distinct times (many ties), released in two
  // steps; the ready ring of each class must receive them by time, ties in
  // the order they were parked.
  struct Wait {
    int64_t t_ns;
    uint32_t qp;
    int tc;
  };
  std::vector<Wait> waits;
  const sim::Time t0 = sim::Time::zero();
  for (uint32_t qp = 0; qp < 300; ++qp) {
    const Wait w{10 * static_cast<int64_t>(next() % 8), (1u << 21) - 1 - qp,
                 static_cast<int>(5 + qp % 3)};
    waits.push_back(w);
    s.wait_until(w.qp, w.tc, t0 + sim::Duration::ns(w.t_ns));
  }
  EXPECT_EQ(s.waiting(), 300u);
  std::stable_sort(waits.begin(), waits.end(),
                   [](const Wait& a, const Wait& b) { return a.t_ns < b.t_ns; });
  EXPECT_EQ(s.next_wakeup(), t0 + sim::Duration::ns(waits.front().t_ns));
  s.release_due(t0 + sim::Duration::ns(35));  // times 0, 10, 20, 30
  s.release_due(t0 + sim::Duration::ns(70));  // the rest
  EXPECT_EQ(s.waiting(), 0u);
  EXPECT_EQ(s.next_wakeup(), sim::Time::max());
  for (int tc = 5; tc < 8; ++tc) {
    for (const Wait& w : waits) {
      if (w.tc == tc) {
        ASSERT_EQ(s.pop_ready(tc), w.qp) << "class " << tc;
      }
    }
    EXPECT_EQ(s.ready(tc), 0u);
  }
  EXPECT_EQ(s.ready_mask(), 0);
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
