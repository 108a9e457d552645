#pragma once
// Periodic sampler of port and queue state into recorder time series.
//
// Every `interval` it reads each probe and emits one SamplePoint. Series names
// are "<kind>/<node>/p<port>/tc<class>" (tc omitted for whole-port kinds):
//   queue_bytes  bytes queued in (port, class)
//   paused       1 while (port, class) is paused by PFC, else 0
//   tx_gbps      bytes the port sent in the last interval, as Gb/s (all classes)
// Sampling reads counters only; it never changes the simulation.
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/network.h"
#include "sim/timer.h"

namespace xoff::models {

enum class ProbeKind : uint8_t { kQueueBytes, kPaused, kTxGbps };

struct Probe {
  ProbeKind kind = ProbeKind::kQueueBytes;
  NodeId node;
  PortIndex port;
  uint8_t tc = 0;
};

class Sampler final : public sim::EventHandler {
 public:
  Sampler(Network& net, sim::Duration interval, std::vector<Probe> probes);
  void start();
  void handle_event(uint64_t) override;
  const char* event_kind(uint64_t) const override { return "monitor: sample"; }
  static std::string series_name(const Network& net, const Probe& p);

 private:
  int64_t port_tx_bytes(const Probe& p) const;

  Network& net_;
  sim::Duration interval_;
  std::vector<Probe> probes_;
  std::vector<uint32_t> series_;
  std::vector<int64_t> last_tx_;
  sim::Timer timer_;
};

}  // namespace xoff::models
