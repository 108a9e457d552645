// Reading a scenario file: the [scenario], [topology] and [routing] sections and
// the order in which every section is read (topology first: names resolve
// against it). The other sections live in parse_*.cc.
#include "app/config/load.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/scenario/parse.h"
#include "app/scenario/parse_util.h"
#include "app/scenario/topology_file.h"

namespace xoff::app {
namespace {
using config::TableReader;

void read_scenario_section(TableReader r, ScenarioConfig& s) {
  s.name = r.required<std::string>("name");
  s.description = r.optional<std::string>("description", "");
  s.variant = r.optional<std::string>("variant", "");  // merged by config::load_file
  s.seed = static_cast<uint64_t>(r.optional<int64_t>("seed", 1, {.min = 0}));
  // The event core keys time in 52 bits of picoseconds (sim/simulator.h).
  s.duration = r.required<sim::Duration>(
      "duration", {.min = sim::Duration::ns(1), .max = sim::Duration::s(3600)});
  s.stop_when_done = r.optional<bool>("stop_when_done", true);
  s.drain =
      r.optional<sim::Duration>("drain", sim::Duration::us(100), {.min = sim::Duration::zero()});
}

// Host and fabric link rates and delays, shared by the spine-leaf and ring
// generators. False when a rate was refused (already reported).
template <class Config>
bool read_links(TableReader& r, Config& c) {
  c.host_rate = r.required<sim::BitsPerSecond>("host_rate", {.min = sim::BitsPerSecond(1)});
  c.fabric_rate =
      r.optional<sim::BitsPerSecond>("fabric_rate", c.host_rate, {.min = sim::BitsPerSecond(1)});
  c.host_delay =
      r.optional<sim::Duration>("host_delay", sim::Duration::us(1), {.min = sim::Duration::zero()});
  c.fabric_delay =
      r.optional<sim::Duration>("fabric_delay", c.host_delay, {.min = sim::Duration::zero()});
  return c.host_rate.count() != 0 && c.fabric_rate.count() != 0;
}

// The largest fabric a scenario may describe (a 64-ary fat-tree has 65,536
// hosts): beyond these, building and routing alone take minutes and GBs.
constexpr int64_t kMaxHosts = 262'144;
constexpr int64_t kMaxLinks = 1 << 22;

// `spines`, or `oversubscription` (leaf downlink over uplink capacity) from
// which the spine count follows: down_ports * host_rate / (ratio * fabric_rate),
// which must come out a whole number. 0 when refused (reported).
int read_spines(TableReader& r, int down_ports, sim::BitsPerSecond host_rate,
                sim::BitsPerSecond fabric_rate) {
  if (r.has("spines") && r.has("oversubscription")) {
    r.error_at("oversubscription", r.path_of("oversubscription") + " and " + r.path_of("spines") +
                                       " both set: give one (the other follows)");
    return 0;
  }
  if (!r.has("oversubscription")) {
    return static_cast<int>(r.required<int64_t>("spines", {.min = 1, .max = 4096}));
  }
  const double ratio = r.required<double>("oversubscription", {.min = 1e-3, .max = 1e3});
  const double spines = static_cast<double>(down_ports) * static_cast<double>(host_rate.count()) /
                        (ratio * static_cast<double>(fabric_rate.count()));
  const double whole = std::round(spines);
  if (whole < 1 || whole > 4096 || std::abs(spines - whole) > 1e-9 * whole) {
    r.error_at("oversubscription",
               r.path_of("oversubscription") + " = " + std::to_string(ratio) + " needs " +
                   std::to_string(spines) + " spines (" + std::to_string(down_ports) +
                   " host ports x host_rate / (ratio x fabric_rate)); choose a ratio that gives "
                   "a whole number from 1 to 4096");
    return 0;
  }
  return static_cast<int>(whole);
}

models::Topology read_rail(TableReader& r) {
  models::RailConfig c;
  c.servers = static_cast<int>(r.required<int64_t>("servers", {.min = 1, .max = 65536}));
  c.gpus_per_server =
      static_cast<int>(r.optional<int64_t>("gpus_per_server", 8, {.min = 1, .max = 64}));
  c.servers_per_leaf = static_cast<int>(
      r.optional<int64_t>("servers_per_leaf", std::min(c.servers, 32), {.min = 1, .max = 4096}));
  if (!read_links(r, c)) return {};  // already reported
  if (c.servers % c.servers_per_leaf != 0) {
    r.error_at("servers_per_leaf", r.path_of("servers_per_leaf") + " (" +
                                       std::to_string(c.servers_per_leaf) + ") must divide " +
                                       r.path_of("servers") + " (" + std::to_string(c.servers) +
                                       ")");
    return {};
  }
  if (int64_t{c.servers} * c.gpus_per_server > kMaxHosts) {
    r.error_here("topology: rail of " + std::to_string(int64_t{c.servers} * c.gpus_per_server) +
                 " hosts: at most " + std::to_string(kMaxHosts));
    return {};
  }
  c.spines = read_spines(r, c.servers_per_leaf, c.host_rate, c.fabric_rate);
  if (c.spines == 0) return {};  // already reported
  if (int64_t{c.gpus_per_server} * c.leaves_per_rail() * c.spines > kMaxLinks) {
    r.error_here("topology: rail with more than " + std::to_string(kMaxLinks) + " links");
    return {};
  }
  return models::rail_optimised(c);
}

models::Topology read_spine_leaf(TableReader& r) {
  models::SpineLeafConfig c;
  c.leaves = static_cast<int>(r.required<int64_t>("leaves", {.min = 1, .max = 4096}));
  c.hosts_per_leaf =
      static_cast<int>(r.required<int64_t>("hosts_per_leaf", {.min = 1, .max = 4096}));
  if (!read_links(r, c)) return {};  // already reported
  c.spines = read_spines(r, c.hosts_per_leaf, c.host_rate, c.fabric_rate);
  if (c.spines == 0) return {};  // already reported
  // Each dimension is bounded; their products must be too, or a 4096^3
  // fabric is built (and routed) for minutes before anything says no.
  const int64_t hosts = int64_t{c.leaves} * c.hosts_per_leaf;
  const int64_t uplinks = int64_t{c.leaves} * c.spines;
  if (hosts > kMaxHosts || uplinks > kMaxLinks) {
    r.error_here("topology: spine_leaf of " + std::to_string(hosts) + " hosts and " +
                 std::to_string(uplinks) + " leaf-spine links: at most " +
                 std::to_string(kMaxHosts) + " hosts and " + std::to_string(kMaxLinks) + " links");
    return {};
  }
  return models::spine_leaf(c);
}

models::Topology read_ring(TableReader& r) {
  models::RingConfig c;
  c.switches = static_cast<int>(r.required<int64_t>("switches", {.min = 3, .max = 4096}));
  c.hosts_per_switch =
      static_cast<int>(r.optional<int64_t>("hosts_per_switch", 1, {.min = 0, .max = 4096}));
  if (!read_links(r, c)) return {};  // already reported
  if (int64_t{c.switches} * c.hosts_per_switch > kMaxHosts) {
    r.error_here("topology: ring of " + std::to_string(int64_t{c.switches} * c.hosts_per_switch) +
                 " hosts: at most " + std::to_string(kMaxHosts));
    return {};
  }
  return models::ring(c);
}

models::Topology read_fat_tree(TableReader& r) {
  models::FatTreeConfig c;
  c.k = static_cast<int>(r.required<int64_t>("k", {.min = 2, .max = 64}));
  if (c.k % 2 != 0) r.error_at("k", r.path_of("k") + " must be even, got " + std::to_string(c.k));
  c.rate = r.required<sim::BitsPerSecond>("rate", {.min = sim::BitsPerSecond(1)});
  c.delay =
      r.optional<sim::Duration>("delay", sim::Duration::us(1), {.min = sim::Duration::zero()});
  if (c.rate.count() == 0 || c.k % 2 != 0) return {};  // already reported
  return models::fat_tree(c);
}

models::Topology read_explicit(TableReader& r) {
  std::vector<models::NodeSpec> nodes;
  for (TableReader n : r.array_of_tables("node")) {
    models::NodeSpec spec;
    spec.name = n.required<std::string>("name");
    const std::string kind = n.choice("kind", {"host", "switch"}, "switch");
    spec.kind = kind == "host" ? models::NodeKind::kHost : models::NodeKind::kSwitch;
    spec.tier =
        static_cast<int>(n.optional<int64_t>("tier", kind == "host" ? 0 : 1, {.min = 0, .max = 3}));
    nodes.push_back(spec);
  }
  models::Topology names{nodes, {}};
  std::vector<models::LinkInput> links;
  bool bad = false;
  for (TableReader l : r.array_of_tables("link")) {
    models::LinkInput in;
    const std::string a = l.required<std::string>("a");
    const std::string b = l.required<std::string>("b");
    const auto ia = names.find(a), ib = names.find(b);
    if (!ia) l.error_at("a", "unknown node \"" + a + "\"");
    if (!ib) l.error_at("b", "unknown node \"" + b + "\"");
    bad = bad || !ia || !ib;
    in.a = ia.value_or(0);
    in.b = ib.value_or(0);
    in.rate = l.required<sim::BitsPerSecond>("rate", {.min = sim::BitsPerSecond(1)});
    in.delay =
        l.optional<sim::Duration>("delay", sim::Duration::us(1), {.min = sim::Duration::zero()});
    links.push_back(in);
  }
  if (bad) return {};
  return models::explicit_topology(nodes, links);
}

models::Topology read_topology(TableReader r, const std::string& scenario_file) {
  const std::string kind =
      r.choice("kind", {"spine_leaf", "rail", "ring", "fat_tree", "explicit", "hpcc"});
  models::Topology t;
  try {
    if (kind == "hpcc") {  // the HPCC simulator's topology.txt, relative to the scenario
      const std::string rel = r.required<std::string>("file");
      if (rel.empty()) return {};
      const std::filesystem::path f =
          std::filesystem::path(rel).is_absolute()
              ? std::filesystem::path(rel)
              : std::filesystem::path(scenario_file).parent_path() / rel;
      t = read_hpcc_topology(f.string());
    }
    if (kind == "spine_leaf") t = read_spine_leaf(r);
    if (kind == "rail") t = read_rail(r);
    if (kind == "ring") t = read_ring(r);
    if (kind == "fat_tree") t = read_fat_tree(r);
    if (kind == "explicit") t = read_explicit(r);
    if (!t.nodes.empty()) t.validate();
  } catch (const models::TopologyError& e) {
    r.error_here(std::string("topology: ") + e.what());
    return {};
  }
  return t;
}

// Servers of GPUs: topology.gpus_per_server consecutive hosts form a server
// (a rail topology is built that way; on other kinds the key says so), and
// the GPUs of a server reach each other over NVLink ([nvlink], models/nic/nvlink.h).
void read_servers(TableReader topo, std::optional<TableReader> nvlink, ScenarioConfig& s) {
  const bool rail = topo.raw()["kind"].value_or(std::string()) == "rail";
  const auto g = topo.optional<int64_t>("gpus_per_server", rail ? 8 : 0, {.min = 0, .max = 64});
  const uint32_t hosts = s.topology.num_hosts();
  if (g > 0 && hosts % g != 0) {
    topo.error_at("gpus_per_server", topo.path_of("gpus_per_server") + " (" + std::to_string(g) +
                                         ") must divide the " + std::to_string(hosts) + " hosts");
    return;
  }
  s.gpus_per_server = static_cast<uint32_t>(g);
  if (!nvlink) return;
  if (g == 0) {
    nvlink->error_here("[nvlink] needs servers: set topology.gpus_per_server");
    return;
  }
  s.nvlink.rate =
      nvlink->optional<sim::BitsPerSecond>("rate", s.nvlink.rate, {.min = sim::BitsPerSecond(1)});
  s.nvlink.latency =
      nvlink->optional<sim::Duration>("latency", s.nvlink.latency, {.min = sim::Duration::zero()});
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

ScenarioConfig load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  toml::table doc = config::load_file(path, overrides);
  config::Diagnostics diag;
  config::ReadContext ctx(diag, path);
  TableReader root(doc, ctx);
  ScenarioConfig s;
  s.file = path;
  s.text = read_text(path);
  read_scenario_section(root.table("scenario"), s);
  (void)root.has("variant");  // [variant.<name>] tables: one was merged (config/load.h)
  s.topology = read_topology(root.table("topology"), path);
  if (s.topology.nodes.empty()) {  // nothing else can be resolved
    if (diag.empty()) root.table("topology").error_here("topology: no nodes");
    diag.raise_if_any();
  }
  read_servers(root.table("topology"), root.optional_table("nvlink"), s);
  s.wire_overhead = root.table("topology")
                        .optional<sim::Bytes>("wire_overhead", sim::Bytes(20),
                                              {.min = sim::Bytes(0), .max = sim::Bytes(64)});
  s.nvlink.gpus_per_server = std::max<uint32_t>(1, s.gpus_per_server);
  Names names(s.topology);
  read_routing(root.optional_table("routing"), names, s.routing);
  read_switch(root, s);
  read_devices(root, names, s);
  read_endpoints(root, s);
  read_buffer_profiles(root, s);
  read_traffic(root.optional_table("traffic"), names, s);
  read_collectives(root, names, s);
  read_faults(root, names, s);
  read_monitor(root.optional_table("monitor"), names, s.monitor);
  if (diag.empty()) {  // cross-checks only make sense on values that read cleanly
    check_switch_config(root, s);
    check_headroom(root, s);
    check_endpoints(root, s);
  }
  root.finish();
  diag.raise_if_any();
  return s;
}

}  // namespace xoff::app
