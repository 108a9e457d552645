#pragma once
// Issues the scenario's TCP request/response probes ([[traffic.rpc]]): `count`
// RPCs per probe, one every `interval` from `start`, each on its own
// connection. Latencies are kept per probe for the summary and recorded as a
// series "rpc_latency_us/<probe>" (time = when the RPC started).
#include <cstdint>
#include <vector>

#include "app/scenario/scenario.h"
#include "models/monitor/recorder.h"
#include "models/tcp/tcp_stack.h"
#include "sim/simulator.h"

namespace xoff::app {

class RpcDriver final : public sim::EventHandler, public models::RpcListener {
 public:
  RpcDriver(sim::Simulator& sim, models::Recorder& rec, const std::vector<RpcConfig>& probes,
            std::vector<models::TcpStack*> stacks);
  void start();
  void handle_event(uint64_t probe) override;
  const char* event_kind(uint64_t) const override { return "traffic: RPC issue"; }
  void rpc_finished(uint32_t rpc_id, sim::Duration latency) override;
  bool done() const { return finished_ == total_; }
  // Latencies in microseconds, per probe, in completion order.
  const std::vector<std::vector<double>>& latencies_us() const { return lat_; }
  const std::vector<RpcConfig>& probes() const { return probes_; }

 private:
  sim::Simulator& sim_;
  models::Recorder& rec_;
  const std::vector<RpcConfig>& probes_;
  std::vector<models::TcpStack*> stacks_;
  std::vector<uint32_t> issued_;
  std::vector<uint32_t> series_;
  std::vector<uint32_t> probe_of_;  // rpc id -> probe
  std::vector<sim::Time> started_;  // rpc id -> start time
  std::vector<std::vector<double>> lat_;
  uint64_t finished_ = 0;
  uint64_t total_ = 0;
};

}  // namespace xoff::app
