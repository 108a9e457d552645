#pragma once
// Collectives as flows with dependencies: AllReduce of S bytes over N ranks.
//
// Ring (reduce-scatter then all-gather; Patarasuk & Yuan 2009, as in NCCL):
// 2(N-1) steps; in step k every rank r sends one chunk to rank r+1 mod N.
// Chunk c has S/N bytes (the first S mod N chunks one byte more); reduce-scatter
// step k sends chunk (r - k) mod N, all-gather step j sends chunk (r + 1 - j) mod N.
//
// Halving-doubling (Rabenseifner 2004; Thakur et al. 2005), N a power of two:
// log2 N reduce-scatter steps by recursive halving (rank r exchanges with
// r XOR N/2, then r XOR N/4, ...: sizes S/2, S/4, ..., S/N), then log2 N
// all-gather steps by recursive doubling (r XOR 1, r XOR 2, ...: sizes S/N,
// ..., S/2). Exchanges are two flows, one each way.
//
// Both: flow (rank r, step k) starts when rank r's step k-1 flow has finished
// AND the step k-1 flow *into* r has finished (its data is needed), i.e. it
// waits on flows (r, k-1) and (from(r, k-1), k-1). A flow finishes when its
// sender has every byte acknowledged (FlowListener).
//
// Results (CollectiveRecord): finish = latest flow finish; step k time =
// (latest finish in step k) - (latest finish in step k-1, or the start), so
// the step times sum to the completion time; ideal = 2(N-1)/N * S / B with B
// the host link rate (the bandwidth lower bound of AllReduce, met by both
// algorithms' byte counts; latencies excluded).
#include <cstdint>
#include <string>
#include <vector>

#include "models/monitor/recorder.h"
#include "models/traffic/flow_plan.h"
#include "models/traffic/traffic_manager.h"

namespace xoff::models {

enum class CollectiveAlgorithm : uint8_t { kRing, kHalvingDoubling };
const char* algorithm_name(CollectiveAlgorithm a);  // "ring" | "halving_doubling"

struct CollectiveSpec {
  std::string name = "allreduce";
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  std::vector<uint32_t> ranks;  // rank i runs on host ranks[i]; distinct, N >= 2
  sim::Bytes size;              // S: bytes reduced (per rank buffer), >= N
  sim::Time start;
  sim::BitsPerSecond link_rate;  // B: host link rate, for the ideal bound
  FlowClass cls;                 // RoCE, class 0 unless set
};

// 2(N-1) for ring, 2 log2 N for halving-doubling.
uint32_t collective_steps(const CollectiveSpec& spec);
// The flows, step-major: flow (rank r, step k) is batch index k * N + r, named
// "<name>/s<k>/r<r>". Throws TrafficError on an impossible spec.
std::vector<FlowPlan> collective_flows(const CollectiveSpec& spec);
// 2(N-1)/N * S / B, rounded up to the picosecond.
sim::Duration collective_ideal(const CollectiveSpec& spec);

// Adds collectives to a TrafficManager and reports each one's CollectiveRecord
// to the Recorder when its last flow finishes.
class CollectiveEngine final : public FlowObserver {
 public:
  // Registers itself as an observer of `tm`; both must outlive the run.
  CollectiveEngine(TrafficManager& tm, Recorder& recorder);

  // Plans the collective's flows into the manager; returns its index.
  uint32_t add(const CollectiveSpec& spec);

  uint32_t num_collectives() const { return static_cast<uint32_t>(items_.size()); }
  uint32_t num_finished() const { return finished_; }
  bool all_done() const { return finished_ == items_.size(); }
  bool is_finished(uint32_t c) const { return items_[c].remaining == 0; }
  // Complete once is_finished(c).
  const CollectiveRecord& record(uint32_t c) const { return items_[c].record; }
  uint32_t first_flow(uint32_t c) const { return items_[c].first_flow; }

  void on_flow_finished(const FlowRecord& r) override;

 private:
  struct Item {
    uint32_t first_flow = 0;
    uint32_t num_flows = 0;
    uint32_t ranks = 0;
    uint32_t remaining = 0;
    std::vector<sim::Time> step_finish;  // latest finish per step so far
    CollectiveRecord record;
  };
  void complete(Item& it);

  TrafficManager& tm_;
  Recorder& recorder_;
  std::vector<Item> items_;  // ascending first_flow
  uint32_t finished_ = 0;
};

}  // namespace xoff::models
