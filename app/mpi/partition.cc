#include "app/mpi/partition.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "models/traffic/collective.h"

#ifdef XOFF_HAVE_METIS
#include <metis.h>
#endif

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

bool metis_available() {
#ifdef XOFF_HAVE_METIS
  return true;
#else
  return false;
#endif
}

namespace {

// The part of every group (indexed by its switch's node index), by METIS.
std::vector<int> metis_parts(const models::Topology& t, const std::vector<uint32_t>& group,
                             const std::vector<uint64_t>& weight, int parts) {
#ifdef XOFF_HAVE_METIS
  const size_t n = t.nodes.size();
  std::vector<idx_t> vertex(n, -1);  // group -> METIS vertex
  std::vector<uint32_t> of_vertex;
  for (uint32_t g = 0; g < n; ++g) {
    if (weight[g] == 0) continue;
    vertex[g] = static_cast<idx_t>(of_vertex.size());
    of_vertex.push_back(g);
  }
  std::vector<std::map<idx_t, idx_t>> adj(of_vertex.size());
  for (const models::LinkSpec& l : t.links) {
    const idx_t a = vertex[group[l.a]];
    const idx_t b = vertex[group[l.b]];
    if (a == b) continue;
    const auto gbps = static_cast<idx_t>(std::max<int64_t>(1, l.rate.count() / 1'000'000'000));
    adj[a][b] += gbps;
    adj[b][a] += gbps;
  }
  std::vector<idx_t> xadj{0}, adjncy, adjwgt, vwgt;
  for (size_t v = 0; v < of_vertex.size(); ++v) {
    for (const auto& [u, w] : adj[v]) {
      adjncy.push_back(u);
      adjwgt.push_back(w);
    }
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
    vwgt.push_back(static_cast<idx_t>(weight[of_vertex[v]]));
  }
  idx_t nv = static_cast<idx_t>(of_vertex.size());
  idx_t ncon = 1;
  idx_t np = parts;
  idx_t cut = 0;
  std::vector<idx_t> part(of_vertex.size(), 0);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  options[METIS_OPTION_NUMBERING] = 0;
  if (parts > 1 && nv > 1) {
    const int rc =
        METIS_PartGraphKway(&nv, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr,
                            adjwgt.data(), &np, nullptr, nullptr, options, &cut, part.data());
    if (rc != METIS_OK) throw std::runtime_error("METIS could not partition the fabric");
  }
  std::vector<int> out(n, 0);
  for (size_t v = 0; v < of_vertex.size(); ++v) out[of_vertex[v]] = static_cast<int>(part[v]);
  return out;
#else
  (void)t;
  (void)group;
  (void)weight;
  (void)parts;
  throw std::runtime_error("this xoff was built without METIS (apt install libmetis-dev)");
#endif
}

}  // namespace

Partition partition_fabric(const models::Topology& t, int parts, PartitionMethod method) {
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
  if (method == PartitionMethod::kMetis) {
    part_of_group = metis_parts(t, group, weight, p.parts);
    p.method = "metis";
  }
  for (uint32_t g = 0; g < n && method == PartitionMethod::kContiguous; ++g) {
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
  for (const models::CollectiveSpec& c : tr.collectives) {
    const std::string why = models::CollectiveEngine::why_not_partitionable(c);
    if (!why.empty())
      out.push_back("[[collective]] " + c.name + ": " + why +
                    ": a phase starts when every rank finished the one before");
    if (c.cls.protocol == models::Protocol::kTcp)
      out.push_back("[[collective]] " + c.name +
                    ": TCP flows (a connection opens at both hosts at once)");
  }
  // TCP opens both ends of a connection at once (TcpStack::connect).
  bool tcp = false;
  for (const auto& f : tr.flows) tcp |= f.spec.protocol == models::Protocol::kTcp;
  for (const auto& g : tr.incasts) tcp |= g.cls.protocol == models::Protocol::kTcp;
  for (const auto& g : tr.permutations) tcp |= g.cls.protocol == models::Protocol::kTcp;
  for (const auto& g : tr.all_to_all) tcp |= g.cls.protocol == models::Protocol::kTcp;
  for (const auto& g : tr.poisson) tcp |= g.spec.cls.protocol == models::Protocol::kTcp;
  if (tcp) out.push_back("TCP flows (a connection opens at both hosts at once)");
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

std::string partition_unsupported(const models::TrafficManager& traffic) {
  for (uint32_t f = 0; f < traffic.id_limit(); ++f) {
    if (traffic.is_planned(f) && traffic.spec(f).protocol == models::Protocol::kTcp)
      return "TCP flows (a connection opens at both hosts at once)";
  }
  return "";
}

}  // namespace xoff::app
