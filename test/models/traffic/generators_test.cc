#include "models/traffic/generators.h"

#include <gtest/gtest.h>

#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

#include "models/traffic/traffic_manager.h"
#include "test/models/traffic/fake_fabric.h"

namespace xoff::models {
namespace {
using namespace sim::literals;

std::vector<uint32_t> hosts(uint32_t n) {
  std::vector<uint32_t> h(n);
  std::iota(h.begin(), h.end(), 0u);
  return h;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

FlowSizeCdf websearch() {
  const std::string path = std::string(XOFF_SOURCE_DIR) + "/scenarios/cdf/websearch.txt";
  return parse_cdf(read_file(path), "websearch.txt");
}

TEST(Permutation, IsADerangementOfSixteenHosts) {
  PermutationSpec spec;
  spec.hosts = hosts(16);
  spec.size = 1_MB;
  const std::vector<FlowPlan> flows = permutation_flows(spec, 42);
  ASSERT_EQ(flows.size(), 16u);
  std::vector<int> received(16, 0);
  std::set<uint32_t> senders;
  for (const FlowPlan& f : flows) {
    EXPECT_NE(f.spec.src, f.spec.dst);
    senders.insert(f.spec.src);
    ++received[f.spec.dst];
  }
  EXPECT_EQ(senders.size(), 16u);          // every host sends once
  for (int n : received) EXPECT_EQ(n, 1);  // and receives exactly once
}

TEST(Permutation, SameSeedSameFlowsOtherSeedOtherFlows) {
  PermutationSpec spec;
  spec.hosts = hosts(16);
  spec.size = 1_MB;
  const auto dsts = [&](uint64_t seed) {
    std::vector<uint32_t> d;
    for (const FlowPlan& f : permutation_flows(spec, seed)) d.push_back(f.spec.dst);
    return d;
  };
  EXPECT_EQ(dsts(7), dsts(7));
  EXPECT_NE(dsts(7), dsts(8));
}

TEST(Incast, SecondWaveStartsWhenTheFirstWaveHasFinished) {
  sim::Simulator sim;
  testing::MemoryRecorder rec;
  TrafficManager tm(sim, rec, 5);
  testing::FakeFabric fabric(sim, 5, 100_Gbps, 1_us);
  fabric.attach(tm);
  IncastSpec spec;
  spec.senders = {0, 1, 2, 3};
  spec.receiver = 4;
  spec.size = 1_MB;
  spec.waves = 2;
  spec.wave_gap = 10_us;
  const std::vector<FlowPlan> flows = incast_flows(spec);
  ASSERT_EQ(flows.size(), 8u);
  EXPECT_EQ(flows[5].after, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(flows[5].spec.name, "incast/w1/s1");
  tm.add_batch(flows);
  sim.run();
  // Wave 0: 1e6 B at 100G = 80 us + 1 us latency, all done at 81 us.
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(tm.finished_at(i).count_ps(), 81'000'000);
  // Wave 1 starts at 81 us + 10 us gap = 91 us and ends at 172 us.
  for (uint32_t i = 4; i < 8; ++i) EXPECT_EQ(tm.started_at(i).count_ps(), 91'000'000);
  for (uint32_t i = 4; i < 8; ++i) EXPECT_EQ(tm.finished_at(i).count_ps(), 172'000'000);
}

TEST(Incast, RefusesAReceiverThatAlsoSends) {
  IncastSpec spec;
  spec.senders = {0, 1};
  spec.receiver = 1;
  spec.size = 1_KB;
  EXPECT_THROW(incast_flows(spec), TrafficError);
}

TEST(AllToAll, EveryOrderedPairOnce) {
  AllToAllSpec spec;
  spec.hosts = {3, 5, 8, 9};
  spec.size = 64_KiB;
  const std::vector<FlowPlan> flows = all_to_all_flows(spec);
  ASSERT_EQ(flows.size(), 12u);  // 4 x 3
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  for (const FlowPlan& f : flows) pairs.insert({f.spec.src, f.spec.dst});
  EXPECT_EQ(pairs.size(), 12u);
  EXPECT_EQ(flows[0].spec.name, "a2a/3-5");
}

TEST(Poisson, OfferedLoadAndMeanSizeMatchTheWebSearchCdf) {
  const FlowSizeCdf cdf = websearch();
  // The CDF's mean by trapezoids over the table, independent of mean_bytes():
  // sum of (cdf_i - cdf_i-1) * (size_i + size_i-1) / 2 = 1 711 250 B.
  double table_mean = 0;
  const auto& pts = cdf.points();
  for (size_t i = 1; i < pts.size(); ++i) {
    table_mean += (pts[i].cdf - pts[i - 1].cdf) * (pts[i].size_bytes + pts[i - 1].size_bytes) / 2;
  }
  EXPECT_NEAR(table_mean, 1'711'250.0, 1e-6);

  PoissonSpec spec;
  spec.hosts = hosts(16);
  spec.load = 0.5;
  spec.host_rate = 100_Gbps;
  spec.cdf = &cdf;
  spec.max_flows = 10'000;
  const std::vector<FlowPlan> flows = poisson_flows(spec, 1);
  ASSERT_EQ(flows.size(), 10'000u);
  double bytes = 0;
  for (const FlowPlan& f : flows) {
    EXPECT_NE(f.spec.src, f.spec.dst);
    bytes += static_cast<double>(f.spec.size.count());
  }
  const double mean = bytes / 1e4;
  EXPECT_NEAR(mean / table_mean, 1.0, 0.05);
  // Offered load = bits sent / (hosts x rate x span of the arrivals).
  const double span_s = flows.back().spec.start.to_seconds();
  const double load = bytes * 8 / (16 * 100e9 * span_s);
  EXPECT_NEAR(load, 0.5, 0.5 * 0.05);
  // The arrivals span 10^4 / (16 x lambda): 1e4 x 1 711 250 B x 8 / (0.5 x 16 x
  // 100e9 b/s) = 171.1 ms, within 5% (Poisson count noise is ~1%).
  const double expect_span_s = 1e4 * table_mean * 8 / (0.5 * 16 * 100e9);
  EXPECT_NEAR(expect_span_s, 0.1711, 0.0001);
  EXPECT_NEAR(span_s, expect_span_s, 0.05 * expect_span_s);
}

TEST(Poisson, StopsAtTheStopTimeAndArrivalsAreOrdered) {
  const FlowSizeCdf cdf = websearch();
  PoissonSpec spec;
  spec.hosts = hosts(4);
  spec.load = 0.3;
  spec.host_rate = 100_Gbps;
  spec.cdf = &cdf;
  spec.start = sim::Time::zero() + 1_ms;
  spec.stop = sim::Time::zero() + 11_ms;
  const std::vector<FlowPlan> flows = poisson_flows(spec, 3);
  // Per host 0.3 x 100e9 / (8 x 1.71125e6) = 2191 flows/s; 4 hosts x 10 ms: ~88.
  EXPECT_GT(flows.size(), 50u);
  EXPECT_LT(flows.size(), 130u);
  for (size_t i = 0; i < flows.size(); ++i) {
    EXPECT_GE(flows[i].spec.start, spec.start);
    EXPECT_LT(flows[i].spec.start, spec.stop);
    if (i > 0) {
      EXPECT_GE(flows[i].spec.start, flows[i - 1].spec.start);
    }
  }
}

TEST(Poisson, RefusesEndlessArrivals) {
  const FlowSizeCdf cdf = websearch();
  PoissonSpec spec;
  spec.hosts = hosts(4);
  spec.load = 0.3;
  spec.host_rate = 100_Gbps;
  spec.cdf = &cdf;
  EXPECT_THROW(poisson_flows(spec, 1), TrafficError);
}

TEST(TcpBackground, IsPoissonTrafficCarriedByTcpInItsClass) {
  const FlowSizeCdf cdf = websearch();
  PoissonSpec spec;
  spec.name = "bg";
  spec.hosts = hosts(8);
  spec.load = 0.2;
  spec.host_rate = 100_Gbps;
  spec.cdf = &cdf;
  spec.max_flows = 100;
  spec.cls.tc = 1;
  spec.cls.dscp = 10;
  const std::vector<FlowPlan> flows = tcp_background_flows(spec, 9);
  ASSERT_EQ(flows.size(), 100u);
  for (const FlowPlan& f : flows) {
    EXPECT_EQ(f.spec.protocol, Protocol::kTcp);
    EXPECT_EQ(f.spec.tc, 1);
    EXPECT_EQ(f.spec.dscp, 10);
  }
  EXPECT_EQ(flows[0].spec.name, "bg/0");
}

}  // namespace
}  // namespace xoff::models
