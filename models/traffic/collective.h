#pragma once
// Collectives as flows with dependencies, as NCCL runs them over a fabric.
//
// Operations (S = the per-rank buffer, N ranks, B the host link rate):
// - allreduce, ring (reduce-scatter then all-gather; Patarasuk & Yuan 2009,
//   as in NCCL): 2(N-1) steps; in step k every rank r sends one chunk to rank
//   r+1 mod N. Chunk c has S/N bytes (the first S mod N chunks one byte more);
//   reduce-scatter step k sends chunk (r - k) mod N, all-gather step j sends
//   chunk (r + 1 - j) mod N.
// - allreduce, halving_doubling (Rabenseifner 2004; Thakur et al. 2005), N a
//   power of two: log2 N reduce-scatter steps by recursive halving (rank r
//   exchanges with r XOR N/2, then r XOR N/4, ...: sizes S/2, ..., S/N), then
//   log2 N all-gather steps by recursive doubling (sizes S/N, ..., S/2).
// - allreduce, hierarchical (NCCL's intra-node then inter-node pattern; the
//   "2D" / hierarchical ring of Horovod and BlueConnect): ranks form servers
//   of `local_size` consecutive ranks. Phase 0: a ring reduce-scatter of S
//   inside every server (over the local class, e.g. NVLink); phase 1: a ring
//   allreduce of the S/local_size chunk among the ranks with the same local
//   index (one ring per rail, all rings at once); phase 2: a ring all-gather
//   of S inside every server. A phase starts when the previous one finished
//   everywhere; that barrier is exact here, since every rail ring needs one
//   rank of every server and every server needs every rail ring.
// - reduce_scatter / all_gather, ring: the first / last N-1 steps of the ring
//   allreduce (S is the whole buffer; each rank ends with / starts from S/N).
// - all_to_all, direct (MoE dispatch; NCCL posts all sends of a group at
//   once): every rank sends chunk d of S (S/N bytes) to every other rank d,
//   all N(N-1) flows starting together. "Step" k is the shift by k + 1:
//   rank r's step-k flow goes to r + k + 1 mod N.
//
// Channels: NCCL splits a collective over C channels, each its own ring (or
// tree) with its own QPs, on S/C bytes. So does xoff: `channels` independent
// copies of the schedule on chunks of S (the first S mod C one byte larger);
// different QPs hash to different ECMP paths.
//
// Dependencies (ring, halving-doubling, reduce-scatter, all-gather): flow
// (rank r, step k) of a channel starts when rank r's step k-1 flow of that
// channel has finished AND the step k-1 flow *into* r has been delivered
// (its data is needed). A flow finishes when its sender has every byte
// acknowledged; it is delivered when its receiver has its last byte in order
// (FlowObserver::on_flow_delivered, as a RoCE responder sees the last PSN
// before it acknowledges it: NCCL's receiver proceeds on the data, not on the
// sender's completion). Transports that do not report delivery (TCP, NVLink)
// count a flow delivered when it finishes. So every dependency of a flow is
// known at its own sender's host, at that host's time: nothing waits on news
// from another host, and a partitioned run can release steps where they run.
// The tree is alike: a chunk sent up or down counts at its receiver when
// delivered, and the sender's connection is free when it finished.
//
// The engine generates flows lazily: the flow (r, k) is added to the
// TrafficManager only when both of its dependencies have finished, with its
// start at that moment. Its id is fixed by its place, not by when it became
// ready: the collective reserves one id per flow of all its iterations when
// added, and flow (iteration, part, channel, step, rank) takes the id at its
// place: parts in plan order; within one, channel-major, then step-major,
// then rank, as collective_flows() numbers them; a tree part lane by lane
// (lane = channel x N + rank), each lane's flows up, then to child 0, then
// to child 1, chunk by chunk.
// A 4,096-rank ring is 33.5 M flows; planned up front they cost ~11 GB before
// the first event, generated this way the engine holds O(N x steps) bits plus
// the flows that ran so far. collective_flows() still plans the whole DAG of a
// one-phase collective (tests, `xoff check` counts).
//
// Partitioned runs (set_local_hosts): the engine launches only flows whose
// sender is simulated here, takes the launch notices of the others' flows
// into this part's receivers (take_launches / import_launch: a flow's
// notice must arrive before its first packet), and keeps its record's sums
// of the flows that finished here; the parts' sums combine into the record
// (export_partials / finish_from_partials). Only one-phase collectives of
// one iteration (no hierarchical algorithm, no workload) can be split: a
// phase begins when every rank has finished the one before, everywhere.
//
// Results (CollectiveRecord): finish = latest flow finish; step k time =
// (latest finish in step k) - (latest finish of the steps before, or the
// start), so the step times sum to the completion time (a hierarchical
// collective lists its phases' steps one after the other); ideal = the
// bandwidth bound of the operation and algorithm (collective_ideal()).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/monitor/recorder.h"
#include "models/traffic/flow_plan.h"
#include "models/traffic/traffic_manager.h"
#include "sim/flat_map.h"

namespace xoff::models {

enum class CollectiveOp : uint8_t { kAllReduce, kReduceScatter, kAllGather, kAllToAll };
enum class CollectiveAlgorithm : uint8_t { kRing, kHalvingDoubling, kHierarchical, kDirect, kTree };
// "allreduce" | "reduce_scatter" | "all_gather" | "all_to_all"
const char* op_name(CollectiveOp op);
// "ring" | "halving_doubling" | "hierarchical" | "direct" | "tree"
const char* algorithm_name(CollectiveAlgorithm a);

// NCCL's double binary tree (its ncclGetBtree / ncclGetDtree): tree 0 is a
// binary tree over ranks 0..n-1 numbered in order (rank 0 the root with one
// child, then by the lowest set bit); tree 1 mirrors it (rank n-1-r) for even
// n and shifts it by one for odd n, so a rank that is interior in one tree is
// a leaf in the other. -1: none.
struct TreeLinks {
  int32_t parent = -1;
  int32_t child[2] = {-1, -1};
};
TreeLinks binary_tree(uint32_t n, uint32_t rank);
TreeLinks double_tree(uint32_t n, uint32_t rank, uint32_t tree);

// One line of a training job's communication (a workload): `compute` of
// computation, then the collective `op` of `size` bytes over `group`: all
// ranks of the job (one collective), each server's ranks (one collective per
// server, over the intra-server class), or each rail (the ranks with the same
// local index, one collective per rail). A pure compute line has size 0.
enum class WorkloadGroup : uint8_t { kAll, kServer, kRail };
struct WorkloadStep {
  sim::Duration compute;
  CollectiveOp op = CollectiveOp::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  sim::Bytes size;  // 0: compute only
  WorkloadGroup group = WorkloadGroup::kAll;
};
const char* group_name(WorkloadGroup g);  // "all" | "server" | "rail"

struct CollectiveSpec {
  std::string name = "allreduce";
  CollectiveOp op = CollectiveOp::kAllReduce;
  // ring, halving_doubling, hierarchical or tree for allreduce, ring for
  // reduce_scatter and all_gather, direct for all_to_all.
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  // Chunking (0: unset). Tree: each channel's bytes (S/C) move in pipelined
  // chunks of at most this many bytes, 512 KB when unset (NCCL moves 512 KB
  // per step of its buffer); channel c runs on tree c mod 2 of the double
  // binary tree. Ring, reduce-scatter, all-gather: each step's S/(C N) moves
  // in slices of at most this, and a rank forwards slice j of step k as soon
  // as slice j of step k - 1 arrived (NCCL's slices through its FIFO);
  // unset: a step is one flow. Not for halving-doubling or hierarchical.
  sim::Bytes chunk_size{0};
  std::vector<uint32_t> ranks;  // rank i runs on host ranks[i]; distinct, N >= 2
  sim::Bytes size;              // S: bytes reduced (per rank buffer), >= N
  sim::Time start;
  sim::BitsPerSecond link_rate;  // B: host link rate, for the ideal bound
  FlowClass cls;                 // RoCE, class 0 unless set
  uint32_t channels = 1;         // independent rings (QPs per peer), 1..64
  // Servers: ranks per server (>= 2, divides N, N / local_size >= 2), the
  // class of the intra-server path (e.g. Protocol::kNvlink) and its per-rank
  // rate for the ideal bound. Hierarchical steps and server/rail groups need
  // it; with it, an all-to-all sends to the peers in its own server over
  // that class (as NCCL does over NVLink). 0: one GPU per server.
  uint32_t local_size = 0;
  FlowClass local_cls;
  sim::BitsPerSecond local_rate;
  // A workload instead of one collective (op, algorithm and size unused):
  // the steps run one after the other, each starting when the previous one
  // finished everywhere, the whole list once per iteration. Groups other than
  // kAll, and hierarchical steps, need local_size. Compute after the last
  // collective joins `compute` before the next iteration.
  std::vector<WorkloadStep> workload;
  // A training loop: `iterations` times, `compute` of computation and then the
  // AllReduce; each iteration starts when the previous AllReduce finished (the
  // first at `start`). One CollectiveRecord per iteration.
  uint32_t iterations = 1;
  sim::Duration compute;
};

// Steps of one channel, all phases: 2(N-1) for a ring allreduce, 2 log2 N for
// halving-doubling, N-1 for reduce-scatter, all-gather and all-to-all,
// 2(L-1) + 2(N/L-1) for hierarchical with L ranks per server.
uint32_t collective_steps(const CollectiveSpec& spec);
// Flows of one iteration: steps x N x channels; a tree allreduce 2 (N-1) x
// chunks x channels (every rank but the root sends each chunk up, every
// rank but the root receives it back down). A tree's steps are its chunks.
uint64_t collective_flow_count(const CollectiveSpec& spec);
// The flows of a one-phase collective, channel-major then step-major: flow
// (channel c, rank r, step k) is batch index (c * steps + k) * N + r, named
// "<name>/s<k>/r<r>" ("<name>/c<c>/s<k>/r<r>" with channels > 1). Throws
// TrafficError on an impossible spec or a hierarchical one.
std::vector<FlowPlan> collective_flows(const CollectiveSpec& spec);
// Throws TrafficError (naming the collective) on an impossible spec.
void validate_collective(const CollectiveSpec& spec);
// The bandwidth bound, rounded up to the picosecond: allreduce 2(N-1)/N * S/B
// (ring and halving-doubling alike); tree: the most bytes one rank sends
// (its channels' chunks up to its parent and down to each child) over B,
// 2 S/B with an even number of channels, 3 S/B with one; reduce-scatter, all-gather and
// all-to-all (N-1)/N * S/B; hierarchical 2(L-1)/L * S/B_local (both
// intra-server phases) + 2(M-1)/M * (S/L)/B over M = N/L servers.
sim::Duration collective_ideal(const CollectiveSpec& spec);

// Adds collectives to a TrafficManager and reports each one's CollectiveRecord
// to the Recorder when its last flow finishes.
// The chain of flows that decided a collective's finish: each flow started
// when the later of its two dependencies finished. Its FCTs and the gaps
// between them add up to the time from the collective's start to `finish`.
// A flow on it ends where the next one depends on it: its finish (the same
// sender's next flow) or its delivery (the receiver's next flow).
struct CriticalPath {
  sim::Duration bandwidth;   // each flow's bytes at the collective's link rate
  sim::Duration overhead;    // its unloaded FCT beyond that (headers, latency)
  sim::Duration congestion;  // its FCT beyond the unloaded one
  sim::Duration wait;        // from the dependency's finish to the flow's start
  uint32_t flows = 0;
  sim::Time finish;
};

// What a partitioned run tells the part simulating a flow's receiver when
// the flow is launched elsewhere (plain data: it crosses processes as bytes).
struct CollectiveLaunch {
  uint32_t flow = 0;
  uint32_t part = 0;
  uint32_t lane = 0;
  uint32_t step = 0;
  uint32_t src = 0;  // hosts
  uint32_t dst = 0;
  uint8_t kind = 0;
  uint8_t local = 0;
  int64_t bytes = 0;
  int64_t start_ps = 0;
  int64_t ideal_ps = 0;
  int64_t base[6] = {};  // CriticalPath: bandwidth, overhead, congestion, wait (ps), flows, finish
};

namespace collective_detail {
// The per-group schedules a collective is made of (collective.cc).
enum class Schedule : uint8_t {
  kRing,
  kHalvingDoubling,
  kReduceScatter,
  kAllGather,
  kAllToAll,
  kTree
};
}  // namespace collective_detail

class CollectiveEngine final : public FlowObserver {
 public:
  // Registers itself as an observer of `tm`; both must outlive the run.
  CollectiveEngine(TrafficManager& tm, Recorder& recorder);

  // Plans the collective's first flows into the manager; returns its index.
  uint32_t add(const CollectiveSpec& spec);

  uint32_t num_collectives() const { return static_cast<uint32_t>(jobs_.size()); }
  // Flows of collective c in all (steps x ranks x channels x iterations),
  // whether generated yet or not.
  uint64_t planned_flows(uint32_t c) const { return jobs_[c].total * jobs_[c].spec.iterations; }
  // All collectives' planned_flows, and of them those handed to the manager.
  uint64_t planned_flows() const;
  uint64_t generated_flows() const;
  // Flows of all collectives not yet handed to the TrafficManager.
  uint64_t ungenerated_flows() const;
  uint32_t num_finished() const { return finished_; }
  bool all_done() const { return finished_ == jobs_.size(); }
  bool is_finished(uint32_t c) const { return jobs_[c].done; }
  // Complete once is_finished(c).
  const CollectiveRecord& record(uint32_t c) const { return jobs_[c].record; }
  // Id of the collective's first flow (phase 0, channel 0, rank 0, step 0).
  uint32_t first_flow(uint32_t c) const { return jobs_[c].first_flow; }

  void on_flow_finished(const FlowRecord& r) override;
  void on_flow_delivered(uint32_t flow_id, sim::Time at) override;

  // Partitioned runs. Before the first add(): the hosts simulated here
  // (by host ordinal); the engine then launches only their flows.
  void set_local_hosts(std::vector<bool> local);
  // Why the collective cannot be split, or "" (several phases or iterations).
  static std::string why_not_partitionable(const CollectiveSpec& spec);
  // Launches since the last call of flows whose receiver is not simulated here.
  std::vector<CollectiveLaunch> take_launches();
  // Another part's launch; kept if its receiver is simulated here.
  void import_launch(const CollectiveLaunch& l);
  // This part's sums of every collective's record (plain numbers).
  std::vector<int64_t> export_partials() const;
  // Combines every part's export_partials and reports each collective all of
  // whose flows finished (call on one part, once, at the end).
  void finish_from_partials(const std::vector<std::vector<int64_t>>& parts);

 private:
  // One schedule over one group of ranks: a ring, a halving-doubling
  // exchange, a ring reduce-scatter or all-gather, a direct all-to-all. A
  // flat collective is one part; a hierarchical one has a part per server
  // (phases 0 and 2) and per rail (phase 1).
  using Schedule = collective_detail::Schedule;
  struct Part {
    Schedule schedule = Schedule::kRing;
    uint32_t job = 0;
    uint32_t phase = 0;
    uint32_t step_offset = 0;       // its step 0 in the job's step list
    std::vector<uint32_t> members;  // part rank -> collective rank
    int64_t size = 0;               // bytes the schedule works on (all channels)
    FlowClass cls;
    uint32_t n = 0;                    // ranks
    uint32_t steps = 0;                // per channel: schedule steps x slices (flow index i:
                                       // step i / slices, slice i % slices)
    uint32_t slices = 1;               // ring-type with chunk_size: slices per step
    uint64_t flows = 0;                // per iteration: steps x lanes, or a tree's (tree_flows)
    uint64_t id_offset = 0;            // its first flow's place in the job's iteration
    std::vector<uint64_t> lane_first;  // tree: each lane's first flow in the part
    uint32_t channels = 1;
    uint64_t remaining = 0;  // flows not yet finished this iteration
    // Per lane (channel * n + rank): flows launched and still in flight;
    // [lane * steps + k]: the flow k into the lane finished.
    std::vector<uint32_t> launched, inflight;
    std::vector<bool> received;
    sim::BitsPerSecond rate;  // per-rank rate of the path / channels: the bandwidth term
    // Critical path: per lane, that of its latest finished send; per
    // (lane, step) received and not yet consumed by the lane's next launch,
    // that of the incoming flow.
    std::vector<CriticalPath> own;
    std::unordered_map<uint64_t, CriticalPath> incoming;
    // Tree: chunks per channel; per lane the next chunk to send up and down
    // to each child, the chunks received from each child and from the
    // parent, and which of its three connections has a chunk in flight
    // (bit 0 up, bits 1 and 2 down). One chunk at a time per connection.
    uint32_t chunks = 0;
    std::vector<uint32_t> up_next, down_next[2], from_child[2], from_parent;
    std::vector<uint8_t> busy;
  };
  struct Job {
    CollectiveSpec spec;
    std::vector<std::vector<uint32_t>> phases;  // part ids per phase
    std::vector<sim::Duration> phase_delay;     // compute before each phase
    // A workload's lines with bytes: the record's segments, each spanning
    // phases [first_phase, end_phase).
    struct Segment {
      CollectiveSegment record;
      uint32_t first_phase = 0;
      uint32_t end_phase = 0;
    };
    std::vector<Segment> segments;
    std::vector<sim::Time> phase_start, phase_finish;  // this iteration
    sim::Duration trailing_compute;                    // a workload's compute after its last step
    uint32_t phase = 0;                                // the current one
    uint32_t parts_left = 0;                           // of the current phase
    uint32_t first_flow = 0;                           // the first reserved id
    uint32_t first_of_iteration = 0;
    uint64_t finished_flows = 0;  // this iteration, here
    uint32_t steps = 0;           // all phases, one channel
    uint64_t total = 0;           // flows per iteration
    uint64_t generated = 0;
    uint32_t iteration = 0;              // the current one, 0-based
    bool done = false;                   // every iteration finished
    std::vector<sim::Time> step_finish;  // latest finish per step so far
    // Per step: flows, the longest ideal and measured FCT, and the sum of FCTs.
    std::vector<uint32_t> step_flows;
    std::vector<sim::Duration> step_unloaded, step_max_fct, step_sum_fct;
    CriticalPath last;       // of the flow that finished last (the highest id on a tie)
    uint32_t last_flow = 0;  // its id
    CollectiveRecord record;
  };
  // Which collective flow a running flow id is, and the critical path up to
  // the dependency that released it.
  struct FlowTag {
    uint32_t part = 0;
    uint32_t lane = 0;
    uint32_t step = 0;
    uint32_t src = 0;  // hosts
    uint32_t dst = 0;
    bool local = false;      // an all-to-all flow inside one server (local class)
    bool delivered = false;  // on_flow_delivered came
    uint8_t kind = 0;        // tree: 0 up to the parent, 1 + s down to child s
    int64_t bytes = 0;
    sim::Time start;
    sim::Duration ideal;  // its unloaded FCT
    CriticalPath base;
  };
  // The path through flow `tag` from `start` up to `at` (its finish or its
  // delivery), of `bytes`, with the unloaded FCT `ideal`.
  CriticalPath extend(const FlowTag& tag, int64_t bytes, sim::Time start, sim::Duration ideal,
                      sim::Time at) const;
  // The receiver's side of a delivered (or finished, when delivery is not
  // reported) flow: its data is there. Returns the receiving lane.
  uint32_t receive(const FlowTag& tag, const CriticalPath& path);
  bool local(uint32_t host) const { return local_.empty() || local_[host]; }
  // Id of flow `step` (tree: chunk of connection `kind`) of a lane.
  uint32_t flow_id(const Part& p, uint32_t lane, uint32_t step, uint8_t kind) const;
  void plan_parts(uint32_t job);
  // Appends the phases of one collective step of the job's spec.
  void plan_step(uint32_t job, const WorkloadStep& step);
  uint32_t launch(uint32_t part, uint32_t lane, uint32_t step, sim::Time start,
                  const CriticalPath& base);
  // Hands a collective flow to the manager under the id of its place and
  // remembers what it is (and, partitioned, tells the receiver's part).
  uint32_t register_flow(FlowSpec f, uint32_t part, uint32_t lane, uint32_t step, uint8_t kind,
                         bool local_class, const CriticalPath& base);
  // Tree: launches what the lane may send now (up, down to each child).
  void tree_advance(uint32_t part, uint32_t lane, sim::Time now, const CriticalPath& base);
  // Starts the lane's next step if both of its dependencies have finished.
  void advance(uint32_t part, uint32_t lane, sim::Time now);
  void begin_part(uint32_t part, const CriticalPath& origin, sim::Time start);
  void begin_phase(uint32_t job, const CriticalPath& origin);
  void part_done(uint32_t part);
  void complete(uint32_t job);
  // Resets the per-iteration state and launches phase 0 at `start`.
  void begin_iteration(uint32_t job, sim::Time start);

  TrafficManager& tm_;
  Recorder& recorder_;
  std::vector<Job> jobs_;
  std::vector<Part> parts_;
  sim::FlatMap<FlowTag> running_;  // flow id -> collective flow, while it runs
  uint32_t finished_ = 0;
  std::vector<bool> local_;  // partitioned: hosts simulated here (empty: all)
  std::vector<CollectiveLaunch> launches_;
};

}  // namespace xoff::models
