#include "app/run/world.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "app/mpi/partition.h"
#include "app/run/faults.h"
#include "app/run/progress.h"
#include "models/topology/routing.h"
#include "models/traffic/generators.h"
#include "sim/check.h"
#include "sim/unit_parse.h"

namespace xoff::app {
namespace {

// Calls visit(link, i) for the links from host `src` to host `dst` along the
// first next hop at every switch (the path an idle fabric's ECMP might pick;
// all are equal length), i = 0 for the host's own link. The port map makes
// each hop O(1) and the source node is looked up, not searched
// (Topology::peer scans every link and host_node lists every host: at 1,024
// hosts that was several % of a run, once per flow); nothing is allocated.
template <typename Visit>
void walk_path(const models::Topology& t, const models::PortMap& pm,
               const models::ForwardingTables& ft, uint32_t src_node, uint32_t dst, Visit visit) {
  uint32_t node = src_node;
  uint16_t port = 0;
  for (int hops = 0; hops < 64; ++hops) {
    const models::PortPeer peer = pm.peer(node, port);
    visit(t.links[peer.link], hops);
    node = peer.node;
    if (t.nodes[node].kind == models::NodeKind::kHost) break;
    const auto next = ft.next_hops(node, dst);
    if (next.empty()) break;
    port = next[0].value();
  }
}

// Ideal FCT of a flow alone on an idle fabric, as the sender measures it (to
// the last ACK): every frame at the bottleneck rate, the last one stored and
// forwarded by each switch, the propagation there, and the ACK back (stored
// and forwarded at every hop). Exact for RoCE on an idle path of equal-rate
// links; TCP's slow start is not part of the ideal (it is a cost of TCP).
struct IdealFct {
  const models::Topology* topo;
  std::shared_ptr<const models::PortMap> ports;
  std::shared_ptr<const std::vector<uint32_t>> host_nodes;  // node of each host ordinal
  models::ForwardingTables tables;
  models::RoceConfig roce;
  models::TcpConfig tcp;
  models::NvlinkConfig nvlink;
  sim::Bytes wire;  // preamble, SFD and gap per frame

  sim::Duration operator()(const models::FlowSpec& f) const {
    if (f.protocol == models::Protocol::kNvlink)
      return sim::tx_time(f.size, nvlink.rate) + nvlink.latency;
    const bool is_tcp = f.protocol == models::Protocol::kTcp;
    const sim::Bytes mtu = is_tcp ? tcp.mss : roce.mtu;
    const sim::Bytes header = is_tcp ? tcp.header_bytes : models::kRoceDataHeaderBytes;
    const sim::Bytes ack = is_tcp ? tcp.min_frame : models::kRoceAckBytes;
    const int64_t packets = (f.size.count() + mtu.count() - 1) / mtu.count();
    // Each switch holds the last frame for a full frame's time: it waits behind
    // the full frame before it (or is itself the only frame).
    const sim::Bytes held = packets > 1 ? mtu + header : f.size + header;
    sim::BitsPerSecond bottleneck{INT64_MAX};
    sim::Duration fixed;
    walk_path(*topo, *ports, tables, (*host_nodes)[f.src], f.dst,
              [&](const models::LinkSpec& l, int i) {
                bottleneck = std::min(bottleneck, l.rate);
                fixed += l.delay * 2 + sim::tx_time(ack + wire, l.rate);
                if (i > 0) fixed += sim::tx_time(held + wire, l.rate);
              });
    return sim::tx_time(f.size + (header + wire) * packets, bottleneck) + fixed;
  }
};

}  // namespace

World::World(const ScenarioConfig& cfg, models::Recorder& recorder)
    : World(cfg, recorder, std::vector<bool>{}) {}

// The deep lookahead (sim::Simulator::set_deep_lookahead) pays when the
// fabric's per-hop state is far beyond a core's L2 cache: from about 2,048
// ports (a 512-host spine-leaf). Below, its instructions are a cost
// (bench/README.md, docs/decisions.md). It never changes a result.
bool World::deep_lookahead(const models::Network& net) {
  constexpr size_t kDeepLookaheadPorts = 2048;
  size_t ports = 0;
  for (size_t n = 0; n < net.num_nodes(); ++n)
    ports += net.node(models::NodeId(static_cast<uint32_t>(n))).num_ports();
  return ports >= kDeepLookaheadPorts;
}

// Streams: 0 (set-up) is local everywhere, node i's is i + 1.
static std::vector<bool> local_streams(const std::vector<bool>& local_nodes) {
  if (local_nodes.empty()) return {};
  std::vector<bool> s(local_nodes.size() + 1, true);
  for (size_t i = 0; i < local_nodes.size(); ++i) s[i + 1] = local_nodes[i];
  return s;
}

World::World(const ScenarioConfig& cfg, models::Recorder& recorder, std::vector<bool> local_nodes)
    : cfg_(cfg),
      recorder_(recorder),
      local_nodes_(std::move(local_nodes)),
      net_(sim_, &recorder),
      traffic_(sim_, recorder, cfg.topology.num_hosts()),
      collectives_(traffic_, recorder) {
  sim_.set_local_streams(local_streams(local_nodes_));
  // The set-up stream runs in every part; the part holding node 0 counts it.
  sim_.set_setup_replica(!local_nodes_.empty() && !local_nodes_[0]);
  net_.set_default_ttl(cfg.routing.ttl);
  net_.set_wire_overhead(cfg.wire_overhead);
  build_nodes();
  build_routes();
  build_endpoints();
  build_traffic();
  build_monitors();
  faults_ = std::make_unique<FaultInjector>(cfg_, net_, switches_, hosts_);
  sim_.set_deep_lookahead(deep_lookahead(net_));
  if (local_nodes_.empty()) set_windows();
}

// Windows (sim::Simulator::set_parts): on a large fabric, the run goes
// window by window of the lookahead, a part (a leaf with its hosts, or four
// switches without hosts) at a time, for locality. Exactly the same results.
// Where a scenario cannot (what xoff-mpi refuses: flows released by other
// hosts' completions with no delay to look ahead by, TCP's connection
// set-up, RPC probes, NVLink, captures) or the fabric is small, the run is
// sequential.
// XOFF_WINDOWS=off turns them off; XOFF_WINDOWS=N asks for N parts on any
// fabric the scenario allows (tests, measurements).
void World::set_windows() {
  const char* env = std::getenv("XOFF_WINDOWS");
  const std::string mode = env == nullptr ? "auto" : env;
  int parts = 0;
  if (mode == "off" || mode == "0") {
    windows_note_ = "off (XOFF_WINDOWS)";
    return;
  }
  if (mode == "auto" || mode.empty()) {
    if (!sim_.deep_lookahead()) {  // (set just before: a fabric of 2,048 ports or more)
      windows_note_ = "off (a small fabric: under 2,048 ports)";
      return;
    }
    // One part per four nodes asked. A switch and its hosts are never split,
    // so a leaf (or an edge switch) with its hosts is a part of its own, and
    // the switches without hosts go four to a part. With one part per 32
    // hosts, all 32 spines of the 1,024-host spine-leaf (the 64 of the
    // 4,096-host one) shared one or two parts, whose turns took a quarter of
    // a window's frames at once: the 4,096-host permutation in 0.91x the
    // time, the 1,024-host one 0.92 - 0.94x, the 4,096-host ring 0.95x, the
    // k = 16 fat-tree 0.94x (bench/README.md, fourteenth session).
    parts = static_cast<int>(std::clamp<size_t>(cfg_.topology.nodes.size() / 4, 2, 16384));
  } else {
    char* end = nullptr;
    const long n = std::strtol(mode.c_str(), &end, 10);
    if (end == mode.c_str() || *end != '\0' || n < 2 || n > 4096) {
      std::fprintf(stderr,
                   "xoff: XOFF_WINDOWS=%s ignored (allowed: auto, off, or a number of parts from 2 "
                   "to 4096)\n",
                   mode.c_str());
      windows_note_ = "off (XOFF_WINDOWS not understood)";
      return;
    }
    parts = static_cast<int>(n);
  }
  std::vector<std::string> why = partition_unsupported(cfg_);
  why.push_back(partition_unsupported(traffic_));  // what the built world plans
  if (!why.front().empty()) {
    windows_note_ = "off (" + why.front() + ")";
    return;
  }
  Partition part = partition_fabric(cfg_.topology, parts);
  if (part.parts < 2 || part.crossing_links == 0 || part.lookahead <= sim::Duration::zero()) {
    windows_note_ = "off (no link between parts with a delay to look ahead by)";
    return;
  }
  // Hosts go with their switch and a group goes whole to the part its
  // middle falls in, so some parts may get no node (always when more parts
  // are asked than there are groups: XOFF_WINDOWS=N). The parts that got
  // nodes are numbered anew, densely and in order, so that no empty part
  // keeps a queue and a turn in every window.
  const int asked = part.parts;
  std::vector<int> renumber(static_cast<size_t>(asked), -1);
  for (const int o : part.owner) renumber[static_cast<size_t>(o)] = 0;
  int filled = 0;
  for (int& r : renumber) r = r < 0 ? -1 : filled++;
  for (int& o : part.owner) o = renumber[static_cast<size_t>(o)];
  part.parts = filled;
  // Node i runs as stream i + 1; the set-up stream and the observers are global.
  std::vector<uint16_t> part_of(part.owner.size() + 1, sim::Simulator::kNoPart);
  for (size_t i = 0; i < part.owner.size(); ++i)
    part_of[i + 1] = static_cast<uint16_t>(part.owner[i]);
  sim_.set_parts(std::move(part_of), part.lookahead);
  // At each part's turn, the frames due at its nodes in the window start
  // loading (the ports whose peer is in the part).
  incoming_.assign(static_cast<size_t>(part.parts), {});
  for (uint32_t i = 0; i < net_.num_nodes(); ++i) {
    models::Node& n = net_.node(models::NodeId(i));
    for (size_t k = 0; k < n.num_ports(); ++k) {
      const models::EgressPort& p = n.port(models::PortIndex(static_cast<uint16_t>(k)));
      incoming_[static_cast<size_t>(part.owner[p.peer().id().value()])].push_back(&p);
    }
  }
  sim_.set_part_turn_hook(
      [](void* w, size_t p, sim::Time end) {
        for (const models::EgressPort* port : static_cast<World*>(w)->incoming_[p])
          port->prefetch_arrivals(end);
      },
      this);
  windows_note_ = std::to_string(filled) + " parts" +
                  (filled < asked ? " (" + std::to_string(asked) + " asked; the others got no node)"
                                  : std::string()) +
                  ", lookahead " + sim::format_duration(part.lookahead);
}

World::~World() = default;

void World::build_nodes() {
  const models::Topology& t = cfg_.topology;
  const models::PortMap pm(t);  // Topology::peer and num_ports scan every link: O(1) here
  switches_.assign(t.nodes.size(), nullptr);
  XOFF_CHECK(hosts_.empty(), "build_nodes runs once");
  for (uint32_t i = 0; i < t.nodes.size(); ++i) {
    const models::NodeSpec& n = t.nodes[i];
    if (n.kind == models::NodeKind::kHost) {
      models::Host& h = net_.add_node<models::Host>(
          n.name, static_cast<uint32_t>(hosts_.size()));  // = t.host_ordinal(i), in O(1)
      net_.register_host(h);
      hosts_.push_back(&h);
    } else {
      models::SwitchConfig sc = cfg_.switch_config;  // with its own [[device]] settings
      if (!cfg_.devices.empty()) {
        sc.classification = cfg_.devices[i].classification;
        if (cfg_.devices[i].watchdog) sc.watchdog = *cfg_.devices[i].watchdog;
        if (cfg_.devices[i].ecn) sc.ecn = *cfg_.devices[i].ecn;
      }
      models::Switch& s = net_.add_node<models::Switch>(n.name, sc);
      s.set_ecmp_salt(models::ecmp_salt(cfg_.seed, n.name));
      if (!cfg_.switch_config.tagger.classes.empty()) {
        std::vector<bool> up(pm.num_ports(i), false);
        for (uint16_t p = 0; p < up.size(); ++p) {
          const models::PortPeer peer = pm.peer(i, p);
          if (peer.connected()) up[p] = t.nodes[peer.node].tier > n.tier;
        }
        s.set_uplinks(std::move(up));
      }
      s.set_spray(cfg_.routing.spray);
      switches_[i] = &s;
    }
  }
  // Ports in each node's own numbering (a ring switch lists hosts first), then links.
  for (uint32_t i = 0; i < t.nodes.size(); ++i) {
    for (uint16_t p = 0; p < pm.num_ports(i); ++p) {
      const models::PortPeer peer = pm.peer(i, p);
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
  for (models::Host* h : hosts_) {
    h->nic_port().set_response_delay(cfg_.switch_config.pfc.response_delay);
    h->nic_port().set_scheduler(cfg_.switch_config.scheduler);  // NIC ETS like the switches'
  }
  // Per-device QoS: every port's PFC classes as DCBX left them, a NIC's own
  // RoCE marking.
  if (!cfg_.port_pfc.empty()) {
    for (uint32_t i = 0; i < t.nodes.size(); ++i) {
      models::Switch* sw = switches_[i];
      if (sw == nullptr) {
        auto& h = static_cast<models::Host&>(net_.node(models::NodeId(i)));
        h.nic_port().set_pfc_enabled(cfg_.port_pfc[i][0]);
        if (cfg_.devices[i].roce_dscp >= 0) apply_nic_marking(h, cfg_.devices[i].roce_dscp);
        continue;
      }
      const bool profiled = !cfg_.port_headroom.empty();
      for (uint16_t p = 0; p < pm.num_ports(i); ++p) {
        sw->set_port_pfc(models::PortIndex(p), cfg_.port_pfc[i][p]);
        if (profiled && cfg_.port_headroom[i][p] >= 0) {
          sw->set_port_headroom(models::PortIndex(p), sim::Bytes(cfg_.port_headroom[i][p]),
                                sim::Bytes(cfg_.port_xon_offset[i][p]));
        }
      }
    }
  }
}

void World::build_routes() {
  const auto tables = compute_routes(cfg_, models::all_links_up(cfg_.topology));
  install_routes(tables, switches_, cfg_.topology, sim::Time::zero(), true);
  traffic_.set_ideal_fct_fn(
      IdealFct{&cfg_.topology, std::make_shared<const models::PortMap>(cfg_.topology),
               std::make_shared<const std::vector<uint32_t>>(cfg_.topology.host_nodes()), tables,
               cfg_.roce, cfg_.tcp, cfg_.nvlink, cfg_.wire_overhead});
}

void World::build_endpoints() {
  for (models::Host* h : hosts_) {
    auto nic = std::make_unique<models::RoceNic>(*h, cfg_.roce, &traffic_);
    h->attach(models::Protocol::kRoce, *nic);
    const bool here = local(h->id().value());
    traffic_.set_host_stream(h->ordinal(), h->sim_stream());
    traffic_.set_endpoint(h->ordinal(), models::Protocol::kRoce,
                          here ? static_cast<models::FlowEndpoint&>(*nic) : elsewhere_);
    nics_.push_back(std::move(nic));
    auto tcp = std::make_unique<models::TcpStack>(*h, cfg_.tcp, &traffic_);
    h->attach(models::Protocol::kTcp, *tcp);
    traffic_.set_endpoint(h->ordinal(), models::Protocol::kTcp,
                          here ? static_cast<models::FlowEndpoint&>(*tcp) : elsewhere_);
    tcps_.push_back(std::move(tcp));
  }
  if (cfg_.gpus_per_server > 0) {
    const uint32_t hosts = cfg_.topology.num_hosts();
    nvlink_ = std::make_unique<models::NvlinkFabric>(sim_, cfg_.nvlink, hosts, traffic_);
    for (uint32_t h = 0; h < hosts; ++h) {
      traffic_.set_endpoint(h, models::Protocol::kNvlink, nvlink_->endpoint(h));
    }
  }
}

void World::build_traffic() {
  const TrafficConfig& t = cfg_.traffic;
  if (!t.flows.empty()) traffic_.add_batch(t.flows);
  for (const auto& s : t.incasts) traffic_.add_batch(models::incast_flows(s));
  for (const auto& s : t.permutations) traffic_.add_batch(models::permutation_flows(s, cfg_.seed));
  for (const auto& s : t.all_to_all) traffic_.add_batch(models::all_to_all_flows(s));
  for (const auto& p : t.poisson) traffic_.add_batch(models::poisson_flows(p.spec, cfg_.seed));
  if (!local_nodes_.empty()) {  // a partitioned run: only this part's hosts launch
    const std::vector<uint32_t> nodes = cfg_.topology.host_nodes();
    std::vector<bool> hosts(nodes.size());
    for (uint32_t h = 0; h < hosts.size(); ++h) hosts[h] = local(nodes[h]);
    collectives_.set_local_hosts(std::move(hosts));
  }
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
    pr.kind = models::probe_kind(p.kind);
    pr.node = models::NodeId(p.node);
    pr.tc = p.tc;
    pr.flow = p.flow;
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

World::End World::run(Progress* progress) { return run(progress, Limits{}); }

World::End World::run(Progress* progress, const Limits& limits) {
  const sim::Time end = sim::Time::zero() + cfg_.duration;
  // The completion check runs at least every simulated ms, so a run whose
  // traffic is done does not go on sampling for a thousandth of a very long
  // duration.
  const sim::Duration slice = World::slice(cfg_.duration);
  sim::Time stop_at = end;
  bool done = false;
  // The slice's end is fixed before it runs (the completion check below
  // happens at the same simulated times however the slice is cut), and the
  // slice runs in pieces of at most kCheckEvents events between the checks.
  auto early = [&]() -> std::optional<End> {
    if (limits.interrupted != nullptr && *limits.interrupted != 0) return End::kInterrupted;
    if (limits.max_events != 0 && sim_.events_executed() >= limits.max_events)
      return End::kEventBudget;
    if (limits.max_wall_seconds > 0 && progress != nullptr &&
        progress->elapsed_seconds() >= limits.max_wall_seconds)
      return End::kWallBudget;
    return std::nullopt;
  };
  while (sim_.now() < stop_at) {
    const sim::Time target = std::min(stop_at, sim_.now() + slice);
    while (sim_.now() < target) {
      uint64_t budget = kCheckEvents;
      if (limits.max_events != 0) {
        budget = std::min(budget,
                          limits.max_events - std::min(limits.max_events, sim_.events_executed()));
      }
      if (const auto e = early()) {
        if (progress != nullptr) progress->finish();
        return *e;
      }
      const uint64_t ran = sim_.run_until(target, budget);
      if (ran < budget) break;  // reached target (the clock moved there)
    }
    if (progress != nullptr) {
      progress->update(sim_.now(), sim_.events_executed(), traffic_.flows_finished(),
                       planned_flows());
    }
    if (!done && cfg_.stop_when_done && traffic_done()) {
      done = true;
      stop_at = std::min(end, sim_.now() + cfg_.drain);
    }
  }
  if (progress != nullptr) progress->finish();
  return End::kComplete;
}

bool World::traffic_done() const {
  return traffic_.all_done() && collectives_.all_done() && (!rpcs_ || rpcs_->done());
}

}  // namespace xoff::app
