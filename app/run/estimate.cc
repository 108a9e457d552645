#include "app/run/estimate.h"

#include <algorithm>
#include <fstream>
#include <string>

namespace xoff::app {

MemoryEstimate estimate_memory(const ScenarioConfig& cfg) {
  MemoryEstimate e;
  e.hosts = cfg.topology.num_hosts();
  const TrafficConfig& t = cfg.traffic;
  e.flows = t.flows.size();
  for (const auto& i : t.incasts) e.flows += uint64_t{i.senders.size()} * i.waves;
  for (const auto& p : t.permutations) e.flows += p.hosts.size();
  for (const auto& a : t.all_to_all) e.flows += uint64_t{a.hosts.size()} * (a.hosts.size() - 1);
  const double seconds = cfg.duration.to_us() * 1e-6;
  for (const auto& c : t.collectives) {
    // Steps are generated as they become ready, so a run cut short plans
    // only what it reaches: no rank sends faster than the ideal's bandwidth
    // bound, so by the end at most that share of a ring's flows has
    // finished, plus one step of every rank and channel under way. (A 4,096-rank ring
    // of 64 KB chunks cut at 100 us: 84,096 flows, not 33.5 M.)
    const uint64_t all = models::collective_flow_count(c) * c.iterations;
    const sim::Int128 ideal = sim::Int128{models::collective_ideal(c).count_ps()} * c.iterations;
    const sim::Int128 cut = cfg.duration.count_ps();
    // Only where steps are equal and each waits for the one before: a ring
    // (not all-to-all, which starts every flow at once; not halving-doubling,
    // whose small steps come late; not hierarchical phases nor workloads).
    const bool stepwise = c.workload.empty() && c.algorithm == models::CollectiveAlgorithm::kRing &&
                          c.op != models::CollectiveOp::kAllToAll;
    uint64_t n = all;
    if (stepwise && ideal > 0 && cut < ideal) {
      const sim::Int128 reached =
          sim::Int128{all} * cut / ideal + sim::Int128{c.ranks.size()} * c.channels;
      n = static_cast<uint64_t>(std::min(sim::Int128{all}, reached));
    }
    e.flows += n;
  }
  for (const auto& p : t.poisson) {
    // Arrivals: load x rate / (8 x mean size) per host, until stop (or the end).
    if (p.cdf == nullptr || p.cdf->mean_bytes() <= 0) continue;
    const double per_host =
        p.spec.load * static_cast<double>(p.spec.host_rate.count()) / (8.0 * p.cdf->mean_bytes());
    double n = per_host * static_cast<double>(p.spec.hosts.size()) * seconds;
    if (p.spec.max_flows > 0) n = std::min(n, static_cast<double>(p.spec.max_flows));
    e.flows += static_cast<uint64_t>(n);
  }
  for (const auto& r : t.rpcs) e.flows += r.count;
  const double samples_per_series = cfg.duration.to_us() / cfg.monitor.sample_interval.to_us();
  uint64_t series = 0;
  for (const auto& p : cfg.monitor.probes) {
    series += p.port >= 0 ? 1 : cfg.topology.num_ports(p.node);
  }
  e.samples = static_cast<uint64_t>(samples_per_series * static_cast<double>(series));
  e.bytes = e.hosts * 100'000 + e.flows * 1'000 + e.samples * 16 + (16u << 20);
  return e;
}

uint64_t default_memory_limit() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  while (in >> key >> kb) {
    if (key == "MemTotal:") return kb * 1024 / 5 * 4;
    in.ignore(256, '\n');
  }
  return 0;
}

}  // namespace xoff::app
