#include "app/run/faults.h"

#include <algorithm>

namespace xoff::app {

models::ForwardingTables compute_routes(const ScenarioConfig& cfg,
                                        const std::vector<bool>& link_up) {
  const models::Topology& t = cfg.topology;
  models::ForwardingTables tables;
  if (cfg.routing.mode == RoutingMode::kEcmp) {
    tables = models::shortest_path_ecmp(t, link_up);
  } else if (cfg.routing.root != models::kNoNode) {
    tables = models::up_down(t, link_up, cfg.routing.root);
  } else {
    tables = models::tiered_up_down(t, link_up);
  }
  models::apply_static_routes(tables, cfg.routing.static_routes);
  return tables;
}

void install_routes(const models::ForwardingTables& tables, const std::vector<models::Switch*>& sw,
                    const models::Topology& topo, sim::Time at, bool now) {
  const uint32_t hosts = topo.num_hosts();  // a count over every node: once
  for (uint32_t n = 0; n < sw.size(); ++n) {
    if (sw[n] == nullptr) continue;
    if (now) {
      for (uint32_t h = 0; h < hosts; ++h) {
        const auto hops = tables.next_hops(n, h);
        sw[n]->set_route(h, std::vector<models::PortIndex>(hops.begin(), hops.end()));
      }
      sw[n]->compact_routes();
      continue;
    }
    models::RouteTable rt;
    for (uint32_t h = 0; h < hosts; ++h) rt.set(h, tables.next_hops(n, h));
    rt.compact();
    sw[n]->install_routes_at(at, std::move(rt));
  }
}

void apply_nic_marking(models::Host& h, int roce_dscp) {
  if (roce_dscp < 0) {
    h.clear_remark();
    return;
  }
  h.set_remark(models::protocol_bit(models::Protocol::kRoce), static_cast<uint8_t>(roce_dscp),
               static_cast<uint8_t>(roce_dscp >> 3));
}

FaultInjector::FaultInjector(const ScenarioConfig& cfg, models::Network& net,
                             const std::vector<models::Switch*>& switches,
                             const std::vector<models::Host*>& hosts)
    : cfg_(cfg),
      net_(net),
      switches_(switches),
      hosts_(hosts),
      link_up_(cfg.topology.links.size(), true),
      faults_(cfg.link_faults),
      fault_timer_(net.sim(), *this, kLinkFault) {
  std::stable_sort(faults_.begin(), faults_.end(),
                   [](const LinkFault& a, const LinkFault& b) { return a.at < b.at; });
}

void FaultInjector::start() {
  if (!faults_.empty()) fault_timer_.arm_at(faults_.front().at);
  for (size_t i = 0; i < cfg_.storms.size(); ++i) {
    net_.sim().schedule_at(cfg_.storms[i].start, *this, kStormBase + i);
  }
  for (size_t i = 0; i < cfg_.slow_receivers.size(); ++i) {
    net_.sim().schedule_at(cfg_.slow_receivers[i].start, *this, kSlowBase + i);
  }
  for (size_t i = 0; i < cfg_.pfc_frames.size(); ++i) {
    net_.sim().schedule_at(cfg_.pfc_frames[i].at, *this, kFrameBase + i);
  }
  for (size_t i = 0; i < cfg_.mismarks.size(); ++i) {
    net_.sim().schedule_at(cfg_.mismarks[i].start, *this, kMismarkBase + 2 * i);
    if (cfg_.mismarks[i].stop != sim::Time::max()) {
      net_.sim().schedule_at(cfg_.mismarks[i].stop, *this, kMismarkBase + 2 * i + 1);
    }
  }
}

// In a partitioned run every part runs the injector (it is of the set-up
// stream); what a fault does to a host is done only where the host is
// simulated. A link's state changes everywhere: its far end may be here.
bool FaultInjector::local(uint32_t host) const {
  return net_.sim().is_local(hosts_[host]->sim_stream());
}

void FaultInjector::handle_event(uint64_t tag) {
  if (tag >= kMismarkBase) {
    const Mismark& m = cfg_.mismarks[(tag - kMismarkBase) / 2];
    if (!local(m.host)) return;
    models::Host& h = *hosts_[m.host];
    if ((tag - kMismarkBase) % 2 == 0) {
      h.set_remark(m.protocols, m.dscp, m.pcp);
    } else {
      // Back to the NIC's configured marking (node index = topology index).
      apply_nic_marking(h, cfg_.devices.empty() ? -1 : cfg_.devices[h.id().value()].roce_dscp);
    }
    return;
  }
  if (tag >= kFrameBase) {
    const PfcFrame& pf = cfg_.pfc_frames[tag - kFrameBase];
    if (local(pf.host)) hosts_[pf.host]->send_pause(pf.classes, pf.quanta);
    return;
  }
  if (tag >= kSlowBase) {
    const SlowReceiver& r = cfg_.slow_receivers[tag - kSlowBase];
    if (local(r.host)) hosts_[r.host]->set_slow_receiver(r.config);
    return;
  }
  if (tag >= kStormBase) {
    storm_tick(tag - kStormBase);
    return;
  }
  while (next_fault_ < faults_.size() && faults_[next_fault_].at <= net_.sim().now()) {
    apply_link_fault(faults_[next_fault_++]);
  }
  if (next_fault_ < faults_.size()) fault_timer_.arm_at(faults_[next_fault_].at);
}

// The link changes state at once; the switches learn new routes only after the
// convergence delay (until then they forward on stale routes).
void FaultInjector::apply_link_fault(const LinkFault& f) {
  link_up_[f.link] = f.up;
  net_.set_link_up(f.link, f.up);
  const models::ForwardingTables tables = compute_routes(cfg_, link_up_);
  install_routes(tables, switches_, cfg_.topology,
                 net_.sim().now() + cfg_.routing.convergence_delay, false);
}

// A stuck NIC re-sends XOFF with maximum quanta every `refresh` until `stop`,
// or until its stall prevention gives up (nic.pfc_stall_timeout after the
// storm began: it has paused without a break since then).
void FaultInjector::storm_tick(size_t i) {
  const PfcStorm& ps = cfg_.storms[i];
  PfcStorm s = ps;
  if (cfg_.nic_pfc_stall_timeout > sim::Duration::zero())
    s.stop = std::min(s.stop, s.start + cfg_.nic_pfc_stall_timeout);
  if (net_.sim().now() >= s.stop) return;
  models::Host& h = *hosts_[s.host];
  if (local(s.host)) h.send_pause(s.classes, 0xFFFF);
  // Refresh before the pause lapses: 0xFFFF quanta last 65535 x 512 bit times.
  const sim::Duration lasts = sim::tx_time(sim::Bytes(65535LL * 64), h.nic_port().rate());
  const sim::Time next = net_.sim().now() + std::min(s.refresh, lasts / 2);
  if (next < s.stop) net_.sim().schedule_at(next, *this, kStormBase + i);
}

}  // namespace xoff::app
