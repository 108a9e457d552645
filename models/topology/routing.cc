#include "models/topology/routing.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string>

#include "models/topology/graph_util.h"
#include "sim/check.h"
#include "sim/rng.h"

namespace xoff::models {
namespace {

constexpr int kInf = std::numeric_limits<int>::max();

// Next hops of every node towards one destination, flattened by node.
struct Column {
  std::vector<uint32_t> offsets{0};
  std::vector<PortIndex> ports;
  void end_node() { offsets.push_back(static_cast<uint32_t>(ports.size())); }
};

void check_mask(const Topology& topo, const std::vector<bool>& link_up) {
  if (link_up.size() != topo.links.size()) {
    throw TopologyError("link_up mask has " + std::to_string(link_up.size()) + " entries for " +
                        std::to_string(topo.links.size()) + " links");
  }
}

// Empty tables for `topo`, sized and with every node's port count.
ForwardingTables empty_tables(const Topology& topo, const PortMap& pm) {
  std::vector<uint16_t> counts;
  for (uint32_t n = 0; n < topo.nodes.size(); ++n) counts.push_back(pm.num_ports(n));
  ForwardingTables t;
  t.reset(topo, std::move(counts));
  return t;
}

// Writes one destination's column (next hops of every node towards `dst`).
void add_column(ForwardingTables& t, uint32_t dst, const Column& c) {
  for (uint32_t n = 0; n < t.num_nodes; ++n) {
    t.set(
        n, dst,
        std::span<const PortIndex>(c.ports.data() + c.offsets[n], c.offsets[n + 1] - c.offsets[n]));
  }
}

// Ports of `node` whose link is up and whose peer satisfies `pred(peer)`.
template <class Pred>
void add_ports(const PortMap& pm, const std::vector<bool>& up, uint32_t node, Pred pred,
               Column& c) {
  const auto ports = pm.ports(node);
  for (size_t p = 0; p < ports.size(); ++p) {
    if (ports[p].connected() && up[ports[p].link] && pred(ports[p].node)) {
      c.ports.push_back(PortIndex(static_cast<uint16_t>(p)));
    }
  }
}

// Up*/down* for any total order of the nodes: rank[u] < rank[v] means u is "above"
// v, so v -> u is an up hop. See routing.h for the destination-based rule.
Column up_down_column(const PortMap& pm, const std::vector<bool>& up,
                      const std::vector<uint32_t>& by_rank, const std::vector<uint32_t>& rank,
                      uint32_t dst) {
  const size_t n = rank.size();
  std::vector<int> down(n, kInf), real(n, kInf);
  down[dst] = 0;
  auto best = [&](uint32_t v, const std::vector<int>& d, bool upward) {
    int m = kInf;
    for (const PortPeer& q : pm.ports(v)) {
      if (q.connected() && up[q.link] && (rank[q.node] < rank[v]) == upward)
        m = std::min(m, d[q.node]);
    }
    return m == kInf ? kInf : m + 1;
  };
  for (auto it = by_rank.rbegin(); it != by_rank.rend(); ++it) {
    if (*it != dst) down[*it] = best(*it, down, false);
  }
  for (uint32_t v : by_rank) real[v] = down[v] != kInf ? down[v] : best(v, real, true);
  Column c;
  for (uint32_t v = 0; v < n; ++v) {
    if (v != dst && down[v] != kInf) {
      add_ports(
          pm, up, v, [&](uint32_t u) { return rank[u] > rank[v] && down[u] == down[v] - 1; }, c);
    } else if (v != dst && real[v] != kInf) {
      add_ports(
          pm, up, v, [&](uint32_t u) { return rank[u] < rank[v] && real[u] == real[v] - 1; }, c);
    }
    c.end_node();
  }
  return c;
}

// Orders nodes by key (then index) and runs up*/down* towards every host.
ForwardingTables up_down_by_key(const Topology& topo, const std::vector<bool>& link_up,
                                const std::vector<int>& key) {
  std::vector<uint32_t> by_rank(topo.nodes.size()), rank(topo.nodes.size());
  std::iota(by_rank.begin(), by_rank.end(), 0u);
  std::sort(by_rank.begin(), by_rank.end(),
            [&](uint32_t a, uint32_t b) { return key[a] != key[b] ? key[a] < key[b] : a < b; });
  for (uint32_t r = 0; r < by_rank.size(); ++r) rank[by_rank[r]] = r;
  const PortMap pm(topo);
  ForwardingTables t = empty_tables(topo, pm);
  uint32_t h = 0;
  for (uint32_t dst : topo.host_nodes())
    add_column(t, h++, up_down_column(pm, link_up, by_rank, rank, dst));
  return t;
}

}  // namespace

std::vector<bool> all_links_up(const Topology& topo) {
  return std::vector<bool>(topo.links.size(), true);
}

ForwardingTables shortest_path_ecmp(const Topology& topo, const std::vector<bool>& link_up) {
  check_mask(topo, link_up);
  const detail::Graph g = detail::make_graph(topo, &link_up);
  const PortMap pm(topo);
  ForwardingTables t = empty_tables(topo, pm);
  uint32_t h = 0;
  for (uint32_t dst : topo.host_nodes()) {
    const std::vector<int> dist = detail::hop_distances(g, dst);
    Column c;
    for (uint32_t v = 0; v < topo.nodes.size(); ++v) {
      if (dist[v] > 0)
        add_ports(
            pm, link_up, v, [&](uint32_t u) { return dist[u] == dist[v] - 1; }, c);
      c.end_node();
    }
    add_column(t, h++, c);
  }
  return t;
}

ForwardingTables up_down(const Topology& topo, const std::vector<bool>& link_up, uint32_t root) {
  check_mask(topo, link_up);
  if (root >= topo.nodes.size() || topo.nodes[root].kind != NodeKind::kSwitch) {
    throw TopologyError("up_down: root " + std::to_string(root) + " is not a switch");
  }
  std::vector<int> level = detail::hop_distances(detail::make_graph(topo, &link_up), root);
  for (int& l : level) {
    if (l == detail::kUnreachable) l = kInf;  // cut off from the root: below everything
  }
  return up_down_by_key(topo, link_up, level);
}

ForwardingTables tiered_up_down(const Topology& topo, const std::vector<bool>& link_up) {
  check_mask(topo, link_up);
  std::vector<int> key;
  for (const NodeSpec& n : topo.nodes) key.push_back(-n.tier);  // higher tier = nearer the top
  return up_down_by_key(topo, link_up, key);
}

void apply_static_routes(ForwardingTables& t, const std::vector<StaticRoute>& routes) {
  for (const StaticRoute& r : routes) {
    const std::string where =
        "static route at node " + std::to_string(r.node) + " to host " + std::to_string(r.dst_host);
    if (r.node >= t.num_nodes) throw TopologyError(where + ": no such node");
    if (r.dst_host >= t.num_hosts) throw TopologyError(where + ": no such host");
    for (PortIndex p : r.ports) {
      if (p.value() >= t.port_counts[r.node]) {
        throw TopologyError(where + ": port " + std::to_string(p.value()) +
                            " does not exist (node has " + std::to_string(t.port_counts[r.node]) +
                            " ports)");
      }
    }
    t.set(r.node, r.dst_host, r.ports);  // later routes win
  }
}

void ForwardingTables::reset(const Topology& topo, std::vector<uint16_t> ports_per_node) {
  num_nodes = static_cast<uint32_t>(topo.nodes.size());
  num_hosts = static_cast<uint32_t>(topo.host_nodes().size());
  port_counts = std::move(ports_per_node);
  self_host.assign(num_nodes, kNoHost);
  uint32_t h = 0;
  for (uint32_t n : topo.host_nodes()) self_host[n] = h++;
  rows_.assign(num_nodes, Row{});
  group_offsets_ = {0};
  ports_.clear();
  group_index_.clear();
  intern({});  // group 0: no next hop
}

uint32_t ForwardingTables::intern(std::span<const PortIndex> ports) {
  std::string key(reinterpret_cast<const char*>(ports.data()), ports.size_bytes());
  const auto [it, added] = group_index_.try_emplace(std::move(key), 0);
  if (added) {
    it->second = static_cast<uint32_t>(group_offsets_.size() - 1);
    ports_.insert(ports_.end(), ports.begin(), ports.end());
    group_offsets_.push_back(static_cast<uint32_t>(ports_.size()));
  }
  return it->second;
}

void ForwardingTables::set(uint32_t node, uint32_t dst_host, std::span<const PortIndex> ports) {
  XOFF_CHECK(node < num_nodes && dst_host < num_hosts, "ForwardingTables::set out of range");
  if (self_host[node] == dst_host) return;
  const uint32_t g = intern(ports);
  Row& r = rows_[node];
  if (r.cells.empty()) {
    if (r.uniform == kUnset || r.uniform == g) {
      r.uniform = g;
      return;
    }
    r.cells.assign(num_hosts, r.uniform);
  }
  r.cells[dst_host] = g;
}

size_t ForwardingTables::memory_bytes() const {
  size_t b = rows_.size() * sizeof(Row) + ports_.size() * sizeof(PortIndex) +
             group_offsets_.size() * sizeof(uint32_t) + self_host.size() * sizeof(uint32_t);
  for (const Row& r : rows_) b += r.cells.size() * sizeof(uint32_t);
  for (const auto& [k, v] : group_index_) b += k.size() + 48;
  return b;
}

PortIndex ecmp_select(std::span<const PortIndex> hops, uint32_t flow_hash, uint64_t switch_salt) {
  XOFF_CHECK(!hops.empty(), "ecmp_select needs at least one next hop");
  // splitmix64's output function (Steele, Lea & Flood 2014): every input bit
  // affects every output bit, so the low bits used by the modulo are well mixed.
  uint64_t state = switch_salt ^ flow_hash;
  const uint64_t mixed = sim::splitmix64_next(state);
  return hops[mixed % hops.size()];
}

uint64_t ecmp_salt(uint64_t seed, std::string_view node_name) {
  return sim::Rng(seed, node_name).next_u64();
}

}  // namespace xoff::models
