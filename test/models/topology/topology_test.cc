#include "models/topology/topology.h"

#include <gtest/gtest.h>

#include "test/models/topology/test_util.h"

namespace xoff::models {
namespace {
using namespace topo_test;

TEST(TopologySpineLeaf, CountsHostsNodesAndLinks) {
  const Topology t = spine_leaf(spine_leaf_cfg(4, 2, 8));
  // 4 leaves x 8 hosts = 32 hosts; 32 + 4 + 2 = 38 nodes; 32 host links + 4 x 2 fabric links.
  EXPECT_EQ(t.num_hosts(), 32u);
  EXPECT_EQ(t.nodes.size(), 38u);
  EXPECT_EQ(t.links.size(), 40u);
  EXPECT_EQ(t.nodes[node(t, "spine1")].tier, 2);
  EXPECT_EQ(t.nodes[node(t, "h31")].kind, NodeKind::kHost);
}

TEST(TopologySpineLeaf, OversubscriptionIsDownlinkOverUplinkCapacity) {
  SpineLeafConfig c = spine_leaf_cfg(4, 2, 8);
  c.fabric_rate = 400_Gbps;
  EXPECT_DOUBLE_EQ(c.oversubscription(), 1.0);  // 8 x 100G / (2 x 400G) = 800 / 800
  c.fabric_rate = 100_Gbps;
  EXPECT_DOUBLE_EQ(c.oversubscription(), 4.0);  // 8 x 100G / (2 x 100G) = 800 / 200
}

TEST(TopologySpineLeaf, PortsFollowTheNumberingRule) {
  const Topology t = spine_leaf(spine_leaf_cfg(4, 2, 8));
  const uint32_t leaf1 = node(t, "leaf1"), spine1 = node(t, "spine1");
  EXPECT_EQ(t.num_ports(leaf1), 10);                // 8 hosts + 2 spines
  EXPECT_EQ(t.peer(leaf1, 0).node, node(t, "h8"));  // leaf 1 hosts h8..h15 on ports 0..7
  EXPECT_EQ(t.peer(leaf1, 8).node, node(t, "spine0"));
  EXPECT_EQ(t.peer(leaf1, 9).node, spine1);
  const PortPeer p = t.peer(spine1, 3);  // spine s reaches leaf i on port i
  EXPECT_EQ(p.node, node(t, "leaf3"));
  EXPECT_EQ(p.port, 9);  // and leaf i reaches spine s on port hosts_per_leaf + s = 8 + 1
  EXPECT_FALSE(t.peer(spine1, 4).connected());
}

TEST(Topology, HostOrdinalsFollowNodeOrder) {
  const Topology t = spine_leaf(spine_leaf_cfg(4, 2, 8));
  // Hosts come after the 6 switches: h9 is node 6 + 9 = 15.
  EXPECT_EQ(node(t, "h9"), 15u);
  EXPECT_EQ(t.host_ordinal(15), 9u);
  EXPECT_EQ(t.host_node(9), 15u);
  EXPECT_EQ(t.host_nodes().size(), 32u);
  expect_topology_error([&] { t.host_ordinal(node(t, "leaf0")); }, "not a host");
  expect_topology_error([&] { t.host_node(32); }, "out of range");
  EXPECT_FALSE(t.find("leaf9").has_value());
}

TEST(Topology, PortMapAgreesWithPeer) {
  const Topology t = fat_tree({4, 100_Gbps, 1_us});
  const PortMap pm(t);
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    ASSERT_EQ(pm.num_ports(n), t.num_ports(n));
    for (uint16_t p = 0; p < pm.num_ports(n); ++p) {
      EXPECT_EQ(pm.peer(n, p).node, t.peer(n, p).node);
      EXPECT_EQ(pm.peer(n, p).port, t.peer(n, p).port);
      EXPECT_EQ(pm.peer(n, p).link, t.peer(n, p).link);
    }
  }
}

TEST(TopologyFatTree, K4Has16Hosts20SwitchesAnd48Links) {
  const Topology t = fat_tree({4, 100_Gbps, 1_us});
  // k^3/4 = 16 hosts; k pods x (k/2 + k/2) = 16 edge+agg, (k/2)^2 = 4 cores: 20 switches.
  EXPECT_EQ(t.num_hosts(), 16u);
  EXPECT_EQ(t.nodes.size() - t.num_hosts(), 20u);
  // 16 host links + k x (k/2)^2 = 16 edge-agg + k x (k/2)^2 = 16 agg-core.
  EXPECT_EQ(t.links.size(), 48u);
  EXPECT_EQ(t.nodes[node(t, "core3")].tier, 3);
  EXPECT_EQ(t.nodes[node(t, "agg2_1")].tier, 2);
}

TEST(TopologyFatTree, AggregationIReachesCoresIkOver2Onward) {
  const Topology t = fat_tree({4, 100_Gbps, 1_us});
  // agg<p>_1: ports 0,1 to edge<p>_0, edge<p>_1; ports 2,3 to core2, core3.
  const uint32_t agg = node(t, "agg3_1");
  EXPECT_EQ(t.peer(agg, 0).node, node(t, "edge3_0"));
  EXPECT_EQ(t.peer(agg, 2).node, node(t, "core2"));
  EXPECT_EQ(t.peer(agg, 3).node, node(t, "core3"));
  EXPECT_EQ(t.peer(agg, 3).port, 3);  // core c reaches pod p on port p
  // Edge 1 of pod 2 hosts h(2*4 + 1*2 + j) = h10, h11.
  EXPECT_EQ(t.peer(node(t, "edge2_1"), 1).node, node(t, "h11"));
}

TEST(TopologyFatTree, RejectsOddK) {
  expect_topology_error([] { fat_tree({3, 100_Gbps, 1_us}); }, "k must be even");
}

TEST(TopologyRing, LinksSwitchIToNextModN) {
  const Topology t = ring(ring_cfg(4, 2));
  // 4 switches + 8 hosts; 8 host links + 4 ring links.
  EXPECT_EQ(t.nodes.size(), 12u);
  EXPECT_EQ(t.links.size(), 12u);
  // After 2 host ports, ring neighbours in increasing index: sw0 -> sw1, sw3; sw3 -> sw0, sw2.
  EXPECT_EQ(t.peer(node(t, "sw0"), 2).node, node(t, "sw1"));
  EXPECT_EQ(t.peer(node(t, "sw0"), 3).node, node(t, "sw3"));
  EXPECT_EQ(t.peer(node(t, "sw3"), 2).node, node(t, "sw0"));
  EXPECT_EQ(t.peer(node(t, "sw3"), 3).node, node(t, "sw2"));
  EXPECT_EQ(t.peer(node(t, "sw2"), 1).node, node(t, "h5"));
  expect_topology_error([] { ring(ring_cfg(2, 1)); }, "switches >= 3");
}

std::vector<NodeSpec> two_switches_one_host() {
  return {{"s0", NodeKind::kSwitch, 1}, {"s1", NodeKind::kSwitch, 1}, {"h0", NodeKind::kHost, 0}};
}

TEST(TopologyExplicit, AssignsMissingPortsAfterExplicitOnes) {
  const Topology t = explicit_topology(
      two_switches_one_host(), {{0, 1, 0, -1, 100_Gbps, 1_us}, {0, 2, -1, -1, 25_Gbps, 5_ns}});
  // s0 port 0 is explicit, so the host link takes s0 port 1; the others get port 0.
  EXPECT_EQ(t.links[0].b_port, 0);
  EXPECT_EQ(t.links[1].a_port, 1);
  EXPECT_EQ(t.links[1].b_port, 0);
  EXPECT_EQ(t.links[1].rate, 25_Gbps);
}

TEST(TopologyValidate, RejectsDuplicateNames) {
  auto nodes = two_switches_one_host();
  nodes[1].name = "s0";
  expect_topology_error([&] { explicit_topology(nodes, {}); }, "duplicate node name 's0'");
}

TEST(TopologyValidate, RejectsLinkToItself) {
  expect_topology_error(
      [] {
        explicit_topology(two_switches_one_host(), {{1, 1, -1, -1, 100_Gbps, 1_us}});
      },
      "connects 's1' to itself");
}

TEST(TopologyValidate, RejectsPortUsedTwice) {
  expect_topology_error(
      [] {
        explicit_topology(two_switches_one_host(),
                          {{0, 1, 3, -1, 100_Gbps, 1_us}, {0, 2, 3, -1, 100_Gbps, 1_us}});
      },
      "port 3 of 's0' is used by links 0 and 1");
}

TEST(TopologyValidate, NamesHostWithoutExactlyOneLink) {
  expect_topology_error(
      [] {
        explicit_topology(two_switches_one_host(), {{0, 1, -1, -1, 100_Gbps, 1_us}});
      },
      "host 'h0' has 0 links");
  expect_topology_error(
      [] {
        explicit_topology(two_switches_one_host(),
                          {{0, 2, -1, -1, 100_Gbps, 1_us}, {1, 2, -1, -1, 100_Gbps, 1_us}});
      },
      "host 'h0' has 2 links");
}

TEST(TopologyValidate, NamesAnUnreachableNode) {
  auto nodes = two_switches_one_host();
  nodes.push_back({"s2", NodeKind::kSwitch, 1});
  expect_topology_error(
      [&] {
        explicit_topology(nodes, {{0, 2, -1, -1, 100_Gbps, 1_us}, {1, 3, -1, -1, 100_Gbps, 1_us}});
      },
      "node 's1' is not reachable from 's0'");
}

TEST(TopologyValidate, RejectsUnknownNodeAndBadTier) {
  expect_topology_error(
      [] {
        explicit_topology(two_switches_one_host(), {{0, 7, -1, -1, 100_Gbps, 1_us}});
      },
      "refers to node 7");
  auto nodes = two_switches_one_host();
  nodes[2].tier = 1;
  expect_topology_error([&] { explicit_topology(nodes, {}); }, "a host has tier 0");
}

}  // namespace
}  // namespace xoff::models

namespace xoff::models {
namespace {
using namespace topo_test;

RailConfig rail_cfg() {
  RailConfig c;
  c.servers = 4;
  c.gpus_per_server = 8;
  c.servers_per_leaf = 2;
  c.spines = 4;
  c.host_rate = 400_Gbps;
  c.fabric_rate = 400_Gbps;
  c.host_delay = 1_us;
  c.fabric_delay = 1_us;
  return c;
}

TEST(TopologyRail, GpuGOfEveryServerIsOnRailG) {
  const Topology t = rail_optimised(rail_cfg());
  // 4 servers x 8 GPUs = 32 hosts; 8 rails x 2 leaves = 16 leaves; 4 spines:
  // 52 nodes; 32 host links + 16 x 4 leaf-spine links = 96 links.
  EXPECT_EQ(t.num_hosts(), 32u);
  EXPECT_EQ(t.nodes.size(), 52u);
  EXPECT_EQ(t.links.size(), 96u);
  // Host 8 s + g is GPU g of server s: h13 = server 1, GPU 5 -> rail 5, leaf 0
  // (servers 0 and 1), its second host port (after server 0's GPU 5, h5).
  const uint32_t leaf = node(t, "rail5_leaf0");
  EXPECT_EQ(t.peer(leaf, 0).node, node(t, "h5"));
  EXPECT_EQ(t.peer(leaf, 1).node, node(t, "h13"));
  EXPECT_EQ(t.peer(leaf, 2).node, node(t, "spine0"));  // then the uplinks
  EXPECT_EQ(t.num_ports(leaf), 6);
  // Server 2's GPU 5 (h21) is on rail 5's second leaf.
  EXPECT_EQ(t.peer(node(t, "h21"), 0).node, node(t, "rail5_leaf1"));
  // Host ordinals follow node order: h21 is ordinal 21.
  EXPECT_EQ(t.host_ordinal(node(t, "h21")), 21u);
  EXPECT_EQ(t.nodes[node(t, "spine3")].tier, 2);
}

TEST(TopologyRail, OversubscriptionIsServersPerLeafOverSpines) {
  RailConfig c = rail_cfg();
  EXPECT_DOUBLE_EQ(c.oversubscription(), 0.5);  // 2 x 400G down / (4 x 400G up)
  c.servers_per_leaf = 4;
  c.spines = 1;
  EXPECT_DOUBLE_EQ(c.oversubscription(), 4.0);  // 4 x 400G / 400G
  c.servers_per_leaf = 3;                       // does not divide 4 servers
  EXPECT_THROW(rail_optimised(c), TopologyError);
}

}  // namespace
}  // namespace xoff::models
