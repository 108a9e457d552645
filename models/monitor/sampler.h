#pragma once
// Periodic sampler of port and queue state into recorder time series.
//
// Every `interval` it reads each probe and emits one SamplePoint. Series names
// are "<kind>/<node>/p<port>/tc<class>" (tc omitted for whole-port kinds):
//   queue_bytes        bytes queued in (port, class)
//   paused             1 while (port, class) is paused by PFC, else 0
//   tx_gbps            bytes the port sent in the last interval, as Gb/s (all classes)
//   class_tx_gbps      the same for one class
//   pause_tx, pause_rx XOFF frames the port's node sent upstream for (port,
//                      class), or the port received, in the last interval
// At a switch's ingress port, for one priority group ("/pg<g>" in the name):
//   pg_shared_bytes, pg_headroom_bytes  what the (port, PG) holds in the
//                      shared pool and in headroom
// At a host (no port in the name):
//   cnps_sent, cnps_received  CNPs its NIC sent (as notification point) and
//                      received (as reaction point) in the last interval
//   dcqcn_rate_gbps, dcqcn_target_gbps, dcqcn_alpha  the DCQCN state of one of
//                      its flows' QP ("/f<flow id>"): current rate R_C, target
//                      R_T, alpha; NaN while the flow is not sending
// Sampling reads counters only; it never changes the simulation.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/core/network.h"
#include "sim/timer.h"

namespace xoff::models {

enum class ProbeKind : uint8_t {
  kQueueBytes,
  kPaused,
  kTxGbps,
  kClassTxGbps,
  kPauseTx,
  kPauseRx,
  kPgShared,
  kPgHeadroom,
  kCnpsSent,
  kCnpsReceived,
  kDcqcnRate,
  kDcqcnTarget,
  kDcqcnAlpha,
};

// The scenario names of the kinds, in the order of ProbeKind.
inline constexpr std::array<std::string_view, 13> kProbeKindNames = {
    "queue_bytes", "paused",        "tx_gbps",         "class_tx_gbps",
    "pause_tx",    "pause_rx",      "pg_shared_bytes", "pg_headroom_bytes",
    "cnps_sent",   "cnps_received", "dcqcn_rate_gbps", "dcqcn_target_gbps",
    "dcqcn_alpha"};
// The kind named `name` (one of kProbeKindNames; the loader checked it).
ProbeKind probe_kind(std::string_view name);

struct Probe {
  ProbeKind kind = ProbeKind::kQueueBytes;
  NodeId node;
  PortIndex port;
  uint8_t tc = 0;     // the class, or the priority group of the pg_* kinds
  uint32_t flow = 0;  // dcqcn_* kinds
};

class Sampler final : public sim::EventHandler {
 public:
  Sampler(Network& net, sim::Duration interval, std::vector<Probe> probes);
  void start();
  void handle_event(uint64_t) override;
  const char* event_kind(uint64_t) const override { return "monitor: sample"; }
  static std::string series_name(const Network& net, const Probe& p);

 private:
  // The running total a per-interval kind differences (bytes, frames, CNPs).
  int64_t total(const Probe& p) const;

  Network& net_;
  sim::Duration interval_;
  std::vector<Probe> probes_;
  std::vector<uint32_t> series_;
  std::vector<int64_t> last_total_;
  sim::Timer timer_;
};

}  // namespace xoff::models
