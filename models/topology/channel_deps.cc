// Channel dependency graph and cycle search (Dally & Seitz, "Deadlock-free message
// routing in multiprocessor interconnection networks", IEEE ToC 1987): routes are
// deadlock-free under hop-by-hop flow control (PFC) if this graph is acyclic.
#include <algorithm>
#include <unordered_set>

#include "models/topology/routing.h"

namespace xoff::models {
namespace {

struct Cdg {
  std::vector<uint32_t> first;   // channel id of (node, port 0)
  std::vector<Channel> channel;  // id -> channel
  std::vector<std::vector<uint32_t>> next;
  uint32_t id(uint32_t node, PortIndex p) const { return first[node] + p.value(); }
};

Cdg build(const Topology& topo, const ForwardingTables& t) {
  Cdg g;
  for (uint32_t n = 0; n < t.num_nodes; ++n) {
    g.first.push_back(static_cast<uint32_t>(g.channel.size()));
    for (uint16_t p = 0; p < t.port_counts[n]; ++p) g.channel.push_back({n, p});
  }
  g.next.resize(g.channel.size());
  const PortMap pm(topo);
  const std::vector<uint32_t> hosts = topo.host_nodes();
  // An edge (v, p) -> (far, q) for every destination h routed over p whose
  // next hops at far include q. Destinations repeat the same (p, far's group)
  // pair many times (every host behind one remote leaf): each pair adds its
  // edges once, so the work is O(nodes x hosts x ports) lookups rather than
  // that times the far group's size (a 4,096-host check: 1e9 pushes before).
  std::unordered_set<uint64_t> seen;
  for (uint32_t v = 0; v < t.num_nodes; ++v) {
    seen.clear();
    for (uint32_t h = 0; h < t.num_hosts; ++h) {
      for (PortIndex p : t.next_hops(v, h)) {
        const PortPeer& far = pm.peer(v, p.value());
        if (!far.connected() || far.node == hosts[h]) continue;
        const uint32_t fg = t.group_id(far.node, h);
        if (!seen.insert((static_cast<uint64_t>(p.value()) << 32) | fg).second) continue;
        for (PortIndex q : t.next_hops(far.node, h))
          g.next[g.id(v, p)].push_back(g.id(far.node, q));
      }
    }
  }
  for (auto& out : g.next) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return g;
}

// Iterative depth-first search; a grey successor closes a cycle.
std::vector<Channel> first_cycle(const Cdg& g) {
  enum Colour : uint8_t { kWhite, kGrey, kBlack };
  std::vector<Colour> colour(g.channel.size(), kWhite);
  std::vector<std::pair<uint32_t, size_t>> stack;  // (channel, next successor to visit)
  for (uint32_t s = 0; s < g.channel.size(); ++s) {
    if (colour[s] != kWhite) continue;
    stack.push_back({s, 0});
    colour[s] = kGrey;
    while (!stack.empty()) {
      auto& [c, i] = stack.back();
      if (i == g.next[c].size()) {
        colour[c] = kBlack;
        stack.pop_back();
        continue;
      }
      const uint32_t w = g.next[c][i++];
      if (colour[w] == kWhite) {
        colour[w] = kGrey;
        stack.push_back({w, 0});
      } else if (colour[w] == kGrey) {
        auto from =
            std::find_if(stack.begin(), stack.end(), [w](const auto& e) { return e.first == w; });
        std::vector<Channel> cycle;
        for (; from != stack.end(); ++from) cycle.push_back(g.channel[from->first]);
        return cycle;
      }
    }
  }
  return {};
}

}  // namespace

std::vector<Channel> find_dependency_cycle(const Topology& topo, const ForwardingTables& tables) {
  return first_cycle(build(topo, tables));
}

}  // namespace xoff::models
