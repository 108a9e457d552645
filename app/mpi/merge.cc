#include "app/mpi/merge.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "models/core/drop.h"
#include "sim/check.h"

namespace xoff::app {

analysis::RunData merge_parts(const std::vector<analysis::RunData>& parts, const Partition& p,
                              const models::Topology& t) {
  XOFF_CHECK(!parts.empty(), "no parts to merge");
  analysis::RunData out = parts[0];
  std::unordered_map<std::string, uint32_t> index;  // node name -> topology index
  for (uint32_t i = 0; i < t.nodes.size(); ++i) index[t.nodes[i].name] = i;
  const auto node_of = [&](const std::string& name) {
    const auto it = index.find(name);
    XOFF_CHECK(it != index.end(), "merge: unknown node " + name);
    return it->second;
  };

  // Metadata: events and fingerprints add up; the slowest part's wall time.
  for (size_t k = 1; k < parts.size(); ++k) {
    const analysis::RunMetadata& m = parts[k].meta;
    out.meta.events += m.events;
    out.meta.fingerprint += m.fingerprint;
    out.meta.wall_seconds = std::max(out.meta.wall_seconds, m.wall_seconds);
    if (!m.complete()) out.meta.status = m.status;
  }

  // Flows: the source host's part.
  out.flows.clear();
  const std::vector<uint32_t> host_nodes = t.host_nodes();
  for (size_t k = 0; k < parts.size(); ++k) {
    for (const models::FlowRecord& f : parts[k].flows) {
      XOFF_CHECK(f.src_host < host_nodes.size(), "merge: unknown host");
      if (p.owner[host_nodes[f.src_host]] == static_cast<int>(k)) out.flows.push_back(f);
    }
  }

  // Queue and drop counters: summed per row, rows in topology order.
  using QKey = std::tuple<uint32_t, uint16_t, uint8_t>;
  std::map<QKey, models::QueueCounters> queues;
  for (const auto& part : parts) {
    for (const models::QueueCounters& q : part.queues) {
      auto [it, fresh] = queues.try_emplace(QKey{node_of(q.node), q.port, q.traffic_class}, q);
      if (fresh) continue;
      models::QueueCounters& m = it->second;
      m.tx_packets += q.tx_packets;
      m.tx_bytes += q.tx_bytes;
      m.ecn_marked += q.ecn_marked;
      m.dropped_packets += q.dropped_packets;
      m.peak_bytes = std::max(m.peak_bytes, q.peak_bytes);
      m.pause_sent += q.pause_sent;
      m.pause_received += q.pause_received;
      m.paused_time += q.paused_time;
    }
  }
  out.queues.clear();
  for (auto& [key, q] : queues) out.queues.push_back(std::move(q));

  std::map<std::string, int> reason_order;
  for (int r = 0; r < static_cast<int>(models::DropReason::kCount); ++r)
    reason_order[std::string(models::drop_reason_name(static_cast<models::DropReason>(r)))] = r;
  using DKey = std::pair<uint32_t, int>;
  std::map<DKey, models::DropCounters> drops;
  for (const auto& part : parts) {
    for (const models::DropCounters& d : part.drops) {
      auto [it, fresh] = drops.try_emplace(DKey{node_of(d.node), reason_order.at(d.reason)}, d);
      if (fresh) continue;
      it->second.packets += d.packets;
      it->second.bytes += d.bytes;
    }
  }
  out.drops.clear();
  for (auto& [key, d] : drops) out.drops.push_back(std::move(d));

  // Buffers: the switch's own part (every part reports every switch).
  out.buffers.clear();
  for (size_t i = 0; i < parts[0].buffers.size(); ++i) {
    const int k = p.owner[node_of(parts[0].buffers[i].node)];
    XOFF_CHECK(parts[static_cast<size_t>(k)].buffers.size() == parts[0].buffers.size(),
               "merge: parts report different switches");
    out.buffers.push_back(parts[static_cast<size_t>(k)].buffers[i]);
  }

  // Series: point by point.
  for (size_t k = 1; k < parts.size(); ++k) {
    XOFF_CHECK(parts[k].series.size() == out.series.size(), "merge: parts declare other series");
    for (size_t s = 0; s < out.series.size(); ++s) {
      const analysis::SeriesData& in = parts[k].series[s];
      analysis::SeriesData& m = out.series[s];
      XOFF_CHECK(in.name == m.name && in.time_ps == m.time_ps,
                 "merge: series " + m.name + " sampled at other times");
      // NaN is "no value here" (a DCQCN state where the flow is not
      // simulated): the sum of the parts that have one.
      for (size_t i = 0; i < m.value.size(); ++i) {
        if (std::isnan(in.value[i])) continue;
        m.value[i] = std::isnan(m.value[i]) ? in.value[i] : m.value[i] + in.value[i];
      }
    }
  }

  // Events.
  for (size_t k = 1; k < parts.size(); ++k) {
    out.pfc_events.insert(out.pfc_events.end(), parts[k].pfc_events.begin(),
                          parts[k].pfc_events.end());
    out.watchdog_events.insert(out.watchdog_events.end(), parts[k].watchdog_events.begin(),
                               parts[k].watchdog_events.end());
  }
  analysis::canonical_order(out);
  return out;
}

}  // namespace xoff::app
