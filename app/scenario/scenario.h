#pragma once
// A scenario, validated: everything a run needs, as the plain config structs the
// models take. Produced by load_scenario() from a TOML file (docs/scenario-format.md
// is the user's reference for the format); names (hosts, switches, flows) are
// already resolved to indices, so building the network cannot fail on input.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core/host_rx.h"
#include "models/nic/nvlink.h"
#include "models/nic/roce_config.h"
#include "models/switch/switch_config.h"
#include "models/tcp/tcp_config.h"
#include "models/topology/dcbx.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "models/traffic/cdf.h"
#include "models/traffic/collective.h"
#include "models/traffic/generators.h"
#include "sim/units.h"

namespace xoff::app {

enum class RoutingMode { kEcmp, kUpDown };

struct RoutingConfig {
  RoutingMode mode = RoutingMode::kEcmp;
  uint32_t root = models::kNoNode;  // up_down root switch; kNoNode: by tiers
  sim::Duration convergence_delay = sim::Duration::us(50);
  uint8_t ttl = 64;    // IP TTL of every packet sent; each switch hop takes one
  bool spray = false;  // per-packet ECMP (packet spraying) instead of per flow
  std::vector<models::StaticRoute> static_routes;
};

struct LinkFault {
  uint32_t link = 0;  // index into topology.links
  bool up = false;
  sim::Time at;
};

// A host NIC stuck sending PFC XOFF for `classes` from start to stop (a storm).
struct PfcStorm {
  uint32_t host = 0;  // host ordinal
  uint8_t classes = 0;
  sim::Time start;
  sim::Time stop = sim::Time::max();
  sim::Duration refresh = sim::Duration::us(100);
};

// One PFC frame a host sends at a chosen time (quanta 0 = XON): a fault to
// probe how a fabric reacts to a single pause, or to end one.
struct PfcFrame {
  uint32_t host = 0;
  uint8_t classes = 0;
  uint16_t quanta = 0xFFFF;
  sim::Time at;
};

// A host NIC that marks its packets wrongly from `start` to `stop`: the
// packets of `protocols` (models::protocol_bit()s) leave with `dscp` and
// `pcp` instead of their flow's (a misconfigured NIC putting RoCE into a
// lossy class, or a malicious host putting bulk TCP into the lossless one).
struct Mismark {
  uint32_t host = 0;
  uint8_t protocols = 0;
  uint8_t dscp = 0;
  uint8_t pcp = 0;
  sim::Time start;
  sim::Time stop = sim::Time::max();
};

// [[device]]: one node's own QoS settings where it differs from the
// fabric-wide ones, resolved per node (ScenarioConfig::devices).
struct DeviceQos {
  uint8_t pfc = 0;  // administrative PFC classes (default: buffer.lossless)
  models::DcbxMode dcbx = models::DcbxMode::kOff;
  // Switches: their own classification (trust, DSCP map).
  models::ClassificationConfig classification;
  // Hosts: the DSCP (and PCP = its class selector) the NIC puts on RoCE
  // packets instead of their flow's; -1 = the flow's.
  int roce_dscp = -1;
  // Switches: their own PFC watchdog ([device.watchdog], per role).
  std::optional<models::WatchdogConfig> watchdog;
  // Switches: their own ECN marking ([device.ecn]: a whole [ecn] table).
  std::optional<models::EcnConfig> ecn;
};

// A host that drains its receive buffer below line rate and protects it with
// PFC from `start` on (models/core/host_rx.h).
struct SlowReceiver {
  uint32_t host = 0;
  models::SlowReceiverConfig config;
  sim::Time start;
};

struct ProbeConfig {
  std::string kind;   // one of models::kProbeKindNames (models/monitor/sampler.h)
  uint32_t node = 0;  // topology node index
  int port = -1;      // -1: every port of the node (not for host-level kinds)
  uint8_t tc = 0;     // the class; the priority group of pg_* kinds
  uint32_t flow = 0;  // dcqcn_* kinds: the flow id
};

// [[monitor.pcap]]: the frames a node's port(s) transmit, to a pcap file.
struct PcapTarget {
  uint32_t node = 0;
  int port = -1;                   // -1: every port of the node
  uint64_t max_packets = 100'000;  // per file: a run never fills the disk by accident
  sim::Time start;                 // capture window [start, stop)
  sim::Time stop = sim::Time::max();
};

struct MonitorConfig {
  std::vector<PcapTarget> pcap;
  sim::Duration sample_interval = sim::Duration::us(10);
  std::vector<ProbeConfig> probes;
  bool deadlock = true;
  sim::Duration deadlock_window = sim::Duration::us(200);
  sim::Duration deadlock_poll = sim::Duration::us(20);
};

struct RpcConfig {  // TCP request/response latency probe
  std::string name = "rpc";
  uint32_t client = 0;
  uint32_t server = 0;
  sim::Bytes request{100};
  sim::Bytes response{1000};
  sim::Time start;
  sim::Duration interval = sim::Duration::us(50);
  uint32_t count = 100;
  models::FlowClass cls;
};

struct PoissonConfig {
  models::PoissonSpec spec;  // spec.cdf set at build time from `cdf`
  std::string cdf_name;
  std::shared_ptr<const models::FlowSizeCdf> cdf;
};

struct TrafficConfig {
  std::vector<models::FlowPlan> flows;  // explicit, `after` are indices in this list
  std::vector<models::IncastSpec> incasts;
  std::vector<models::PermutationSpec> permutations;
  std::vector<models::AllToAllSpec> all_to_all;
  std::vector<PoissonConfig> poisson;
  std::vector<models::CollectiveSpec> collectives;
  std::vector<RpcConfig> rpcs;
};

struct ScenarioConfig {
  // [scenario]
  std::string file;  // path as given
  std::string text;  // the file's text (stored in the results)
  std::string name;
  std::string description;  // one line, shown by `xoff list`
  std::string variant;      // scenario.variant: the [variant.<name>] merged in, or ""
  uint64_t seed = 1;
  sim::Duration duration = sim::Duration::ms(10);  // run at most this long
  bool stop_when_done = true;                      // stop once all flows and collectives finished
  sim::Duration drain = sim::Duration::us(100);    // keep running after done (XON, ACKs)

  models::Topology topology;
  // topology.gpus_per_server: hosts [s*g, s*g+g) are the GPUs of server s,
  // joined by NVLink (0: no servers, every host stands alone).
  uint32_t gpus_per_server = 0;
  // topology.wire_overhead: preamble, SFD and inter-frame gap per frame on
  // every link (models::Network::set_wire_overhead); 20 B, 0 to leave out.
  sim::Bytes wire_overhead{20};
  models::NvlinkConfig nvlink;
  RoutingConfig routing;
  models::SwitchConfig switch_config;
  bool pfc_enabled = true;
  bool allow_small_headroom = false;  // [buffer] studies of undersized headroom
  models::RoceConfig roce;
  models::TcpConfig tcp;
  // NIC-side PFC stall prevention (nic.pfc_stall_timeout; ConnectX
  // pfc_stall_prevention): a NIC that has sent pauses for this long without a
  // break stops sending them. Zero: off. Applies to the pfc_storm fault (a
  // stuck NIC): its storm ends this long after it starts.
  sim::Duration nic_pfc_stall_timeout;
  std::vector<LinkFault> link_faults;
  std::vector<PfcStorm> storms;
  std::vector<PfcFrame> pfc_frames;
  std::vector<SlowReceiver> slow_receivers;
  std::vector<Mismark> mismarks;
  // Per node (topology index): its QoS settings after [[device]] overrides.
  std::vector<DeviceQos> devices;
  // Per node and port: the operational PFC classes after DCBX with the peer.
  std::vector<std::vector<uint8_t>> port_pfc;
  // Configurations that disagree across a link (PFC classes after DCBX,
  // DSCP maps, trust, RoCE marking): legal, reported by `xoff check` and at
  // the start of `xoff run`, one sentence each naming both ends.
  std::vector<std::string> qos_warnings;
  // Per switch port (topology index, port): the headroom and XON offset of its
  // lossless PGs from [[buffer.profile]] or buffer.headroom_profile = "auto";
  // -1 = buffer.headroom / buffer.xon_offset. Empty when neither is used.
  std::vector<std::vector<int64_t>> port_headroom;
  std::vector<std::vector<int64_t>> port_xon_offset;
  MonitorConfig monitor;
  TrafficConfig traffic;
};

// Reads, validates and resolves a scenario. Throws config::ScenarioError (one
// or several) on bad input; nothing is built or written.
ScenarioConfig load_scenario(const std::string& path, const std::vector<std::string>& overrides);

}  // namespace xoff::app
