#pragma once
// The fabric as data: nodes (hosts and switches, with a tier) and full-duplex links
// (rate, one-way propagation delay, a port number at each end), plus the generators
// for the topologies people study: spine-leaf, the 3-tier k-ary fat-tree
// (Al-Fares et al., SIGCOMM 2008), a switch ring (the classic PFC deadlock
// set-up) and an explicit node/link list.
//
// Node indices are positions in Topology::nodes. Hosts are also numbered by
// ordinal 0..H-1 in node order; forwarding tables are indexed by that ordinal.
//
// Port numbering rule: each node's ports are numbered 0, 1, ... in the order its
// links are added. The generators add host-facing (downward) links first, then
// uplinks, each group in increasing peer node index. So leaf i of a spine-leaf
// has host ports 0..hosts_per_leaf-1 then spine s on port hosts_per_leaf + s, and
// spine s reaches leaf i on port i. Ring switch i has its hosts first, then its two
// ring neighbours in increasing node index.
//
// Tiers: 0 = host, 1 = leaf / ToR / edge / ring switch, 2 = spine / aggregation,
// 3 = core. tiered_up_down() routing relies on them.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/units.h"

namespace xoff::models {

// Bad topology input (a scenario error): what() names the nodes, links or ports.
class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class NodeKind { kHost, kSwitch };

struct NodeSpec {
  std::string name;
  NodeKind kind = NodeKind::kSwitch;
  int tier = 1;  // 0 host, 1 leaf/ToR/edge/ring, 2 spine/aggregation, 3 core
};

// A full-duplex link: both directions have `rate` and one-way propagation `delay`.
struct LinkSpec {
  uint32_t a = 0, b = 0;            // node indices
  uint16_t a_port = 0, b_port = 0;  // port numbers on a and b
  sim::BitsPerSecond rate;
  sim::Duration delay;
};

inline constexpr uint32_t kNoNode = UINT32_MAX;

// What a port of a node connects to. node == kNoNode: the port number is unused.
struct PortPeer {
  uint32_t node = kNoNode;
  uint16_t port = 0;
  uint32_t link = 0;
  bool connected() const { return node != kNoNode; }
};

struct Topology {
  std::vector<NodeSpec> nodes;
  std::vector<LinkSpec> links;

  uint32_t num_hosts() const;
  // Host ordinal of a host node (throws TopologyError for a switch or bad index).
  uint32_t host_ordinal(uint32_t node) const;
  // Node index of host ordinal h (throws TopologyError if h >= num_hosts()).
  uint32_t host_node(uint32_t ordinal) const;
  // Node index of every host, by ordinal.
  std::vector<uint32_t> host_nodes() const;
  // Ports on a node: highest port number used + 1 (0 if it has no links).
  uint16_t num_ports(uint32_t node) const;
  std::optional<uint32_t> find(std::string_view name) const;
  // The far end of (node, port); not connected() if no link uses that port.
  PortPeer peer(uint32_t node, uint16_t port) const;

  // Throws TopologyError naming the culprit for: a link to an unknown node, a
  // link to itself, a zero rate or negative delay, duplicate node names, a tier
  // that does not fit the kind, a port used twice, a host without exactly one
  // link, a disconnected graph (names a node unreachable from node 0).
  void validate() const;
};

// All (node, port) -> peer at once, flattened: ports(n)[p] is the peer of port p.
class PortMap {
 public:
  explicit PortMap(const Topology& topo);
  std::span<const PortPeer> ports(uint32_t node) const {
    return {peers_.data() + offsets_[node], peers_.data() + offsets_[node + 1]};
  }
  const PortPeer& peer(uint32_t node, uint16_t port) const { return peers_[offsets_[node] + port]; }
  uint16_t num_ports(uint32_t node) const {
    return static_cast<uint16_t>(offsets_[node + 1] - offsets_[node]);
  }

 private:
  std::vector<uint32_t> offsets_;
  std::vector<PortPeer> peers_;
};

// ---- Generators (all return validated topologies) ----

// Two-tier Clos: every leaf linked once to every spine. Nodes: leaf0..leafL-1,
// spine0..spineS-1, then hosts h0..; leaf i has hosts i*hosts_per_leaf.. .
struct SpineLeafConfig {
  int leaves = 4;
  int spines = 2;
  int hosts_per_leaf = 8;
  sim::BitsPerSecond host_rate;
  sim::BitsPerSecond fabric_rate;
  sim::Duration host_delay;
  sim::Duration fabric_delay;

  // Downlink over uplink capacity at a leaf: hosts_per_leaf*host_rate / (spines*fabric_rate).
  double oversubscription() const;
};
Topology spine_leaf(const SpineLeafConfig& cfg);

// Rail-optimised leaf-spine of an AI cluster (NVIDIA DGX SuperPOD style):
// `servers` servers of `gpus_per_server` GPUs, each GPU a host with its own
// NIC; GPU g of every server is on rail g, and rail g has its own leaves
// (servers_per_leaf servers each), so ring and tree neighbours of the same
// local rank are one leaf apart. Every leaf links once to every spine.
// Hosts are numbered server-major: host s * gpus_per_server + g is GPU g of
// server s (named h<n>). Nodes: rail<g>_leaf<j> (leaf g * leaves_per_rail + j),
// spine0.., then the hosts.
struct RailConfig {
  int servers = 16;
  int gpus_per_server = 8;
  int servers_per_leaf = 16;  // divides servers
  int spines = 8;
  sim::BitsPerSecond host_rate;
  sim::BitsPerSecond fabric_rate;
  sim::Duration host_delay;
  sim::Duration fabric_delay;

  int leaves_per_rail() const { return servers / servers_per_leaf; }
  // servers_per_leaf * host_rate / (spines * fabric_rate).
  double oversubscription() const;
};
Topology rail_optimised(const RailConfig& cfg);

// Standard 3-tier k-ary fat-tree: k pods of k/2 edge + k/2 aggregation switches,
// (k/2)^2 cores, k^3/4 hosts; every link at `rate` and `delay`. Edge i of pod p
// hosts h(p*(k/2)^2 + i*k/2 + j); agg i of every pod links to cores i*k/2 .. i*k/2+k/2-1.
// Nodes: edge<p>_<i>, agg<p>_<i>, core<c>, then hosts h<n>.
struct FatTreeConfig {
  int k = 4;  // even, >= 2
  sim::BitsPerSecond rate;
  sim::Duration delay;
};
Topology fat_tree(const FatTreeConfig& cfg);

// Ring of switches sw0..swN-1 (N >= 3), switch i linked to switch (i+1) mod N,
// each with hosts_per_switch hosts (switch i hosts i*hosts_per_switch..).
struct RingConfig {
  int switches = 4;
  int hosts_per_switch = 1;
  sim::BitsPerSecond host_rate;
  sim::BitsPerSecond fabric_rate;
  sim::Duration host_delay;
  sim::Duration fabric_delay;
};
Topology ring(const RingConfig& cfg);

// A link of an explicit topology; a port of -1 takes the lowest number not yet
// used on that node (explicit ports are reserved first, then -1 ports assigned in
// link order).
struct LinkInput {
  uint32_t a = 0, b = 0;
  int a_port = -1, b_port = -1;
  sim::BitsPerSecond rate;
  sim::Duration delay;
};
Topology explicit_topology(std::vector<NodeSpec> nodes, const std::vector<LinkInput>& links);

}  // namespace xoff::models
