#include "app/mpi/partition.h"

#include <algorithm>

namespace xoff::app {

std::vector<bool> Partition::local_nodes(int part) const {
  std::vector<bool> out(owner.size());
  for (size_t i = 0; i < owner.size(); ++i) out[i] = owner[i] == part;
  return out;
}

std::vector<uint32_t> Partition::hosts_per_part(const models::Topology& t) const {
  std::vector<uint32_t> out(static_cast<size_t>(parts), 0);
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    if (t.nodes[i].kind == models::NodeKind::kHost) ++out[static_cast<size_t>(owner[i])];
  }
  return out;
}

Partition partition_fabric(const models::Topology& t, int parts) {
  Partition p;
  p.parts = std::max(1, parts);
  const size_t n = t.nodes.size();
  // Each host joins the switch at the other end of its one link.
  std::vector<uint32_t> group(n);
  for (uint32_t i = 0; i < n; ++i) group[i] = i;
  for (const models::LinkSpec& l : t.links) {
    const bool a_host = t.nodes[l.a].kind == models::NodeKind::kHost;
    const bool b_host = t.nodes[l.b].kind == models::NodeKind::kHost;
    if (a_host && !b_host) group[l.a] = l.b;
    if (b_host && !a_host) group[l.b] = l.a;
  }
  std::vector<uint64_t> weight(n, 0);
  uint64_t total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    ++weight[group[i]];
    ++total;
  }
  // Contiguous in topology order: a group's part is where the middle of its
  // weight falls in the cumulative weight.
  std::vector<int> part_of_group(n, 0);
  uint64_t before = 0;
  for (uint32_t g = 0; g < n; ++g) {
    if (weight[g] == 0) continue;
    const uint64_t mid2 = 2 * before + weight[g];  // twice the group's midpoint
    part_of_group[g] = static_cast<int>(std::min<uint64_t>(
        static_cast<uint64_t>(p.parts) - 1, mid2 * static_cast<uint64_t>(p.parts) / (2 * total)));
    before += weight[g];
  }
  p.owner.resize(n);
  for (uint32_t i = 0; i < n; ++i) p.owner[i] = part_of_group[group[i]];
  p.lookahead = sim::Duration::infinite();
  for (const models::LinkSpec& l : t.links) {
    if (p.owner[l.a] == p.owner[l.b]) continue;
    ++p.crossing_links;
    p.lookahead = std::min(p.lookahead, l.delay);
  }
  return p;
}

std::vector<std::string> partition_unsupported(const ScenarioConfig& cfg) {
  std::vector<std::string> out;
  const TrafficConfig& tr = cfg.traffic;
  if (!tr.collectives.empty())
    out.push_back(
        "[[traffic.collective]] (and workloads): a step starts when a flow of another "
        "host finishes, with no delay to look ahead by");
  bool after = false;
  for (const auto& f : tr.flows) after |= !f.after.empty();
  if (after) out.push_back("flows with `after` (the same reason)");
  bool waves = false;
  for (const auto& s : tr.incasts) waves |= s.waves > 1;
  if (waves) out.push_back("incasts with waves > 1 (the same reason)");
  if (!tr.rpcs.empty()) out.push_back("[[traffic.rpc]] probes");
  if (cfg.gpus_per_server > 0) out.push_back("servers with an NVLink fabric (gpus_per_server)");
  if (!cfg.monitor.pcap.empty()) out.push_back("[[monitor.pcap]] packet captures");
  return out;
}

}  // namespace xoff::app
