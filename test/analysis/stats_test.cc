#include "analysis/stats/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace xoff::analysis {
namespace {

using namespace sim::literals;

std::vector<double> one_to_hundred() {
  std::vector<double> v(100);
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

TEST(Percentile, MatchesNumpyLinearOnOneToHundred) {
  const auto v = one_to_hundred();
  // Rank h = 99 * q / 100 into sorted 1..100, interpolated linearly (numpy default).
  EXPECT_DOUBLE_EQ(percentile(v, 50), 50.5);      // h = 49.5: 50 + 0.5 * (51 - 50)
  EXPECT_DOUBLE_EQ(percentile(v, 99), 99.01);     // h = 98.01: 99 + 0.01
  EXPECT_DOUBLE_EQ(percentile(v, 95), 95.05);     // h = 94.05: 95 + 0.05
  EXPECT_DOUBLE_EQ(percentile(v, 99.9), 99.901);  // h = 98.901: 99 + 0.901
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 100.0);
}

TEST(Percentile, SortsItsInputAndInterpolatesBetweenNeighbours) {
  const std::vector<double> v = {40, 10, 30, 20};
  EXPECT_DOUBLE_EQ(percentile(v, 25), 17.5);  // h = 3 * 0.25 = 0.75: 10 + 0.75 * 10
  EXPECT_DOUBLE_EQ(percentile(std::vector<double>{7.0}, 99), 7.0);
  const std::vector<double> qs = {0, 50, 100};
  EXPECT_EQ(percentiles(v, qs), (std::vector<double>{10, 25, 40}));  // h = 1.5: 20 + 5
}

TEST(Percentile, EmptySampleIsNanAndOutOfRangeQThrows) {
  EXPECT_TRUE(std::isnan(percentile(std::vector<double>{}, 50)));
  EXPECT_THROW((void)percentile(one_to_hundred(), 100.5), std::invalid_argument);
  EXPECT_THROW((void)percentile(one_to_hundred(), -1), std::invalid_argument);
}

TEST(Moments, PopulationMeanAndStddev) {
  // Mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32 / 8 = 4; sqrt = 2.
  const std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_DOUBLE_EQ(mean(v), 5.0);
  EXPECT_DOUBLE_EQ(stddev(v), 2.0);
  EXPECT_TRUE(std::isnan(mean(std::vector<double>{})));
}

TEST(JainIndex, OneForEqualSharesAndOneOverNForAMonopoly) {
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{1, 1, 1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{1, 0, 0, 0}), 0.25);  // 1^2 / (4 * 1)
  // (1+2+3+4)^2 / (4 * (1+4+9+16)) = 100 / 120.
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{1, 2, 3, 4}), 100.0 / 120.0);
  EXPECT_TRUE(std::isnan(jain_index(std::vector<double>{0, 0})));
}

TEST(Cdf, StepsByRankAndThinsEvenly) {
  const auto points = cdf(std::vector<double>{3, 1, 2});
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].value, 1.0);
  EXPECT_DOUBLE_EQ(points[0].fraction, 1.0 / 3.0);
  EXPECT_EQ(points[2].value, 3.0);
  EXPECT_DOUBLE_EQ(points[2].fraction, 1.0);
  // 1..10 thinned to 5 points: ranks ceil(k * 10 / 5) = 2, 4, 6, 8, 10.
  std::vector<double> v(10);
  std::iota(v.begin(), v.end(), 1.0);
  const auto thin = cdf(v, 5);
  ASSERT_EQ(thin.size(), 5u);
  EXPECT_EQ(thin[0].value, 2.0);
  EXPECT_DOUBLE_EQ(thin[0].fraction, 0.2);
  EXPECT_EQ(thin[4].value, 10.0);
}

models::FlowRecord flow(const char* protocol, int64_t size, sim::Duration fct,
                        sim::Duration ideal) {
  models::FlowRecord f;
  f.protocol = protocol;
  f.size_bytes = size;
  f.start = sim::Time::zero() + 1_us;
  f.finish = f.start + fct;
  f.ideal_fct = ideal;
  return f;
}

TEST(SummarizeFlows, PercentilesPerProtocolAndOverall) {
  // RoCE: 100 KB in 10, 20, 30 us (ideal 10 us): slowdowns 1, 2, 3; throughputs
  // 80, 40, 26.7 Gb/s. TCP: one 1 MB flow in 100 us.
  const std::vector<models::FlowRecord> flows = {
      flow("roce", 100'000, 10_us, 10_us), flow("tcp", 1'000'000, 100_us, 50_us),
      flow("roce", 100'000, 30_us, 10_us), flow("roce", 100'000, 20_us, 10_us)};
  const FlowSummary s = summarize_flows(flows);
  EXPECT_EQ(s.all.flows, 4u);
  EXPECT_EQ(s.all.bytes, 1'300'000);
  EXPECT_DOUBLE_EQ(s.all.fct_us.p50, 25.0);  // sorted 10 20 30 100, h = 1.5
  EXPECT_DOUBLE_EQ(s.all.fct_us.max, 100.0);
  ASSERT_EQ(s.by_protocol.size(), 2u);
  const ProtocolSummary& roce = s.by_protocol[0];
  EXPECT_EQ(roce.protocol, "roce");
  EXPECT_EQ(roce.flows, 3u);
  EXPECT_DOUBLE_EQ(roce.fct_us.mean, 20.0);
  EXPECT_DOUBLE_EQ(roce.slowdown.p50, 2.0);
  EXPECT_DOUBLE_EQ(roce.slowdown.p99, 2.98);  // h = 2 * 0.99 = 1.98: 2 + 0.98
  // Jain of (80, 40, 80/3): (146.67)^2 / (3 * (6400 + 1600 + 711.1)) = 0.8235...
  const double t3 = 80.0 / 3.0;
  const double sum = 80.0 + 40.0 + t3;
  EXPECT_NEAR(roce.throughput_jain, sum * sum / (3 * (6400 + 1600 + t3 * t3)), 1e-12);
  EXPECT_EQ(s.by_protocol[1].protocol, "tcp");
  EXPECT_DOUBLE_EQ(s.by_protocol[1].slowdown.p50, 2.0);  // 100 us / 50 us
}

TEST(SummarizeFlows, NoFlowsGivesNanStatistics) {
  const FlowSummary s = summarize_flows({});
  EXPECT_EQ(s.all.flows, 0u);
  EXPECT_TRUE(std::isnan(s.all.fct_us.p50));
  EXPECT_TRUE(s.by_protocol.empty());
}

}  // namespace
}  // namespace xoff::analysis
