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
// The engine generates flows lazily: add() plans the N step-0 flows, and the
// flow (r, k) is added to the TrafficManager only when both of its
// dependencies have finished, with its start at that moment. Flow ids are
// therefore assigned in readiness order. A 4,096-rank ring is 33.5 M flows;
// planned up front they cost ~11 GB before the first event, generated this
// way the engine holds O(N x steps) bits plus the flows that ran so far.
// collective_flows() still plans the whole DAG (tests, `xoff check` counts).
//
// Results (CollectiveRecord): finish = latest flow finish; step k time =
// (latest finish in step k) - (latest finish in step k-1, or the start), so
// the step times sum to the completion time; ideal = 2(N-1)/N * S / B with B
// the host link rate (the bandwidth lower bound of AllReduce, met by both
// algorithms' byte counts; latencies excluded).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/monitor/recorder.h"
#include "models/traffic/flow_plan.h"
#include "models/traffic/traffic_manager.h"
#include "sim/flat_map.h"

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
  // A training loop: `iterations` times, `compute` of computation and then the
  // AllReduce; each iteration starts when the previous AllReduce finished (the
  // first at `start`). One CollectiveRecord per iteration.
  uint32_t iterations = 1;
  sim::Duration compute;
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
// The chain of flows that decided a collective's finish: each flow started
// when the later of its two dependencies finished. Its FCTs and the gaps
// between them add up to the time from the collective's start to `finish`.
struct CriticalPath {
  sim::Duration bandwidth;   // each flow's bytes at the collective's link rate
  sim::Duration overhead;    // its unloaded FCT beyond that (headers, latency)
  sim::Duration congestion;  // its FCT beyond the unloaded one
  sim::Duration wait;        // from the dependency's finish to the flow's start
  uint32_t flows = 0;
  sim::Time finish;
};

class CollectiveEngine final : public FlowObserver {
 public:
  // Registers itself as an observer of `tm`; both must outlive the run.
  CollectiveEngine(TrafficManager& tm, Recorder& recorder);

  // Plans the collective's flows into the manager; returns its index.
  uint32_t add(const CollectiveSpec& spec);

  uint32_t num_collectives() const { return static_cast<uint32_t>(items_.size()); }
  // Flows of collective c in all (steps x ranks), whether generated yet or not.
  uint64_t planned_flows(uint32_t c) const { return items_[c].total * items_[c].spec.iterations; }
  // Flows of all collectives not yet handed to the TrafficManager.
  uint64_t ungenerated_flows() const;
  uint32_t num_finished() const { return finished_; }
  bool all_done() const { return finished_ == items_.size(); }
  bool is_finished(uint32_t c) const { return items_[c].done; }
  // Complete once is_finished(c).
  const CollectiveRecord& record(uint32_t c) const { return items_[c].record; }
  // Id of flow (rank 0, step 0).
  uint32_t first_flow(uint32_t c) const { return items_[c].first_flow; }

  void on_flow_finished(const FlowRecord& r) override;

 private:
  struct Item {
    CollectiveSpec spec;
    uint32_t first_flow = 0;
    uint32_t first_of_iteration = 0;
    uint32_t ranks = 0;
    uint32_t steps = 0;
    uint64_t total = 0;
    uint64_t generated = 0;
    uint64_t remaining = 0;              // flows of the current iteration not yet finished
    uint32_t iteration = 0;              // the current one, 0-based
    bool done = false;                   // every iteration finished
    std::vector<uint32_t> step;          // per rank: the step its flow in flight belongs to
    std::vector<bool> sent;              // per rank: that flow has finished
    std::vector<bool> received;          // [rank * steps + k]: the step-k flow into rank finished
    std::vector<sim::Time> step_finish;  // latest finish per step so far
    // Per step: the longest ideal and measured FCT, and the sum of FCTs.
    std::vector<sim::Duration> step_unloaded, step_max_fct, step_sum_fct;
    // Critical path: per rank, that of its latest finished send; per
    // (rank, step) received and not yet consumed by the rank's next launch,
    // that of the incoming flow; and that of the flow that finished last.
    std::vector<CriticalPath> own;
    std::unordered_map<uint64_t, CriticalPath> incoming;
    CriticalPath last;
    CollectiveRecord record;
  };
  // Which collective flow a running flow id is, and the critical path up to
  // the dependency that released it.
  struct FlowTag {
    uint32_t item = 0;
    uint32_t rank = 0;
    uint32_t step = 0;
    CriticalPath base;
  };
  uint32_t launch(uint32_t item, uint32_t rank, uint32_t step, sim::Time start,
                  const CriticalPath& base);
  // Starts rank's next step if both of its dependencies have finished.
  void advance(uint32_t item, uint32_t rank, sim::Time now);
  void complete(uint32_t item);
  // Resets the per-iteration state and launches step 0 at `start`.
  void begin_iteration(uint32_t item, sim::Time start);

  TrafficManager& tm_;
  Recorder& recorder_;
  std::vector<Item> items_;
  sim::FlatMap<FlowTag> running_;  // flow id -> collective flow, while it runs
  uint32_t finished_ = 0;
};

}  // namespace xoff::models
