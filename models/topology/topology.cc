#include "models/topology/topology.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "models/topology/graph_util.h"

namespace xoff::models {
namespace {

std::string quoted(const Topology& t, uint32_t node) { return "'" + t.nodes[node].name + "'"; }

void check_link_endpoints(const Topology& t) {
  for (size_t i = 0; i < t.links.size(); ++i) {
    const LinkSpec& l = t.links[i];
    const std::string what = "link " + std::to_string(i);
    if (l.a >= t.nodes.size() || l.b >= t.nodes.size()) {
      throw TopologyError(what + " refers to node " + std::to_string(std::max(l.a, l.b)) +
                          " but there are only " + std::to_string(t.nodes.size()) + " nodes");
    }
    if (l.a == l.b) throw TopologyError(what + " connects " + quoted(t, l.a) + " to itself");
    if (l.rate.count() <= 0) throw TopologyError(what + " has a rate of zero");
    if (l.delay < sim::Duration::zero()) throw TopologyError(what + " has a negative delay");
  }
}

void check_nodes(const Topology& t) {
  if (t.nodes.empty()) throw TopologyError("topology has no nodes");
  std::unordered_map<std::string_view, uint32_t> seen;
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    const NodeSpec& s = t.nodes[n];
    auto [it, fresh] = seen.emplace(s.name, n);
    if (!fresh) {
      throw TopologyError("duplicate node name '" + s.name + "' (nodes " +
                          std::to_string(it->second) + " and " + std::to_string(n) + ")");
    }
    const bool host = s.kind == NodeKind::kHost;
    if (host ? s.tier != 0 : s.tier < 1) {
      throw TopologyError("node '" + s.name + "' has tier " + std::to_string(s.tier) +
                          (host ? "; a host has tier 0" : "; a switch has tier 1 or more"));
    }
  }
}

void check_ports(const Topology& t) {
  std::unordered_map<uint64_t, size_t> used;  // (node << 16 | port) -> link
  std::vector<int> degree(t.nodes.size(), 0);
  for (size_t i = 0; i < t.links.size(); ++i) {
    const LinkSpec& l = t.links[i];
    for (auto [node, port] : {std::pair{l.a, l.a_port}, std::pair{l.b, l.b_port}}) {
      ++degree[node];
      auto [it, fresh] = used.emplace((uint64_t{node} << 16) | port, i);
      if (!fresh) {
        throw TopologyError("port " + std::to_string(port) + " of " + quoted(t, node) +
                            " is used by links " + std::to_string(it->second) + " and " +
                            std::to_string(i));
      }
    }
  }
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    if (t.nodes[n].kind == NodeKind::kHost && degree[n] != 1) {
      throw TopologyError("host " + quoted(t, n) + " has " + std::to_string(degree[n]) +
                          " links; a host needs exactly one");
    }
  }
}

void check_connected(const Topology& t) {
  const std::vector<int> dist = detail::hop_distances(detail::make_graph(t, nullptr), 0);
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    if (dist[n] == detail::kUnreachable) {
      throw TopologyError("the topology is disconnected: node " + quoted(t, n) +
                          " is not reachable from " + quoted(t, 0));
    }
  }
}

}  // namespace

uint32_t Topology::num_hosts() const {
  return static_cast<uint32_t>(std::count_if(
      nodes.begin(), nodes.end(), [](const NodeSpec& n) { return n.kind == NodeKind::kHost; }));
}

uint32_t Topology::host_ordinal(uint32_t node) const {
  if (node >= nodes.size() || nodes[node].kind != NodeKind::kHost) {
    throw TopologyError("node " + std::to_string(node) + " is not a host");
  }
  return static_cast<uint32_t>(
      std::count_if(nodes.begin(), nodes.begin() + node,
                    [](const NodeSpec& n) { return n.kind == NodeKind::kHost; }));
}

uint32_t Topology::host_node(uint32_t ordinal) const {
  const std::vector<uint32_t> hosts = host_nodes();
  if (ordinal >= hosts.size()) {
    throw TopologyError("host ordinal " + std::to_string(ordinal) + " out of range (" +
                        std::to_string(hosts.size()) + " hosts)");
  }
  return hosts[ordinal];
}

std::vector<uint32_t> Topology::host_nodes() const {
  std::vector<uint32_t> out;
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n].kind == NodeKind::kHost) out.push_back(n);
  }
  return out;
}

uint16_t Topology::num_ports(uint32_t node) const {
  int count = 0;
  for (const LinkSpec& l : links) {
    if (l.a == node) count = std::max(count, l.a_port + 1);
    if (l.b == node) count = std::max(count, l.b_port + 1);
  }
  return static_cast<uint16_t>(count);
}

std::optional<uint32_t> Topology::find(std::string_view name) const {
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n].name == name) return n;
  }
  return std::nullopt;
}

PortPeer Topology::peer(uint32_t node, uint16_t port) const {
  for (uint32_t i = 0; i < links.size(); ++i) {
    const LinkSpec& l = links[i];
    if (l.a == node && l.a_port == port) return {l.b, l.b_port, i};
    if (l.b == node && l.b_port == port) return {l.a, l.a_port, i};
  }
  return {};
}

void Topology::validate() const {
  check_nodes(*this);
  check_link_endpoints(*this);
  check_ports(*this);
  check_connected(*this);
}

PortMap::PortMap(const Topology& topo) : offsets_(topo.nodes.size() + 1, 0) {
  std::vector<uint32_t> count(topo.nodes.size(), 0);
  for (const LinkSpec& l : topo.links) {
    count[l.a] = std::max<uint32_t>(count[l.a], l.a_port + 1u);
    count[l.b] = std::max<uint32_t>(count[l.b], l.b_port + 1u);
  }
  for (size_t n = 0; n < count.size(); ++n) offsets_[n + 1] = offsets_[n] + count[n];
  peers_.resize(offsets_.back());
  for (uint32_t i = 0; i < topo.links.size(); ++i) {
    const LinkSpec& l = topo.links[i];
    peers_[offsets_[l.a] + l.a_port] = {l.b, l.b_port, i};
    peers_[offsets_[l.b] + l.b_port] = {l.a, l.a_port, i};
  }
}

}  // namespace xoff::models
