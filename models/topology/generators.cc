// Topology generators. Ports follow the rule in topology.h: a node's ports are
// numbered in the order its links are added, host-facing links first, then uplinks
// in increasing peer index; each generator adds links in exactly that order.
#include <algorithm>
#include <string>
#include <unordered_set>

#include "models/topology/topology.h"

namespace xoff::models {
namespace {

// "leaf" + 3 -> "leaf3" (appending, not operator+(const char*, string&&), which
// trips GCC 12's -Wrestrict false positive, GCC bug 105329).
std::string numbered(std::string prefix, int64_t n) {
  prefix += std::to_string(n);
  return prefix;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw TopologyError(what);
}

// Appends nodes and links, giving each new link the next free port at each end.
class Builder {
 public:
  uint32_t node(std::string name, NodeKind kind, int tier) {
    topo_.nodes.push_back({std::move(name), kind, tier});
    next_port_.push_back(0);
    return static_cast<uint32_t>(topo_.nodes.size() - 1);
  }
  void link(uint32_t a, uint32_t b, sim::BitsPerSecond rate, sim::Duration delay) {
    topo_.links.push_back({a, b, next_port_[a]++, next_port_[b]++, rate, delay});
  }
  void hosts(uint32_t sw, int count, int first, sim::BitsPerSecond rate, sim::Duration delay) {
    for (int j = 0; j < count; ++j) {
      link(sw, node(numbered("h", first + j), NodeKind::kHost, 0), rate, delay);
    }
  }
  Topology done() {
    topo_.validate();
    return std::move(topo_);
  }

 private:
  Topology topo_;
  std::vector<uint16_t> next_port_;
};

}  // namespace

double SpineLeafConfig::oversubscription() const {
  const double down = static_cast<double>(hosts_per_leaf) * static_cast<double>(host_rate.count());
  const double up = static_cast<double>(spines) * static_cast<double>(fabric_rate.count());
  return down / up;
}

Topology spine_leaf(const SpineLeafConfig& cfg) {
  require(cfg.leaves >= 1 && cfg.spines >= 1 && cfg.hosts_per_leaf >= 0,
          "spine_leaf: need leaves >= 1, spines >= 1, hosts_per_leaf >= 0");
  Builder b;
  for (int i = 0; i < cfg.leaves; ++i) b.node(numbered("leaf", i), NodeKind::kSwitch, 1);
  for (int s = 0; s < cfg.spines; ++s) b.node(numbered("spine", s), NodeKind::kSwitch, 2);
  // Hosts are created after all switches, so host node = leaves + spines + ordinal.
  for (int i = 0; i < cfg.leaves; ++i) {
    b.hosts(i, cfg.hosts_per_leaf, i * cfg.hosts_per_leaf, cfg.host_rate, cfg.host_delay);
  }
  for (int i = 0; i < cfg.leaves; ++i) {
    for (int s = 0; s < cfg.spines; ++s)
      b.link(i, cfg.leaves + s, cfg.fabric_rate, cfg.fabric_delay);
  }
  return b.done();
}

double RailConfig::oversubscription() const {
  const double down =
      static_cast<double>(servers_per_leaf) * static_cast<double>(host_rate.count());
  const double up = static_cast<double>(spines) * static_cast<double>(fabric_rate.count());
  return down / up;
}

Topology rail_optimised(const RailConfig& cfg) {
  require(cfg.servers >= 1 && cfg.gpus_per_server >= 1 && cfg.servers_per_leaf >= 1 &&
              cfg.spines >= 1 && cfg.servers % cfg.servers_per_leaf == 0,
          "rail: need servers >= 1, gpus_per_server >= 1, spines >= 1 and servers_per_leaf "
          "dividing servers");
  const int g = cfg.gpus_per_server;
  const int per_rail = cfg.leaves_per_rail();
  const int leaves = g * per_rail;
  Builder b;
  for (int r = 0; r < g; ++r) {
    for (int j = 0; j < per_rail; ++j) {
      b.node(numbered(numbered("rail", r) + "_leaf", j), NodeKind::kSwitch, 1);
    }
  }
  for (int s = 0; s < cfg.spines; ++s) b.node(numbered("spine", s), NodeKind::kSwitch, 2);
  const int hosts = cfg.servers * g;
  const auto host0 = static_cast<uint32_t>(leaves + cfg.spines);
  for (int h = 0; h < hosts; ++h) b.node(numbered("h", h), NodeKind::kHost, 0);
  // Leaf (rail r, j): GPU r of servers j * servers_per_leaf .. in host order.
  for (int r = 0; r < g; ++r) {
    for (int j = 0; j < per_rail; ++j) {
      const auto leaf = static_cast<uint32_t>(r * per_rail + j);
      for (int k = 0; k < cfg.servers_per_leaf; ++k) {
        const int server = j * cfg.servers_per_leaf + k;
        b.link(leaf, host0 + static_cast<uint32_t>(server * g + r), cfg.host_rate, cfg.host_delay);
      }
    }
  }
  for (int l = 0; l < leaves; ++l) {
    for (int s = 0; s < cfg.spines; ++s) {
      b.link(static_cast<uint32_t>(l), static_cast<uint32_t>(leaves + s), cfg.fabric_rate,
             cfg.fabric_delay);
    }
  }
  return b.done();
}

Topology fat_tree(const FatTreeConfig& cfg) {
  const int k = cfg.k;
  require(k >= 2 && k % 2 == 0, numbered("fat_tree: k must be even and >= 2, got ", k));
  const uint32_t h = k / 2, pods = k;
  Builder b;
  auto name = [](const char* kind, uint32_t p, uint32_t i) {
    return numbered(numbered(kind, p) + "_", i);
  };
  for (uint32_t p = 0; p < pods; ++p)
    for (uint32_t i = 0; i < h; ++i) b.node(name("edge", p, i), NodeKind::kSwitch, 1);
  for (uint32_t p = 0; p < pods; ++p)
    for (uint32_t i = 0; i < h; ++i) b.node(name("agg", p, i), NodeKind::kSwitch, 2);
  for (uint32_t c = 0; c < h * h; ++c) b.node(numbered("core", c), NodeKind::kSwitch, 3);
  const uint32_t agg0 = pods * h, core0 = 2 * pods * h;
  for (uint32_t e = 0; e < pods * h; ++e) b.hosts(e, h, e * h, cfg.rate, cfg.delay);
  for (uint32_t p = 0; p < pods; ++p)
    for (uint32_t i = 0; i < h; ++i)
      for (uint32_t j = 0; j < h; ++j) b.link(p * h + i, agg0 + p * h + j, cfg.rate, cfg.delay);
  for (uint32_t p = 0; p < pods; ++p)
    for (uint32_t i = 0; i < h; ++i)
      for (uint32_t j = 0; j < h; ++j)
        b.link(agg0 + p * h + i, core0 + i * h + j, cfg.rate, cfg.delay);
  return b.done();
}

Topology ring(const RingConfig& cfg) {
  const int n = cfg.switches;
  require(n >= 3 && cfg.hosts_per_switch >= 0,
          numbered("ring: need switches >= 3 and hosts_per_switch >= 0, got ", n));
  Topology t;
  for (int i = 0; i < n; ++i) t.nodes.push_back({numbered("sw", i), NodeKind::kSwitch, 1});
  const auto hps = static_cast<uint16_t>(cfg.hosts_per_switch);
  for (int i = 0; i < n; ++i) {
    for (uint16_t j = 0; j < hps; ++j) {
      const auto host = static_cast<uint32_t>(t.nodes.size());
      t.nodes.push_back({numbered("h", i * hps + j), NodeKind::kHost, 0});
      t.links.push_back({static_cast<uint32_t>(i), host, j, 0, cfg.host_rate, cfg.host_delay});
    }
  }
  // Ring ports: after the hosts, the lower-indexed neighbour first. Switch i's
  // neighbours are i-1 and i+1 except at the wrap (sw0: 1, n-1; swN-1: 0, n-2).
  auto port = [&](int self, int other) {
    const int lo = std::min((self + 1) % n, (self + n - 1) % n);
    return static_cast<uint16_t>(hps + (other == lo ? 0 : 1));
  };
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    t.links.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(j), port(i, j), port(j, i),
                       cfg.fabric_rate, cfg.fabric_delay});
  }
  t.validate();
  return t;
}

Topology explicit_topology(std::vector<NodeSpec> nodes, const std::vector<LinkInput>& links) {
  Topology t;
  t.nodes = std::move(nodes);
  std::vector<std::unordered_set<int>> taken(t.nodes.size());
  auto check_end = [&](size_t i, uint32_t node, int port) {
    require(node < t.nodes.size(), "link " + std::to_string(i) + " refers to node " +
                                       std::to_string(node) + " but there are only " +
                                       std::to_string(t.nodes.size()) + " nodes");
    require(port >= -1 && port <= UINT16_MAX,
            "link " + std::to_string(i) + ": port " + std::to_string(port) + " out of range");
    if (port >= 0) taken[node].insert(port);
  };
  for (size_t i = 0; i < links.size(); ++i) {
    check_end(i, links[i].a, links[i].a_port);
    check_end(i, links[i].b, links[i].b_port);
  }
  auto assign = [&](uint32_t node, int port) {
    if (port >= 0) return static_cast<uint16_t>(port);
    int p = 0;
    while (taken[node].count(p) != 0) ++p;
    taken[node].insert(p);
    return static_cast<uint16_t>(p);
  };
  for (const LinkInput& l : links) {
    const uint16_t pa = assign(l.a, l.a_port);
    t.links.push_back({l.a, l.b, pa, assign(l.b, l.b_port), l.rate, l.delay});
  }
  t.validate();
  return t;
}

}  // namespace xoff::models
