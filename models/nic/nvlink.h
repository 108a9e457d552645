#pragma once
// The intra-server GPU interconnect (NVLink / NVSwitch) as a fast path beside
// the fabric: a flow between two GPUs of one server does not enter any NIC or
// switch of the Ethernet fabric, it occupies the sender's NVLink egress and
// the receiver's NVLink ingress for size / rate and completes `latency` after
// its last byte.
//
// Decision: flow-level, not packet-level. NVLink is credit-based and lossless
// inside the server; it has no PFC, ECN or shared buffer, which is what xoff
// studies, so packets would cost events and tell nothing. What matters for a
// collective is its rate and latency (the intra-server phases of a
// hierarchical allreduce) and that one GPU's NVLink is shared by the flows it
// sends or receives at once. Each GPU has one egress and one ingress
// timeline: a transfer starts at the latest of now, the sender's egress
// becoming free and the receiver's ingress becoming free (in start order),
// and reserves both until its last byte. NVSwitch is non-blocking between
// distinct GPU pairs (a full crossbar), so nothing else is shared.
//
// Defaults: H100 SXM NVLink 4, 18 links x 25 GB/s per direction = 450 GB/s
// = 3.6 Tb/s per GPU per direction (NVIDIA H100 datasheet: 900 GB/s
// bidirectional); latency 1 us stands for a copy engine or kernel launch and
// the NVSwitch hop of a small message, as NCCL measures intra-node latency
// (a few us per step).
#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/flow.h"
#include "sim/simulator.h"
#include "sim/units.h"

namespace xoff::models {

struct NvlinkConfig {
  uint32_t gpus_per_server = 8;                // hosts 0..7 are server 0, 8..15 server 1, ...
  sim::BitsPerSecond rate{3'600'000'000'000};  // per GPU, per direction
  sim::Duration latency = sim::Duration::us(1);
};

class NvlinkFabric final : public sim::EventHandler {
 public:
  // Endpoints for hosts 0..hosts-1; `listener` hears of every finished flow.
  NvlinkFabric(sim::Simulator& sim, const NvlinkConfig& cfg, uint32_t hosts,
               FlowListener& listener);

  // The endpoint that carries host h's NVLink flows.
  FlowEndpoint& endpoint(uint32_t h) { return *endpoints_[h]; }
  const NvlinkConfig& config() const { return cfg_; }
  // size / rate + latency: the FCT of a transfer alone on its GPUs.
  sim::Duration ideal_fct(sim::Bytes size) const;
  uint64_t transfers() const { return transfers_; }
  int64_t bytes() const { return bytes_; }

  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t) const override { return "nvlink: transfer done"; }

 private:
  struct Endpoint final : FlowEndpoint {
    Endpoint(NvlinkFabric& f, uint32_t h) : fabric(f), host(h) {}
    void start_flow(const FlowSpec& spec) override { fabric.start(spec); }
    NvlinkFabric& fabric;
    uint32_t host;
  };
  void start(const FlowSpec& spec);

  sim::Simulator& sim_;
  NvlinkConfig cfg_;
  FlowListener& listener_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;
  std::vector<sim::Time> tx_free_, rx_free_;  // per GPU
  uint64_t transfers_ = 0;
  int64_t bytes_ = 0;
};

}  // namespace xoff::models
