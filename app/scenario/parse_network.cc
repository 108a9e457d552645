// [routing], [[fault]] and [monitor]: the parts of a scenario that name
// switches, links and ports.
#include "app/scenario/parse.h"
#include "models/monitor/sampler.h"

namespace xoff::app {
namespace {
using config::TableReader;

// Ports of `node` whose peer is `neighbour` (parallel links give several).
std::vector<models::PortIndex> ports_towards(const models::Topology& t, uint32_t node,
                                             uint32_t neighbour) {
  std::vector<models::PortIndex> out;
  for (uint16_t p = 0; p < t.num_ports(node); ++p) {
    if (t.peer(node, p).node == neighbour) out.emplace_back(p);
  }
  return out;
}

// The link between r[key][0] and r[key][1] (names), or nullopt with an error.
std::optional<uint32_t> read_link(TableReader& r, std::string_view key, Names& names) {
  const auto ends = r.array<std::string>(key);
  if (ends.size() != 2) {
    r.error_at(key, "expected two node names, like [\"leaf0\", \"spine1\"]");
    return std::nullopt;
  }
  const auto a = names.node_name(r, key, ends[0]);
  const auto b = names.node_name(r, key, ends[1]);
  if (!a || !b) return std::nullopt;
  const auto& links = names.topology().links;
  for (uint32_t i = 0; i < links.size(); ++i) {
    if ((links[i].a == *a && links[i].b == *b) || (links[i].a == *b && links[i].b == *a)) return i;
  }
  r.error_at(key, "no link between \"" + ends[0] + "\" and \"" + ends[1] + "\"");
  return std::nullopt;
}

// r[key] names a switch (not a host), or nullopt with an error.
std::optional<uint32_t> read_switch(TableReader& r, std::string_view key, Names& names) {
  const auto n = names.node(r, key);
  if (n && names.topology().nodes[*n].kind != models::NodeKind::kSwitch) {
    r.error_at(key, "\"" + names.topology().nodes[*n].name + "\" is a host; expected a switch");
    return std::nullopt;
  }
  return n;
}

uint8_t read_classes(TableReader& f) {
  if (!f.has("classes")) return 1 << 3;
  int classes = 0;
  for (int64_t c : f.array<int64_t>("classes", {.min = 0, .max = 7})) classes |= 1 << c;
  return static_cast<uint8_t>(classes);
}

void read_slow_receiver(TableReader& f, Names& names, ScenarioConfig& s) {
  SlowReceiver r;
  const auto h = names.host(f, "host");
  r.config.rate = f.required<sim::BitsPerSecond>("rate", {.min = sim::BitsPerSecond(1)});
  r.config.xoff = f.optional<sim::Bytes>("xoff", r.config.xoff, {.min = sim::Bytes(1)});
  r.config.xon = f.optional<sim::Bytes>("xon", r.config.xon, {.min = sim::Bytes(0)});
  r.config.classes = read_classes(f);
  r.start = sim::Time::zero() + f.optional<sim::Duration>("start", sim::Duration::zero(),
                                                          {.min = sim::Duration::zero()});
  if (r.config.xon > r.config.xoff) {
    f.error_at("xon", f.path_of("xon") + " (" + config::show(r.config.xon) + ") must not exceed " +
                          f.path_of("xoff") + " (" + config::show(r.config.xoff) + ")");
  }
  if (h && r.config.rate.count() > 0) {
    r.host = *h;
    s.slow_receivers.push_back(r);
  }
}

}  // namespace

void read_routing(std::optional<TableReader> r, Names& names, RoutingConfig& out) {
  if (!r) return;
  const std::string mode = r->choice("mode", {"ecmp", "up_down"}, "ecmp");
  out.mode = mode == "up_down" ? RoutingMode::kUpDown : RoutingMode::kEcmp;
  if (r->has("root")) {
    if (auto n = read_switch(*r, "root", names)) out.root = *n;
  }
  out.convergence_delay = r->optional<sim::Duration>("convergence_delay", out.convergence_delay,
                                                     {.min = sim::Duration::zero()});
  out.ttl = static_cast<uint8_t>(r->optional<int64_t>("ttl", out.ttl, {.min = 2, .max = 255}));
  out.spray = r->choice("load_balance", {"flow", "packet"}, "flow") == "packet";
  const models::Topology& t = names.topology();
  for (TableReader s : r->array_of_tables("static")) {
    const auto sw = read_switch(s, "switch", names);
    const auto dst = names.host(s, "dst");
    models::StaticRoute route;
    for (const std::string& via : s.array<std::string>("via")) {
      const auto nb = names.node_name(s, "via", via);
      if (!sw || !nb) continue;
      // A packet handed to a host is delivered there: only the destination itself.
      if (t.nodes[*nb].kind == models::NodeKind::kHost && (!dst || t.host_ordinal(*nb) != *dst)) {
        s.error_at("via", "\"" + via +
                              "\" is a host other than the destination; a route can only "
                              "reach a host that is its destination");
        continue;
      }
      const auto ports = ports_towards(t, *sw, *nb);
      if (ports.empty())
        s.error_at("via", "\"" + via + "\" is not a neighbour of \"" + t.nodes[*sw].name + "\"");
      route.ports.insert(route.ports.end(), ports.begin(), ports.end());
    }
    if (!s.has("via"))
      s.error_here(s.path() + ": missing required key \"via\" (next-hop neighbours)");
    if (!sw || !dst || route.ports.empty()) continue;
    route.node = *sw;
    route.dst_host = *dst;
    out.static_routes.push_back(route);
  }
}

void read_faults(TableReader& root, Names& names, ScenarioConfig& s) {
  for (TableReader f : root.array_of_tables("fault")) {
    const std::string kind = f.choice("kind", {"link_down", "link_up", "link_flap", "pfc_storm",
                                               "pfc_frame", "slow_receiver", "mismark"});
    if (kind == "mismark") {  // a NIC marking its packets wrongly from start to stop
      Mismark m;
      const auto h = names.host(f, "host");
      const std::string proto = f.choice("protocol", {"roce", "tcp", "all"}, "all");
      const uint8_t roce = models::protocol_bit(models::Protocol::kRoce);
      const uint8_t tcp = models::protocol_bit(models::Protocol::kTcp);
      m.protocols = proto == "roce"  ? roce
                    : proto == "tcp" ? tcp
                                     : static_cast<uint8_t>(roce | tcp);
      m.dscp = static_cast<uint8_t>(f.required<int64_t>("dscp", {.min = 0, .max = 63}));
      m.pcp = static_cast<uint8_t>(f.optional<int64_t>("pcp", m.dscp >> 3, {.min = 0, .max = 7}));
      m.start = sim::Time::zero() + f.optional<sim::Duration>("start", sim::Duration::zero(),
                                                              {.min = sim::Duration::zero()});
      if (f.has("stop")) m.stop = sim::Time::zero() + f.required<sim::Duration>("stop");
      if (m.stop <= m.start)
        f.error_at("stop", f.path_of("stop") + " must be after " + f.path_of("start"));
      if (h) {
        m.host = *h;
        s.mismarks.push_back(m);
      }
      continue;
    }
    if (kind == "slow_receiver") {
      read_slow_receiver(f, names, s);
      continue;
    }
    if (kind == "pfc_frame") {  // one PAUSE (or XON) from a host at `at`
      PfcFrame pf;
      const auto h = names.host(f, "host");
      pf.classes = read_classes(f);
      pf.quanta =
          static_cast<uint16_t>(f.optional<int64_t>("quanta", 0xFFFF, {.min = 0, .max = 0xFFFF}));
      pf.at = sim::Time::zero() + f.required<sim::Duration>("at", {.min = sim::Duration::zero()});
      if (h) {
        pf.host = *h;
        s.pfc_frames.push_back(pf);
      }
      continue;
    }
    if (kind == "pfc_storm") {
      PfcStorm st;
      const auto h = names.host(f, "host");
      st.classes = read_classes(f);
      st.start =
          sim::Time::zero() + f.required<sim::Duration>("start", {.min = sim::Duration::zero()});
      if (f.has("stop")) st.stop = sim::Time::zero() + f.required<sim::Duration>("stop");
      if (st.stop <= st.start)
        f.error_at("stop", f.path_of("stop") + " must be after " + f.path_of("start"));
      st.refresh =
          f.optional<sim::Duration>("refresh", st.refresh, {.min = sim::Duration::ns(100)});
      if (h) st.host = *h;
      if (h) s.storms.push_back(st);
      continue;
    }
    if (kind == "link_flap") {  // down for `down`, every `period`, `count` times
      const auto link = read_link(f, "link", names);
      const sim::Time start =
          sim::Time::zero() + f.required<sim::Duration>("start", {.min = sim::Duration::zero()});
      const sim::Duration period =
          f.required<sim::Duration>("period", {.min = sim::Duration::ns(10)});
      const sim::Duration down = f.required<sim::Duration>("down", {.min = sim::Duration::ns(1)});
      const int64_t count = f.optional<int64_t>("count", 1, {.min = 1, .max = 100'000});
      if (down >= period) {
        f.error_at("down", f.path_of("down") + " must be shorter than " + f.path_of("period"));
        continue;
      }
      if (period.count_ps() > 1'000'000'000'000'000'000 / count) {  // count x period <= 10^6 s
        f.error_at("count",
                   f.path_of("count") + " x " + f.path_of("period") + " must be at most 10^6 s");
        continue;
      }
      if (!link) continue;
      for (int64_t k = 0; k < count; ++k) {
        const sim::Time t = start + period * k;
        s.link_faults.push_back(LinkFault{*link, false, t});
        s.link_faults.push_back(LinkFault{*link, true, t + down});
      }
      continue;
    }
    const auto link = read_link(f, "link", names);
    const sim::Duration at = f.required<sim::Duration>("at", {.min = sim::Duration::zero()});
    if (link) s.link_faults.push_back(LinkFault{*link, kind == "link_up", sim::Time::zero() + at});
  }
}

void read_monitor(std::optional<TableReader> r, Names& names, MonitorConfig& out) {
  if (!r) return;
  out.sample_interval = r->optional<sim::Duration>("sample_interval", out.sample_interval,
                                                   {.min = sim::Duration::ns(100)});
  out.deadlock = r->optional<bool>("deadlock", out.deadlock);
  out.deadlock_window = r->optional<sim::Duration>("deadlock_window", out.deadlock_window,
                                                   {.min = sim::Duration::ns(100)});
  out.deadlock_poll = r->optional<sim::Duration>("deadlock_poll", out.deadlock_poll,
                                                 {.min = sim::Duration::ns(100)});
  for (TableReader p : r->array_of_tables("probe")) {
    ProbeConfig pc;
    pc.kind = p.choice("kind", models::kProbeKindNames);
    const auto n = names.node(p, "node");
    pc.port = static_cast<int>(p.optional<int64_t>("port", -1, {.min = -1, .max = 65535}));
    const bool pg_kind = pc.kind.rfind("pg_", 0) == 0;
    const bool host_kind = pc.kind.rfind("cnps_", 0) == 0 || pc.kind.rfind("dcqcn_", 0) == 0;
    pc.tc = static_cast<uint8_t>(pg_kind ? p.optional<int64_t>("pg", 3, {.min = 0, .max = 7})
                                         : p.optional<int64_t>("class", 3, {.min = 0, .max = 7}));
    if (pc.kind.rfind("dcqcn_", 0) == 0)
      pc.flow = static_cast<uint32_t>(p.required<int64_t>("flow", {.min = 0, .max = UINT32_MAX}));
    if (!n) continue;
    pc.node = *n;
    const bool is_host = names.topology().nodes[*n].kind == models::NodeKind::kHost;
    if (pg_kind && is_host) {
      p.error_at("node", "\"" + pc.kind + "\" is an ingress priority group of a switch; \"" +
                             names.topology().nodes[*n].name + "\" is a host");
      continue;
    }
    if (host_kind && !is_host) {
      p.error_at("node", "\"" + pc.kind + "\" is read at a host's NIC; \"" +
                             names.topology().nodes[*n].name + "\" is a switch");
      continue;
    }
    if (host_kind) pc.port = 0;  // one series per host
    if (pc.port >= names.topology().num_ports(*n)) {
      p.error_at("port", "\"" + names.topology().nodes[*n].name + "\" has ports 0.." +
                             std::to_string(names.topology().num_ports(*n) - 1));
      continue;
    }
    out.probes.push_back(pc);
  }
  for (TableReader p : r->array_of_tables("pcap")) {
    PcapTarget t;
    const auto n = names.node(p, "node");
    t.port = static_cast<int>(p.optional<int64_t>("port", -1, {.min = -1, .max = 65535}));
    t.max_packets = static_cast<uint64_t>(
        p.optional<int64_t>("max_packets", 100'000, {.min = 1, .max = 100'000'000}));
    t.start = sim::Time::zero() + p.optional<sim::Duration>("start", sim::Duration::zero(),
                                                            {.min = sim::Duration::zero()});
    if (p.has("stop")) {
      t.stop =
          sim::Time::zero() + p.required<sim::Duration>("stop", {.min = sim::Duration::zero()});
      if (t.stop <= t.start) p.error_at("stop", "must be after start");
    }
    if (!n) continue;
    t.node = *n;
    if (t.port >= names.topology().num_ports(*n)) {
      p.error_at("port", "\"" + names.topology().nodes[*n].name + "\" has ports 0.." +
                             std::to_string(names.topology().num_ports(*n) - 1));
      continue;
    }
    out.pcap.push_back(t);
  }
}

}  // namespace xoff::app
