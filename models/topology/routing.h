#pragma once
// Forwarding: per node, per destination host, the set of egress ports a packet
// may take (ECMP), computed once from the topology and a link-up mask and then
// read through next_hops(node, destination ordinal).
//
// Storage is compact (a 4,096-host fabric keeps a few MB, not one port list
// per (node, host) pair): next-hop groups are interned (a leaf's uplink set is
// stored once and shared by every remote destination), and a node whose every
// entry is the same group (a single-port host) keeps just that group id;
// other nodes keep one 4-byte group id per destination host.
//
// Routing algorithms:
// - shortest_path_ecmp: hop-count shortest paths; every neighbour on a shortest
//   path is a next hop (what an IGP with ECMP converges to).
// - up_down: Autonet up*/down* routing (Schroeder et al., "Autonet: a high-speed,
//   self-configuring local area network using point-to-point links", IEEE JSAC
//   1991). BFS levels from a root switch; each link's "up" end is the end nearer
//   the root (equal levels: the lower node index). A legal path is zero or more up
//   hops then zero or more down hops, so the channel dependency graph is acyclic
//   and PFC cannot deadlock (Dally & Seitz 1987).
// - tiered_up_down: the same rule with "up" = towards the higher NodeSpec tier
//   (ties: lower node index); the valley-free routing of a Clos, no root needed.
//
// Tables are destination-based (a packet carries no "already went down" bit), so
// up*/down* is applied hop by hop: a node that can reach the destination by down
// hops only uses its shortest down-only paths (a packet may have arrived on a down
// hop); any other node takes the up hops that minimise the length of the route
// the tables then realise. Along every route the remaining hop count falls by one
// per hop, so routes are loop-free and legal.
//
// On a Clos, tiered_up_down equals shortest_path_ecmp (valley-free paths are the
// shortest ones). Rooted up_down keeps host-to-host routes at shortest length on
// spine-leaf and fat-tree (tests check this) but narrows ECMP to paths through the
// root: on a fat-tree every inter-pod flow crosses the root core (Autonet's known
// weakness), and switches off the root's BFS tree may take longer routes.
//
// Failures: routing is a pure function of the link_up mask. After a link goes
// down the caller recomputes the tables and installs them after its convergence
// delay; until then the stale tables stay in force (which is where transient
// loops and black holes come from). Modelling that delay is the caller's job.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/core/ids.h"
#include "models/topology/topology.h"

namespace xoff::models {

// next_hops(node, h) for node index and destination host ordinal h; an empty span
// means no route (drop).
// Ports are listed in increasing port number.
class ForwardingTables {
 public:
  static constexpr uint32_t kNoHost = UINT32_MAX;

  uint32_t num_nodes = 0;
  uint32_t num_hosts = 0;
  std::vector<uint16_t> port_counts;  // per node, for validating static routes
  std::vector<uint32_t> self_host;    // per node: its host ordinal, or kNoHost

  // Empty tables for `topo` (every next-hop group empty).
  void reset(const Topology& topo, std::vector<uint16_t> ports_per_node);
  // Sets the next hops of `node` towards host `dst` (a host's own entry stays empty).
  void set(uint32_t node, uint32_t dst_host, std::span<const PortIndex> ports);

  std::span<const PortIndex> next_hops(uint32_t node, uint32_t dst_host) const {
    const uint32_t g = group_id(node, dst_host);
    return {ports_.data() + group_offsets_[g], ports_.data() + group_offsets_[g + 1]};
  }
  // The interned id of next_hops(node, dst_host): equal ids, equal port lists
  // (0 is the empty group).
  uint32_t group_id(uint32_t node, uint32_t dst_host) const {
    if (self_host[node] == dst_host) return 0;
    const Row& r = rows_[node];
    return r.cells.empty() ? (r.uniform == kUnset ? 0 : r.uniform) : r.cells[dst_host];
  }
  // Distinct next-hop groups (the empty group included) and the bytes held.
  size_t num_groups() const { return group_offsets_.size() - 1; }
  size_t memory_bytes() const;

 private:
  static constexpr uint32_t kUnset = UINT32_MAX;
  // A node whose every entry is the same group (a single-port host, a switch
  // seen from one tier) keeps just that group; the others keep one group id
  // per destination host.
  struct Row {
    uint32_t uniform = kUnset;
    std::vector<uint32_t> cells;  // empty: every entry is `uniform`
  };
  uint32_t intern(std::span<const PortIndex> ports);

  std::vector<Row> rows_;
  std::vector<uint32_t> group_offsets_;  // group g is ports_[off[g], off[g+1])
  std::vector<PortIndex> ports_;
  std::unordered_map<std::string, uint32_t> group_index_;  // group bytes -> id
};

// link_up[i] says whether Topology::links[i] carries traffic (size == links.size()).
ForwardingTables shortest_path_ecmp(const Topology& topo, const std::vector<bool>& link_up);
ForwardingTables up_down(const Topology& topo, const std::vector<bool>& link_up, uint32_t root);
ForwardingTables tiered_up_down(const Topology& topo, const std::vector<bool>& link_up);

// All links up, the usual starting mask.
std::vector<bool> all_links_up(const Topology& topo);

// Replaces the entry (node, dst_host) with `ports` (empty = black hole); used to
// build routing loops and bounces on purpose. Throws TopologyError for an unknown
// node, host or port.
struct StaticRoute {
  uint32_t node = 0;
  uint32_t dst_host = 0;
  std::vector<PortIndex> ports;
};
void apply_static_routes(ForwardingTables& tables, const std::vector<StaticRoute>& routes);

// ECMP choice for one packet: a well-mixed 64-bit hash of (flow_hash, switch_salt)
// reduced modulo hops.size(). Per-switch salts decorrelate consecutive stages
// (no hash polarisation). hops must not be empty.
PortIndex ecmp_select(std::span<const PortIndex> hops, uint32_t flow_hash, uint64_t switch_salt);
// The salt of a switch: first draw of sim::Rng(seed, node_name).
uint64_t ecmp_salt(uint64_t seed, std::string_view node_name);

// A channel is the egress direction of a link: port `port` of node `node`.
struct Channel {
  uint32_t node = 0;
  uint16_t port = 0;
  auto operator<=>(const Channel&) const = default;
};

// The channel dependency graph (Dally & Seitz): channel c1 -> c2 when some route
// arrives over c1 and leaves over c2. A cycle is a possible PFC deadlock. Returns
// the channels of one cycle in order, or an empty vector if the graph is acyclic.
std::vector<Channel> find_dependency_cycle(const Topology& topo, const ForwardingTables& tables);

}  // namespace xoff::models
