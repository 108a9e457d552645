#pragma once
// Scheduled faults of a run: link failures and recoveries (with routes
// recomputed and installed on every switch after the convergence delay, stale
// meanwhile, which is where transient loops and bounces come from), and PFC
// storms (a host NIC stuck sending XOFF, refreshed until it stops).
#include <cstdint>
#include <vector>

#include "app/scenario/scenario.h"
#include "models/core/host.h"
#include "models/core/network.h"
#include "models/switch/switch.h"
#include "sim/timer.h"

namespace xoff::app {

// Forwarding tables of the scenario's routing mode for the links that are up,
// with the static overrides applied.
models::ForwardingTables compute_routes(const ScenarioConfig& cfg,
                                        const std::vector<bool>& link_up);
// Installs `tables` into every switch, now or at `at`.
void install_routes(const models::ForwardingTables& tables, const std::vector<models::Switch*>& sw,
                    const models::Topology& topo, sim::Time at, bool now);

// A host NIC's configured marking ([[device]] roce_dscp): its RoCE packets
// leave with that DSCP (PCP = the class selector); -1 = the flows' own.
void apply_nic_marking(models::Host& h, int roce_dscp);

class FaultInjector final : public sim::EventHandler {
 public:
  FaultInjector(const ScenarioConfig& cfg, models::Network& net,
                const std::vector<models::Switch*>& switches,
                const std::vector<models::Host*>& hosts);
  void start();
  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t) const override { return "fault"; }

 private:
  enum Tag : uint64_t {
    kLinkFault = 0,
    kStormBase = 1,
    kSlowBase = 1 << 20,
    kFrameBase = 1 << 21,
    kMismarkBase = uint64_t{1} << 40,  // + 2 x index (+ 1: its stop)
  };
  bool local(uint32_t host) const;
  void apply_link_fault(const LinkFault& f);
  void storm_tick(size_t i);

  const ScenarioConfig& cfg_;
  models::Network& net_;
  const std::vector<models::Switch*>& switches_;
  const std::vector<models::Host*>& hosts_;
  std::vector<bool> link_up_;
  std::vector<LinkFault> faults_;  // sorted by time
  size_t next_fault_ = 0;
  sim::Timer fault_timer_;
};

}  // namespace xoff::app
