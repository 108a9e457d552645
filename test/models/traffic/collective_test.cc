#include "models/traffic/collective.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <string>

#include "test/models/traffic/fake_fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;
using testing::FakeFabric;
using testing::MemoryRecorder;

// 64 MB = 64e6 B (decimal) reduced over 8 ranks on an ideal 100G fabric with
// 1 us from a flow's last byte to its completion.
constexpr int64_t kSize = 64'000'000;
constexpr int64_t kLatencyPs = 1'000'000;

CollectiveSpec allreduce(CollectiveAlgorithm algo, uint32_t ranks, int64_t size) {
  CollectiveSpec s;
  s.algorithm = algo;
  s.ranks.resize(ranks);
  std::iota(s.ranks.begin(), s.ranks.end(), 0u);
  s.size = sim::Bytes(size);
  s.link_rate = 100_Gbps;
  return s;
}

struct Bench {
  sim::Simulator sim;
  MemoryRecorder rec;
  TrafficManager tm{sim, rec, 8};
  FakeFabric fabric{sim, 8, 100_Gbps, 1_us};
  CollectiveEngine engine{tm, rec};
  Bench() { fabric.attach(tm); }
};

TEST(RingAllReduce, EightRanksFinishAtTheIdealBoundPlusOneLatencyPerStep) {
  Bench b;
  b.engine.add(allreduce(CollectiveAlgorithm::kRing, 8, kSize));
  EXPECT_EQ(b.tm.num_flows(), 8u);             // step 0 only; later steps come as they are ready
  EXPECT_EQ(b.engine.planned_flows(0), 112u);  // 14 steps x 8 ranks
  EXPECT_EQ(b.engine.ungenerated_flows(), 104u);
  b.sim.run();
  EXPECT_EQ(b.tm.num_flows(), 112u);
  EXPECT_EQ(b.engine.ungenerated_flows(), 0u);
  ASSERT_EQ(b.rec.collectives.size(), 1u);
  const CollectiveRecord& r = b.rec.collectives[0];
  EXPECT_EQ(r.algorithm, "ring");
  EXPECT_EQ(r.ranks, 8u);
  // Ideal 2 * 7/8 * 64e6 B * 8 bit / 100e9 bit/s = 8.96 ms.
  EXPECT_EQ(r.ideal.count_ps(), 8'960'000'000);
  // Chunk 64e6 / 8 = 8e6 B = 640 us at 100G; each step adds 1 us of latency.
  ASSERT_EQ(r.step_times.size(), 14u);
  for (const sim::Duration& d : r.step_times) EXPECT_EQ(d.count_ps(), 641'000'000);
  // 14 x 641 us = 8.974 ms = ideal + 14 x 1 us.
  EXPECT_EQ((r.finish - r.start).count_ps(), r.ideal.count_ps() + 14 * kLatencyPs);
  for (const FlowRecord& f : b.rec.flows) EXPECT_EQ(f.size_bytes, 8'000'000);
  // Critical path: one flow per step, 14 in all, each 640 us of bytes at line
  // rate; the fake fabric reports no ideal FCT, so its 1 us of latency per
  // flow counts as congestion. 14 x 640 us + 14 x 1 us = the whole time.
  EXPECT_EQ(r.path_flows, 14u);
  EXPECT_EQ(r.path_bandwidth, r.ideal);
  EXPECT_EQ(r.path_overhead.count_ps(), 0);
  EXPECT_EQ(r.path_congestion.count_ps(), 14 * kLatencyPs);
  EXPECT_EQ(r.path_wait.count_ps(), 0);
  EXPECT_EQ(r.path_bandwidth + r.path_overhead + r.path_congestion + r.path_wait,
            r.finish - r.start);
  EXPECT_TRUE(b.engine.all_done());
  EXPECT_TRUE(b.tm.all_done());
}

TEST(RingAllReduce, ATrainingLoopRepeatsComputeThenTheAllReduce) {
  // 3 iterations of 100 us compute + the 8-rank ring of 64 MB (8.974 ms on
  // this fabric, as above): iteration k's AllReduce starts at
  // 100 us + k x (8.974 ms + 100 us).
  Bench b;
  CollectiveSpec spec = allreduce(CollectiveAlgorithm::kRing, 8, kSize);
  spec.iterations = 3;
  spec.compute = sim::Duration::us(100);
  b.engine.add(spec);
  EXPECT_EQ(b.engine.planned_flows(0), 3u * 112u);
  b.sim.run();
  EXPECT_TRUE(b.engine.all_done());
  EXPECT_EQ(b.engine.ungenerated_flows(), 0u);
  ASSERT_EQ(b.rec.collectives.size(), 3u);
  const int64_t ar = 8'960'000'000 + 14 * kLatencyPs;  // 8.974 ms
  for (int k = 0; k < 3; ++k) {
    const CollectiveRecord& r = b.rec.collectives[k];
    EXPECT_EQ(r.name, "allreduce/iter" + std::to_string(k));
    EXPECT_EQ(r.start.count_ps(), 100'000'000 + k * (ar + 100'000'000)) << k;
    EXPECT_EQ((r.finish - r.start).count_ps(), ar) << k;
  }
  EXPECT_EQ(b.tm.num_flows(), 336u);
}

TEST(RingAllReduce, EachStepSendsEveryChunkOnceEvenWhenSizeDoesNotDivide) {
  // 10 B over 4 ranks: chunks of 3, 3, 2, 2 B. In every step the 4 ranks send
  // 4 distinct chunks, so each step moves exactly 10 B.
  const std::vector<FlowPlan> flows =
      collective_flows(allreduce(CollectiveAlgorithm::kRing, 4, 10));
  ASSERT_EQ(flows.size(), 24u);  // 2 * (4 - 1) steps x 4 ranks
  for (size_t k = 0; k < 6; ++k) {
    int64_t step_bytes = 0;
    for (size_t r = 0; r < 4; ++r) step_bytes += flows[k * 4 + r].spec.size.count();
    EXPECT_EQ(step_bytes, 10) << "step " << k;
  }
}

TEST(RingAllReduce, StepWaitsOnOwnPreviousSendAndPredecessorsPreviousSend) {
  const std::vector<FlowPlan> flows =
      collective_flows(allreduce(CollectiveAlgorithm::kRing, 4, 400));
  // Flow (rank 0, step 2) is index 8; it waits on (0, 1) = 4 and (3, 1) = 7.
  EXPECT_EQ(flows[8].after, (std::vector<uint32_t>{4, 7}));
  EXPECT_EQ(flows[8].spec.src, 0u);
  EXPECT_EQ(flows[8].spec.dst, 1u);
  EXPECT_TRUE(flows[0].after.empty());
  EXPECT_EQ(flows[8].spec.name, "allreduce/s2/r0");
}

TEST(HalvingDoubling, EightRanksTakeTheSameBandwidthTermPlusSixLatencies) {
  Bench b;
  b.engine.add(allreduce(CollectiveAlgorithm::kHalvingDoubling, 8, kSize));
  EXPECT_EQ(b.engine.planned_flows(0), 48u);  // 3 + 3 steps x 8 ranks
  b.sim.run();
  EXPECT_EQ(b.tm.num_flows(), 48u);
  ASSERT_EQ(b.rec.collectives.size(), 1u);
  const CollectiveRecord& r = b.rec.collectives[0];
  EXPECT_EQ(r.algorithm, "halving_doubling");
  // Exchanges of S/2, S/4, S/8 then S/8, S/4, S/2 = 32, 16, 8, 8, 16, 32 MB:
  // 2560, 1280, 640, 640, 1280, 2560 us at 100G, each + 1 us.
  const std::vector<int64_t> expect_us = {2561, 1281, 641, 641, 1281, 2561};
  ASSERT_EQ(r.step_times.size(), expect_us.size());
  for (size_t k = 0; k < expect_us.size(); ++k) {
    EXPECT_EQ(r.step_times[k].count_ps(), expect_us[k] * 1'000'000) << "step " << k;
  }
  // Every flow of a step takes the whole step on this fabric: its mean and
  // longest FCT are the step time. The fake fabric gives no ideal FCT (0).
  ASSERT_EQ(r.step_mean_fct.size(), expect_us.size());
  for (size_t k = 0; k < expect_us.size(); ++k) {
    EXPECT_EQ(r.step_mean_fct[k].count_ps(), expect_us[k] * 1'000'000) << "step " << k;
    EXPECT_EQ(r.step_max_fct[k].count_ps(), expect_us[k] * 1'000'000) << "step " << k;
    EXPECT_EQ(r.step_unloaded[k].count_ps(), 0) << "step " << k;
  }
  // 2 * (32 + 16 + 8) MB = 2 * 7/8 * S: 8.96 ms, the ring's bound, + 6 us.
  EXPECT_EQ(r.ideal.count_ps(), 8'960'000'000);
  EXPECT_EQ((r.finish - r.start).count_ps(), r.ideal.count_ps() + 6 * kLatencyPs);
}

TEST(HalvingDoubling, PartnersAreRankXorDistance) {
  const std::vector<FlowPlan> flows =
      collective_flows(allreduce(CollectiveAlgorithm::kHalvingDoubling, 8, 800));
  // Rank 5: halving with 5^4=1, 5^2=7, 5^1=4; doubling with 5^1=4, 5^2=7, 5^4=1.
  const std::vector<uint32_t> partners = {1, 7, 4, 4, 7, 1};
  for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(flows[k * 8 + 5].spec.dst, partners[k]) << k;
  // Step 1 of rank 5 waits on its own step 0 (index 5) and rank 1's step 0 (index 1).
  EXPECT_EQ(flows[8 + 5].after, (std::vector<uint32_t>{5, 1}));
}

TEST(HalvingDoubling, RefusesRankCountsThatAreNotPowersOfTwo) {
  EXPECT_THROW(collective_flows(allreduce(CollectiveAlgorithm::kHalvingDoubling, 6, 600)),
               TrafficError);
}

TEST(CollectiveEngine, ReportsEachCollectiveBesideOtherFlows) {
  Bench b;
  FlowSpec other;
  other.src = 6;  // a host no collective below uses
  other.dst = 7;
  other.size = 1_MB;
  b.tm.add_flow(other);  // flow 0 is not part of any collective
  CollectiveSpec small = allreduce(CollectiveAlgorithm::kRing, 4, 4'000'000);
  small.name = "small";
  CollectiveSpec late = allreduce(CollectiveAlgorithm::kRing, 2, 2'000'000);
  late.name = "late";
  late.ranks = {4, 5};
  late.start = sim::Time::zero() + 1_ms;
  late.cls.tc = 3;
  EXPECT_EQ(b.engine.add(small), 0u);
  EXPECT_EQ(b.engine.add(late), 1u);
  b.sim.run();
  ASSERT_EQ(b.rec.collectives.size(), 2u);
  EXPECT_EQ(b.rec.collectives[0].name, "small");
  // small: 6 steps of 1e6 B = 80 us + 1 us each = 486 us.
  EXPECT_EQ((b.engine.record(0).finish - b.engine.record(0).start).count_ps(), 486'000'000);
  // late: 2 steps of 1e6 B from 1 ms: finishes at 1 ms + 162 us.
  EXPECT_EQ(b.engine.record(1).finish.count_ps(), 1'162'000'000);
  EXPECT_EQ(b.tm.spec(b.engine.first_flow(1)).tc, 3);
}

// The lazily generated flows obey the planned DAG: every flow (r, k) starts
// exactly when the later of its two planned dependencies finished, and carries
// the planned source, destination and size. Uneven chunks (1,003,000 B over
// 8 ranks leaves 3 B over) and halving-doubling's changing
// partners make the check cover both schedules.
void expect_follows_plan(CollectiveAlgorithm algo) {
  Bench b;
  const CollectiveSpec spec = allreduce(algo, 8, 1'003'000);
  const std::vector<FlowPlan> plan = collective_flows(spec);
  b.engine.add(spec);
  b.sim.run();
  ASSERT_EQ(b.tm.num_flows(), plan.size());
  std::map<std::string, uint32_t> id_of;
  for (uint32_t id = 0; id < b.tm.num_flows(); ++id) id_of[b.tm.spec(id).name] = id;
  ASSERT_EQ(id_of.size(), plan.size());
  for (const FlowPlan& p : plan) {
    ASSERT_EQ(id_of.count(p.spec.name), 1u) << p.spec.name;
    const uint32_t id = id_of[p.spec.name];
    EXPECT_EQ(b.tm.spec(id).src, p.spec.src) << p.spec.name;
    EXPECT_EQ(b.tm.spec(id).dst, p.spec.dst) << p.spec.name;
    EXPECT_EQ(b.tm.spec(id).size, p.spec.size) << p.spec.name;
    sim::Time ready = spec.start;
    for (uint32_t dep : p.after) {
      ready = std::max(ready, b.tm.finished_at(id_of[plan[dep].spec.name]));
    }
    EXPECT_EQ(b.tm.started_at(id), ready) << p.spec.name;
  }
}

TEST(CollectiveEngine, LazyFlowsFollowThePlannedDependencies) {
  expect_follows_plan(CollectiveAlgorithm::kRing);
  expect_follows_plan(CollectiveAlgorithm::kHalvingDoubling);
}

CollectiveSpec op_spec(CollectiveOp op, CollectiveAlgorithm algo, uint32_t ranks, int64_t size) {
  CollectiveSpec s = allreduce(algo, ranks, size);
  s.op = op;
  s.name = op_name(op);
  return s;
}

// Reduce-scatter and all-gather are the two halves of the ring: 7 steps of
// 64e6 / 8 = 8e6 B (640 us at 100G) + 1 us = 4.487 ms; ideal 7/8 x 64e6 x 8 /
// 100e9 = 4.48 ms. nccl-tests: busbw = algbw x 7/8.
TEST(RingHalves, ReduceScatterAndAllGatherTakeNMinusOneSteps) {
  for (CollectiveOp op : {CollectiveOp::kReduceScatter, CollectiveOp::kAllGather}) {
    Bench b;
    b.engine.add(op_spec(op, CollectiveAlgorithm::kRing, 8, kSize));
    b.sim.run();
    ASSERT_EQ(b.rec.collectives.size(), 1u);
    const CollectiveRecord& r = b.rec.collectives[0];
    EXPECT_EQ(r.op, op_name(op));
    EXPECT_EQ(r.ideal.count_ps(), 4'480'000'000);
    EXPECT_EQ(r.step_times.size(), 7u);
    EXPECT_EQ((r.finish - r.start).count_ps(), 4'487'000'000);
    EXPECT_EQ(b.tm.num_flows(), 56u);
  }
  // All-gather step j sends chunk r + 1 - j: rank 0's first send is chunk 1,
  // the one the reduce-scatter left fully reduced there.
  const auto plan =
      collective_flows(op_spec(CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, 8, 800));
  EXPECT_EQ(plan[0].spec.dst, 1u);
  EXPECT_EQ(plan[8].after, (std::vector<uint32_t>{0, 7}));
}

// All-to-all: every rank sends 8e6 B to each of the 7 others, all at once;
// the fake NIC sends them one after the other: 7 x 640 us + 1 us = 4.481 ms
// (ideal 4.48 ms). The shift-k flows go to rank r + k + 1.
TEST(AllToAll, EveryPairAtOnceBoundByTheSendersLink) {
  Bench b;
  b.engine.add(op_spec(CollectiveOp::kAllToAll, CollectiveAlgorithm::kDirect, 8, kSize));
  EXPECT_EQ(b.tm.num_flows(), 56u);  // no dependencies: all generated at the start
  b.sim.run();
  const CollectiveRecord& r = b.rec.collectives.at(0);
  EXPECT_EQ(r.algorithm, "direct");
  EXPECT_EQ(r.ideal.count_ps(), 4'480'000'000);
  EXPECT_EQ((r.finish - r.start).count_ps(), 4'481'000'000);
  sim::Duration sum;
  for (const auto& d : r.step_times) sum += d;
  EXPECT_EQ(sum, r.finish - r.start);  // overlapping steps still add up
  // Ids by place, step-major: step 2 (shift 3) of rank 0 is 2 x 8 + 0.
  const FlowSpec& f = b.tm.spec(b.engine.first_flow(0) + 2 * 8);
  EXPECT_EQ(f.src, 0u);
  EXPECT_EQ(f.dst, 3u);
  EXPECT_EQ(f.size.count(), 8'000'000);
}

// Two channels split 64e6 B into two rings of 32e6 B: each flow is 4e6 B
// (320 us). The fake NIC is FIFO, so channel 1's step k fills the wire while
// channel 0 waits for its step k to land: the NIC never idles and the 28
// flows end at 28 x 320 us + 1 us = 8.961 ms, 13 us less than one channel's
// 14 x 641 us (the per-step latency is hidden behind the other channel).
TEST(Channels, TwoRingsHideTheStepLatencyOfOne) {
  Bench b;
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kRing, 8, kSize);
  s.channels = 2;
  b.engine.add(s);
  EXPECT_EQ(b.engine.planned_flows(0), 224u);  // 2 x 14 steps x 8 ranks
  b.sim.run();
  const CollectiveRecord& r = b.rec.collectives.at(0);
  EXPECT_EQ((r.finish - r.start).count_ps(), 8'961'000'000);
  EXPECT_EQ(r.ideal.count_ps(), 8'960'000'000);
  EXPECT_EQ(b.tm.spec(b.engine.first_flow(0)).size.count(), 4'000'000);
  EXPECT_EQ(b.tm.spec(b.engine.first_flow(0) + 1).name, "allreduce/c0/s0/r1");
  // Ids by place: channel-major, then step (14), then rank (8).
  EXPECT_EQ(b.tm.spec(b.engine.first_flow(0) + 14 * 8).name, "allreduce/c1/s0/r0");
}

// Hierarchical over 2 servers of 8 GPUs, NVLink (fake, 800G, 1 us) inside and
// the 100G NICs between. Phase 0: reduce-scatter of 64e6 B in each server,
// 7 steps of 8e6 B = 80 us + 1 us = 567 us. Phase 1: 8 rail rings of 2 ranks
// on 8e6 B, 2 steps of 4e6 B = 320 us + 1 us = 642 us. Phase 2: all-gather
// as phase 0, 567 us. Total 1.776 ms. Ideal: 2 x 7/8 x 64e6 x 8 / 800e9 =
// 1.12 ms plus 2 x 1/2 x (64e6 / 8) x 8 / 100e9 = 640 us: 1.76 ms, and the
// run is that plus one 1 us latency per step (16 steps).
TEST(Hierarchical, IntraServerOverNvlinkThenRailRingsThenIntraServer) {
  sim::Simulator sim;
  MemoryRecorder rec;
  TrafficManager tm{sim, rec, 16};
  FakeFabric nics{sim, 16, 100_Gbps, 1_us};
  FakeFabric nvlink{sim, 16, 800_Gbps, 1_us};
  nics.attach(tm);
  nvlink.attach(tm, Protocol::kNvlink);
  CollectiveEngine engine{tm, rec};
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kHierarchical, 16, kSize);
  s.local_size = 8;
  s.local_cls.protocol = Protocol::kNvlink;
  s.local_rate = 800_Gbps;
  engine.add(s);
  sim.run();
  const CollectiveRecord& r = rec.collectives.at(0);
  EXPECT_EQ(r.algorithm, "hierarchical");
  EXPECT_EQ(r.ideal.count_ps(), 1'760'000'000);
  EXPECT_EQ((r.finish - r.start).count_ps(), 1'776'000'000);
  ASSERT_EQ(r.step_times.size(), 16u);  // 7 + 2 + 7
  EXPECT_EQ(r.step_times[6].count_ps(), 81'000'000);
  EXPECT_EQ(r.step_times[7].count_ps(), 321'000'000);
  EXPECT_EQ(tm.num_flows(), 256u);  // 2 x 8 x 7 + 8 x 2 x 2 + 2 x 8 x 7
  int nv = 0;
  for (uint32_t id = 0; id < tm.num_flows(); ++id) {
    const FlowSpec& f = tm.spec(id);
    if (f.protocol == Protocol::kNvlink) {
      ++nv;
      EXPECT_EQ(f.src / 8, f.dst / 8) << f.name;  // never leaves the server
    } else {
      EXPECT_EQ(f.src % 8, f.dst % 8) << f.name;  // rail ring: same local index
      EXPECT_NE(f.src / 8, f.dst / 8) << f.name;
    }
  }
  EXPECT_EQ(nv, 224);
  // The critical path runs through all three phases: 7 + 2 + 7 flows.
  EXPECT_EQ(r.path_flows, 16u);
}

TEST(Hierarchical, RefusesRanksThatAreNotWholeServers) {
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kHierarchical, 12, kSize);
  s.local_size = 8;  // 12 ranks are not whole servers of 8
  s.local_rate = 800_Gbps;
  EXPECT_THROW(validate_collective(s), TrafficError);
  s.local_size = 12;  // one server only: nothing between servers
  EXPECT_THROW(validate_collective(s), TrafficError);
  s.local_size = 4;
  s.op = CollectiveOp::kAllGather;  // hierarchical is for allreduce
  EXPECT_THROW(validate_collective(s), TrafficError);
}

}  // namespace
}  // namespace xoff::models

namespace xoff::models {
namespace {

// NCCL's btree for 8 ranks: 0 -> 4, 4 -> {2, 6}, 2 -> {1, 3}, 6 -> {5, 7};
// the second tree mirrors it (rank r plays 7 - r), so its root is 7.
TEST(DoubleBinaryTree, EightRanksAsNcclBuildsThem) {
  const auto links = [](uint32_t r, uint32_t t) { return double_tree(8, r, t); };
  EXPECT_EQ(links(0, 0).parent, -1);
  EXPECT_EQ(links(0, 0).child[1], 4);
  EXPECT_EQ(links(4, 0).parent, 0);
  EXPECT_EQ(links(4, 0).child[0], 2);
  EXPECT_EQ(links(4, 0).child[1], 6);
  EXPECT_EQ(links(2, 0).child[0], 1);
  EXPECT_EQ(links(2, 0).child[1], 3);
  EXPECT_EQ(links(7, 0).parent, 6);
  EXPECT_EQ(links(7, 0).child[0], -1);
  EXPECT_EQ(links(7, 1).parent, -1);   // mirror of rank 0
  EXPECT_EQ(links(3, 1).parent, 7);    // mirror of 4 -> 0
  EXPECT_EQ(links(5, 1).child[0], 6);  // mirror of 2 -> 1
}

// For every size: each tree spans all ranks (every rank reaches the root
// through its parents, parent and child links agree, n - 1 edges), and with
// an even count no rank has children in both trees.
TEST(DoubleBinaryTree, BothTreesSpanEveryRankAndEvenCountsShareNoInteriorRank) {
  for (uint32_t n = 2; n <= 70; ++n) {
    for (uint32_t t = 0; t < 2; ++t) {
      uint32_t edges = 0;
      for (uint32_t r = 0; r < n; ++r) {
        const TreeLinks l = double_tree(n, r, t);
        for (int32_t c : l.child) {
          if (c < 0) continue;
          ASSERT_LT(c, static_cast<int32_t>(n));
          EXPECT_EQ(double_tree(n, static_cast<uint32_t>(c), t).parent, static_cast<int32_t>(r))
              << "n " << n << " tree " << t << " rank " << r;
          ++edges;
        }
        int32_t at = static_cast<int32_t>(r);
        for (uint32_t hops = 0; double_tree(n, static_cast<uint32_t>(at), t).parent >= 0; ++hops) {
          ASSERT_LE(hops, 8u) << "n " << n << " rank " << r;  // depth <= log2(70) + 1
          at = double_tree(n, static_cast<uint32_t>(at), t).parent;
        }
      }
      EXPECT_EQ(edges, n - 1) << "n " << n << " tree " << t;
    }
    if (n % 2 == 0) {
      for (uint32_t r = 0; r < n; ++r) {
        const auto interior = [&](uint32_t t) {
          const TreeLinks l = double_tree(n, r, t);
          return l.child[0] >= 0 || l.child[1] >= 0;
        };
        EXPECT_FALSE(interior(0) && interior(1)) << "n " << n << " rank " << r;
      }
    }
  }
}

// A step waits for its data to be delivered, not for the sender to hear the
// ACK. The two-rank tree of the next test with an ACK 10 us after delivery: rank 1
// sends up chunk j when up chunk j - 1 finished, at j x 91 us (80 us on the
// wire, 1 us to land, 10 us for the ACK); it lands at j x 91 + 81 us, and the
// root sends it down then (its down connection is free by then: down chunk
// j - 1 finished at (j - 1) x 91 + 81 + 91 = j x 91 + 81 us). The last down
// chunk (j = 3) starts at 354 us and finishes 91 us later: 445 us. Released
// on the finish instead, each down chunk would wait for its up chunk's ACK
// (10 us more): the last would start at 364 us and finish at 455 us.
TEST(TreeAllReduce, ARankForwardsAChunkWhenItLandsNotWhenItsSenderHearsTheAck) {
  Bench b;
  b.fabric.set_ack_delay(10_us);
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kTree, 2, 4'000'000);
  s.chunk_size = sim::Bytes(1'000'000);
  b.engine.add(s);
  b.sim.run();
  const CollectiveRecord& r = b.rec.collectives.at(0);
  EXPECT_EQ((r.finish - r.start).count_ps(), 445'000'000);
  // Rank 0's down chunk 3 (id 3) started when up chunk 3 (id 7) landed.
  const uint32_t first = b.engine.first_flow(0);
  EXPECT_EQ(b.tm.started_at(first + 3).count_ps(), 354'000'000);
  EXPECT_EQ(b.tm.started_at(first + 7).count_ps(), 273'000'000);
  // The critical path still adds up to the collective's time.
  EXPECT_EQ(r.path_bandwidth + r.path_overhead + r.path_congestion + r.path_wait,
            r.finish - r.start);
}

// Two ranks, one tree, 4e6 B in chunks of 1e6 B (80 us at 100G, 1 us of
// latency): rank 1 sends chunk j up when chunk j - 1 has landed, rank 0 sends
// it back down as it lands. Up chunk j lands at (j + 1) x 81 us, down chunk j
// at (j + 2) x 81 us: the last at 5 x 81 = 405 us. Ideal: each rank sends
// S once, 4e6 x 8 / 100e9 = 320 us.
TEST(TreeAllReduce, TwoRanksPipelineTheChunksUpAndBackDown) {
  Bench b;
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kTree, 2, 4'000'000);
  s.chunk_size = sim::Bytes(1'000'000);
  b.engine.add(s);
  EXPECT_EQ(b.engine.planned_flows(0), 8u);  // 2 (N-1) x 4 chunks
  EXPECT_EQ(b.tm.num_flows(), 1u);           // rank 1's first chunk up
  // Ids by place: rank 0 (the root) sends its 4 chunks down as ids 0 - 3,
  // rank 1 sends its 4 up as ids 4 - 7.
  EXPECT_FALSE(b.tm.is_planned(b.engine.first_flow(0)));
  EXPECT_EQ(b.tm.spec(b.engine.first_flow(0) + 4).name, "allreduce/s0/r1/up");
  b.sim.run();
  const CollectiveRecord& r = b.rec.collectives.at(0);
  EXPECT_EQ(r.algorithm, "tree");
  EXPECT_EQ(r.ideal.count_ps(), 320'000'000);
  EXPECT_EQ((r.finish - r.start).count_ps(), 405'000'000);
  ASSERT_EQ(r.step_times.size(), 4u);  // a tree's steps are its chunks
  sim::Duration sum;
  for (const auto& d : r.step_times) sum += d;
  EXPECT_EQ(sum, r.finish - r.start);
  EXPECT_EQ(b.rec.flows.size(), 8u);
  for (const FlowRecord& f : b.rec.flows) EXPECT_EQ(f.size_bytes, 1'000'000);
  EXPECT_TRUE(b.engine.all_done());
}

// Eight ranks, two channels on the two trees, 64e6 B: the busiest rank sends
// 4 chunks' worth of S/2 (3 links in one tree, 1 in the other) = 2 S, so the
// ideal is 2 x 64e6 x 8 / 100e9 = 10.24 ms (one tree alone: 3 S, 15.36 ms).
// Pipelining in chunks of 512 KB (63 per channel) beats one chunk per
// channel, which waits for each level of the tree in turn.
TEST(TreeAllReduce, DoubleTreeIdealAndPipelining) {
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kTree, 8, kSize);
  s.channels = 2;
  EXPECT_EQ(collective_ideal(s).count_ps(), 10'240'000'000);
  EXPECT_EQ(collective_flow_count(s), 2u * 14 * 63);  // 32e6 / 512e3 = 62.5 -> 63 chunks
  CollectiveSpec one = s;
  one.channels = 1;
  EXPECT_EQ(collective_ideal(one).count_ps(), 15'360'000'000);
  sim::Duration piped, whole;
  for (int64_t chunk : {int64_t{512'000}, kSize}) {
    Bench b;
    s.chunk_size = sim::Bytes(chunk);
    b.engine.add(s);
    b.sim.run();
    const CollectiveRecord& r = b.rec.collectives.at(0);
    EXPECT_GE(r.finish - r.start, r.ideal);
    (chunk == kSize ? whole : piped) = r.finish - r.start;
    EXPECT_EQ(b.rec.flows.size(), collective_flow_count(s));
  }
  // One chunk: up three levels and down three, each 32e6 B = 2.56 ms at
  // least; 512 KB chunks stay within 10% of the ideal.
  EXPECT_GE(whole.count_ps(), 6 * 2'560'000'000LL);
  EXPECT_LT(piped.count_ps(), 11'264'000'000LL);
}

}  // namespace
}  // namespace xoff::models

namespace xoff::models {
namespace {

// A ring with chunk_size 2e6 B: each 8e6-B step moves as 4 slices (160 us
// each at 100G), a rank forwards slice j of step k once slice j of step k - 1
// has arrived, with up to 8 slices in flight on its connection. The fake NIC
// is FIFO and never idles after t = 0: slice i of a rank needs its
// predecessor's slice i - 4, which lands at (i - 3) x 160 us + 1 us, before
// the NIC reaches it at i x 160 us. So all 56 slices go back to back:
// 56 x 160 us + 1 us = 8.961 ms, where whole steps take 14 x 641 us = 8.974 ms.
TEST(RingSlices, SlicesPipelineEachStepThroughTheRing) {
  Bench b;
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kRing, 8, kSize);
  s.chunk_size = sim::Bytes(2'000'000);
  EXPECT_EQ(collective_steps(s), 56u);
  b.engine.add(s);
  EXPECT_EQ(b.engine.planned_flows(0), 448u);  // 14 steps x 4 slices x 8 ranks
  EXPECT_EQ(b.tm.num_flows(), 32u);            // step 0's 4 slices on every rank
  // Ids by place: flow 1 of rank 0 (step 0, slice 1) is 1 x 8 ranks + 0.
  EXPECT_EQ(b.tm.spec(b.engine.first_flow(0) + 8).name, "allreduce/s0/r0/k1");
  b.sim.run();
  const CollectiveRecord& r = b.rec.collectives.at(0);
  EXPECT_EQ(r.ideal.count_ps(), 8'960'000'000);
  EXPECT_EQ((r.finish - r.start).count_ps(), 8'961'000'000);
  EXPECT_EQ(b.rec.flows.size(), 448u);
  for (const FlowRecord& f : b.rec.flows) EXPECT_EQ(f.size_bytes, 2'000'000);
  EXPECT_EQ(b.engine.ungenerated_flows(), 0u);
  EXPECT_THROW((void)collective_flows(s), TrafficError);  // not planned up front
}

}  // namespace
}  // namespace xoff::models

namespace xoff::models {
namespace {

// A workload step over each rail counts the rail's steps: 8 ranks in 4
// servers of 2, so 2 rails of 4 ranks; a ring allreduce of a rail is
// 2 (4 - 1) = 6 steps, 8 ranks x 6 x 2 channels = 96 flows (not the 224 of
// one ring over all 8).
TEST(CollectiveFlowCount, WorkloadGroupsCountTheirGroupsSteps) {
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kRing, 8, 0);
  s.local_size = 2;
  s.channels = 2;
  WorkloadStep w;
  w.size = sim::Bytes(133'556);
  w.group = WorkloadGroup::kRail;
  s.workload = {w};
  EXPECT_EQ(collective_flow_count(s), 96u);
}

// Chunks that would not fit a step counter are refused, not wrapped (4 GiB
// in 1-byte chunks made zero steps and a collective that never finished).
TEST(CollectiveFlowCount, TooManyChunksAreRefused) {
  CollectiveSpec s = allreduce(CollectiveAlgorithm::kTree, 2, int64_t{1} << 32);
  s.chunk_size = sim::Bytes(1);
  EXPECT_THROW(validate_collective(s), TrafficError);
  s.chunk_size = sim::Bytes(1 << 20);  // 4096 chunks
  EXPECT_NO_THROW(validate_collective(s));
}

}  // namespace
}  // namespace xoff::models
