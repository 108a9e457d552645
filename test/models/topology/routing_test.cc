#include "models/topology/routing.h"

#include <gtest/gtest.h>

#include "sim/rng.h"
#include "test/models/topology/test_util.h"

namespace xoff::models {
namespace {
using namespace topo_test;
using Ports = std::vector<uint16_t>;

Ports hops(const ForwardingTables& t, uint32_t node, uint32_t dst_host) {
  Ports out;
  for (PortIndex p : t.next_hops(node, dst_host)) out.push_back(p.value());
  return out;
}

// Every (node, host) entry equal.
bool same_routes(const ForwardingTables& a, const ForwardingTables& b) {
  if (a.num_nodes != b.num_nodes || a.num_hosts != b.num_hosts) return false;
  for (uint32_t n = 0; n < a.num_nodes; ++n) {
    for (uint32_t h = 0; h < a.num_hosts; ++h) {
      if (hops(a, n, h) != hops(b, n, h)) return false;
    }
  }
  return true;
}

// 4 leaves x 2 spines x 8 hosts: leaf i = node i, spine s = node 4 + s, host h = node 6 + h.
class TopologyRoutingSpineLeaf : public ::testing::Test {
 protected:
  Topology topo = spine_leaf(spine_leaf_cfg(4, 2, 8));
  ForwardingTables sp = shortest_path_ecmp(topo, all_links_up(topo));
};

TEST_F(TopologyRoutingSpineLeaf, LeafToRemoteHostHasOneNextHopPerSpine) {
  // h8 is on leaf1: leaf0 -> spine0 (port 8) or spine1 (port 9) -> leaf1 -> h8.
  EXPECT_EQ(hops(sp, 0, 8), (Ports{8, 9}));
}

TEST_F(TopologyRoutingSpineLeaf, SpineAndLocalLeafHaveOneNextHop) {
  EXPECT_EQ(hops(sp, 4, 8), (Ports{1}));       // spine0 reaches leaf1 on port 1
  EXPECT_EQ(hops(sp, 0, 3), (Ports{3}));       // h3 hangs off leaf0 port 3
  EXPECT_EQ(hops(sp, 6 + 5, 20), (Ports{0}));  // a host's only port
  EXPECT_TRUE(hops(sp, 6 + 5, 5).empty());     // no route to itself
  // Interned groups: the empty one, single ports {0}..{7} (host ports of a
  // leaf; a host's and a spine's ports are among them) and the uplinks {8, 9}.
  EXPECT_EQ(sp.num_groups(), 10u);
}

TEST_F(TopologyRoutingSpineLeaf, LinkFailureRemovesTheHopAndRoutesAround) {
  std::vector<bool> up = all_links_up(topo);
  up[32] = false;  // links: 32 host links, then leaf i - spine s at 32 + 2i + s: leaf0-spine0
  const ForwardingTables t = shortest_path_ecmp(topo, up);
  EXPECT_EQ(hops(t, 0, 8), (Ports{9}));  // leaf0 -> h8 only via spine1
  EXPECT_EQ(hops(t, 2, 0), (Ports{9}));  // leaf2 -> h0 only via spine1 (spine0 lost leaf0)
  // spine0 -> h0: down to any other leaf, up to spine1, down to leaf0: 4 hops, 3 ways.
  EXPECT_EQ(hops(t, 4, 0), (Ports{1, 2, 3}));
  // Valley-free routing refuses that bounce: spine0 has no route to h0 at all.
  const ForwardingTables vf = tiered_up_down(topo, up);
  EXPECT_TRUE(hops(vf, 4, 0).empty());
  EXPECT_EQ(hops(vf, 2, 0), (Ports{9}));
}

TEST_F(TopologyRoutingSpineLeaf, StaticRouteReplacesOneEntry) {
  ForwardingTables t = sp;
  apply_static_routes(t, {{0, 8, {PortIndex(9)}}, {4, 9, {}}});
  EXPECT_EQ(hops(t, 0, 8), (Ports{9}));
  EXPECT_TRUE(hops(t, 4, 9).empty());       // black hole
  EXPECT_EQ(hops(t, 0, 9), (Ports{8, 9}));  // neighbours untouched
  EXPECT_EQ(hops(t, 5, 31), hops(sp, 5, 31));
}

TEST_F(TopologyRoutingSpineLeaf, StaticRouteRejectsMissingPortNodeAndHost) {
  ForwardingTables t = sp;
  expect_topology_error(
      [&] {
        apply_static_routes(t, {{4, 0, {PortIndex(4)}}});
      },
      "port 4 does not exist (node has 4 ports)");
  expect_topology_error([&] { apply_static_routes(t, {{38, 0, {}}}); }, "no such node");
  expect_topology_error([&] { apply_static_routes(t, {{0, 32, {}}}); }, "no such host");
}

TEST_F(TopologyRoutingSpineLeaf, StaticBounceCreatesADependencyCycle) {
  EXPECT_TRUE(find_dependency_cycle(topo, sp).empty());  // a Clos with shortest paths is safe
  ForwardingTables t = sp;
  // spine0 sends h8 back down to leaf0, which sends it up to spine0 again: a loop.
  apply_static_routes(t, {{4, 8, {PortIndex(0)}}, {0, 8, {PortIndex(8)}}});
  const std::vector<Channel> cycle = find_dependency_cycle(topo, t);
  EXPECT_EQ(cycle.size(), 2u);  // leaf0:p8 -> spine0:p0 -> leaf0:p8
}

TEST_F(TopologyRoutingSpineLeaf, TieredUpDownEqualsShortestPathOnClos) {
  const ForwardingTables vf = tiered_up_down(topo, all_links_up(topo));
  EXPECT_TRUE(same_routes(vf, sp));
}

TEST(TopologyRoutingFatTree, EcmpFansOutAtEdgeAndAggregation) {
  const Topology t = fat_tree({4, 100_Gbps, 1_us});
  const ForwardingTables sp = shortest_path_ecmp(t, all_links_up(t));
  // h15 lives in pod 3. From edge0_0: up to agg0_0 or agg0_1 (ports 2, 3).
  EXPECT_EQ(hops(sp, node(t, "edge0_0"), 15), (Ports{2, 3}));
  // From agg0_0: up to core0 or core1 (ports 2, 3); from core0 straight to pod 3 (port 3).
  EXPECT_EQ(hops(sp, node(t, "agg0_0"), 15), (Ports{2, 3}));
  EXPECT_EQ(hops(sp, node(t, "core0"), 15), (Ports{3}));
  const ForwardingTables vf = tiered_up_down(t, all_links_up(t));
  EXPECT_TRUE(same_routes(vf, sp));
}

TEST(TopologyEcmp, SpreadsFlowsEvenlyOverFourNextHops) {
  const Topology t = spine_leaf(spine_leaf_cfg(4, 4, 8));
  const ForwardingTables sp = shortest_path_ecmp(t, all_links_up(t));
  const auto next = sp.next_hops(0, 8);
  ASSERT_EQ(next.size(), 4u);
  const uint64_t salt = ecmp_salt(7, "leaf0");
  sim::Rng flows(7, "flows");
  int count[4] = {};
  for (int i = 0; i < 10'000; ++i) {
    ++count[ecmp_select(next, static_cast<uint32_t>(flows.next_u64()), salt).value() - 8];
  }
  // 10^4 / 4 = 2500 each, +-5% = +-125 (binomial sd = sqrt(10^4 x 1/4 x 3/4) = 43).
  for (int c : count) EXPECT_NEAR(c, 2500, 125);
}

TEST(TopologyEcmp, IsDeterministicAndSaltsDecorrelateSwitches) {
  const std::vector<PortIndex> next{PortIndex(0), PortIndex(1), PortIndex(2), PortIndex(3)};
  EXPECT_EQ(ecmp_salt(1, "leaf0"), sim::Rng(1, "leaf0").next_u64());
  EXPECT_EQ(ecmp_select(next, 12345, 99), ecmp_select(next, 12345, 99));
  const uint64_t a = ecmp_salt(1, "leaf0"), b = ecmp_salt(1, "spine0");
  int joint[4][4] = {};
  for (uint32_t f = 0; f < 10'000; ++f) {
    ++joint[ecmp_select(next, f, a).value()][ecmp_select(next, f, b).value()];
  }
  // Independent choices put 10^4 / 16 = 625 flows in each (a, b) cell (sd ~ 24);
  // polarised hashing would fill only the diagonal.
  for (auto& row : joint) {
    for (int c : row) EXPECT_NEAR(c, 625, 125);
  }
}

}  // namespace
}  // namespace xoff::models
