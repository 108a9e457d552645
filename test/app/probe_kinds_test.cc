// The time series a run can expose beyond queue depth and port throughput
// (issue 11, "what runs expose"): per-class throughput, PFC frames per (port,
// class) over time, ingress priority-group occupancy, CNPs per host and the
// DCQCN state of one QP. Each is checked against a number the run computes
// independently (end-of-run counters, the buffer's peaks) or against DCQCN's
// own invariants and its first cut (Zhu et al., SIGCOMM 2015).
#include <gtest/gtest.h>

#include <cmath>

#include "app/config/error.h"
#include "app/scenario/scenario.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {

// Two 2 MB RoCE flows h0, h1 -> h2 through one 100G leaf: a 2:1 incast that
// marks, pauses (a 400 KB buffer) and cuts the senders' rates.
constexpr const char* kScenario = R"([scenario]
name = "probe_kinds"
duration = "2ms"
[topology]
kind = "spine_leaf"
leaves = 1
spines = 1
hosts_per_leaf = 3
host_rate = "100Gbps"
[buffer]
size = "400KB"
alpha = 0.5
headroom = "48KB"
[ecn]
enabled = true
classes = [3]
kmin = "5KB"
kmax = "200KB"
pmax = 0.01
[nic]
dcqcn = "paper"
[[traffic.flow]]
src = "h0"
dst = "h2"
size = "2MB"
[[traffic.flow]]
src = "h1"
dst = "h2"
size = "2MB"
[monitor]
sample_interval = "10us"
[[monitor.probe]]
kind = "dcqcn_rate_gbps"
node = "h0"
flow = 0
[[monitor.probe]]
kind = "dcqcn_target_gbps"
node = "h0"
flow = 0
[[monitor.probe]]
kind = "dcqcn_alpha"
node = "h0"
flow = 0
[[monitor.probe]]
kind = "cnps_sent"
node = "h2"
[[monitor.probe]]
kind = "cnps_received"
node = "h0"
[[monitor.probe]]
kind = "cnps_received"
node = "h1"
[[monitor.probe]]
kind = "class_tx_gbps"
node = "leaf0"
class = 3
[[monitor.probe]]
kind = "tx_gbps"
node = "leaf0"
[[monitor.probe]]
kind = "pg_shared_bytes"
node = "leaf0"
pg = 3
[[monitor.probe]]
kind = "pg_headroom_bytes"
node = "leaf0"
pg = 3
[[monitor.probe]]
kind = "pause_tx"
node = "leaf0"
class = 3
[[monitor.probe]]
kind = "pause_rx"
node = "h0"
class = 3
)";

double sum(const analysis::SeriesData& s) {
  double t = 0;
  for (double v : s.value) t += v;
  return t;
}

double max_of(const analysis::SeriesData& s) {
  double m = 0;
  for (double v : s.value) m = std::max(m, v);
  return m;
}

class ProbeKinds : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    out_ =
        new RunOutcome(testing::run_file(testing::write_temp("xoff_probe_kinds.toml", kScenario)));
  }
  static void TearDownTestSuite() { delete out_; }
  static const analysis::SeriesData& series(const std::string& name) {
    const analysis::SeriesData* s = out_->data.find_series(name);
    EXPECT_NE(s, nullptr) << name;
    static const analysis::SeriesData empty;
    return s != nullptr ? *s : empty;
  }
  static const analysis::RunData& data() { return out_->data; }
  static RunOutcome* out_;
};
RunOutcome* ProbeKinds::out_ = nullptr;

TEST_F(ProbeKinds, PauseFramesOverTimeAddUpToTheCounters) {
  int64_t sent = 0;
  int64_t received_h0 = 0;
  for (const auto& q : data().queues) {
    if (q.node == "leaf0" && q.traffic_class == 3) sent += q.pause_sent;
    if (q.node == "h0" && q.traffic_class == 3) received_h0 += q.pause_received;
  }
  ASSERT_GT(sent, 0) << "the incast should pause the senders";
  double over_time = 0;
  for (int p = 0; p < 4; ++p)
    over_time += sum(series("pause_tx/leaf0/p" + std::to_string(p) + "/tc3"));
  EXPECT_DOUBLE_EQ(over_time, static_cast<double>(sent));
  EXPECT_DOUBLE_EQ(sum(series("pause_rx/h0/p0/tc3")), static_cast<double>(received_h0));
}

TEST_F(ProbeKinds, CnpsSentByTheReceiverAreTheCnpsTheSendersGot) {
  const double sent = sum(series("cnps_sent/h2"));
  EXPECT_GT(sent, 0);
  EXPECT_DOUBLE_EQ(sent, sum(series("cnps_received/h0")) + sum(series("cnps_received/h1")));
  // Per QP, in /flows: each host sends one flow, so its QP got all its CNPs.
  ASSERT_EQ(data().flows.size(), 2u);
  for (const auto& f : data().flows) {
    ASSERT_TRUE(f.finished());
    EXPECT_DOUBLE_EQ(static_cast<double>(f.cnps_received),
                     sum(series("cnps_received/h" + std::to_string(f.src_host))))
        << f.name;
  }
}

TEST_F(ProbeKinds, ClassThroughputIsPartOfThePortsAndFillsTheBottleneck) {
  for (int p = 0; p < 4; ++p) {
    const auto& cls = series("class_tx_gbps/leaf0/p" + std::to_string(p) + "/tc3");
    const auto& all = series("tx_gbps/leaf0/p" + std::to_string(p));
    ASSERT_EQ(cls.value.size(), all.value.size());
    for (size_t i = 0; i < cls.value.size(); ++i) EXPECT_LE(cls.value[i], all.value[i] + 1e-9);
  }
  // leaf0's port 2 faces h2: busy with class-3 data through the incast. A
  // 10 us sample holds whole frames, so it can read a frame above line rate
  // (1,048 B in 10 us = 0.84 Gb/s).
  const double peak = max_of(series("class_tx_gbps/leaf0/p2/tc3"));
  EXPECT_GE(peak, 95.0);
  EXPECT_LE(peak, 100.0 + 0.84);
}

TEST_F(ProbeKinds, PriorityGroupOccupancyStaysWithinTheBuffersPeaks) {
  ASSERT_FALSE(data().buffers.empty());
  const auto& b = data().buffers.front();
  ASSERT_EQ(b.node, "leaf0");
  double shared = 0;
  double headroom = 0;
  for (int p = 0; p < 4; ++p) {
    shared =
        std::max(shared, max_of(series("pg_shared_bytes/leaf0/p" + std::to_string(p) + "/pg3")));
    headroom = std::max(headroom,
                        max_of(series("pg_headroom_bytes/leaf0/p" + std::to_string(p) + "/pg3")));
  }
  EXPECT_GT(shared, 0);
  EXPECT_LE(shared, static_cast<double>(b.peak_shared_bytes));
  EXPECT_GT(headroom, 0);  // it paused: headroom took the bytes in flight
  EXPECT_LE(headroom, static_cast<double>(b.peak_pg_headroom_bytes));
}

TEST_F(ProbeKinds, DcqcnStateFollowsTheRateControllersRules) {
  const auto& rate = series("dcqcn_rate_gbps/h0/f0");
  const auto& target = series("dcqcn_target_gbps/h0/f0");
  const auto& alpha = series("dcqcn_alpha/h0/f0");
  ASSERT_EQ(rate.value.size(), target.value.size());
  double lowest = 1e9;
  for (size_t i = 0; i < rate.value.size(); ++i) {
    if (std::isnan(rate.value[i])) continue;
    EXPECT_LE(rate.value[i], target.value[i] + 1e-9);  // R_C <= R_T
    EXPECT_LE(target.value[i], 100.0 + 1e-9);          // <= line rate
    EXPECT_GE(alpha.value[i], 0.0);
    EXPECT_LE(alpha.value[i], 1.0);
    lowest = std::min(lowest, rate.value[i]);
  }
  // The first cut with alpha = 1 halves the rate: R_C (1 - alpha / 2) = 50 Gb/s.
  EXPECT_LE(lowest, 50.0 + 1e-9);
  // After the flow finished, the QP is gone: no value.
  const models::FlowRecord* f0 = nullptr;
  for (const auto& f : data().flows) {
    if (f.flow_id == 0) f0 = &f;
  }
  ASSERT_NE(f0, nullptr);
  ASSERT_TRUE(f0->finished());
  int after = 0;
  for (size_t i = 0; i < rate.time_ps.size(); ++i) {
    if (rate.time_ps[i] <= f0->finish.count_ps()) continue;
    EXPECT_TRUE(std::isnan(rate.value[i]));
    ++after;
  }
  EXPECT_GT(after, 0);
}

TEST(ProbeKindsLoad, HostAndSwitchKindsAreRefusedOnTheOtherKindOfNode) {
  const std::string base =
      std::string(kScenario).substr(0, std::string(kScenario).find("[monitor]"));
  try {
    (void)load_scenario(testing::write_temp("xoff_probe_bad.toml", base + R"([[monitor.probe]]
kind = "pg_shared_bytes"
node = "h0"
)"),
                        {});
    FAIL() << "a priority-group probe on a host was accepted";
  } catch (const config::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("is a host"), std::string::npos) << e.what();
  }
  try {
    (void)load_scenario(testing::write_temp("xoff_probe_bad2.toml", base + R"([[monitor.probe]]
kind = "dcqcn_rate_gbps"
node = "leaf0"
flow = 0
)"),
                        {});
    FAIL() << "a DCQCN probe on a switch was accepted";
  } catch (const config::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("is a switch"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace xoff::app
