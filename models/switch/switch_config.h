#pragma once
// Plain configuration structs for a switch: classification, shared-buffer MMU,
// PFC generation, ECN marking, PFC watchdog, egress scheduling. Filled by the
// scenario loader (app/) or by tests; models never read files.
//
// Defaults follow common RoCEv2 deployments (NVIDIA/Mellanox and SONiC
// "lossless on priority 3" profiles): DSCP -> TC by the class selector
// (DSCP >> 3, so AF31 = DSCP 26 -> TC 3), PG = TC, PG 3 lossless, DCQCN's
// published RED parameters (Zhu et al., SIGCOMM 2015: Kmin 5 KB, Kmax 200 KB,
// Pmax 1%). Every size is bytes, every time picoseconds (sim::Duration).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/core/ids.h"
#include "models/core/port.h"
#include "sim/units.h"

namespace xoff::models {

// Ingress classification: which field is trusted and how it maps to a traffic
// class (egress queue), then TC -> priority group (ingress accounting unit).
// A packet carrying the "wrong" DSCP/PCP lands in whatever class the map says,
// as on real switches (a mis-marked RoCE packet becomes lossy).
struct ClassificationConfig {
  enum class Trust : uint8_t { kDscp, kPcp };
  Trust trust = Trust::kDscp;
  std::array<uint8_t, 64> dscp_to_tc = default_dscp_map();
  std::array<uint8_t, kNumClasses> pcp_to_tc{0, 1, 2, 3, 4, 5, 6, 7};
  std::array<uint8_t, kNumClasses> tc_to_pg{0, 1, 2, 3, 4, 5, 6, 7};
  // Trust boundary for DSCP (an ingress ACL on host-facing ports): when set,
  // only RoCE packets keep a marking that lands in a lossless class; any
  // other packet from a host classified lossless is remarked to
  // `host_remark_dscp` (PCP = its class selector) and classified again, so a
  // host cannot put bulk TCP into the lossless class. Counted per switch.
  bool host_lossless_roce_only = false;
  uint8_t host_remark_dscp = 0;
  // Per-port trust: packets arriving on host-facing ports are classified on
  // this field instead of `trust` (e.g. fabric ports trust DSCP, host ports
  // PCP). Unset: every port uses `trust`.
  std::optional<Trust> host_trust;

  // The class a packet with this DSCP and PCP lands in, trusting `field`.
  uint8_t class_of(Trust field, uint8_t dscp, uint8_t pcp) const {
    return field == Trust::kDscp ? dscp_to_tc[dscp & 63] : pcp_to_tc[pcp & 7];
  }

  static constexpr std::array<uint8_t, 64> default_dscp_map() {
    std::array<uint8_t, 64> m{};
    for (int d = 0; d < 64; ++d) m[d] = static_cast<uint8_t>(d >> 3);  // class selector
    return m;
  }
};

// Ingress accounting of one priority group, the same on every port.
// Dynamic threshold (Choudhury & Hahne 1998; Broadcom "dynamic shared
// threshold", Mellanox "shared buffer alpha"): the PG may hold
// alpha x (shared pool free) shared bytes. Broadcom encodes alpha as 2^k,
// k in [-7, 3]; any non-negative value is accepted here.
struct PgConfig {
  bool lossless = false;
  sim::Bytes reserved{0};      // guaranteed minimum per (port, PG)
  double alpha = 1.0;          // dynamic threshold factor; 0 selects static_limit
  sim::Bytes static_limit{0};  // shared-byte cap per (port, PG) when alpha == 0
  // Lossless only: bytes absorbed after XOFF. 48 KiB covers 100G, 100 m of
  // fibre, 9 KB MTU and 1 us response delay (2x6250 + 2x9000 + 12500 + 64 =
  // 43064 B, see models/topology/headroom.h).
  sim::Bytes headroom{48 * 1024};
  // XON when the PG's headroom is empty and its shared bytes fall to
  // threshold - xon_offset.
  sim::Bytes xon_offset{9216};
};

// Egress accounting of one queue (traffic class), the same on every port.
// Only lossy classes are ever dropped at egress.
struct EgressQueueConfig {
  double alpha = 1.0;          // dynamic threshold factor; 0 selects static_limit
  sim::Bytes static_limit{0};  // per (port, queue) cap when alpha == 0
};

struct MmuConfig {
  sim::Bytes total{16 * 1024 * 1024};  // B: the switch's packet buffer
  std::array<PgConfig, kNumClasses> pg = default_pgs();
  std::array<EgressQueueConfig, kNumClasses> egress{};
  // 0: each lossless (port, PG) owns its headroom. r >= 1: a shared headroom
  // pool of (sum of per-PG headrooms) / r, each PG still capped by its own
  // headroom (Mellanox Spectrum "shared headroom pool" with oversubscription).
  double headroom_oversubscription = 0;

  static std::array<PgConfig, kNumClasses> default_pgs() {
    std::array<PgConfig, kNumClasses> p{};
    p[3].lossless = true;
    return p;
  }
};

// PFC generation (IEEE 802.1Qbb clause 36.1.3): XOFF carries `quanta` pause
// quanta of 512 bit times; it is refreshed at half its duration while the PG
// stays in XOFF; XON is quanta 0. response_delay is applied to every port of
// the switch as its reaction time to PAUSE frames it *receives*.
struct PfcConfig {
  uint16_t quanta = 0xFFFF;
  sim::Duration response_delay = sim::Duration::zero();
  // Trust boundary: drop (DropReason::kAcl) the PFC frames hosts send, so a
  // faulty or malicious NIC cannot pause the fabric (an ACL on host-facing
  // ports). The cost: hosts lose PFC towards the switch too.
  bool drop_host_pauses = false;
};

// WRED-style ECN marking per egress queue on the instantaneous queue length
// (DCQCN's RED: Kmin, Kmax, Pmax).
struct EcnClassConfig {
  bool enabled = true;
  sim::Bytes kmin{5'000};
  sim::Bytes kmax{200'000};
  double pmax = 0.01;
};

struct EcnConfig {
  std::array<EcnClassConfig, kNumClasses> tc{};
  bool mark_at_dequeue = false;  // false: judge the queue at enqueue
  // A port group of its own: egress ports facing hosts mark by host_tc
  // instead (a switch's downlinks and uplinks often get different WRED
  // profiles: a host port's queue is the last hop's incast).
  bool host_ports = false;
  std::array<EcnClassConfig, kNumClasses> host_tc{};
};

enum class WatchdogAction : uint8_t { kDrop, kForward, kAlert };
const char* watchdog_action_name(WatchdogAction a);

// PFC watchdog (SONiC pfcwd, Arista/Cisco "PFC watchdog"). SONiC's defaults
// (200 ms detection and restoration, 100 ms polls) are far longer than a
// typical simulated run; ours are a thousand times shorter.
struct WatchdogConfig {
  bool enabled = false;
  WatchdogAction action = WatchdogAction::kDrop;
  sim::Duration poll_interval = sim::Duration::us(100);
  sim::Duration detection_time = sim::Duration::us(200);
  sim::Duration restoration_time = sim::Duration::us(200);
  // Polls fall at phase + k x poll_interval. Real pfcwd timers are not
  // aligned across switches: with random_phase each switch draws its phase
  // uniformly in [0, poll_interval) from Rng(SwitchConfig::seed, "watchdog/<switch
  // name>"), so storms on several switches are not declared in the same
  // instant. Otherwise `phase` is used as given (0: all aligned).
  bool random_phase = false;
  sim::Duration phase = sim::Duration::zero();
};

// Tagger (Hu et al., "Tagger: Practical PFC Deadlock Prevention in Data
// Center Networks", CoNEXT 2017) on a tiered fabric: a packet that turns from
// down to up at a switch (it arrived from a higher tier and leaves towards
// one: a bounce, which up-down routing forbids) moves to the next tag. In
// tag i's class (classes[i]) it leaves in classes[i + 1], re-marked with
// dscp[i + 1] (PCP = DSCP >> 3) so the next switches classify it there;
// this switch still accounts it in the ingress PG it arrived in, which is
// what pauses the class it came in. A queue of tag i then only waits on
// queues of tags >= i, so no cycle forms while no packet bounces more than
// classes.size() - 1 times; one that does stays in the last class. Empty:
// off. Every class must be lossless, and dscp[i] must classify into
// classes[i] (the loader checks both).
struct TaggerConfig {
  std::vector<uint8_t> classes;
  std::vector<uint8_t> dscp;
};

struct SwitchConfig {
  ClassificationConfig classification;
  MmuConfig mmu;
  PfcConfig pfc;
  EcnConfig ecn;
  WatchdogConfig watchdog;
  SchedulerConfig scheduler;  // applied to every port
  TaggerConfig tagger;
  uint64_t seed = 1;  // run seed; the switch's RNG stream is (seed, name)
};

// Bytes left for the shared pool once reserves and headroom are set aside on
// `num_ports` ports: B - sum(reserved) - headroom partition. Negative means the
// configuration cannot fit.
int64_t shared_pool_bytes(const MmuConfig& c, size_t num_ports);
// The pieces of it, for per-port headroom (buffer profiles): the partition
// that `headroom_sum` bytes of per-(port, lossless PG) headroom take (the sum,
// or the sum / oversubscription when the pool is shared), the headroom of one
// port's lossless PGs as configured, and the reserves of `num_ports` ports.
int64_t headroom_partition_of(const MmuConfig& c, int64_t headroom_sum);
int64_t lossless_headroom_per_port(const MmuConfig& c);
int64_t reserved_bytes(const MmuConfig& c, size_t num_ports);
// The lossless classes (bit per class): those whose PG is lossless.
uint8_t lossless_classes(const SwitchConfig& c);
// Headroom partition: sum over lossless (port, PG) of headroom, divided by the
// oversubscription ratio when the pool is shared.
int64_t headroom_partition_bytes(const MmuConfig& c, size_t num_ports);

// Problems with `c` for a switch with `num_ports` ports, one sentence each,
// naming the field (e.g. "ecn.tc[3].kmin (300000 B) exceeds ecn.tc[3].kmax
// (200000 B)"). Empty when the configuration is usable.
std::vector<std::string> validate(const SwitchConfig& c, size_t num_ports);

}  // namespace xoff::models
