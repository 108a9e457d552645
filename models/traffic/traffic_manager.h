#pragma once
// The traffic layer at run time: the flow table, the start queue, the
// dependencies between flows, and FCT recording.
//
// A flow starts at max(spec.start, latest finish of the flows in its `after`
// list + gap); with an empty `after` list, at spec.start. Ready flows wait in
// one min-heap ordered by (start time, flow id) behind one Timer, so there is
// no std::function and no allocation per flow at run time (the heap is
// reserved for every flow). Flows that become ready at the same time start in
// id order. Starting goes through an event even when the flow is ready "now",
// so an endpoint is never re-entered from inside its own flow_finished call.
//
// Invariants: flow ids are dense from 0 in add order; a flow may only depend
// on flows added before it (the dependency graph is a DAG by construction);
// started = finished + running; each flow finishes at most once.
//
// On each finish the manager records a FlowRecord (FCT against the ideal FCT:
// per-flow value if planned, else the ideal-FCT function if set, else zero),
// releases dependents and tells observers (the collective engine).
//
// Endpoints get the spec by reference with spec.start set to the actual start;
// they must copy what they keep (adding flows during a run may move the table).
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/core/flow.h"
#include "models/core/ids.h"
#include "models/monitor/recorder.h"
#include "models/traffic/flow_plan.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace xoff::models {

// Told about every finished flow, after the Recorder.
class FlowObserver {
 public:
  virtual ~FlowObserver() = default;
  virtual void on_flow_finished(const FlowRecord& record) = 0;
  // The flow's receiver has its last byte (FlowListener::flow_delivered);
  // before on_flow_finished, from transports that report it.
  virtual void on_flow_delivered(uint32_t flow_id, sim::Time at) {
    (void)flow_id;
    (void)at;
  }
};

class TrafficManager final : public FlowListener, public sim::EventHandler {
 public:
  // Hosts are ordinals 0..num_hosts-1; `recorder` receives one FlowRecord per flow.
  TrafficManager(sim::Simulator& sim, Recorder& recorder, uint32_t num_hosts);

  // The transport that carries `proto` flows sent by host `host`.
  void set_endpoint(uint32_t host, Protocol proto, FlowEndpoint& endpoint);
  // Ideal FCT of flows planned without one; called once per finished flow.
  using IdealFctFn = std::function<sim::Duration(const FlowSpec&)>;
  void set_ideal_fct_fn(IdealFctFn fn) { ideal_fn_ = std::move(fn); }
  void add_observer(FlowObserver& o) { observers_.push_back(&o); }

  // Adds one flow; `after` holds ids of flows already added. Returns its id.
  // Throws TrafficError on a bad spec. An empty name becomes "f<id>".
  uint32_t add_flow(FlowSpec spec, std::vector<uint32_t> after = {},
                    sim::Duration gap = sim::Duration::zero(),
                    sim::Duration ideal = sim::Duration::zero());
  // Adds a generator batch (batch-relative `after`); returns the first id.
  uint32_t add_batch(const std::vector<FlowPlan>& batch);
  // Sets aside ids [first, first + n) for flows added later with add_reserved
  // (a collective numbers its flows by position, not by the order they
  // become ready, so every process of a partitioned run gives a flow the
  // same id). Returns first. Ids not yet added are not flows: not counted,
  // not reported.
  uint32_t reserve_ids(uint64_t n);
  // Adds a flow with no dependencies under a reserved id not used before.
  // It starts through an event of its source host's stream (set_host_stream),
  // not the manager's start queue: what the host does decides when its flow
  // starts, and a partitioned run starts it where the host is simulated.
  void add_reserved(uint32_t id, FlowSpec spec, sim::Duration ideal = sim::Duration::zero());
  // The stream of host `host`'s node (add_reserved flows start as it).
  void set_host_stream(uint32_t host, sim::StreamId stream);
  // The ideal FCT a flow planned without one gets (the ideal-FCT function).
  sim::Duration ideal_of(const FlowSpec& spec) const {
    return ideal_fn_ ? ideal_fn_(spec) : sim::Duration::zero();
  }

  // End of run: hands the recorder a record of every flow that did not
  // finish (running: bytes acknowledged so far from its transport; waiting:
  // never started), finish = now. Call once.
  void report_unfinished();
  uint64_t flows_running() const { return started_ - finished_; }

  // FlowListener: the transport saw the last byte acknowledged.
  void flow_finished(uint32_t flow_id, sim::Time finish, int64_t retransmitted_bytes) override;
  void flow_cnps(uint32_t flow_id, int64_t cnps) override;
  void flow_delivered(uint32_t flow_id, sim::Time at) override;
  void handle_event(uint64_t tag) override;
  const char* event_kind(uint64_t) const override { return "traffic: flow start"; }

  // Flows added (reserved ids not yet added do not count).
  uint32_t num_flows() const { return planned_; }
  // Ids handed out so far, added or reserved: every id is below it.
  uint32_t id_limit() const { return next_id_; }
  bool is_planned(uint32_t id) const {
    return id < state_.size() && state_[id].phase != Phase::kUnplanned;
  }
  uint64_t flows_started() const { return started_; }
  uint64_t flows_finished() const { return finished_; }
  bool all_done() const { return finished_ == planned_; }
  const FlowSpec& spec(uint32_t id) const { return flows_[id]; }
  bool is_finished(uint32_t id) const { return state_[id].phase == Phase::kDone; }
  sim::Time started_at(uint32_t id) const { return state_[id].started; }
  sim::Time finished_at(uint32_t id) const { return state_[id].finished; }

 private:
  enum class Phase : uint8_t { kUnplanned, kWaiting, kQueued, kRunning, kDone };
  // Starts add_reserved flows (tag: the flow id) as its host's stream.
  struct HostStarter final : sim::EventHandler {
    TrafficManager* tm = nullptr;
    void handle_event(uint64_t tag) override { tm->start(static_cast<uint32_t>(tag)); }
    const char* event_kind(uint64_t) const override { return "traffic: collective flow start"; }
  };
  struct FlowState {
    sim::Time ready;  // latest finish among dependencies so far
    sim::Time started;
    sim::Time finished;
    sim::Duration gap;
    sim::Duration ideal;
    int64_t cnps = -1;     // CNPs its sender received (flow_cnps; -1 not counted)
    uint32_t waiting = 0;  // dependencies not yet finished
    Phase phase = Phase::kUnplanned;
  };
  using QueueEntry = std::pair<int64_t, uint32_t>;  // (start ps, flow id)

  void validate(uint32_t id, const FlowSpec& spec, const std::vector<uint32_t>& after) const;
  // Stores a validated flow under `id` (growing the tables up to it).
  void store(uint32_t id, FlowSpec spec, FlowState st);
  void enqueue(uint32_t id, sim::Time at);
  void start(uint32_t id);
  FlowRecord make_record(uint32_t id, int64_t retransmitted_bytes) const;
  void release_dependents(uint32_t id);
  void arm();

  sim::Simulator& sim_;
  Recorder& recorder_;
  uint32_t num_hosts_;
  std::vector<FlowEndpoint*> endpoints_;           // [host * kMaxProtocols + protocol]
  std::vector<FlowSpec> flows_;                    // indexed by id
  std::vector<FlowState> state_;                   // indexed by id
  std::vector<std::vector<uint32_t>> dependents_;  // flows waiting on each flow
  std::vector<QueueEntry> ready_;                  // min-heap (std::greater)
  std::vector<HostStarter> starters_;              // by host
  sim::Timer start_timer_;
  IdealFctFn ideal_fn_;
  std::vector<FlowObserver*> observers_;
  uint32_t next_id_ = 0;
  uint32_t planned_ = 0;
  uint64_t started_ = 0;
  uint64_t finished_ = 0;
};

}  // namespace xoff::models
