#pragma once
// Everything one run owns, built from a validated ScenarioConfig: the simulator,
// the network (switches, hosts, links), the endpoint transports, the traffic
// layer, the monitors and the fault injector. Building cannot fail on input
// (load_scenario already refused bad input); it can only hit a broken invariant.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "app/run/rpc_driver.h"
#include "app/scenario/scenario.h"
#include "models/core/host.h"
#include "models/core/network.h"
#include "models/monitor/deadlock_detector.h"
#include "models/monitor/recorder.h"
#include "models/monitor/sampler.h"
#include "models/nic/nvlink.h"
#include "models/nic/roce_nic.h"
#include "models/switch/switch.h"
#include "models/tcp/tcp_stack.h"
#include "models/traffic/collective.h"
#include "models/traffic/traffic_manager.h"
#include "sim/simulator.h"

namespace xoff::app {

class FaultInjector;
class Progress;

class World {
 public:
  World(const ScenarioConfig& cfg, models::Recorder& recorder);
  // One part of a partitioned run (app/mpi): only the nodes marked in
  // `local_nodes` (by topology index) are simulated here; the whole fabric is
  // built, the set-up and the global drivers run as in one process, and flows
  // of hosts simulated elsewhere are not started here.
  World(const ScenarioConfig& cfg, models::Recorder& recorder, std::vector<bool> local_nodes);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Arms the start of traffic, monitors and faults at time zero.
  void start();
  // How a run ended: it reached its end (the duration, or all traffic done
  // plus the drain), or was stopped early (a signal, a budget).
  enum class End { kComplete, kInterrupted, kEventBudget, kWallBudget };
  // Budgets and the interrupt flag, checked at least every kCheckEvents
  // events; an early stop leaves the simulator where it stopped.
  struct Limits {
    uint64_t max_events = 0;                    // 0 = none
    double max_wall_seconds = 0;                // 0 = none; needs progress
    const volatile int* interrupted = nullptr;  // set by a signal handler
  };
  static constexpr uint64_t kCheckEvents = 1'000'000;
  // Runs until the duration, or until all traffic finished plus the drain
  // time. Slices depend only on the scenario, so where a run stops is
  // deterministic. `progress` (may be null) is updated after every slice.
  End run(Progress* progress, const Limits& limits);
  End run(Progress* progress = nullptr);  // no limits
  // The slices of run(): duration/1000, at least 1 us and at most 1 ms. The
  // completion check runs at their ends (xoff-mpi's windows stop there too).
  static sim::Duration slice(sim::Duration duration) {
    return std::clamp(duration / 1000, sim::Duration::us(1), sim::Duration::ms(1));
  }
  bool traffic_done() const;
  // Every flow the run plans, in every part: the manager's own and every
  // collective step, generated yet or not.
  uint64_t planned_flows() const {
    return traffic_.num_flows() - collectives_.generated_flows() + collectives_.planned_flows();
  }

  sim::Simulator& sim() { return sim_; }
  models::Network& net() { return net_; }
  const ScenarioConfig& config() const { return cfg_; }
  models::TrafficManager& traffic() { return traffic_; }
  models::CollectiveEngine& collectives() { return collectives_; }
  const std::vector<models::Switch*>& switches() const { return switches_; }
  const std::vector<models::Host*>& hosts() const { return hosts_; }
  models::RoceNic& nic(uint32_t host) { return *nics_[host]; }
  // Whether node `topo_index` is simulated in this process.
  bool local(uint32_t topo_index) const { return local_nodes_.empty() || local_nodes_[topo_index]; }
  models::DeadlockDetector* deadlock_detector() { return deadlock_.get(); }
  models::TcpStack& tcp(uint32_t host) { return *tcps_[host]; }
  // The intra-server path; null without servers.
  const models::NvlinkFabric* nvlink() const { return nvlink_.get(); }
  const models::DeadlockDetector* deadlock_detector() const { return deadlock_.get(); }
  const RpcDriver* rpcs() const { return rpcs_.get(); }
  // Whether the run goes in windows, part by part (sim::Simulator::set_parts),
  // or why not: for --stats.
  const std::string& windows_note() const { return windows_note_; }
  // With windows on: the ports whose frames arrive in part p (their peer is
  // one of its nodes), whose packets start loading at its turn.
  const std::vector<const models::EgressPort*>& ports_into(size_t p) const {
    return incoming_.at(p);
  }
  // Node index in the topology -> network node (same index by construction).
  models::Node& node(uint32_t topo_index) { return net_.node(models::NodeId(topo_index)); }

 private:
  // Whether the simulator should look deeper ahead (a large fabric).
  static bool deep_lookahead(const models::Network& net);
  void build_nodes();
  void build_routes();
  void build_endpoints();
  void build_traffic();
  void build_monitors();
  void set_windows();

  const ScenarioConfig& cfg_;
  models::Recorder& recorder_;
  std::vector<bool> local_nodes_;  // empty: all
  std::string windows_note_ = "off (a part of a partitioned run)";
  std::vector<std::vector<const models::EgressPort*>> incoming_;  // by part: ports into it
  sim::Simulator sim_;
  models::Network net_;
  std::vector<models::Switch*> switches_;  // by topology node; null for hosts
  std::vector<models::Host*> hosts_;       // by host ordinal
  std::vector<std::unique_ptr<models::RoceNic>> nics_;
  std::vector<std::unique_ptr<models::TcpStack>> tcps_;
  std::unique_ptr<models::NvlinkFabric> nvlink_;  // with servers (gpus_per_server > 0)
  models::TrafficManager traffic_;
  models::CollectiveEngine collectives_;
  std::unique_ptr<models::DeadlockDetector> deadlock_;
  std::unique_ptr<models::Sampler> sampler_;
  std::unique_ptr<FaultInjector> faults_;
  std::unique_ptr<RpcDriver> rpcs_;
  // The endpoint of hosts simulated elsewhere: their flows start there.
  struct Elsewhere final : models::FlowEndpoint {
    void start_flow(const models::FlowSpec&) override {}
  } elsewhere_;
};

}  // namespace xoff::app
