// [[device]], the DSCP trust boundary and the mismark fault: read onto the
// nodes they name, DCBX resolved per port, and refused with the key's
// position where they do not apply.
#include <gtest/gtest.h>

#include "app/config/error.h"
#include "app/scenario/scenario.h"
#include "scenario_util.h"

namespace xoff::app {
namespace {
// leaf0 with h0, h1 (ports 0, 1) and the spine (port 2).
constexpr const char* kFabric = R"([scenario]
name = "device_keys"
duration = "1ms"
[topology]
kind = "spine_leaf"
leaves = 1
spines = 1
hosts_per_leaf = 2
host_rate = "100Gbps"
)";

ScenarioConfig load(const std::string& tail) {
  return load_scenario(testing::write_temp("xoff_device_keys.toml", std::string(kFabric) + tail),
                       {});
}

std::string error_of(const std::string& tail) {
  try {
    (void)load(tail);
  } catch (const config::ScenarioError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(DeviceKeys, SettingsLandOnTheNamedNodesAndDcbxResolvesPerPort) {
  const ScenarioConfig s = load(R"([[device]]
nodes = ["h0"]
pfc_classes = [3, 4]
dcbx = "non_willing"
[[device]]
nodes = ["h1"]
pfc_classes = [5]
[[device]]
nodes = ["leaf0"]
trust = "pcp"
[[device.dscp]]
dscp = 24
class = 1
[classification]
host_lossless = "roce_only"
host_remark_dscp = 8
[[fault]]
kind = "mismark"
host = "h1"
protocol = "tcp"
dscp = 26
start = "10us"
stop = "20us"
)");
  const uint32_t h0 = *s.topology.find("h0");
  const uint32_t h1 = *s.topology.find("h1");
  const uint32_t leaf = *s.topology.find("leaf0");
  // h0 non-willing with [3, 4] against a non-willing leaf with [3]: both keep theirs.
  EXPECT_EQ(s.port_pfc[h0][0], (1u << 3) | (1u << 4));
  EXPECT_EQ(s.port_pfc[leaf][0], 1u << 3);
  // h1 willing (the default for hosts): takes the leaf's [3] over its own [5].
  EXPECT_EQ(s.port_pfc[h1][0], 1u << 3);
  EXPECT_EQ(s.devices[leaf].classification.trust, models::ClassificationConfig::Trust::kPcp);
  EXPECT_EQ(s.devices[leaf].classification.dscp_to_tc[24], 1);
  EXPECT_EQ(s.devices[leaf].classification.dscp_to_tc[26], 3);  // others keep DSCP >> 3
  EXPECT_TRUE(s.switch_config.classification.host_lossless_roce_only);
  EXPECT_EQ(s.switch_config.classification.host_remark_dscp, 8);
  ASSERT_EQ(s.mismarks.size(), 1u);
  EXPECT_EQ(s.mismarks[0].host, 1u);
  EXPECT_EQ(s.mismarks[0].protocols, 1u << static_cast<int>(models::Protocol::kTcp));
  EXPECT_EQ(s.mismarks[0].dscp, 26);
  EXPECT_EQ(s.mismarks[0].pcp, 3);  // its class selector
  // h0's extra class 4 is lossless nowhere (links are compared on the
  // lossless classes); the leaf trusting PCP against a DSCP spine is reported.
  ASSERT_EQ(s.qos_warnings.size(), 1u);
  EXPECT_EQ(s.qos_warnings[0], "link leaf0:p2 - spine0:p0: leaf0 trusts PCP, spine0 DSCP");
}

TEST(DeviceKeys, WhatDoesNotApplyIsRefusedAtItsPosition) {
  EXPECT_NE(error_of("[[device]]\nnodes = [\"h0\"]\ntrust = \"pcp\"\n")
                .find("xoff_device_keys.toml:12:9: error: device[0].trust applies to switches"),
            std::string::npos);
  EXPECT_NE(error_of("[[device]]\nnodes = [\"leaf0\"]\nroce_dscp = 0\n")
                .find("12:13: error: device[0].roce_dscp applies to host NICs"),
            std::string::npos);
  EXPECT_NE(error_of("[[device]]\nnodes = [\"h9\"]\n")
                .find("11:9: error: device[0].nodes: unknown node \"h9\""),
            std::string::npos);
  EXPECT_NE(error_of("[[device]]\nnodes = [\"h0\"]\n[[device]]\nnodes = [\"h0\"]\n")
                .find("\"h0\" is already configured by device[0]"),
            std::string::npos);
  EXPECT_NE(error_of("[[device]]\nnodes = [\"h0\"]\ndcbx = \"maybe\"\n")
                .find("expected one of \"willing\", \"non_willing\", \"off\""),
            std::string::npos);
  EXPECT_NE(
      error_of("[[fault]]\nkind = \"mismark\"\nhost = \"h0\"\ndscp = 64\n").find("fault[0].dscp"),
      std::string::npos);
  EXPECT_NE(error_of("[[fault]]\nkind = \"mismark\"\nhost = \"h0\"\ndscp = 0\nstart = \"5us\"\n"
                     "stop = \"5us\"\n")
                .find("fault[0].stop must be after fault[0].start"),
            std::string::npos);
}

}  // namespace
}  // namespace xoff::app
