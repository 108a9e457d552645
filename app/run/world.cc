#include "app/run/world.h"

#include "app/run/faults.h"
#include "models/topology/routing.h"
#include "models/traffic/generators.h"

namespace xoff::app {
namespace {

// One-way base delay and bottleneck rate from host `src` to host `dst` along the
// first next hop of every switch: propagation of each link plus store-and-forward
// of one full frame at every switch.
struct PathInfo {
  sim::Duration delay;
  sim::BitsPerSecond bottleneck{INT64_MAX};
};

PathInfo path_info(const models::Topology& t, const models::ForwardingTables& ft, uint32_t src,
                   uint32_t dst, sim::Bytes frame) {
  PathInfo info;
  uint32_t node = t.host_node(src);
  uint16_t port = 0;
  for (int hops = 0; hops < 64; ++hops) {
    const models::PortPeer peer = t.peer(node, port);
    const models::LinkSpec& l = t.links[peer.link];
    info.delay += l.delay + (hops > 0 ? sim::tx_time(frame, l.rate) : sim::Duration::zero());
    if (l.rate < info.bottleneck) info.bottleneck = l.rate;
    node = peer.node;
    if (t.nodes[node].kind == models::NodeKind::kHost) break;
    const auto next = ft.next_hops(node, dst);
    if (next.empty()) break;
    port = next[0].value();
  }
  return info;
}

}  // namespace

World::World(const ScenarioConfig& cfg, models::Recorder& recorder)
    : cfg_(cfg),
      recorder_(recorder),
      net_(sim_, &recorder),
      traffic_(sim_, recorder, cfg.topology.num_hosts()),
      collectives_(traffic_, recorder) {
  build_nodes();
  build_routes();
  build_endpoints();
  build_traffic();
  build_monitors();
  faults_ = std::make_unique<FaultInjector>(cfg_, net_, switches_, hosts_);
}

World::~World() = default;

void World::build_nodes() {
  const models::Topology& t = cfg_.topology;
  switches_.assign(t.nodes.size(), nullptr);
  for (uint32_t i = 0; i < t.nodes.size(); ++i) {
    const models::NodeSpec& n = t.nodes[i];
    if (n.kind == models::NodeKind::kHost) {
      models::Host& h = net_.add_node<models::Host>(n.name, t.host_ordinal(i));
      net_.register_host(h);
      hosts_.push_back(&h);
    } else {
      models::Switch& s = net_.add_node<models::Switch>(n.name, cfg_.switch_config);
      s.set_ecmp_salt(models::ecmp_salt(cfg_.seed, n.name));
      switches_[i] = &s;
    }
  }
  // Ports in each node's own numbering (a ring switch lists hosts first), then links.
  for (uint32_t i = 0; i < t.nodes.size(); ++i) {
    for (uint16_t p = 0; p < t.num_ports(i); ++p) {
      const models::PortPeer peer = t.peer(i, p);
      const models::LinkSpec& l = t.links[peer.link];
      net_.add_port(net_.node(models::NodeId(i)), models::PortIndex(p),
                    net_.node(models::NodeId(peer.node)), models::PortIndex(peer.port), l.rate,
                    l.delay);
    }
  }
  for (const models::LinkSpec& l : t.links) {
    net_.declare_link(net_.node(models::NodeId(l.a)), models::PortIndex(l.a_port),
                      net_.node(models::NodeId(l.b)), models::PortIndex(l.b_port));
  }
  for (models::Host* h : hosts_)
    h->nic_port().set_response_delay(cfg_.switch_config.pfc.response_delay);
}

void World::build_routes() {
  const auto tables = compute_routes(cfg_, models::all_links_up(cfg_.topology));
  install_routes(tables, switches_, cfg_.topology, sim::Time::zero(), true);
  const sim::Bytes frame = cfg_.roce.mtu + models::kRoceDataHeaderBytes;
  const models::Topology& t = cfg_.topology;
  const models::RoceConfig& roce = cfg_.roce;
  traffic_.set_ideal_fct_fn([&t, tables, frame, roce](const models::FlowSpec& f) {
    const PathInfo p = path_info(t, tables, f.src, f.dst, frame);
    const int64_t packets = (f.size.count() + roce.mtu.count() - 1) / roce.mtu.count();
    const sim::Bytes wire = f.size + models::kRoceDataHeaderBytes * packets;
    return sim::tx_time(wire, p.bottleneck) + p.delay;
  });
}

void World::build_endpoints() {
  for (models::Host* h : hosts_) {
    auto nic = std::make_unique<models::RoceNic>(*h, cfg_.roce, &traffic_);
    h->attach(models::Protocol::kRoce, *nic);
    traffic_.set_endpoint(h->ordinal(), models::Protocol::kRoce, *nic);
    nics_.push_back(std::move(nic));
    auto tcp = std::make_unique<models::TcpStack>(*h, cfg_.tcp, &traffic_);
    h->attach(models::Protocol::kTcp, *tcp);
    traffic_.set_endpoint(h->ordinal(), models::Protocol::kTcp, *tcp);
    tcps_.push_back(std::move(tcp));
  }
}

void World::build_traffic() {
  const TrafficConfig& t = cfg_.traffic;
  if (!t.flows.empty()) traffic_.add_batch(t.flows);
  for (const auto& s : t.incasts) traffic_.add_batch(models::incast_flows(s));
  for (const auto& s : t.permutations) traffic_.add_batch(models::permutation_flows(s, cfg_.seed));
  for (const auto& s : t.all_to_all) traffic_.add_batch(models::all_to_all_flows(s));
  for (const auto& p : t.poisson) traffic_.add_batch(models::poisson_flows(p.spec, cfg_.seed));
  for (const auto& c : t.collectives) collectives_.add(c);
  if (!t.rpcs.empty()) {
    std::vector<models::TcpStack*> stacks;
    for (auto& s : tcps_) stacks.push_back(s.get());
    rpcs_ = std::make_unique<RpcDriver>(sim_, recorder_, t.rpcs, stacks);
    for (auto& s : tcps_) s->set_rpc_listener(rpcs_.get());
  }
}

void World::build_monitors() {
  const MonitorConfig& m = cfg_.monitor;
  if (m.deadlock) {
    deadlock_ = std::make_unique<models::DeadlockDetector>(
        net_, models::DeadlockDetectorConfig{m.deadlock_poll, m.deadlock_window, 0xFF});
  }
  std::vector<models::Probe> probes;
  for (const ProbeConfig& p : m.probes) {
    models::Probe pr;
    pr.kind = p.kind == "queue_bytes" ? models::ProbeKind::kQueueBytes
              : p.kind == "paused"    ? models::ProbeKind::kPaused
                                      : models::ProbeKind::kTxGbps;
    pr.node = models::NodeId(p.node);
    pr.tc = p.tc;
    const uint16_t nports = cfg_.topology.num_ports(p.node);
    for (uint16_t port = 0; port < nports; ++port) {
      if (p.port >= 0 && port != p.port) continue;
      pr.port = models::PortIndex(port);
      probes.push_back(pr);
    }
  }
  if (!probes.empty())
    sampler_ = std::make_unique<models::Sampler>(net_, m.sample_interval, probes);
}

void World::start() {
  if (deadlock_) deadlock_->start();
  if (sampler_) sampler_->start();
  if (rpcs_) rpcs_->start();
  faults_->start();
}

bool World::traffic_done() const {
  return traffic_.all_done() && collectives_.all_done() && (!rpcs_ || rpcs_->done());
}

}  // namespace xoff::app
