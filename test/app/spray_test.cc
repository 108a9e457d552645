// routing.load_balance = "packet": per-packet spraying over the equal-cost
// next hops, against per-flow ECMP.
#include <gtest/gtest.h>

#include "app/run/runner.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {

// One 4 MB RoCE flow from h0 (leaf0) to h1 (leaf1) over 4 spines: leaf0's
// ports 1..4 are its uplinks. 4,000,000 B in 1000 B payloads = 4,000 data
// packets (ACKs travel the other way).
RunOutcome run_with(const std::string& lb) {
  return testing::run_file(testing::write_temp("xoff_spray_" + lb + ".toml", R"([scenario]
name = "spray"
duration = "2ms"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 4
hosts_per_leaf = 1
host_rate = "100Gbps"
[routing]
load_balance = ")" + lb + R"("
[[traffic.flow]]
src = "h0"
dst = "h1"
size = "4MB"
)"));
}

std::vector<int64_t> uplink_packets(const RunOutcome& o) {
  std::vector<int64_t> n(4, 0);
  for (const auto& q : o.data.queues) {
    if (q.node == "leaf0" && q.port >= 1 && q.port <= 4 && q.traffic_class == 3) {
      n[q.port - 1] += q.tx_packets;
    }
  }
  return n;
}

TEST(Spraying, PerFlowEcmpUsesOneUplinkSprayingUsesAll) {
  const RunOutcome flow = run_with("flow");
  const RunOutcome spray = run_with("packet");
  ASSERT_TRUE(flow.traffic_finished);
  ASSERT_TRUE(spray.traffic_finished);
  const auto f = uplink_packets(flow);
  const auto s = uplink_packets(spray);
  int used = 0;
  for (int64_t n : f) used += n > 0;
  EXPECT_EQ(used, 1);  // one hash, one path
  EXPECT_EQ(f[0] + f[1] + f[2] + f[3], 4000);
  EXPECT_EQ(s[0] + s[1] + s[2] + s[3], 4000);
  // Each uplink about a quarter: binomial(4000, 1/4) has sd 27, so 900..1100
  // is more than 3.5 sd either side.
  for (int64_t n : s) {
    EXPECT_GT(n, 900);
    EXPECT_LT(n, 1100);
  }
}

}  // namespace
}  // namespace xoff::app
