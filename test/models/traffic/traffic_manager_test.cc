#include "models/traffic/traffic_manager.h"

#include <gtest/gtest.h>

#include "test/models/traffic/fake_fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using testing::FakeFabric;
using testing::MemoryRecorder;

FlowSpec flow(uint32_t src, uint32_t dst, sim::Bytes size, sim::Time start = sim::Time::zero()) {
  FlowSpec s;
  s.src = src;
  s.dst = dst;
  s.size = size;
  s.start = start;
  return s;
}

struct Bench {
  sim::Simulator sim;
  MemoryRecorder rec;
  TrafficManager tm{sim, rec, 4};
  FakeFabric fabric{sim, 4, 100_Gbps, 1_us};
  Bench() { fabric.attach(tm); }
  int64_t start_ps(uint32_t id) const { return tm.started_at(id).count_ps(); }
  int64_t finish_ps(uint32_t id) const { return tm.finished_at(id).count_ps(); }
};

TEST(TrafficManager, StartsFlowAtItsStartTime) {
  Bench b;
  b.tm.add_flow(flow(0, 1, 1_MB, sim::Time::zero() + 5_us));
  b.sim.run();
  EXPECT_EQ(b.start_ps(0), 5'000'000);
  // 1e6 B at 100 Gb/s = 80 us on the wire, plus 1 us latency: 5 + 81 = 86 us.
  EXPECT_EQ(b.finish_ps(0), 86'000'000);
}

TEST(TrafficManager, FlowAfterTwoFlowsStartsWhenTheLaterFinishes) {
  Bench b;
  const uint32_t a = b.tm.add_flow(flow(0, 3, 1_MB));      // 80 us + 1 us: done at 81 us
  const uint32_t c = b.tm.add_flow(flow(1, 3, 2'500_KB));  // 200 us + 1 us: done at 201 us
  const uint32_t d = b.tm.add_flow(flow(2, 3, 1_MB), {c, a});
  b.sim.run();
  EXPECT_EQ(b.finish_ps(a), 81'000'000);
  EXPECT_EQ(b.finish_ps(c), 201'000'000);
  EXPECT_EQ(b.start_ps(d), 201'000'000);   // exactly the later finish
  EXPECT_EQ(b.finish_ps(d), 282'000'000);  // 201 + 80 + 1 us
  EXPECT_TRUE(b.tm.all_done());
  EXPECT_EQ(b.tm.flows_started(), 3u);
  EXPECT_EQ(b.tm.flows_finished(), 3u);
}

TEST(TrafficManager, GapDelaysTheDependentAfterTheFinish) {
  Bench b;
  const uint32_t a = b.tm.add_flow(flow(0, 1, 1_MB));  // done at 81 us
  const uint32_t d = b.tm.add_flow(flow(1, 2, 1_MB), {a}, 5_us);
  b.sim.run();
  EXPECT_EQ(b.start_ps(d), 86'000'000);  // 81 us + 5 us gap
}

TEST(TrafficManager, DependentNeverStartsBeforeItsOwnStartTime) {
  Bench b;
  const uint32_t a = b.tm.add_flow(flow(0, 1, 1_MB));  // done at 81 us
  const uint32_t d = b.tm.add_flow(flow(1, 2, 1_MB, sim::Time::zero() + 500_us), {a});
  b.sim.run();
  EXPECT_EQ(b.start_ps(d), 500'000'000);
}

TEST(TrafficManager, FlowsReadyAtTheSameTimeStartInIdOrder) {
  Bench b;
  const sim::Time t = sim::Time::zero() + 10_us;
  b.tm.add_flow(flow(2, 3, 1_KB, t));
  b.tm.add_flow(flow(0, 3, 1_KB, t));
  b.tm.add_flow(flow(1, 3, 1_KB, sim::Time::zero() + 3_us));
  b.sim.run();
  EXPECT_EQ(b.fabric.start_order(), (std::vector<uint32_t>{2, 0, 1}));
}

TEST(TrafficManager, RecordsFctWithTheIdealFromThePlanOrTheFunction) {
  Bench b;
  b.tm.set_ideal_fct_fn([](const FlowSpec& s) { return ideal_fct(s.size, 100_Gbps, 1_us); });
  b.tm.add_flow(flow(0, 1, 1_MB));
  FlowSpec named = flow(1, 2, 1_MB);
  named.name = "mine";
  named.tc = 3;
  b.tm.add_flow(named, {}, sim::Duration::zero(), 40_us);
  b.sim.run();
  ASSERT_EQ(b.rec.flows.size(), 2u);
  const FlowRecord& r0 = b.rec.flows[0];
  EXPECT_EQ(r0.name, "f0");
  EXPECT_EQ(r0.protocol, "roce");
  EXPECT_EQ(r0.size_bytes, 1'000'000);
  // FCT 81 us; ideal 80 us + 1 us = 81 us: slowdown exactly 1.
  EXPECT_EQ(r0.ideal_fct.count_ps(), 81'000'000);
  EXPECT_DOUBLE_EQ(r0.slowdown(), 1.0);
  const FlowRecord& r1 = b.rec.flows[1];
  EXPECT_EQ(r1.name, "mine");
  EXPECT_EQ(r1.traffic_class, 3);
  EXPECT_EQ(r1.ideal_fct.count_ps(), 40'000'000);  // planned value wins
}

TEST(TrafficManager, BatchDependenciesAreRelativeToTheBatch) {
  Bench b;
  b.tm.add_flow(flow(0, 1, 1_MB));  // id 0, done at 81 us
  std::vector<FlowPlan> batch(2);
  batch[0].spec = flow(2, 3, 2'500_KB);  // id 1, done at 201 us
  batch[1].spec = flow(3, 2, 1_KB);      // id 2, waits on batch flow 0 = id 1
  batch[1].after = {0};
  EXPECT_EQ(b.tm.add_batch(batch), 1u);
  b.sim.run();
  EXPECT_EQ(b.start_ps(2), 201'000'000);
}

TEST(TrafficManager, RefusesImpossibleFlows) {
  Bench b;
  EXPECT_THROW(b.tm.add_flow(flow(0, 0, 1_KB)), TrafficError);       // to itself
  EXPECT_THROW(b.tm.add_flow(flow(0, 4, 1_KB)), TrafficError);       // 4 hosts: 0..3
  EXPECT_THROW(b.tm.add_flow(flow(0, 1, 0_B)), TrafficError);        // empty
  EXPECT_THROW(b.tm.add_flow(flow(0, 1, 1_KB), {0}), TrafficError);  // not an earlier flow
  std::vector<FlowPlan> batch(1);
  batch[0].spec = flow(0, 1, 1_KB);
  batch[0].after = {0};  // waits on itself
  EXPECT_THROW(b.tm.add_batch(batch), TrafficError);
  EXPECT_EQ(b.tm.num_flows(), 0u);
}

TEST(TrafficManager, ErrorNamesTheFlow) {
  Bench b;
  FlowSpec s = flow(2, 2, 1_KB);
  s.name = "loop";
  try {
    b.tm.add_flow(s);
    FAIL() << "expected TrafficError";
  } catch (const TrafficError& e) {
    EXPECT_STREQ(e.what(), "flow 0 (loop): source and destination are both host 2");
  }
}

}  // namespace
}  // namespace xoff::models
