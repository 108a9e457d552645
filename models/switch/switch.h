#pragma once
// An Ethernet switch of a lossless fabric: classification, forwarding with
// ECMP, a shared-buffer MMU with PFC generation, ECN marking, a PFC watchdog,
// and per-port SP/DWRR egress scheduling (models/core EgressPort).
//
// Per-packet path (receive, last bit in): PAUSE frames pause the ingress port's
// own egress (802.1Qbb receive side) and are consumed. Other packets: TTL
// decrement (0 -> drop ttl: routing loops end here), lookup by destination host
// ordinal (no entry -> drop no_route), ECMP pick by hash(flow hash, salt),
// classification (trust DSCP or PCP -> traffic class -> priority group),
// watchdog drop for a stormed queue, MMU admission (lossy_ingress,
// lossy_egress, lossless_violation; XOFF upstream when a lossless PG crosses its
// threshold), ECN at enqueue, egress queue. CNPs are forwarded through the
// egress control queue instead (EgressPort serves PFC and CNP frames first,
// never behind a paused class, and does not report them on dequeue), so they
// take no buffer and see no PFC. On dequeue the MMU releases the
// bytes (XON when the PG falls below threshold - hysteresis) and ECN may mark
// at dequeue instead. Nothing on this path allocates or looks up a map.
//
// Routes can be replaced at a given time (install_routes_at): after a failure
// the builder computes new tables and installs them after the convergence
// delay; the stale table forwards meanwhile (transient loops, black holes).
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/network.h"
#include "models/core/node.h"
#include "models/switch/ecn.h"
#include "models/switch/mmu.h"
#include "models/switch/pfc.h"
#include "models/switch/route_table.h"
#include "models/switch/switch_config.h"
#include "models/switch/watchdog.h"
#include "sim/timer.h"

namespace xoff::models {

struct SwitchCounters {
  int64_t forwarded = 0;         // data packets handed to an egress queue
  int64_t pause_received = 0;    // PFC frames received (XOFF and XON)
  int64_t routes_installed = 0;  // tables applied by install_routes_at
  int64_t acl_remarked = 0;      // host packets remarked out of a lossless class
  int64_t tagger_retagged = 0;   // bounced packets moved to the next Tagger tag
};

class Switch final : public Node, private sim::EventHandler {
 public:
  // `cfg` must pass validate() (the scenario loader reports its problems as
  // input errors first); a config that does not is a bug and aborts here.
  Switch(Network& net, NodeId id, std::string name, const SwitchConfig& cfg);

  // Forwarding entry for destination host `dst_host` (empty = black hole).
  // Ports must already be wired.
  void set_route(uint32_t dst_host, std::vector<PortIndex> ports);
  // Replaces the whole table at time `at` (>= now); earlier installs apply first.
  void install_routes_at(sim::Time at, RouteTable table);
  // After the last set_route of a build: shares the table's equal blocks
  // (RouteTable::compact; the routes are the same).
  void compact_routes() { routes_.compact(); }
  const RouteTable& routes() const { return routes_; }
  void set_ecmp_salt(uint64_t salt) { salt_ = salt; }
  // Per-packet spraying: each packet picks among the equal-cost next hops by
  // its own id (deterministic), not by its flow's hash; a flow's packets take
  // every path (and may arrive out of order).
  void set_spray(bool on) { spray_ = on; }
  // By port: the peer is a tier above this switch (Tagger's bounces are
  // arrivals from above that leave upwards). Unset: no port is.
  void set_uplinks(std::vector<bool> up) { uplink_ = std::move(up); }
  uint64_t ecmp_salt() const { return salt_; }

  // Sets p.tc and p.pg from the trusted field and the maps.
  void classify(Packet& p) const;
  // The same for a packet that arrived on `ingress`: host-facing ports may
  // trust another field (ClassificationConfig::host_trust).
  void classify(Packet& p, PortIndex ingress) const;
  bool lossless_class(int tc) const { return (lossless_mask_ >> tc) & 1; }
  // The port's operational PFC classes (DCBX, a per-device setting): pauses
  // for other classes are ignored on it, and its ingress PGs of other classes
  // are lossy. Default: every lossless class. Before traffic only.
  void set_port_pfc(PortIndex port, uint8_t classes);
  // The port's buffer profile: headroom and XON offset of its lossless PGs.
  void set_port_headroom(PortIndex port, sim::Bytes headroom, sim::Bytes xon_offset) {
    mmu_.set_port_headroom(port.value(), headroom, xon_offset);
  }

  void receive(Packet& p, PortIndex ingress) override { receive_hinted(p, ingress); }
  RxHint receive_hinted(Packet& p, PortIndex ingress) override;
  void on_dequeue(PortIndex port, const QueuedFrame& f) override;
  void on_discard(PortIndex port, const QueuedFrame& f) override;
  // The MMU's egress sum equals the bytes in its ports' class queues.
  void check_accounting() const override;
  void on_link_up(PortIndex port) override { pfc_.reassert(port); }
  void report_counters(Recorder& r) const override;

  const SwitchConfig& config() const { return cfg_; }
  const Mmu& mmu() const { return mmu_; }
  const PfcGenerator& pfc() const { return pfc_; }
  const PfcWatchdog& watchdog() const { return watchdog_; }
  EcnMarker& ecn() { return ecn_; }
  const SwitchCounters& counters() const { return counters_; }

 protected:
  void on_port_added(EgressPort& p) override;

 private:
  void handle_event(uint64_t tag) override;  // route installation
  const char* event_kind(uint64_t) const override { return "switch: route install"; }
  void receive_pause(Packet& p, PortIndex ingress);
  // Returns where the packet was queued (or dropped): its egress port and
  // class, and (queued) the MMU state of its ingress PG.
  RxHint admit(Packet& p, PortIndex ingress, PortIndex out);
  void drop(Packet& p, DropReason why, EgressPort* queue);
  void mark_ecn(EgressPort& port, Packet& p);
  // The buffer a frame held, from what its queue kept; XON when due.
  void release(const QueuedFrame& f);
  void log_violation_once(PortIndex ingress, int pg);
  static uint8_t lossless_mask(const SwitchConfig& cfg);

  Network& net_;
  SwitchConfig cfg_;
  uint8_t lossless_mask_;
  RouteTable routes_;
  uint64_t salt_ = 0;
  bool spray_ = false;
  Mmu mmu_;
  PfcGenerator pfc_;
  PfcWatchdog watchdog_;
  EcnMarker ecn_;
  SwitchCounters counters_;
  bool violation_logged_ = false;
  std::vector<bool> host_port_;  // by port: the peer is a host
  std::vector<bool> uplink_;     // by port: the peer is a tier above (set_uplinks)
  // Tagger: a bounce moves the packet to the next tag's class and marking.
  void retag(Packet& p);
  struct PendingRoutes {
    sim::Time at;
    RouteTable table;
  };
  std::vector<PendingRoutes> pending_;  // sorted by time
  sim::Timer route_timer_;
};

}  // namespace xoff::models
